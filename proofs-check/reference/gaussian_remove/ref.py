"""Independent brute-force reference for the 'gaussian' room under remove-one neighbours.
Written without reading the accountant's source. All in mpmath.

Conventions: sigma = per-client analytic-Gaussian sigma (Balle & Wang 2018).
Pair for a group of k+1 survivors incl. client 1 vs the same k others:
   P = N(x, (k+1) s^2)  (with client 1),   Q = N(0, k s^2)  (without).
H(order, eps) = sup_A P(A) - e^eps Q(A)   ('fwd')   or  Q(A) - e^eps P(A)  ('rev').
"""
import mpmath as mp
import numpy as _np
from scipy import stats as _stats

mp.mp.dps = 40


def sigma_analytic(eps_p, delta_cal, Delta):
    eps_p = mp.mpf(eps_p); delta_cal = mp.mpf(delta_cal); Delta = mp.mpf(Delta)

    def f(s):
        return mp.ncdf(Delta / (2 * s) - eps_p * s / Delta) - mp.exp(eps_p) * mp.ncdf(-Delta / (2 * s) - eps_p * s / Delta)
    lo, hi = mp.mpf('1e-6'), mp.mpf(1)
    while f(hi) > delta_cal:
        hi *= 2
    # f decreasing in s: f(lo) > delta_cal for tiny lo
    for _ in range(200):
        mid = mp.sqrt(lo * hi)
        if f(mid) > delta_cal:
            lo = mid
        else:
            hi = mid
    return hi


def _quad(x, s1sq, s0sq):
    """log p/q = a (y+h)^2 + C for p=N(x,s1sq), q=N(0,s0sq), s1sq > s0sq."""
    a = (1 / s0sq - 1 / s1sq) / 2
    b = x / s1sq
    h = b / (2 * a)
    C = -b * b / (4 * a) - x * x / (2 * s1sq) + mp.log(mp.sqrt(s0sq / s1sq))
    return a, h, C


def _pout(mu, s, R):
    """P(|Z| > R), Z ~ N(mu, s^2)."""
    return mp.ncdf((-R - mu) / s) + mp.ncdf((mu - R) / s)


def H1(x, k, sig, eps, order):
    """hockey stick for one coordinate, k>=1 others (k=0: disjoint -> 1)."""
    if k == 0:
        return mp.mpf(1)
    x = mp.mpf(x); sig = mp.mpf(sig); eps = mp.mpf(eps)
    s1sq = (k + 1) * sig**2; s0sq = k * sig**2
    a, h, C = _quad(x, s1sq, s0sq)
    s1, s0 = mp.sqrt(s1sq), mp.sqrt(s0sq)
    if order == 'fwd':
        t = (eps - C) / a
        if t <= 0:
            return 1 - mp.exp(eps)
        R = mp.sqrt(t)
        return _pout(x + h, s1, R) - mp.exp(eps) * _pout(h, s0, R)
    else:
        t = (-eps - C) / a
        if t <= 0:
            return mp.mpf(0)
        R = mp.sqrt(t)
        return (1 - _pout(h, s0, R)) - mp.exp(eps) * (1 - _pout(x + h, s1, R))


def ncx2_sf(df, lam, t, terms=None):
    """P(chi'^2_df(lam) > t), Poisson mixture of central chi-square."""
    df = mp.mpf(df); lam = mp.mpf(lam); t = mp.mpf(t)
    if t <= 0:
        return mp.mpf(1)
    half = lam / 2
    # sum over j around the Poisson mode, both directions until negligible
    j0 = int(mp.floor(half))
    tot = mp.mpf(0)
    def term(j):
        w = mp.exp(-half + j * mp.log(half) - mp.loggamma(j + 1)) if half > 0 else (mp.mpf(1) if j == 0 else mp.mpf(0))
        return w * mp.gammainc(df / 2 + j, t / 2, mp.inf, regularized=True)
    j = j0
    while True:
        v = term(j); tot += v
        if j > j0 + 20 and v < mp.mpf(10)**(-mp.mp.dps):
            break
        j += 1
    j = j0 - 1
    while j >= 0:
        v = term(j); tot += v
        if j < j0 - 20 and v < mp.mpf(10)**(-mp.mp.dps):
            break
        j -= 1
    return tot


def HT(x, k, sig, eps, order, T):
    """hockey stick of the T-fold product (same x each coordinate), k>=1.
    sum_t log p/q = a * sum (y_t+h)^2 + T C ; sum (y+h)^2/s^2 noncentral chi2."""
    if k == 0:
        return mp.mpf(1)
    x = mp.mpf(x); sig = mp.mpf(sig); eps = mp.mpf(eps)
    s1sq = (k + 1) * sig**2; s0sq = k * sig**2
    a, h, C = _quad(x, s1sq, s0sq)
    lamP = T * (x + h)**2 / s1sq
    lamQ = T * h**2 / s0sq
    if order == 'fwd':
        thr = (eps - T * C) / a          # sum (y+h)^2 > thr
        if thr <= 0:
            return 1 - mp.exp(eps)
        return ncx2_sf(T, lamP, thr / s1sq) - mp.exp(eps) * ncx2_sf(T, lamQ, thr / s0sq)
    else:
        thr = (-eps - T * C) / a         # sum (y+h)^2 < thr
        if thr <= 0:
            return mp.mpf(0)
        return (1 - ncx2_sf(T, lamQ, thr / s0sq)) - mp.exp(eps) * (1 - ncx2_sf(T, lamP, thr / s1sq))


def eps_of_delta(Hfun, delta, hi=mp.mpf(60), iters=70):
    """largest eps with H(eps) > delta (H decreasing): solve H(eps)=delta. 0 if H(0)<=delta.
    returns mp.inf if H(hi) > delta and H never drops (disjoint atoms)."""
    delta = mp.mpf(delta)
    if Hfun(mp.mpf(0)) <= delta:
        return mp.mpf(0)
    lo = mp.mpf(0)
    while Hfun(hi) > delta:
        hi *= 2
        if hi > 5000:
            return mp.inf
    for _ in range(iters):
        mid = (lo + hi) / 2
        if Hfun(mid) > delta:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2

# The same T-fold hockey stick in double precision (scipy's ncx2), for locating roots and for
# the labelled mixtures; k = 0 (client 1 alone against nothing) is disjoint: H = 1.
def HT_float(x,k,sig,eps,o,T):
    if k==0: return 1.0
    x=float(x); sig=float(sig)
    s1sq=(k+1)*sig**2; s0sq=k*sig**2
    a=(1/s0sq-1/s1sq)/2; b=x/s1sq; h=b/(2*a); C=-b*b/(4*a)-x*x/(2*s1sq)+0.5*_np.log(s0sq/s1sq)
    lP=T*(x+h)**2/s1sq; lQ=T*h**2/s0sq
    if o=='fwd':
        thr=(eps-T*C)/a
        return _stats.ncx2.sf(thr/s1sq,T,lP)-_np.exp(eps)*_stats.ncx2.sf(thr/s0sq,T,lQ)
    thr=(-eps-T*C)/a
    if thr<=0: return 0.0
    return _stats.ncx2.cdf(thr/s0sq,T,lQ)-_np.exp(eps)*_stats.ncx2.cdf(thr/s1sq,T,lP)
