#!/usr/bin/python3
"""Independent reference for `corbin account --mechanism laplace` (the released sum of n clients'
Laplace-noised values), written from the mechanism's description alone; it shares no code with
src/ or analysis/ and uses the accountant only as a black box (--cli PATH).

Mechanism.  n clients, values in [c - r, c + r]; each adds Laplace(b) noise, b = 2r/eps rounded up
to the next double; the server releases the sum.  Replace-one neighbours differ in client 1's value;
the worst pair is c + r against c - r, so Q = law of S and P = law of S + 2r, S = sum of n i.i.d.
Laplace(b) (the other clients shift both alike).  Over k rounds the profile is
delta(e) = E_P[(1 - e^(e - L_k))_+], L_k the sum of k i.i.d. copies of L = ln p/q under P.

Law of S (derived here).  Laplace(b) = b(E1 - E2) with E1, E2 ~ Exp(1), so S = G1 - G2 with
G1, G2 ~ Gamma(n, b) independent.  For x >= 0, u = x/b,
    f(x) = e^-u / ((n-1)!^2 b) * sum_j C(n-1, j) u^j (2n-2-j)! 2^-(2n-1-j)
         = (1/b) sum_{j=0}^{n-1} w_j u^j e^-u / j!,
    w_j  = (2n-2-j)! 2^j / ((n-1-j)! (n-1)! 2^(2n-1)),   sum_j w_j = 1/2,
i.e. |S| is a mixture of Gamma(j+1, b) laws with weights 2 w_j and the sign of S is a fair coin.
Hence P(S > x) = sum_j w_j Q(j+1, x/b) for x >= 0 (Q the regularised upper incomplete gamma), and
P(S <= x) = sum_j w_j Q(j+1, -x/b) for x < 0: sums of positive terms, accurate in both tails.
The formula is checked below against the inversion of the characteristic function (1+b^2 t^2)^-n.

L(y) = ln f(y - 2r) - ln f(y) is increasing (f is log-concave) and odd about y = r, with range
(-2r/b, 2r/b).  So for k = 1, delta(e) = P(S > y* - 2r) - e^e P(S > y*), L(y*) = e: computed in
mpmath at 40 digits (exact up to root finding, which is done to ~1e-30).

k > 1: the PLD of L under P is discretised on the lattice h Z with the EXACT mass of each cell
[(j - 1/2)h, (j + 1/2)h) (cell boundaries y(l) by safeguarded Newton on L, masses from the gamma
mixture), composed k-fold by FFT, and delta is read off with the test function averaged over each
cell.  The discretisation error has an h^2 expansion (Sheppard), removed by Richardson
extrapolation R(h) = (4 D(h/2) - D(h)) / 3; the error of the value R(h/2) is estimated by
|R(h/2) - R(h)| over three grids h, h/2, h/4.  The grid method is validated against the exact k = 1
value and, for k = 2, against delta_2(e) = E_P[delta_1(e - L)] by adaptive quadrature.
"""

import argparse
import json
import math
import subprocess
import sys
import time
from fractions import Fraction

import mpmath as mp
import numpy as np
from scipy import fft as sfft
from scipy import integrate, optimize, special

R_DEFAULT = 1.0


def b_of_eps(eps_text, r=1):
    """b = 2r/eps rounded up to a double (eps as an exact decimal/rational)."""
    q = Fraction(2 * r) / Fraction(eps_text)
    b = float(q)
    if Fraction(b) < q:
        b = math.nextafter(b, math.inf)
    return b


# ------------------------------------------------------------------ the law of S, double precision
class LapSum:
    def __init__(self, n, b, r=R_DEFAULT):
        self.n, self.b, self.r = n, b, r
        j = np.arange(n, dtype=float)
        self.j = j
        self.logw = (special.gammaln(2 * n - 1 - j) + j * math.log(2) - special.gammaln(n - j)
                     - special.gammaln(n) - (2 * n - 1) * math.log(2))
        self.lgj1 = special.gammaln(j + 1)
        # the weights themselves exactly (mpmath, then rounded once): log-gamma loses ~1e-14 at n = 50
        mp.mp.dps = 40
        wexact = [mp.factorial(2 * n - 2 - jj) * mp.mpf(2) ** jj
                  / (mp.factorial(n - 1 - jj) * mp.factorial(n - 1) * mp.mpf(2) ** (2 * n - 1)) for jj in range(n)]
        self.w = np.array([float(v) for v in wexact])
        self.logw = np.array([float(mp.log(v)) for v in wexact])
        self.epsmax = 2 * r / b          # sup |L|
        # beyond |S| > umax*b the mass is < 1e-300
        self.umax = n + 40 * math.sqrt(n) + 760.0

    def logA(self, u):
        """log sum_j w_j u^j / j!  (u >= 0, array)."""
        u = np.asarray(u, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            lu = np.log(u)[..., None]
            t = self.logw + np.where(self.j == 0, 0.0, self.j * lu) - self.lgj1
        return special.logsumexp(t, axis=-1)

    def logA1(self, u):
        """log sum_{j>=1} w_j u^(j-1) / (j-1)!  (= log A'(u))."""
        u = np.asarray(u, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            lu = np.log(u)[..., None]
            jj = self.j[1:]
            t = self.logw[1:] + np.where(jj == 1, 0.0, (jj - 1) * lu) - special.gammaln(jj)
        return special.logsumexp(t, axis=-1)

    def logf(self, x):
        u = np.abs(np.asarray(x, dtype=float)) / self.b
        return -u + self.logA(u) - math.log(self.b)

    def dlogf(self, x):
        x = np.asarray(x, dtype=float)
        u = np.abs(x) / self.b
        return np.sign(x) / self.b * (-1.0 + np.exp(self.logA1(u) - self.logA(u)))

    def L(self, y):
        y = np.asarray(y, dtype=float)
        x = y - 2 * self.r
        return ((np.abs(y) - np.abs(x)) / self.b + self.logA(np.abs(x) / self.b)
                - self.logA(np.abs(y) / self.b))

    def dL(self, y):
        y = np.asarray(y, dtype=float)
        return self.dlogf(y - 2 * self.r) - self.dlogf(y)

    def T(self, x):
        """P(S > x) for x >= 0, P(S <= x) for x < 0 (the tail on x's side); 0 at +-inf."""
        x = np.asarray(x, dtype=float)
        out = np.zeros(x.shape)
        fin = np.isfinite(x)
        u = np.abs(x[fin]) / self.b
        out[fin] = special.gammaincc(self.j + 1, u[:, None]) @ self.w
        return out

    def U(self, x):
        """P(S > x), scalar."""
        return float(self.T(np.array([x]))[0]) if x >= 0 else 1.0 - float(self.T(np.array([x]))[0])

    # ---- inverse of L on [r, inf): y(l) for 0 <= l < epsmax, vectorised safeguarded Newton
    def invL_pos(self, a):
        r, b = self.r, self.b
        tmax = self.umax * b + 2 * r
        v = np.linspace(0.0, 1.0, 20001)
        tt = r + tmax * v ** 3
        Lt = self.L(tt)
        Lt = np.maximum.accumulate(Lt)
        a = np.asarray(a, dtype=float)
        y = np.full(a.shape, np.inf)
        ok = a < Lt[-1]
        aa = a[ok]
        k = np.searchsorted(Lt, aa, side="right")
        k = np.clip(k, 1, len(tt) - 1)
        lo, hi = tt[k - 1].copy(), tt[k].copy()
        yy = lo + (hi - lo) * np.clip((aa - Lt[k - 1]) / np.maximum(Lt[k] - Lt[k - 1], 1e-300), 0, 1)
        for _ in range(60):
            F = self.L(yy) - aa
            lo = np.where(F < 0, yy, lo)
            hi = np.where(F >= 0, yy, hi)
            d = self.dL(yy)
            with np.errstate(divide="ignore", invalid="ignore"):
                yn = yy - F / d
            bad = ~np.isfinite(yn) | (yn <= lo) | (yn >= hi)
            yn = np.where(bad, 0.5 * (lo + hi), yn)
            done = np.all(np.abs(yn - yy) <= 1e-13 * np.abs(yy) + 1e-300)
            yy = yn
            if done:
                break
        self.newton_iters = _
        y[ok] = yy
        return y


# ------------------------------------------------------------------ k = 1 exactly (mpmath)
class LapSumMP:
    def __init__(self, n, b, r=R_DEFAULT, dps=40):
        mp.mp.dps = dps
        self.n, self.b, self.r = n, mp.mpf(b), mp.mpf(r)
        f = mp.factorial
        self.w = [f(2 * n - 2 - j) * mp.mpf(2) ** j / (f(n - 1 - j) * f(n - 1) * mp.mpf(2) ** (2 * n - 1))
                  for j in range(n)]
        self.epsmax = 2 * self.r / self.b

    def A(self, u):
        return mp.fsum(self.w[j] * u ** j / mp.factorial(j) for j in range(self.n))

    def L(self, y):
        x = y - 2 * self.r
        return (abs(y) - abs(x)) / self.b + mp.log(self.A(abs(x) / self.b)) - mp.log(self.A(abs(y) / self.b))

    def U(self, x):
        if x < 0:
            return 1 - self.U(-x)
        u = x / self.b
        return mp.fsum(self.w[j] * mp.gammainc(j + 1, u, mp.inf, regularized=True) for j in range(self.n))

    def _bisect_y(self, F):
        """smallest y >= r with F(y) >= 0 for increasing F (to ~1e-30 relative)."""
        lo, hi = self.r, self.r + self.b
        while F(hi) < 0:
            lo, hi = hi, self.r + 2 * (hi - self.r)
        for _ in range(200):
            mid = (lo + hi) / 2
            if F(mid) < 0:
                lo = mid
            else:
                hi = mid
            if hi - lo < mp.mpf(10) ** (-30) * hi:
                break
        return (lo + hi) / 2

    def delta(self, e):
        e = mp.mpf(e)
        if e >= self.epsmax:
            return mp.mpf(0)
        if e < 0:
            raise ValueError("e >= 0 only")
        y = self._bisect_y(lambda y: self.L(y) - e)
        return self.U(y - 2 * self.r) - mp.exp(e) * self.U(y)

    def eps(self, delta):
        delta = mp.mpf(delta)
        if delta >= self.U(-self.r) - self.U(self.r):
            return mp.mpf(0)
        # delta(L(y)) decreases in y
        y = self._bisect_y(lambda y: -(self.U(y - 2 * self.r) - mp.exp(self.L(y)) * self.U(y) - delta))
        return self.L(y)


# ------------------------------------------------------------------ the PLD grid and composition
def pld_pmf(ls, h):
    """exact P-masses of the cells [(j-1/2)h, (j+1/2)h), j = -J..J, of L under P."""
    J = int(math.ceil(ls.epsmax / h)) + 1
    a = (np.arange(J) + 0.5) * h
    y = ls.invL_pos(a)                     # ascending, >= r, inf beyond the last finite cell
    yb = np.concatenate([2 * ls.r - y[::-1], y])   # boundaries of cells -J..J (2J of them)
    x = yb - 2 * ls.r                      # S-values: P(Y <= y) = P(S <= y - 2r)
    T = ls.T(x)
    xe = np.concatenate([[-np.inf], x, [np.inf]])
    Te = np.concatenate([[0.0], T, [0.0]])
    x1, x2, T1, T2 = xe[:-1], xe[1:], Te[:-1], Te[1:]
    m = np.where(x2 <= 0, T2 - T1, np.where(x1 >= 0, T1 - T2, 1.0 - T1 - T2))
    m = np.maximum(m, 0.0)
    return m, J


def compose(m, k):
    if k == 1:
        return m.copy()
    N = len(m)
    M = k * (N - 1) + 1
    nf = sfft.next_fast_len(M, real=True)
    F = sfft.rfft(m, nf)
    out = sfft.irfft(F ** k, nf)[:M]
    return out


class LatticeDelta:
    """delta(e) of a lattice PMF on h*(i - K), test function averaged over each cell."""

    def __init__(self, om, h, K):
        self.om, self.h, self.K = om, h, K
        self.l = (np.arange(len(om)) - K) * h
        self.S0 = np.cumsum(om[::-1])[::-1]
        self.S1 = np.cumsum((om * np.exp(-self.l))[::-1])[::-1]
        self.c = 2 * math.sinh(h / 2) / h
        self.noise = float(-om[om < 0].sum()) if np.any(om < 0) else 0.0

    def __call__(self, e):
        h, K = self.h, self.K
        i0 = int(math.floor(e / h + 0.5)) + K
        if i0 >= len(self.om):
            return 0.0
        if i0 < 0:
            raise ValueError("e below the lattice")
        l0 = self.l[i0]
        top = l0 + h / 2
        part = self.om[i0] * ((top - e) - (1 - math.exp(e - top))) / h
        if i0 + 1 < len(self.om):
            rest = self.S0[i0 + 1] - math.exp(e) * self.c * self.S1[i0 + 1]
        else:
            rest = 0.0
        return rest + part


class Composed:
    """delta_k(e) on grids h0, h0/2, h0/4 with Richardson extrapolation."""

    def __init__(self, ls, k, h0, cache=None):
        self.levels = []
        self.k = k
        cache = {} if cache is None else cache
        for h in (h0, h0 / 2, h0 / 4):
            if h not in cache:
                cache[h] = pld_pmf(ls, h)
            m, J = cache[h]
            om = compose(m, k)
            self.levels.append(LatticeDelta(om, h, k * J))
        self.emax = k * ls.epsmax

    def raw(self, e):
        return [lv(e) for lv in self.levels]

    def R(self, e):
        d0, d1, d2 = self.raw(e)
        r1 = (4 * d1 - d0) / 3
        r2 = (4 * d2 - d1) / 3
        return r2, abs(r2 - r1), (d0, d1, d2)

    def delta(self, e):
        """value, error estimate"""
        if e >= self.emax:
            return 0.0, 0.0
        v, err, _ = self.R(e)
        noise = max(lv.noise for lv in self.levels)
        # twice the Richardson difference, a relative floor for the double-precision cell masses
        # (the k = 1 grid agrees with the exact value to ~1e-12), and the FFT round-off (10x the
        # negative mass the FFT left)
        return v, 2 * err + 1e-10 * abs(v) + 10 * noise

    def eps(self, delta):
        lo, hi = 0.0, self.emax
        if self.R(lo)[0] <= delta:
            return 0.0, 0.0
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            if self.R(mid)[0] > delta:
                lo = mid
            else:
                hi = mid
        e = 0.5 * (lo + hi)
        v, err = self.delta(e)
        err += abs(v - delta)
        de = 1e-4 * max(e, 1e-3)
        slope = (self.R(e + de)[0] - self.R(e - de)[0]) / (2 * de)
        return e, abs(err / slope)


# ------------------------------------------------------------------ k = 2 by quadrature (check)
def delta1_double(ls, e):
    em = ls.epsmax
    if e >= em:
        return 0.0
    if e <= -em:
        return 1.0 - math.exp(e)
    if e >= 0:
        lo, hi = ls.r, ls.r + ls.b
        while ls.L(np.array([hi]))[0] < e:
            lo, hi = hi, ls.r + 2 * (hi - ls.r)
            if hi > ls.umax * ls.b * 4:
                return 0.0
        y = optimize.brentq(lambda t: ls.L(np.array([t]))[0] - e, lo, hi, xtol=1e-15, rtol=1e-15)
    else:
        lo, hi = ls.r - ls.b, ls.r
        while ls.L(np.array([lo]))[0] > e:
            lo, hi = ls.r - 2 * (ls.r - lo), lo
            if -lo > ls.umax * ls.b * 4:
                return 1.0 - math.exp(e)
        y = optimize.brentq(lambda t: ls.L(np.array([t]))[0] - e, lo, hi, xtol=1e-15, rtol=1e-15)
    return ls.U(y - 2 * ls.r) - math.exp(e) * ls.U(y)


def delta2_quad(ls, e):
    def g(y):
        p = math.exp(ls.logf(np.array([y - 2 * ls.r]))[0])
        if p == 0.0:
            return 0.0
        return p * delta1_double(ls, e - ls.L(np.array([y]))[0])
    tot = 0.0
    r = ls.r
    edges = [-np.inf, -20 * ls.b * math.sqrt(ls.n) + 2 * r, 0.0, r, 2 * r, 2 * r + 20 * ls.b * math.sqrt(ls.n), np.inf]
    for a, c in zip(edges[:-1], edges[1:]):
        v, _ = integrate.quad(g, a, c, epsabs=0, epsrel=1e-11, limit=400)
        tot += v
    return tot


# ------------------------------------------------------------------ self-checks of the law of S
def check_density(n, b):
    """f(x) = (1/pi) int_0^T cos(tx) (1+b^2t^2)^-n dt (+ a tail below 1e-15 f(0)), against the closed form."""
    import warnings
    warnings.simplefilter("ignore", integrate.IntegrationWarning)
    ls = LapSum(n, b)
    T = max(10.0, (1e16 / (2 * n - 1)) ** (1.0 / (2 * n - 1))) / b
    worst = 0.0
    for x in (0.0, 0.3 * b, 1.7 * b, 5 * b, 3 * b * math.sqrt(n)):
        g = lambda t: (1 + (b * t) ** 2) ** (-n) / math.pi
        if x > 0:
            cf, _ = integrate.quad(g, 0, T, weight="cos", wvar=x, epsabs=1e-18, epsrel=1e-13, limit=2000)
        else:
            cf, _ = integrate.quad(g, 0, T, epsabs=1e-18, epsrel=1e-13, limit=2000)
        fx = math.exp(ls.logf(np.array([x]))[0])
        worst = max(worst, abs(fx - cf) / cf)
    return worst, abs(ls.w.sum() - 0.5)


# ------------------------------------------------------------------ the CLI
def run_cli(cli, n, eps, k, what, val):
    cmd = [cli, "account", "--mechanism", "laplace", "--n", str(n), "--eps", eps,
           "--rounds", str(k), what, val, "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return cmd, None, p
    return cmd, json.loads(p.stdout), p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--ns", default="2,3,5,10,50")
    ap.add_argument("--epss", default="0.5,1,3")
    ap.add_argument("--ks", default="1,2,5,20")
    ap.add_argument("--h0", type=float, default=2e-4, help="coarsest grid (then h0/2, h0/4)")
    ap.add_argument("--no-quad", action="store_true")
    args = ap.parse_args()
    t_start = time.time()
    ns = [int(s) for s in args.ns.split(",")]
    epss = args.epss.split(",")
    ks = [int(s) for s in args.ks.split(",")]

    print("# self-check of the law of S against the characteristic function (1+b^2t^2)^-n:")
    for n in (2, 5, 50):
        rel, wsum = check_density(n, 2.0)
        print(f"#   n={n}: max rel. density error {rel:.1e}, |sum w - 1/2| = {wsum:.1e}")

    rows = []
    defects = []
    valid = []

    def verdict(lo, hi, v, err):
        if lo - err <= v <= hi + err:
            amb = not (lo + err <= v <= hi - err)
            return "inside" + (" (within err of an end)" if amb else "")
        return "OUTSIDE"

    for n in ns:
        for eps in epss:
            b = b_of_eps(eps)
            ls = LapSum(n, b)
            lsm = LapSumMP(n, b)
            cache = {}
            for k in ks:
                t0 = time.time()
                comp = Composed(ls, k, args.h0, cache)
                # ---------------- eps(delta)
                refs = {}
                for dl in ("1e-5", "1e-3"):
                    if k == 1:
                        ev = float(lsm.eps(mp.mpf(dl)))
                        eerr = 1e-14 * ev
                        eg, _ = comp.eps(float(dl))
                        valid.append(("grid k=1 vs exact eps", n, eps, dl, abs(eg - ev) / ev))
                    else:
                        ev, eerr = comp.eps(float(dl))
                    refs[dl] = ev
                    cmd, js, p = run_cli(args.cli, n, eps, k, "--delta", dl)
                    if js is None:
                        rows.append((f"n={n} eps={eps} k={k} delta={dl}", "CLI FAILED", "", "", "ERROR"))
                        defects.append((" ".join(cmd), p.stderr.strip()))
                        continue
                    lo, hi = js["eps_lower_approx"], js["eps_upper_approx"]
                    vd = verdict(lo, hi, ev, eerr)
                    rows.append((f"n={n} eps={eps} k={k} delta={dl}", f"[{lo:.12g}, {hi:.12g}]",
                                 f"{(hi - lo) / hi:.1e}", f"{ev:.12g} +- {eerr:.1e}", vd))
                    if vd == "OUTSIDE":
                        defects.append((" ".join(cmd), f"reference eps = {ev!r} +- {eerr:.1e}"))
                # ---------------- delta(e) at two e's
                e_list = []
                for dl in ("1e-4", "1e-2"):
                    if k == 1:
                        e0 = float(lsm.eps(mp.mpf(dl)))
                    else:
                        e0 = comp.eps(float(dl))[0]
                    e0 = float(f"{e0:.2g}")
                    if e0 > 0 and e0 not in e_list:
                        e_list.append(e0)
                for e in e_list:
                    es = repr(e)
                    if k == 1:
                        dv = float(lsm.delta(mp.mpf(es)))
                        derr = 1e-14 * dv
                        dg, _ = comp.delta(e)
                        valid.append(("grid k=1 vs exact delta", n, eps, es, abs(dg - dv) / dv if dv else 0.0))
                    else:
                        dv, derr = comp.delta(e)
                    if k == 2 and not args.no_quad:
                        dq = delta2_quad(ls, e)
                        valid.append(("grid k=2 vs quadrature delta", n, eps, es, abs(dq - dv) / dv))
                    cmd, js, p = run_cli(args.cli, n, eps, k, "--at-eps", es)
                    if js is None:
                        rows.append((f"n={n} eps={eps} k={k} at-eps={es}", "CLI FAILED", "", "", "ERROR"))
                        defects.append((" ".join(cmd), p.stderr.strip()))
                        continue
                    lo, hi = js["delta_lower_approx"], js["delta_upper_approx"]
                    vd = verdict(lo, hi, dv, derr)
                    rows.append((f"n={n} eps={eps} k={k} at-eps={es}", f"[{lo:.10g}, {hi:.10g}]",
                                 f"{(hi - lo) / hi:.1e}" if hi else "-", f"{dv:.10g} +- {derr:.1e}", vd))
                    if vd == "OUTSIDE":
                        defects.append((" ".join(cmd), f"reference delta = {dv!r} +- {derr:.1e}"))
                print(f"# n={n} eps={eps} k={k} done in {time.time() - t0:.1f}s", file=sys.stderr, flush=True)

    # ---------------- n = 1000 (k = 1, exact) and n = 1001 (refused)
    n, eps, dl = 1000, "0.5", "1e-5"
    b = b_of_eps(eps)
    lsm = LapSumMP(n, b, dps=30)
    ev = float(lsm.eps(mp.mpf(dl)))
    cmd, js, p = run_cli(args.cli, n, eps, 1, "--delta", dl)
    if js is None:
        rows.append((f"n={n} eps={eps} k=1 delta={dl}", "CLI FAILED", "", "", "ERROR"))
        defects.append((" ".join(cmd), p.stderr.strip()))
    else:
        lo, hi = js["eps_lower_approx"], js["eps_upper_approx"]
        vd = verdict(lo, hi, ev, 1e-14 * ev)
        rows.append((f"n={n} eps={eps} k=1 delta={dl}", f"[{lo:.12g}, {hi:.12g}]", f"{(hi - lo) / hi:.1e}",
                     f"{ev:.12g} +- {1e-14 * ev:.1e}", vd))
        if vd == "OUTSIDE":
            defects.append((" ".join(cmd), f"reference eps = {ev!r}"))
    cmd = [args.cli, "account", "--mechanism", "laplace", "--n", "1001", "--eps", "1", "--delta", "1e-5", "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    lines = [s for s in (p.stdout + p.stderr).splitlines() if s.strip()]
    ok = p.returncode == 2 and len(lines) == 1 and p.stdout.strip() == ""
    rows.append(("n=1001 refused", f"rc={p.returncode}, {len(lines)} line(s)", "", "", "ok" if ok else "DEFECT"))
    if not ok:
        defects.append((" ".join(cmd), f"rc={p.returncode} stdout={p.stdout!r} stderr={p.stderr!r}"))
    refusal = p.stderr.strip()

    # ---------------- print
    print("\n# validation of the grid method")
    for v in valid:
        print("#   %-30s n=%-3d eps=%-4s at %-8s rel.diff %.1e" % v)
    print(f"\n{'case':40s} {'corbin [lower, upper]':44s} {'rel.w':8s} {'reference +- error':36s} verdict")
    for row in rows:
        print(f"{row[0]:40s} {row[1]:44s} {row[2]:8s} {row[3]:36s} {row[4]}")
    print(f"\nn=1001 message: {refusal}")
    n_out = sum(1 for r_ in rows if r_[4] in ("OUTSIDE", "ERROR", "DEFECT"))
    print(f"\n{len(rows)} rows, {n_out} defect(s); {time.time() - t_start:.0f} s")
    for c, why in defects:
        print(f"DEFECT: {c}\n        {why}")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
