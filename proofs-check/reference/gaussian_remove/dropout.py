"""As-run (sum alone), others-told and labelled truths for the gaussian room with dropout, remove-one.
Float64 with exact Gaussian-CDF integration between numerically located crossing points."""
import numpy as np, itertools, math
from scipy import special, optimize
from scipy.special import logsumexp, comb

def mixtures(x1, others, sig, p):
    """P (with client 1) and Q (without) as (weights, means, sds) of continuous parts + atom at 0."""
    others=list(others); m=len(others)
    # group subsets of others by (size, sum)
    acc={}
    for bits in itertools.product([0,1],repeat=m):
        k=sum(bits); s=round(sum(o for o,b in zip(others,bits) if b),12)
        w=(1-p)**k * p**(m-k)
        acc[(k,s)]=acc.get((k,s),0.0)+w
    Pc=[];Qc=[]
    for (k,s),w in acc.items():
        if k>0: Qc.append((w,s,math.sqrt(k)*sig))
        if k>0: Pc.append((w*p,s,math.sqrt(k)*sig))          # client 1 dropped
        Pc.append((w*(1-p),s+x1,math.sqrt(k+1)*sig))         # client 1 survived
    atomQ=p**m; atomP=p**(m+1)
    arr=lambda L: tuple(np.array(v) for v in zip(*L))
    return arr(Pc),arr(Qc),atomP,atomQ

def _logpdf(y,comp):
    w,mu,sd=comp
    y=np.atleast_1d(y)[:,None]
    return logsumexp(np.log(w)[None,:]-0.5*((y-mu[None,:])/sd[None,:])**2-np.log(sd[None,:]*math.sqrt(2*math.pi)),axis=1)

def _mass(comp,u,v):
    w,mu,sd=comp
    a=(u-mu)/sd; b=(v-mu)/sd
    # Phi(b)-Phi(a) computed stably
    return float(np.sum(w*np.where(a>0, special.ndtr(-a)-special.ndtr(-b), special.ndtr(b)-special.ndtr(a))))

def eps_of(H,delta,tol):
    """The least eps >= 0 with H(eps) <= delta, H decreasing: doubling to a bracket, then brentq
    (inf past 1e3)."""
    f=lambda e: H(e)-delta
    if f(0.0)<=0: return 0.0
    hi=1.0
    while f(hi)>0:
        hi*=2
        if hi>1e3: return math.inf
    return optimize.brentq(f,0.0,hi,xtol=tol,rtol=tol)

class Pair:
    def __init__(self,x1,others,sig,p,step_frac=1/40):
        self.P,self.Q,self.aP,self.aQ=mixtures(x1,others,sig,p)
        mus=np.concatenate([self.P[1],self.Q[1]]); sdmax=max(self.P[2].max(),self.Q[2].max())
        lo=mus.min()-45*sdmax; hi=mus.max()+45*sdmax
        self.grid=np.arange(lo,hi,sig*step_frac)
        self.lp=_logpdf(self.grid,self.P); self.lq=_logpdf(self.grid,self.Q)
    def H(self,eps,order):
        """sup_A P(A)-e^eps Q(A) (fwd) or Q(A)-e^eps P(A) (rev), atoms included."""
        if order=='fwd': A,B,la,lb,aA,aB=self.P,self.Q,self.lp,self.lq,self.aP,self.aQ
        else:            A,B,la,lb,aA,aB=self.Q,self.P,self.lq,self.lp,self.aQ,self.aP
        g=la-lb-eps
        f=lambda y: float(_logpdf(y,A)[0]-_logpdf(y,B)[0]-eps)
        pos=g>0
        idx=np.nonzero(pos[1:]!=pos[:-1])[0]
        roots=[optimize.brentq(f,self.grid[i],self.grid[i+1],xtol=1e-13,rtol=1e-15) for i in idx]
        edges=[-np.inf]+roots+[np.inf]
        # the grid ends are far in the tails: sign there is taken as sign at the grid ends
        tot=0.0
        for j in range(len(edges)-1):
            # sign on this piece
            if j==0: s=pos[0]
            else: s=pos[idx[j-1]+1]
            if s: tot+=_mass(A,edges[j],edges[j+1])-math.exp(eps)*_mass(B,edges[j],edges[j+1])
        tot+=max(0.0,aA-math.exp(eps)*aB)
        return tot
    def eps(self,delta,order):
        return eps_of(lambda e: self.H(e,order),delta,1e-13)


class ToldPair(Pair):
    """k other survivors told, client 1's own coin not (k >= 1): P = (1-p) N(x1, (k+1) sig^2) +
    p N(0, k sig^2) against Q = N(0, k sig^2) (the others' inputs a known shift)."""
    def __init__(self,x1,k,sig,p,step_frac=1/40):
        sk=math.sqrt(k)*sig; s1=math.sqrt(k+1)*sig
        self.P=(np.array([1-p,p]),np.array([x1,0.0]),np.array([s1,sk]))
        self.Q=(np.array([1.0]),np.array([0.0]),np.array([sk]))
        self.aP=self.aQ=0.0
        lo=min(x1,0.0)-45*s1; hi=max(x1,0.0)+45*s1
        self.grid=np.arange(lo,hi,sig*step_frac)
        self.lp=_logpdf(self.grid,self.P); self.lq=_logpdf(self.grid,self.Q)

def told_delta(x1,n,sig,p,eps,order):
    """delta(eps) told who of the others survived, not whether client 1 did: the mixture over k of
    the pairs above; k = 0: client 1's noisy input (1-p) or 0 (p) against 0 (fwd: (1-p) +
    (p - e^eps)_+, rev: (1 - e^eps p)_+)."""
    tot=0.0
    for k in range(n):
        b=comb(n-1,k)*(1-p)**k*p**(n-1-k)
        if k==0:
            tot+=b*((1-p)+max(0.0,p-math.exp(eps)) if order=='fwd' else max(0.0,1-math.exp(eps)*p))
        else:
            tot+=b*ToldPair(x1,k,sig,p).H(eps,order)
    return tot

def told_eps(x1,n,sig,p,delta,order):
    return eps_of(lambda e: told_delta(x1,n,sig,p,e,order),delta,1e-12)
