"""The Laplace pair under remove one, one use: n clients' noise about client 1's input against the
n - 1 others' noise (mpmath, 40 digits).

Written from the mechanism's description alone (each client adds Laplace(b) noise, b = 2r/eps
rounded up to a double; the server sees the sum), without reading the accountant's source. In units
of b the sum of k Laplace(1) laws has the density

    f_k(u) = C_k e^(-|u|) sum_(j<k) a_j |u|^(k-1-j),   a_j = (k-1+j)! / (j! (k-1-j)! 2^j),
    C_k = 1 / ((k-1)! 2^k),

and the CDF F_k(u) = 1/2 + sign(u) C_k sum_j a_j gamma(k-j, |u|) (lower incomplete gamma).
The pair: P = f_n(. - s) (client 1 present at input x, s = x / b) against Q = f_(n-1) (absent); the
others' inputs are a known shift and cancel. H_eps(P||Q) = sup_A P(A) - e^eps Q(A), both orders.
"""
import math
from fractions import Fraction

import mpmath as mp
import numpy as np

mp.mp.dps = 40


def M(x):
    """A rational (Fraction, int or 'a/b' string) as an mpf."""
    x = Fraction(x)
    return mp.mpf(x.numerator) / x.denominator


def b_of(eps_frac, r_frac):
    """The noise scale: the smallest double >= 2r/eps (as the sampler rounds it)."""
    ex = 2 * Fraction(r_frac) / Fraction(eps_frac)
    f = float(ex)
    if Fraction(f) < ex:
        f = math.nextafter(f, math.inf)
    assert Fraction(f) >= ex
    return f


_coef = {}


def coefs(k):
    """(a_0..a_(k-1), C_k) of f_k, exact."""
    if k not in _coef:
        a = [Fraction(math.factorial(k - 1 + j), math.factorial(j) * math.factorial(k - 1 - j)) / 2**j for j in range(k)]
        C = Fraction(1, math.factorial(k - 1) * 2**k)
        _coef[k] = (a, C)
    return _coef[k]


def logf_np(k, u):
    """log f_k(u), float64 (numpy arrays): for locating sign changes and for the PLD grids."""
    a, C = coefs(k)
    au = np.abs(u)
    poly = np.zeros_like(au)
    for j in range(k):
        poly += float(a[j]) * au**(k - 1 - j)
    return -au + math.log(float(C)) + np.log(poly)


def f_mp(k, u):
    a, C = coefs(k)
    au = abs(u)
    return mp.e**(-au) * M(C) * mp.fsum(M(a[j]) * au**(k - 1 - j) for j in range(k))


def logf_mp(k, u):
    return mp.log(f_mp(k, u))


def F_mp(k, u):
    """CDF of the sum of k Laplace(1) laws."""
    if u == mp.inf:
        return mp.mpf(1)
    if u == -mp.inf:
        return mp.mpf(0)
    a, C = coefs(k)
    au = abs(u)
    h = M(C) * mp.fsum(M(a[j]) * mp.gammainc(k - j, 0, au) for j in range(k))
    return mp.mpf(0.5) + h if u >= 0 else mp.mpf(0.5) - h


def refine(g, lo, hi):
    """A sign change of g in [lo, hi] by bisection, to 1e-30."""
    lo, hi = mp.mpf(lo), mp.mpf(hi)
    glo = g(lo)
    for _ in range(200):
        mid = (lo + hi) / 2
        gm = g(mid)
        if (gm > 0) == (glo > 0):
            lo, glo = mid, gm
        else:
            hi = mid
        if hi - lo < mp.mpf(10)**(-30):
            break
    return (lo + hi) / 2


def hockey(kP, sP, kQ, sQ, eps, U=400.0, step=0.004):
    """H_eps(P||Q) for P = f_kP(. - sP), Q = f_kQ(. - sQ) (units of b). Returns (delta, roots).

    The sign of log p/q - eps is read (float64) on a grid of step 0.004 over [-U, U] (U = 400:
    beyond, both laws' mass is below e^-390 and the sign is that of the grid's ends); every sign
    change is refined in mpmath to 1e-30, and between consecutive crossings the masses are
    differences of the closed-form CDFs. Exact as long as no two crossings fall within one grid
    step of each other."""
    u = np.arange(-U, U + step / 2, step)
    L = logf_np(kP, u - float(sP)) - logf_np(kQ, u - float(sQ))
    e = float(eps)
    sg = L - e > 0
    idx = np.nonzero(sg[1:] != sg[:-1])[0]

    def g(x):
        return logf_mp(kP, x - sP) - logf_mp(kQ, x - sQ) - eps
    roots = [refine(g, u[i], u[i + 1]) for i in idx]
    pts = [-mp.inf] + roots + [mp.inf]
    ee = mp.e**eps
    d = mp.mpf(0)
    for i in range(len(pts) - 1):
        lo, hi = pts[i], pts[i + 1]
        if lo == -mp.inf:
            mid_pos = sg[0]
        elif hi == mp.inf:
            mid_pos = sg[-1]
        else:
            mid_pos = g((lo + hi) / 2) > 0
        if mid_pos:
            d += (F_mp(kP, hi - sP) - F_mp(kP, lo - sP)) - ee * (F_mp(kQ, hi - sQ) - F_mp(kQ, lo - sQ))
    return d, roots


def delta_remove(n, s, eps):
    """(H(P||Q), H(Q||P)): P client 1 present (n laws, shift s), Q absent (n - 1 laws)."""
    dPQ, _ = hockey(n, s, n - 1, mp.mpf(0), eps)
    dQP, _ = hockey(n - 1, mp.mpf(0), n, s, eps)
    return dPQ, dQP
