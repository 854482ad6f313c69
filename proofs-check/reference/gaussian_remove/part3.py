# RERUN: /usr/bin/python3 part3.py [EPS_P_LIST] [--quick] [--out DIR]   (EPS_P_LIST comma-separated, default 1;
#        writes DIR/part3_<list>.json, DIR/part3_<list>.out)
# Part 3: dropout, m=1, T=1. Truth (B) = labelled mixture (mpmath closed form per label); truth (B')
# = the others' survival told, client 1's own coin not (float64, dropout.told_eps): B' <= B, B' >= A (the
# upper end, met with the count told, may lie below B': reported, not a violation);
# truth (A) = as-run sum alone, computed (float64, exact CDF integration between crossings) at the CLI's
# named configuration and over a search of configurations.
import sys, json, itertools, re, math, os
from ref import *
from dropout import Pair, told_eps
from cli import corbin, num, options
args=options(lambda a: 'part3_%s'%'_'.join(a.eps_p.split(',')),'Part 3: dropout, m=1, T=1 (truth B: labelled mixture; truth A: the sum alone as run).',
             extra=lambda ap: ap.add_argument('eps_p',nargs='?',default='1',help='comma-separated eps_p values (default 1)'))
EPSP=args.eps_p.split(',')
mp.mp.dps=30
PS=['0.1','0.5']; NS=[2,3,4,6]; CS=['0','0.5']; DELTAS=['1e-1','1e-2','1e-3']; r=1.0
if args.quick:
    PS=['0.1','0.5']; NS=[2,3]; CS=['0']; DELTAS=['1e-1','1e-2']

def parse_pos(s,c):
    s=s.strip()
    m=re.fullmatch(r'c(?:\s*([+-])\s*(?:([0-9./]+)\s*)?r)?',s)
    if m:
        if m.group(1) is None: return c
        f=float(mp.mpf(m.group(2).split('/')[0])/mp.mpf(m.group(2).split('/')[1])) if m.group(2) and '/' in m.group(2) else float(m.group(2) or 1)
        return c+(1 if m.group(1)=='+' else -1)*f*r
    try: return float(s)
    except: return None

def parse_named(att,c,n):
    a=att[0]; x1=parse_pos(a['client_1'].replace('client 1 at',''),c)
    o=a.get('other_ldpq','')
    m=re.search(r'clients? at (.*)$',o)
    oth=parse_pos(m.group(1),c) if m else None
    order='rev' if 'reversed' in a.get('order','') else 'fwd'
    return x1,oth,order

def truthB(x1,n,sig,p,eps,order):
    p=mp.mpf(p); tot=mp.mpf(0)
    for k in range(n):
        w=(1-p)*mp.binomial(n-1,k)*(1-p)**k*p**(n-1-k)
        tot+=w*H1(x1,k,sig,eps,order)
    return tot

rows=[]; viol=[]
for ep,ps,n,cs in itertools.product(EPSP,PS,NS,CS):
    c=float(cs); p=float(ps); sig=sigma_analytic(mp.mpf(ep),mp.mpf('1e-5'),2); sigf=float(sig)
    xstar=c+r if abs(c+r)>=abs(c-r) else c-r
    # configurations for the as-run search
    grid=[c-r+2*r*i/8 for i in range(9)]
    commons=sorted(set(grid+[c]+([0.0] if c-r<=0<=c+r else [])))
    m=n-1; others_list=[('common',a,[a]*m) for a in commons]
    if m>=2:
        h=m//2
        others_list+= [('split',None,[c-r]*h+[c+r]*(m-h)),('split',None,[c-r]*(m-h)+[c+r]*h),
                       ('split',None,[c-r]+[c+r]*(m-1)),('split',None,[c+r]+[c-r]*(m-1))]
    x1s=grid
    pairs={}
    for x1 in x1s:
        for kind,a,oth in others_list:
            pairs[(x1,tuple(oth))]=Pair(x1,oth,sigf,p)
    for ds in DELTAS:
        d=float(ds)
        # truth (B)
        atom=(1-p)*p**(n-1)
        perB={}
        for o in ['fwd','rev']:
            perB[o]=eps_of_delta(lambda e: truthB(xstar,n,sig,ps,e,o),mp.mpf(ds),hi=mp.mpf(20),iters=80)
        tB=max(perB.values())
        # B': the others' survival told (the one-coordinate upper end's model)
        tBp=max(told_eps(xstar,n,sigf,p,d,o) for o in ['fwd','rev'])
        # other extreme for B too
        xo=c-r if xstar==c+r else c+r
        tB_other=max(eps_of_delta(lambda e: truthB(xo,n,sig,ps,e,o),mp.mpf(ds),hi=mp.mpf(20),iters=60) for o in ['fwd','rev'])
        # as-run search
        best=(-1,None)
        for (x1,oth),pr in pairs.items():
            for o in ['fwd','rev']:
                e=pr.eps(d,o)
                if e>best[0]: best=(e,(x1,oth,o))
        out=corbin(['--eps',ep,'--n',n,'--center',cs,'--dropout',ps,'--delta',ds])
        lo,up=num(out.get('eps_lower')),num(out.get('eps_upper'))
        att=out.get('worst_case',{}).get('lower_bound_attained_by')
        row=dict(eps_p=ep,p=ps,n=n,c=cs,delta=ds,atom=atom,truthB=(mp.nstr(tB,12) if tB!=mp.inf else 'inf'),
                 truthB_fwd=mp.nstr(perB['fwd'],10),truthB_rev=mp.nstr(perB['rev'],10),truthB_other_extreme=mp.nstr(tB_other,10),truthBp=tBp,
                 lower=str(out.get('eps_lower')),upper=str(out.get('eps_upper')),best_asrun=best[0],best_cfg=[best[1][0],list(best[1][1]),best[1][2]],
                 named=json.dumps(att),cmd=out['_cmd'],err=out.get('_error'),stderr=out.get('_stderr'))
        try:
            x1n,othn,ordn=parse_named(att,c,n)
            prn=Pair(x1n,[othn]*(n-1),sigf,p)
            eA={o:prn.eps(d,o) for o in ['fwd','rev']}
            row.update(named_x1=x1n,named_others=othn,named_order=ordn,truthA_named_fwd=eA['fwd'],truthA_named_rev=eA['rev'],truthA_named=max(eA.values()))
        except Exception as ex:
            row['parse_error']=repr(ex); eA=None
        v=[]
        if up is None or lo is None: v.append('no output')
        else:
            # B' is a model, not the truth: the upper end is its pair met with a second model's (the
            # number of survivors told), so it may lie below B' (up_over_truthBp, reported); the
            # truth it must bound is A, the as-run value (below).
            if up < mp.mpf(best[0])*(1-mp.mpf('1e-9')): v.append('upper<best as-run')
            if eA is not None:
                if lo>mp.mpf(eA[ordn])*(1+mp.mpf('1e-9')): v.append('lower>truthA(named cfg, named order)')
                if lo>mp.mpf(max(eA.values()))*(1+mp.mpf('1e-9')): v.append('lower>truthA(named cfg, both orders)')
            if lo>mp.mpf(best[0])*(1+mp.mpf('1e-9')): v.append('lower>best as-run found (maybe search too small)')
            if tB!=mp.inf and up!=mp.inf and tB>0: row["up_over_truthB"]=float(up/tB)
            if tBp!=math.inf and up!=mp.inf and tBp>0: row["up_over_truthBp"]=float(up/mp.mpf(tBp))
            if best[0]>0: row['lo_over_bestA']=float(lo/best[0])
            if eA is not None and eA[ordn]>0: row['lo_over_truthA_named']=float(lo/eA[ordn])
        row['violations']=v
        if v: viol.append(row)
        rows.append(row); print(json.dumps(row),flush=True)
json.dump(dict(rows=rows,violations=viol),open(os.path.join(args.out,'part3_%s.json'%'_'.join(EPSP)),'w'),indent=1)
print('VIOLATIONS',len(viol))
sys.exit(1 if viol else 0)
