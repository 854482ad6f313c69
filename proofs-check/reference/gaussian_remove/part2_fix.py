# RERUN: /usr/bin/python3 part2_fix.py [--out DIR]   (writes DIR/part2_fix.out)
# full-mpmath recomputation of the one part-2 case whose float root failed the 1e-9 mpmath certification
from ref import *
from cli import options
args=options('part2_fix','Full-mpmath recomputation of the part-2 case T=3, n=2, eps_p=3, c=-2, delta=1e-9.',quick=False)
mp.mp.dps=40
sig=sigma_analytic(3,mp.mpf('1e-5'),2)
for o in ['fwd','rev']:
    e=eps_of_delta(lambda e: HT(-3,1,sig,e,o,3),mp.mpf('1e-9'),hi=mp.mpf(40),iters=60)
    print(o,mp.nstr(e,15), mp.nstr(HT(-3,1,sig,e*(1-mp.mpf('1e-12')),o,3),12), mp.nstr(HT(-3,1,sig,e*(1+mp.mpf('1e-12')),o,3),12))
