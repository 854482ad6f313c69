"""T rounds of m coordinates of the Laplace remove pair: a bracket of delta(eps) from the privacy
loss distribution (PLD), discretised both ways and composed by FFT (numpy/scipy, float64).

One use (one coordinate, one round) is the pair P = f_kP(. - sP) against Q = f_kQ(. - sQ) of
`lap.py` (units of b). Its loss L(u) = log p(u) - log q(u) under P:

- the outputs [-U, U] (U = 90) are cut into cells of width dy, with 0, sP, sQ (where the densities
  have their kinks) among the cell ends; each cell's P-mass by 3-point Gauss-Legendre (the density
  is smooth inside a cell), its least and largest loss from 5 samples (both ends, the 3 nodes),
  widened by `slack`. The slack covers what the samples can miss: L'' = (ln poly_kP)''(.) -
  (ln poly_kQ)''(.) away from the kinks, |(ln poly_k)''| <= 1 (computed below on [0, U] for each k
  used; it is 1/(2k - 3) at 0 for k >= 2), the samples are at most 0.3873 dy apart, so a cell's
  extreme loss exceeds its samples' by at most 2 (0.3873 dy)^2 / 8 < 0.0375 dy^2;
- the pessimistic PLD puts each cell's mass at its largest loss rounded up to the grid h, the
  optimistic one at its least loss rounded down; the P-mass beyond [-U, U] (closed form, mpmath)
  goes to +infinity in the pessimistic PLD and is dropped in the optimistic one;
- k uses compose by convolution (k = T m: the m coordinates each carry the pair, client 1 at the
  farther extreme in each); delta(eps) = sum over L > eps of P(L) (1 - e^(eps - L)), plus the
  infinite mass 1 - (1 - tail)^k in the pessimistic one. Since delta is increasing in each loss,
  the pessimistic delta is >= the truth and the optimistic one <= it, up to float64 rounding.

Rounding: an FFT convolution's error is absolute, relative to the array's largest entry, which
ruins deltas far below it (an untilted composition put delta at 1.91e-14 where the truth is
1.88e-14). So each composition is tilted: the pmf is multiplied by e^(theta (L - Lref)), composed,
and multiplied back by e^(-theta (L - k Lref)) (exact in exact arithmetic), with theta the saddle
point at which the tilted k-fold law's mean is eps (0 if the untilted mean is already past eps), so
the entries that make up delta are the largest ones. Each bracket is computed at two tilts, theta
and theta + 1, whose rounding differs; the bracket kept is the lesser lower end and the larger
upper end, and the two tilts' disagreement is reported (`tilt_spread`) and enters the stated error.
"""
import math

import mpmath as mp
import numpy as np
from scipy.signal import fftconvolve

from lap import logf_np, coefs, F_mp

GL_x = np.array([-math.sqrt(3 / 5), 0.0, math.sqrt(3 / 5)])
GL_w = np.array([5 / 9, 8 / 9, 5 / 9])
# the samples in a cell of width dy: its ends and the nodes at dy/2 (1 -+ sqrt(3/5)) and dy/2; the
# widest gap between consecutive samples, in units of dy
SAMPLE_GAP = math.sqrt(3 / 5) / 2


def log_poly_curvature(k, U=90.0, npts=200001):
    """max over [0, U] of |(ln poly_k)''| (float64, a fine grid; poly_k the polynomial factor of f_k)."""
    if k <= 1:
        return 0.0
    a, _ = coefs(k)
    u = np.linspace(0.0, U, npts)
    p = np.zeros_like(u); p1 = np.zeros_like(u); p2 = np.zeros_like(u)
    for j in range(k):
        d = k - 1 - j; c = float(a[j])
        p += c * u**d
        if d >= 1: p1 += c * d * u**(d - 1)
        if d >= 2: p2 += c * d * (d - 1) * u**(d - 2)
    return float(np.max(np.abs(p2 / p - (p1 / p)**2)))


def single_pld(kP, sP, kQ, sQ, U=90.0, dy=2e-5, h=2e-5, slack=None):
    """The one-use PLD of P = f_kP(. - sP) against Q = f_kQ(. - sQ) on the grid h.

    Returns dict(pess=(offset, pmf), opt=(offset, pmf), tail=P-mass beyond [-U, U], slack=...)."""
    curv = log_poly_curvature(kP, U + abs(sP)) + log_poly_curvature(kQ, U + abs(sQ))
    if slack is None:
        slack = 1e-9 + 1.5 * curv * (SAMPLE_GAP * dy)**2 / 8
    edges = np.unique(np.concatenate([np.arange(-U, U + dy / 2, dy), [0.0, sP, sQ]]))
    a, bnd = edges[:-1], edges[1:]
    mid = (a + bnd) / 2
    hw = (bnd - a) / 2
    mass = np.zeros_like(mid)
    Lmin = np.full_like(mid, np.inf)
    Lmax = np.full_like(mid, -np.inf)
    for xg, wg in zip(GL_x, GL_w):
        u = mid + hw * xg
        lp = logf_np(kP, u - sP)
        lq = logf_np(kQ, u - sQ)
        mass += wg * hw * np.exp(lp)
        L = lp - lq
        Lmin = np.minimum(Lmin, L)
        Lmax = np.maximum(Lmax, L)
    for u in (a, bnd):
        L = logf_np(kP, u - sP) - logf_np(kQ, u - sQ)
        Lmin = np.minimum(Lmin, L)
        Lmax = np.maximum(Lmax, L)
    Lmin -= slack
    Lmax += slack
    tail = float(F_mp(kP, mp.mpf(edges[0]) - sP) + (1 - F_mp(kP, mp.mpf(edges[-1]) - sP)))
    ip = np.ceil(Lmax / h).astype(np.int64)
    io = np.floor(Lmin / h).astype(np.int64)
    op = int(ip.min())
    oo = int(io.min())
    return dict(pess=(op, np.bincount(ip - op, weights=mass)), opt=(oo, np.bincount(io - oo, weights=mass)),
                tail=tail, slack=slack, curvature=curv, mass=float(mass.sum()), h=h)


def compose(off, pmf, k):
    """k-fold convolution (FFT), negative rounding clipped to 0."""
    res = pmf.copy()
    o = off
    for _ in range(k - 1):
        res = np.maximum(fftconvolve(res, pmf), 0.0)
        o += off
    return o, res


def saddle_theta(off, pmf, k, eps, h):
    """theta >= 0 at which the k-fold tilted law's mean is eps (0 if the untilted mean is past it)."""
    L = (off + np.arange(len(pmf))) * h
    nz = pmf > 0
    L, lw = L[nz], np.log(pmf[nz])

    def mean(t):
        z = lw + t * L
        w = np.exp(z - z.max())
        return k * float(np.sum(w * L) / np.sum(w))
    if mean(0.0) >= eps:
        return 0.0
    lo, hi = 0.0, 1.0
    while mean(hi) < eps and hi < 64:
        hi *= 2
    for _ in range(60):
        mid = (lo + hi) / 2
        if mean(mid) < eps:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def compose_tilted(off, pmf, k, theta, h):
    if theta == 0:
        return compose(off, pmf, k)
    L = (off + np.arange(len(pmf))) * h
    nz = pmf > 0
    z = np.full_like(L, -np.inf)
    z[nz] = np.log(pmf[nz]) + theta * L[nz]
    Lref = L[int(np.argmax(z))]
    w = np.zeros_like(pmf)
    w[nz] = np.exp(z[nz] - theta * Lref)
    o, r = compose(off, w, k)
    Lt = (o + np.arange(len(r))) * h
    out = np.zeros_like(r)
    nz = r > 0
    out[nz] = np.exp(np.log(r[nz]) - theta * (Lt[nz] - k * Lref))
    return o, out


def delta_from(off, pmf, h, eps, infmass=0.0):
    L = (off + np.arange(len(pmf))) * h
    m = L > eps
    return float(np.sum(pmf[m] * (-np.expm1(eps - L[m])))) + infmass


def bracket(one, k, eps):
    """[lower, upper] of delta(eps) after k uses of the one-use PLD `one` (from single_pld), the
    lesser lower and larger upper end over the tilts theta*, theta* + 1; and their disagreement."""
    h = one['h']
    infmass = -math.expm1(k * math.log1p(-one['tail'])) if one['tail'] < 1 else 1.0
    off, pmf = one['pess']
    if k * (off + len(pmf) - 1) * h <= eps:  # no finite loss above eps: only the mass beyond [-U, U]
        return dict(lo=0.0, hi=infmass, theta=None, tilt_spread=0.0)
    th = min(saddle_theta(off, pmf, k, eps, h), 40.0)
    los, his = [], []
    for t in (th, th + 1.0):
        his.append(delta_from(*compose_tilted(*one['pess'], k, t, h), h, eps, infmass))
        los.append(delta_from(*compose_tilted(*one['opt'], k, t, h), h, eps))
    spread = max(abs(los[0] - los[1]), abs(his[0] - his[1]))
    return dict(lo=min(los), hi=max(his), theta=th, tilt_spread=spread)
