# RERUN: /usr/bin/python3 part1.py [--quick] [--out DIR]   (writes DIR/part1.json, DIR/part1.out)
# Part 1: no dropout, T=1, m=1. Exact hockey stick via the quadratic privacy loss (closed form in Phi).
import sys, json, itertools, os
from ref import *
from cli import corbin, num, options
args=options('part1','Part 1: no dropout, T=1 (eps(delta), --at-eps, monotonicity sweep in x1).')
mp.mp.dps=30
NS=[2,3,5,8,20]; EPS=['0.5','1','3']; CS=['0','0.5','-2']; DELTAS=['1e-2','1e-5','1e-9']; r=mp.mpf(1); NG=80
if args.quick:  # same code paths; the --at-eps checks need the deltas 1e-2 and 1e-5
    NS=[2,5]; EPS=['1']; CS=['0','-2']; DELTAS=['1e-2','1e-5']; NG=20
rows=[]; viol=[]; nonmono=[]
for n,ep,cs in itertools.product(NS,EPS,CS):
    c=mp.mpf(cs); sig=sigma_analytic(mp.mpf(ep),mp.mpf('1e-5'),2*r)
    xs_ext=[c-r,c+r]; xstar=c+r if abs(c+r)>=abs(c-r) else c-r
    grid=[c-r+2*r*i/NG for i in range(NG+1)]
    # monotonicity sweep at many eps, both orders: is any interior/other x worse than xstar?
    for e in ['0','1e-4','1e-3','0.01','0.05','0.1','0.2','0.5','1','2','4','8']:
        e=mp.mpf(e)
        for o in ['fwd','rev']:
            hs=H1(xstar,n-1,sig,e,o)
            for x in grid:
                hx=H1(x,n-1,sig,e,o)
                if hx>hs*(1+mp.mpf('1e-20'))+mp.mpf('1e-35'):
                    nonmono.append((n,ep,cs,float(e),o,float(x),float(hx),float(hs)))
    truths={}
    for ds in DELTAS:
        d=mp.mpf(ds)
        per={}
        for o in ['fwd','rev']:
            per[o]=eps_of_delta(lambda e: H1(xstar,n-1,sig,e,o),d,hi=mp.mpf(20),iters=100)
        tr=max(per.values()); worst_o=max(per,key=per.get)
        # grid search over x1 at eps=tr: any x with H>delta means larger eps
        gx=[]
        for x in grid:
            for o in ['fwd','rev']:
                if H1(x,n-1,sig,tr,o)>d*(1+mp.mpf('1e-20')):
                    gx.append((float(x),o))
        # also which x maximises eps on the grid (coarse check): argmax H at tr
        best=max(((H1(x,n-1,sig,tr,o),float(x),o) for x in grid for o in ['fwd','rev']),key=lambda t:t[0])
        truths[ds]=tr
        out=corbin(['--eps',ep,'--n',n,'--center',cs,'--radius',1,'--delta',ds])
        lo,up=num(out.get('eps_lower')),num(out.get('eps_upper'))
        row=dict(kind='eps',n=n,eps_p=ep,c=cs,delta=ds,sigma=float(sig),truth=mp.nstr(tr,15),worst_order=worst_o,
                 eps_fwd=mp.nstr(per['fwd'],12),eps_rev=mp.nstr(per['rev'],12),
                 argmax_x=best[1],argmax_order=best[2],grid_beats_extreme=gx,
                 lower=str(out.get('eps_lower')),upper=str(out.get('eps_upper')),
                 attained=json.dumps(out.get('worst_case',{}).get('lower_bound_attained_by')),cmd=out['_cmd'],err=out.get('_error'))
        if lo is not None and up is not None:
            row['up_over_truth']=float(up/tr) if tr>0 else None
            row['lo_over_truth']=float(lo/tr) if tr>0 else None
            row['rel_width']=float((up-lo)/tr) if tr>0 else None
            if up<tr*(1-mp.mpf('1e-13')) or lo>tr*(1+mp.mpf('1e-13')): viol.append(row)
        else: viol.append(row)
        rows.append(row); print(json.dumps(row),flush=True)
    # at-eps checks at two eps values
    for E in [truths['1e-2'],truths['1e-5']]:
        Es=mp.nstr(E,6); Em=mp.mpf(Es)
        dt=max(H1(xstar,n-1,sig,Em,o) for o in ['fwd','rev'])
        dg=max(H1(x,n-1,sig,Em,o) for x in grid for o in ['fwd','rev'])
        out=corbin(['--eps',ep,'--n',n,'--center',cs,'--radius',1,'--at-eps',Es])
        lo,up=num(out.get('delta_lower')),num(out.get('delta_upper'))
        row=dict(kind='delta',n=n,eps_p=ep,c=cs,at_eps=Es,truth=mp.nstr(dt,15),grid_max=mp.nstr(dg,15),
                 lower=str(out.get('delta_lower')),upper=str(out.get('delta_upper')),cmd=out['_cmd'],err=out.get('_error'))
        if lo is not None and up is not None:
            row['up_over_truth']=float(up/dt); row['lo_over_truth']=float(lo/dt)
            if up<dt*(1-mp.mpf('1e-13')) or lo>dt*(1+mp.mpf('1e-13')): viol.append(row)
        else: viol.append(row)
        rows.append(row); print(json.dumps(row),flush=True)
json.dump(dict(rows=rows,violations=viol,nonmonotone=nonmono),open(os.path.join(args.out,'part1.json'),'w'),indent=1)
print('VIOLATIONS',len(viol)); print('NONMONOTONE',len(nonmono), nonmono[:20])
sys.exit(1 if viol else 0)
