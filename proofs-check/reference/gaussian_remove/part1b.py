# RERUN: /usr/bin/python3 part1b.py [--out DIR]   (writes DIR/part1b.out)
# harder search for a counterexample to "H(x) is largest at the extreme farther from 0" (both orders, all e^eps)
# H depends on |x| only (y -> -y symmetry), so check monotonicity of H in |x| on [0, 3] densely.
from ref import *
from cli import options
args=options('part1b','Monotonicity of H(|x|) on [0, 3], dense, both orders (a check of the reference, no CLI).',quick=False)
mp.mp.dps=60
bad=[]; cnt=0
for ep in ['0.05','0.5','3','10','30']:
    sig=sigma_analytic(mp.mpf(ep),mp.mpf('1e-5'),2)
    for n in [2,3,20,1000]:
        for e in ['1e-6','0.01','0.3','1','3','10','30','60']:
            e=mp.mpf(e)
            for o in ['fwd','rev']:
                prev=None
                for i in range(121):
                    x=mp.mpf(3)*i/120
                    h=H1(x,n-1,sig,e,o); cnt+=1
                    if prev is not None and h < prev*(1-mp.mpf('1e-40')) - mp.mpf('1e-300'):
                        bad.append((ep,n,float(e),o,float(x),mp.nstr(h,10),mp.nstr(prev,10)))
                    prev=h
print('evaluations',cnt,'decreases found',len(bad)); print(bad[:20])
