#!/usr/bin/python3
"""Independent brute-force reference for `corbin account --mechanism pbm2`.

Written from the mechanism's description only (docs/account.md, the room's summary); it shares no code
with src/ and uses corbin only as a black box (its CLI; `corbin.law` from the Python module, if it
loads, only to cross-check the one-client law). Run with Debian's /usr/bin/python3 (numpy, mpmath).

Model (one coordinate, one use; u = (w - c)/r in [-1, 1], s = e^(eps/2) rational):
  pbm2  Z ~ Binomial(2, p(u)), p(u) = 1/2 + theta*u, theta = (s - 1)/(2(s + 1)) = tanh(eps/4)/2;
        the client sends c + (r/theta)(Z/2 - 1/2); the server releases the sum of the n outputs,
        an injective affine map of T = sum_i Z_i in {0..2n}. So the released law is the law of T.
  e^eps = 4 (s = 2, p in [1/3, 2/3]) and e^eps = 9 (s = 3, p in [1/4, 3/4]); every probability is
  a Fraction, every law has full support (no infinite privacy loss).
Neighbours: replace-one, client 1's input w -> w' (both orders are configurations), the other
n - 1 inputs anywhere, chosen by the adversary separately in every use.

Binomial(2, p) is quadratic in p: the set of one client's laws is a conic arc whose every point is
an extreme point of its hull, so joint convexity of the hockey-stick divergence does NOT reduce the
worst case to the ends c +- r. Hence the searches below cover interior inputs:
  k = 1   (a) every configuration on the 9-point grid GRID (client 1's ordered pair and the
              multiset of the others), exact Fractions (float screen, exact recompute of the top);
          (b) client 1's pair on the 1/48 grid (97 points), the others at every multiset of ends;
          (c) every input on the 1/8 grid (17 points), then a continuous pattern search (steps down
              to 1/4096) from the best few, the optimum recomputed exactly at its dyadic inputs.
          Every value is the exact value of a real configuration, so a lower bound on the truth.
  k >= 2  the configuration set is the 9-point grid plus the k = 1 optima of (c), Blackwell-
          dominated configurations dropped (confirmed exactly; composition and the dynamic program
          are monotone in Blackwell order, so the maximum is unchanged).
          --rounds k: the adaptive adversary's exact worst case, the dynamic program
              D_j(t) = max_cfg sum_o P(o) D_{j-1}(t / L(o)),  D_0(t) = (1 - t)_+.
            D_j is convex and piecewise linear, the upper envelope of lines a - b t (one per
            choice of a piece of D_{j-1} for each output): D_1, D_2 are built as exact envelopes
            (Fractions; an mpf copy at 50 digits where t = e^eps is irrational), D_3(t) is the
            exact max over configurations of sum_o P(o) D_2(t / L(o)); float copies only find a
            starting point. eps(delta) by Newton from the left on exact values and subgradients
            (it lands on the exact rational t).
          --m k: the best fixed multiset of k configurations (no adapting), by branch and bound
            (a multiset holding cfg is bounded by the dynamic program continuing after cfg), every
            multiset within tolerance of the float maximum composed exactly.
          Both again on a finer set: the undominated set above plus client 1's pair at the ends
          with the others on the 1/16 grid (1/8 at n = 4), and at n = 2 (n = 3) every input on
          the 1/8 (1/6) grid. The larger value is the row's exact value.
  Both are also computed over the end configurations alone (inputs c +- r), to say whether
  interior inputs mattered.
Checked apart (not in this file): D_2, D_3 against the recursion over every grid configuration
with no pruning or envelopes (n = 2), the k = 2 multisets against all pairs of grid configurations,
and the branch and bound at n = 4, k = 3 against every triple of the undominated set.
Verdicts (a value here is exact for its configuration set, a lower bound on the truth over all of
[c - r, c + r]):
  DEFECT:upper<...   corbin's certified upper end below an exact value of a real configuration
                     (the adaptive value for --rounds, the best multiset for --m)
  DEFECT:lower>...   corbin's lower end above the best value found here (the grid value; if the
                     true worst case sat at an input outside the searched set, this could be a
                     false alarm: said in the row), or above the exact value of the configuration
                     corbin names for it
  DEFECT:named-non-input  a named input outside [c - r, c + r]
Exit status 1 on any DEFECT or CORBIN-ERROR.
"""
import bisect
import itertools
import json
import math
import os
import re
import subprocess
import sys
import time
from fractions import Fraction as F

import mpmath
import numpy as np

mpmath.mp.dps = 50
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORBIN = os.path.join(REPO, 'build', 'analysis', 'corbin')
PYTHON_MODULE = os.path.join(REPO, 'build', 'analysis', 'python')
GRID = [F(-1), F(-3, 4), F(-1, 2), F(-1, 3), F(0), F(1, 4), F(1, 2), F(2, 3), F(1)]
ENDS = [F(-1), F(1)]
EXP_EPS = {4: F(2), 9: F(3)}                       # e^eps -> s = e^(eps/2)
NS = [2, 3, 4]
KS = [1, 2, 3]
DELTAS = ['1e-1', '1e-3']
AT_EPS = ['0.25', '1']
KEYS = [('delta', d) for d in DELTAS] + [('eps', x) for x in AT_EPS]
TOL = 1e-10                                        # float screen: exact recompute within this


# ---------------------------------------------------------------- laws
def theta(s):
    return (s - 1) / (2 * (s + 1))


def client_law(s, u):
    """[P(Z=0), P(Z=1), P(Z=2)], Z ~ Binomial(2, 1/2 + theta u), exact."""
    p = F(1, 2) + theta(s) * u
    return [(1 - p) ** 2, 2 * p * (1 - p), p * p]


def conv(a, b):
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def law_f(s, u):
    p = 0.5 + float(theta(s)) * np.asarray(u, float)
    return np.stack([(1 - p) ** 2, 2 * p * (1 - p), p * p], -1)


def self_check_laws():
    for s in EXP_EPS.values():
        th = theta(s)
        t = mpmath.tanh(mpmath.log(mp(s * s)) / 4) / 2   # tanh(eps/4)/2
        assert abs(t - mp(th)) < mpmath.mpf(10) ** -40
        worst = F(0)
        for u in GRID:
            law = client_law(s, u)
            assert sum(law) == 1 and min(law) > 0
            # decoded output c + (r/theta)(Z/2 - 1/2), c = 0, r = 1: unbiased
            assert sum(p * (F(z, 2) - F(1, 2)) / th for z, p in enumerate(law)) == u
            for v in GRID:
                lv = client_law(s, v)
                worst = max(worst, max(law[z] / lv[z] for z in range(3)))
        assert worst == s * s, (s, worst)          # exactly e^eps-LDP, attained at the ends
    # the ranges of p the mechanism's description gives
    assert F(1, 2) + theta(F(2)) == F(2, 3) and F(1, 2) + theta(F(3)) == F(3, 4)


def cross_check_laws_with_corbin():
    """black box: corbin.law('pbm2', w, exp_eps=e) against client_law (values = decoded outputs)."""
    sys.path.insert(0, PYTHON_MODULE)
    try:
        import corbin as cb
    except Exception as exc:                       # noqa: BLE001
        print('# law cross-check skipped: %s' % exc, file=sys.stderr)
        return 'skipped'
    for e, s in EXP_EPS.items():
        th = theta(s)
        for u in GRID:
            mine = {(F(z, 2) - F(1, 2)) / th: p for z, p in enumerate(client_law(s, u)) if p}
            theirs = {F(v): F(p) for v, p in cb.law('pbm2', str(u), exp_eps=str(e)) if p}
            assert mine == theirs, (e, u, mine, theirs)
    print('# pbm2 laws agree with corbin.law at every grid input, e^eps in {4, 9}', file=sys.stderr)
    return 'agree'


# ---------------------------------------------------------------- exact targets of one experiment
def merged(P, Q):
    """[(L, p, q)] merged by equal ratio L = p/q, sorted by L descending (all q > 0)."""
    d = {}
    for p, q in zip(P, Q):
        if p == 0 and q == 0:
            continue
        L = p / q
        a = d.setdefault(L, [0, 0])
        a[0] += p
        a[1] += q
    return sorted(((L, a[0], a[1]) for L, a in d.items()), key=lambda x: -x[0])


def t_of_delta(P, Q, delta):
    """exact smallest t >= 1 with sum (P - tQ)_+ <= delta (no infinite losses here)."""
    atoms = merged(P, Q)
    A, B = F(0), F(0)
    for i, (L, p, q) in enumerate(atoms):
        A += p
        B += q
        nxt = atoms[i + 1][0] if i + 1 < len(atoms) else F(0)
        if A - nxt * B >= delta:
            return max((A - delta) / B, F(1))
    return F(1)


def mp(x):
    return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, F) else mpmath.mpf(x)


def delta_at_mp(P, Q, t):
    return sum((mp(p) - t * mp(q) for p, q in zip(P, Q) if mp(p) > t * mp(q)), mpmath.mpf(0))


def eps_of_t(t):
    return mpmath.log(mp(t))


def target_exact(P, Q, key):
    if key[0] == 'delta':
        return eps_of_t(t_of_delta(P, Q, F(key[1])))
    return delta_at_mp(P, Q, mpmath.exp(mpmath.mpf(key[1])))


def compose_exact(pairs):
    """[(P, Q)] -> the product experiment's (P, Q) as lists over merged ratio atoms."""
    cur = [(F(1), F(1))]
    for P, Q in pairs:
        d = {}
        for p1, q1 in cur:
            for p, q in zip(P, Q):
                L = (p1 * p) / (q1 * q)
                a = d.setdefault(L, [F(0), F(0)])
                a[0] += p1 * p
                a[1] += q1 * q
        cur = [(a[0], a[1]) for a in d.values()]
    return [p for p, _ in cur], [q for _, q in cur]


# ---------------------------------------------------------------- float screens
def float_targets(P, Q, keys=KEYS):
    """row-wise values of every key, P, Q: (rows, outputs) float arrays."""
    L = P / Q
    order = np.argsort(-L, axis=1)
    Ls = np.take_along_axis(L, order, 1)
    A = np.cumsum(np.take_along_axis(P, order, 1), 1)
    B = np.cumsum(np.take_along_axis(Q, order, 1), 1)
    Lnext = np.concatenate([Ls[:, 1:], np.zeros((L.shape[0], 1))], 1)
    dnext = A - Lnext * B
    out = {}
    rows = np.arange(L.shape[0])
    for key in keys:
        if key[0] == 'delta':
            d = float(key[1])
            hit = dnext >= d
            j = np.argmax(hit, 1)
            t = np.where(hit.any(1), (A[rows, j] - d) / B[rows, j], 1.0)
            out[key] = np.log(np.maximum(t, 1.0))
        else:
            t = math.exp(float(key[1]))
            out[key] = np.maximum(P - t * Q, 0).sum(1)
    return out


def conv_rows(S, A):
    """row-wise convolution of (rows, m) with (rows, 3)."""
    out = np.zeros((S.shape[0], S.shape[1] + A.shape[1] - 1))
    for j in range(A.shape[1]):
        out[:, j:j + S.shape[1]] += S * A[:, j:j + 1]
    return out


def others_law_f(s, others):
    """(M, n-1) inputs -> (M, 2n-1) laws of the others' total count."""
    M = others.shape[0]
    S = np.ones((M, 1))
    for i in range(others.shape[1]):
        S = conv_rows(S, law_f(s, others[:, i]))
    return S


# ---------------------------------------------------------------- configurations
class Configs:
    """configurations (w, w', others) with exact and float laws of the released count."""

    def __init__(self, s, n, labels):
        self.s, self.n = s, n
        self.labels = list(labels)
        cache_S, cache_X = {}, {}
        self.Pe, self.Qe = [], []
        for w, w2, others in self.labels:
            if others not in cache_S:
                S = [F(1)]
                for u in others:
                    S = conv(S, client_law(s, u))
                cache_S[others] = S
            for x in (w, w2):
                if (x, others) not in cache_X:
                    cache_X[(x, others)] = conv(client_law(s, x), cache_S[others])
            self.Pe.append(cache_X[(w, others)])
            self.Qe.append(cache_X[(w2, others)])
        self.Pf = np.array([[float(x) for x in P] for P in self.Pe])
        self.Qf = np.array([[float(x) for x in Q] for Q in self.Qe])

    def subset(self, idx):
        c = Configs.__new__(Configs)
        c.s, c.n = self.s, self.n
        c.labels = [self.labels[i] for i in idx]
        c.Pe = [self.Pe[i] for i in idx]
        c.Qe = [self.Qe[i] for i in idx]
        c.Pf, c.Qf = self.Pf[idx], self.Qf[idx]
        return c

    def __len__(self):
        return len(self.labels)


def grid_labels(n, points):
    out = []
    for others in itertools.combinations_with_replacement(points, n - 1):
        for w, w2 in itertools.permutations(points, 2):
            out.append((w, w2, tuple(others)))
    return out


def canon(label):
    w, w2, others = label
    return (w, w2, tuple(sorted(others)))


def best_exact(cfgs, key, vals, top=3):
    """exact max of key over cfgs: exact recompute of the float top within tolerance."""
    v = vals[key]
    order = np.argsort(-v)
    pick = [i for i in order[:max(top, 1)]]
    pick += [i for i in np.nonzero(v >= v.max() - max(TOL, 1e-9 * abs(v.max())))[0] if i not in pick]
    best = None
    for i in pick:
        x = target_exact(cfgs.Pe[i], cfgs.Qe[i], key)
        if best is None or x > best[0]:
            best = (x, cfgs.labels[i])
    return best


# ---------------------------------------------------------------- Blackwell pruning
def profile_exact(P, Q, t):
    return sum((p - t * q for p, q in zip(P, Q) if p > t * q), F(0))


def prune(cfgs):
    """indices of configurations not Blackwell-dominated by another (one of equal ones kept).
    a is dominated by b iff H_t(a) <= H_t(b) at every t > 0; both are piecewise linear with
    kinks at their ratios and equal to 1 - t below both smallest ratios, 0 above both largest,
    so comparing at the union of the two sets of ratios is exact."""
    P, Q = cfgs.Pf, cfgs.Qf
    L = P / Q
    lo, hi = float(L.min()), float(L.max())
    T0 = np.exp(np.linspace(math.log(lo) - 0.05, math.log(hi) + 0.05, 600))
    H = np.concatenate([np.maximum(P[i:i + 500, None, :] - T0[None, :, None] * Q[i:i + 500, None, :], 0).sum(-1)
                        for i in range(0, len(P), 500)])
    order = np.argsort(-H.sum(1), kind='stable')
    keep = []
    for a in order:
        dominated = False
        if keep:
            cand = np.nonzero(np.all(H[keep] >= H[a] - 1e-13, axis=1))[0]
            for ci in cand:
                b = keep[ci]
                ts = np.concatenate([L[a], L[b]])
                ha = np.maximum(P[a][None, :] - ts[:, None] * Q[a][None, :], 0).sum(1)
                hb = np.maximum(P[b][None, :] - ts[:, None] * Q[b][None, :], 0).sum(1)
                diff = hb - ha
                if np.any(diff < -1e-12):
                    continue
                ok = True
                for j in np.nonzero(diff <= 1e-12)[0]:
                    te = (cfgs.Pe[a] + cfgs.Pe[b])[j] / (cfgs.Qe[a] + cfgs.Qe[b])[j]
                    if profile_exact(cfgs.Pe[a], cfgs.Qe[a], te) > profile_exact(cfgs.Pe[b], cfgs.Qe[b], te):
                        ok = False
                        break
                if ok:
                    dominated = True
                    break
        if not dominated:
            keep.append(a)
    return sorted(keep)


# ---------------------------------------------------------------- the adaptive dynamic program
def hull(a, b):
    """upper envelope over t > 0 of the lines y = a - b t: (a, b, breakpoints), t ascending."""
    o = np.lexsort((-a, b))
    a, b = a[o], b[o]
    first = np.r_[True, b[1:] != b[:-1]]
    a, b = a[first], b[first]
    ha, hb = [], []
    for x, y in zip(b.tolist(), a.tolist()):
        while len(hb) >= 2 and (ha[-1] - ha[-2]) * (x - hb[-2]) <= (y - ha[-2]) * (hb[-1] - hb[-2]):
            hb.pop()
            ha.pop()
        hb.append(x)
        ha.append(y)
    ha, hb = np.array(ha), np.array(hb)
    i = int(np.argmax(ha))
    ha, hb = ha[:i + 1][::-1], hb[:i + 1][::-1]
    bp = (ha[:-1] - ha[1:]) / (hb[:-1] - hb[1:])
    return ha, hb, bp


def heval(h, t):
    a, b, bp = h
    i = np.searchsorted(bp, t)
    return a[i] - b[i] * t


def next_hull(P, Q, h):
    a, b, bp = h
    C = P.shape[0]
    L = P / Q
    E = (L[:, :, None] * bp[None, None, :]).reshape(C, -1)
    dA = (P[:, :, None] * np.diff(a)[None, None, :]).reshape(C, -1)
    dB = (Q[:, :, None] * np.diff(b)[None, None, :]).reshape(C, -1)
    o = np.argsort(E, 1)
    dA = np.take_along_axis(dA, o, 1)
    dB = np.take_along_axis(dB, o, 1)
    A0 = (P * a[0]).sum(1)
    B0 = (Q * b[0]).sum(1)
    AA = np.concatenate([A0[:, None], A0[:, None] + np.cumsum(dA, 1)], 1)
    BB = np.concatenate([B0[:, None], B0[:, None] + np.cumsum(dB, 1)], 1)
    return hull(AA.ravel(), BB.ravel())


def hull_exact(lines):
    """hull() in exact arithmetic: lines [(a, b)] -> (a list, b list, breakpoints), t ascending."""
    lines = sorted(lines, key=lambda x: (x[1], -x[0]))
    ha, hb = [], []
    last_b = None
    for y, x in lines:
        if x == last_b:
            continue                               # same slope, smaller intercept
        last_b = x
        while len(hb) >= 2 and (ha[-1] - ha[-2]) * (x - hb[-2]) <= (y - ha[-2]) * (hb[-1] - hb[-2]):
            hb.pop()
            ha.pop()
        hb.append(x)
        ha.append(y)
    i = max(range(len(ha)), key=lambda j: (ha[j], -j))
    ha, hb = ha[:i + 1][::-1], hb[:i + 1][::-1]
    bp = [(ha[j] - ha[j + 1]) / (hb[j] - hb[j + 1]) for j in range(len(ha) - 1)]
    return ha, hb, bp


def next_hull_exact(Pe, Qe, Le, h):
    """the lines of every g_cfg(t) = sum_o P(o) D(t / L(o)) (D convex, given by its hull h), and
    their upper envelope: the hull of D_next = max_cfg g_cfg, exactly."""
    a, b, bp = h
    da = [a[i + 1] - a[i] for i in range(len(bp))]
    db = [b[i + 1] - b[i] for i in range(len(bp))]
    lines = []
    for P, Q, L in zip(Pe, Qe, Le):
        A = sum(p * a[0] for p in P)
        B = sum(q * b[0] for q in Q)
        lines.append((A, B))
        events = sorted(((L[o] * bp[i], o, i) for o in range(len(P)) for i in range(len(bp))),
                        key=lambda x: x[0])
        for _, o, i in events:
            A += P[o] * da[i]
            B += Q[o] * db[i]
            lines.append((A, B))
    return hull_exact(lines)


class Adaptive:
    """the adaptive adversary's dynamic program over a set of configurations. D_j for j < kmax
    is kept exactly as the upper envelope of its lines (Fractions; an mpf copy at 50 digits for
    an irrational t) and in floats (for root finding and the multisets' bounds); D_kmax(t) is
    max over configurations of sum_o P(o) D_{kmax-1}(t / L(o)), evaluated exactly."""

    def __init__(self, cfgs, kmax):
        self.c = cfgs
        self.kmax = kmax
        self.Le = [[p / q for p, q in zip(P, Q)] for P, Q in zip(cfgs.Pe, cfgs.Qe)]
        self.Pm = [[mp(p) for p in P] for P in cfgs.Pe]
        self.Qm = [[mp(q) for q in Q] for Q in cfgs.Qe]
        self.Lm = [[mp(x) for x in row] for row in self.Le]
        self.Pf = cfgs.Pf
        self.Lf = cfgs.Pf / cfgs.Qf
        self.h = [(np.array([1.0, 0.0]), np.array([1.0, 0.0]), np.array([1.0]))]
        self.he = [([F(1), F(0)], [F(1), F(0)], [F(1)])]
        for _ in range(1, kmax):
            self.h.append(next_hull(cfgs.Pf, cfgs.Qf, self.h[-1]))
            self.he.append(next_hull_exact(cfgs.Pe, cfgs.Qe, self.Le, self.he[-1]))
        self.hm = [tuple([mp(x) for x in part] for part in h) for h in self.he]
        for hf, he in zip(self.h, self.he):        # the float envelope is the exact one, rounded
            for x in he[2][::max(1, len(he[2]) // 200)]:
                i = bisect.bisect_left(he[2], x)
                assert abs(float(heval(hf, float(x))) - float(he[0][i] - he[1][i] * x)) < 1e-12

    def fvals(self, j, t):
        """float g_cfg(t) = sum_o P(o) D_{j-1}(t / L(o)) for every configuration."""
        return (self.Pf * heval(self.h[j - 1], t / self.Lf)).sum(1)

    def fD(self, j, t):
        return max(1.0 - t, 0.0) if j == 0 else float(self.fvals(j, t).max())

    def hull_at(self, j, t):
        """exact (value, slope) of D_j at t, j < kmax, from its exact envelope."""
        a, b, bp = self.he[j] if isinstance(t, F) else self.hm[j]
        i = bisect.bisect_left(bp, t)
        return a[i] - b[i] * t, -b[i]

    def D(self, j, t):
        """exact (value, subgradient) of D_j at t (Fraction; or mpf, 50 digits)."""
        if j < self.kmax:
            return self.hull_at(j, t)
        assert j == self.kmax
        exact = isinstance(t, F)
        a, b, bp = self.he[j - 1] if exact else self.hm[j - 1]
        best = None
        for ci in range(len(self.c)):
            Ps, Qs, Ls = (self.c.Pe[ci], self.c.Qe[ci], self.Le[ci]) if exact else \
                (self.Pm[ci], self.Qm[ci], self.Lm[ci])
            val, sl = 0, 0
            for p, q, L in zip(Ps, Qs, Ls):
                x = t / L
                i = bisect.bisect_left(bp, x)
                val += p * (a[i] - b[i] * x)
                sl -= q * b[i]
            if best is None or val > best[0] or (val == best[0] and sl > best[1]):
                best = (val, sl)
        return best

    def t_of_delta(self, k, delta):
        """exact smallest t >= 1 with D_k(t) <= delta: a float root, then Newton from the left."""
        lo, hi = 0.0, k * float(np.log(self.Lf.max())) + 1.0
        if self.fD(k, 1.0) <= float(delta):
            lo = hi = 0.0
        for _ in range(80):
            mid = (lo + hi) / 2
            if self.fD(k, math.exp(mid)) > float(delta):
                lo = mid
            else:
                hi = mid
        t = max(F(math.exp(lo)) * (1 - F(1, 10 ** 9)), F(1))
        if self.D(k, t)[0] <= delta:
            t = F(1)
        for _ in range(200):
            v, s = self.D(k, t)
            if v <= delta:
                return t
            t = t + (v - delta) / (-s)
        raise RuntimeError('Newton did not land')

    def value(self, k, key):
        if key[0] == 'delta':
            return eps_of_t(self.t_of_delta(k, F(key[1])))
        return mpmath.mpf(self.D(k, mpmath.exp(mpmath.mpf(key[1])))[0])


# ---------------------------------------------------------------- best fixed multiset
class Multisets:
    """max over multisets of k configurations of H_t of their product (no adapting)."""

    def __init__(self, cfgs, adapt):
        self.c, self.a = cfgs, adapt
        self.logP, self.logQ = np.log(cfgs.Pf), np.log(cfgs.Qf)

    def H(self, combos, t):
        """float H_t for an (M, k) array of configuration indices, in chunks."""
        out = np.empty(len(combos))
        for s0 in range(0, len(combos), 4000):
            idx = combos[s0:s0 + 4000]
            P, Q = self.c.Pf[idx[:, 0]], self.c.Qf[idx[:, 0]]
            for col in range(1, idx.shape[1]):
                P2, Q2 = self.c.Pf[idx[:, col]], self.c.Qf[idx[:, col]]
                P = (P[:, :, None] * P2[:, None, :]).reshape(len(idx), -1)
                Q = (Q[:, :, None] * Q2[:, None, :]).reshape(len(idx), -1)
            out[s0:s0 + len(idx)] = np.maximum(P - t * Q, 0).sum(1)
        return out

    def search(self, k, t, thresh=None, cap=50):
        """multisets of k configurations at t (float H_t): with thresh None, (max, those within
        tolerance of it); else (max, the cap largest of those above thresh). Branch and bound
        for k = 3: a multiset holding cfg is below b1[cfg] = sum_o P(o) D_2(t / L(o)) (the
        adaptive program continuing after cfg), one holding cfgs i, j below
        b2[i, j] = sum P_i P_j D_1(t / (L_i L_j)); candidates are streamed, a row i at a time."""
        C = len(self.c)
        if k == 1 or (k == 2 and C <= 2000) or C <= 80:
            if k == 2:
                iu, ju = np.triu_indices(C)
                combos = np.stack([iu, ju], 1)
            else:
                combos = np.array(list(itertools.combinations_with_replacement(range(C), k)))
            h = self.H(combos, t)
            m = h.max()
            sel = h >= m - TOL if thresh is None else h > thresh
            idx = np.nonzero(sel)[0]
            idx = idx[np.argsort(-h[idx])][:cap if thresh is not None else len(idx)]
            return m, [tuple(int(x) for x in combos[i]) for i in idx]
        assert k == 3
        b1 = self.a.fvals(3, t)
        if thresh is None:
            seed = np.array(list(itertools.combinations_with_replacement(np.argsort(-b1)[:15], 3)))
            v = float(self.H(seed, t).max())
        else:
            v = thresh
        live = np.sort(np.nonzero(b1 > v - 1e-9)[0])
        nl = len(live)
        if nl == 0:
            return -1.0, []
        iu, ju = np.triu_indices(nl)
        b2 = np.full((nl, nl), -1.0)
        for s0 in range(0, len(iu), 20000):
            pi, pj = live[iu[s0:s0 + 20000]], live[ju[s0:s0 + 20000]]
            Pij = (self.c.Pf[pi][:, :, None] * self.c.Pf[pj][:, None, :]).reshape(len(pi), -1)
            Lij = (self.a.Lf[pi][:, :, None] * self.a.Lf[pj][:, None, :]).reshape(len(pi), -1)
            x = (Pij * heval(self.a.h[1], t / Lij)).sum(1)
            b2[iu[s0:s0 + 20000], ju[s0:s0 + 20000]] = x
            b2[ju[s0:s0 + 20000], iu[s0:s0 + 20000]] = x
        OK = b2 > v - 1e-9
        found_h, found_c = [], []
        best = -1.0
        for a in range(nl):
            row = OK[a, a:]
            if not row.any():
                continue
            sub = np.triu(OK[a:, a:] & row[:, None] & row[None, :])
            jj, ll = np.nonzero(sub)
            if len(jj) == 0:
                continue
            cand = np.stack([np.full(len(jj), live[a]), live[a + jj], live[a + ll]], 1)
            h = self.H(cand, t)
            best = max(best, float(h.max()))
            keep = h >= (best - TOL if thresh is None else thresh)
            found_h.append(h[keep])
            found_c.append(cand[keep])
            if thresh is None and best > v:
                v = best                           # prune the rest harder
                OK = b2 > v - 1e-9
        if not found_h:
            return max(best, -1.0), []
        h = np.concatenate(found_h)
        cand = np.concatenate(found_c)
        m = max(best, float(h.max()) if len(h) else -1.0)
        sel = np.nonzero(h >= m - TOL if thresh is None else h > thresh)[0]
        sel = sel[np.argsort(-h[sel])][:cap if thresh is not None else len(sel)]
        return m, [tuple(int(x) for x in cand[i]) for i in sel]

    def exact(self, combo, key):
        P, Q = compose_exact([(self.c.Pe[i], self.c.Qe[i]) for i in combo])
        return target_exact(P, Q, key)

    def value(self, k, key, start=None):
        """exact best multiset value and its configurations (labels). start: (t, labels) of a
        multiset known to be among the configurations (the ends' best), to start from."""
        if key[0] == 'eps':
            m, cands = self.search(k, math.exp(float(key[1])))
            v, c = max(((self.exact(c, key), c) for c in cands), key=lambda x: x[0])
            return v, [self.c.labels[i] for i in c]
        delta = F(key[1])
        t, best = (F(1), None) if start is None else start
        for _ in range(200):
            # every multiset above delta - tolerance at t (the cap largest), exactly
            m, cands = self.search(k, float(t), thresh=float(delta) - 1e-12)
            new = None
            for c in cands:
                P, Q = compose_exact([(self.c.Pe[i], self.c.Qe[i]) for i in c])
                tc = t_of_delta(P, Q, delta)
                if (best is None or tc > t) and (new is None or tc > new[0]):
                    new = (tc, [self.c.labels[i] for i in c])
            if new is None:
                assert best is not None
                return eps_of_t(t), best           # no multiset's delta at t is above delta
            t, best = new
        raise RuntimeError('multiset search did not settle')


# ---------------------------------------------------------------- k = 1 searches off the grid
def fine_pair_search(s, n, keys):
    """client 1's ordered pair on the 1/48 grid, the others at every multiset of ends."""
    pts = [F(j, 48) for j in range(-48, 49)]
    labels = []
    for others in itertools.combinations_with_replacement(ENDS, n - 1):
        for w, w2 in itertools.permutations(pts, 2):
            labels.append((w, w2, tuple(others)))
    # float first (building every exact law would be slow), exact for the top
    U = np.array([[float(w), float(w2)] + [float(x) for x in o] for w, w2, o in labels])
    S = others_law_f(s, U[:, 2:]) if n > 1 else np.ones((len(U), 1))
    P = conv_rows(S, law_f(s, U[:, 0]))
    Q = conv_rows(S, law_f(s, U[:, 1]))
    vals = float_targets(P, Q, keys)
    out = {}
    for key in keys:
        idx = list(np.argsort(-vals[key])[:3])
        sub = Configs(s, n, [labels[i] for i in idx])
        out[key] = best_exact(sub, key, {key: vals[key][idx]})
    return out


def float_value(s, u, key):
    """float value of one configuration u = [w, w', others...]."""
    u = np.clip(np.asarray(u, float), -1, 1)
    S = np.ones((1, 1))
    for x in u[2:]:
        S = conv_rows(S, law_f(s, np.array([x])))
    P = conv_rows(S, law_f(s, np.array([u[0]])))
    Q = conv_rows(S, law_f(s, np.array([u[1]])))
    return float(float_targets(P, Q, [key])[key][0])


def continuous_search(s, n, keys):
    """every input on the 1/8 grid, then a pattern search (steps 1/16 .. 1/4096) from the best 3;
    the optimum's dyadic inputs recomputed exactly."""
    pts = [j / 8 for j in range(-8, 9)]
    others = np.array(list(itertools.combinations_with_replacement(pts, n - 1)))
    pairs = np.array([(a, b) for a in pts for b in pts if a != b])
    S = others_law_f(s, others)
    res = {}
    best_rows = {key: [] for key in keys}
    for o0 in range(0, len(others), 64):
        So = S[o0:o0 + 64]
        M = len(So) * len(pairs)
        Srep = np.repeat(So, len(pairs), 0)
        prep = np.tile(pairs, (len(So), 1))
        P = conv_rows(Srep, law_f(s, prep[:, 0]))
        Q = conv_rows(Srep, law_f(s, prep[:, 1]))
        vals = float_targets(P, Q, keys)
        for key in keys:
            for i in np.argsort(-vals[key])[:3]:
                u = [prep[i, 0], prep[i, 1]] + list(others[o0 + i // len(pairs)])
                best_rows[key].append((vals[key][i], u))
        del M
    for key in keys:
        starts = sorted(best_rows[key], key=lambda x: -x[0])[:3]
        found = []
        for v0, u in starts:
            u = list(u)
            v = float_value(s, u, key)
            step = 1 / 16
            while step >= 1 / 4096:
                improved = True
                while improved:
                    improved = False
                    for i in range(len(u)):
                        for sg in (1, -1):
                            x = min(1.0, max(-1.0, u[i] + sg * step))
                            if x == u[i]:
                                continue
                            trial = u[:i] + [x] + u[i + 1:]
                            if trial[0] == trial[1]:
                                continue
                            vt = float_value(s, trial, key)
                            if vt > v + 1e-15:
                                u, v, improved = trial, vt, True
                step /= 2
            found.append((v, u))
        v, u = max(found, key=lambda x: x[0])
        lab = (F(u[0]), F(u[1]), tuple(sorted(F(x) for x in u[2:])))
        sub = Configs(s, n, [lab])
        res[key] = (target_exact(sub.Pe[0], sub.Qe[0], key), lab)
    return res


# ---------------------------------------------------------------- corbin as a black box
def corbin(args):
    p = subprocess.run([CORBIN, 'account'] + args + ['--json'], capture_output=True, text=True)
    try:
        js = json.loads(p.stdout) if p.stdout.strip() else None
    except ValueError:
        js = None
    return p.returncode, js, p.stderr.strip()


def bracket(js, kind):
    if kind == 'delta':
        lo, hi = js.get('eps_lower_approx'), js.get('eps_upper_approx')
        lo = math.inf if js.get('eps_lower') == 'infinite' else lo
        hi = math.inf if js.get('eps_upper') == 'infinite' else hi
    else:
        lo, hi = js.get('delta_lower_approx'), js.get('delta_upper_approx')
    return lo, hi


def parse_offset(text, r):
    """'c - 1', 'c + 1/2', 'c' (optionally 'c - r') -> u = offset / r; None if not of that form."""
    text = text.strip()
    m = re.fullmatch(r'c(?:\s*([+-])\s*([0-9./]+|r))?', text)
    if not m:
        return None
    if m.group(1) is None:
        return F(0)
    mag = r if m.group(2) == 'r' else F(m.group(2))
    return (mag if m.group(1) == '+' else -mag) / r


def named_parts(js, n, r):
    """[(w, w', others, uses)] from worst_case.lower_bound_attained_by, or (None, why)."""
    try:
        parts = js['worst_case']['lower_bound_attained_by']
    except (KeyError, TypeError):
        return None, 'no lower_bound_attained_by'
    out = []
    for part in parts:
        try:
            w = parse_offset(part['client_1'].split(' at ', 1)[1], r)
            w2 = parse_offset(part['neighbour'].split(' at ', 1)[1], r)
            m = re.match(r'of the other (\d+) clients? (.*)$', part['other_ldpq'])
            others = []
            if m:
                for chunk in m.group(2).split(','):
                    cnt, pos = chunk.strip().split(' at ', 1)
                    others += [parse_offset(pos, r)] * int(cnt)
            elif n > 1:
                return None, 'other_ldpq unparsed: %r' % part['other_ldpq']
            if w is None or w2 is None or any(x is None for x in others) or len(others) != n - 1:
                return None, 'unparsed: %r' % part
            if part.get('other_pairs', 'no pairs') != 'no pairs':
                return None, 'pairs named: %r' % part['other_pairs']
            if str(part.get('order', '')).startswith('reversed'):
                w, w2 = w2, w
            out.append((w, w2, tuple(sorted(others)), int(part['uses'])))
        except Exception as exc:                   # noqa: BLE001
            return None, 'unparsed (%s): %r' % (exc, part)
    return out, None


# ---------------------------------------------------------------- one (n, e^eps)
def run_case(e, n, rows, log):
    s = EXP_EPS[e]
    t0 = time.time()
    info = {'n': n, 'e': e}
    grid = Configs(s, n, grid_labels(n, GRID))
    gvals = float_targets(grid.Pf, grid.Qf)
    ends_idx = [i for i, (w, w2, o) in enumerate(grid.labels) if abs(w) == 1 and abs(w2) == 1
                and all(abs(x) == 1 for x in o)]
    ends = grid.subset(ends_idx)
    evals = {key: gvals[key][ends_idx] for key in KEYS}
    k1 = {}
    fine = fine_pair_search(s, n, KEYS)
    cont = continuous_search(s, n, KEYS)
    for key in KEYS:
        g = best_exact(grid, key, gvals)
        en = best_exact(ends, key, evals)
        k1[key] = {'grid': g, 'ends': en, 'fine_pair': fine[key], 'continuous': cont[key]}
    log('# n=%d e^eps=%d: k=1 searches done (%d grid configurations), %.1fs'
        % (n, e, len(grid), time.time() - t0))
    # the configuration set for k >= 2: the grid plus the continuous optima, pruned
    extra = [cont[key][1] for key in KEYS if canon(cont[key][1]) not in set(map(canon, grid.labels))]
    extra = list(dict.fromkeys(extra))
    allc = Configs(s, n, grid.labels + extra)
    keep = prune(allc)
    kept = allc.subset(keep)
    adapt = Adaptive(kept, max(KS))
    msets = Multisets(kept, adapt)
    ends_keep = prune(ends)
    ends_k = ends.subset(ends_keep)
    adapt_e = Adaptive(ends_k, max(KS))
    msets_e = Multisets(ends_k, adapt_e)
    info.update(grid_configs=len(grid), extra_configs=len(extra), undominated=len(keep),
                ends_undominated=len(ends_keep))
    log('# n=%d e^eps=%d: %d configurations (+%d off-grid optima), %d undominated; %d end configurations, %d undominated; %.1fs'
        % (n, e, len(grid), len(extra), len(keep), len(ends), len(ends_keep), time.time() - t0))
    ref = {}
    for k in KS:
        for key in KEYS:
            if k == 1:
                cands = [k1[key][x] for x in ('grid', 'fine_pair', 'continuous')]
                best = max(cands, key=lambda x: x[0])
                # the dynamic program at k = 1 is the max over the pruned set: grid + off-grid optima
                dp1 = adapt.value(1, key)
                assert abs(dp1 - max(k1[key]['grid'][0], k1[key]['continuous'][0])) < mpmath.mpf(10) ** -30, key
                ref[(k, key)] = {'adap': best[0], 'adap_cfg': best[1], 'mset': best[0],
                                 'grid9': k1[key]['grid'][0], 'ends': k1[key]['ends'][0],
                                 'fine_pair': k1[key]['fine_pair'][0],
                                 'continuous': k1[key]['continuous'][0],
                                 'adap_ends': k1[key]['ends'][0], 'mset_ends': k1[key]['ends'][0],
                                 'cfgs': {x: k1[key][x][1] for x in ('grid', 'ends', 'fine_pair', 'continuous')}}
            else:
                av = adapt.value(k, key)
                ae = adapt_e.value(k, key)
                me, mce = msets_e.value(k, key)
                start = None
                if key[0] == 'delta':              # the ends' best multiset is a grid multiset
                    start = (multiset_t(s, n, mce, F(key[1])), mce)
                mv, mc = msets.value(k, key, start)
                ref[(k, key)] = {'adap': av, 'mset': mv, 'mset_cfg': mc,
                                 'adap_ends': ae, 'mset_ends': me}
            log('#   k=%d %s=%s: adaptive %s, multiset %s (ends only: %s, %s) %.1fs'
                % (k, key[0], key[1], mpmath.nstr(ref[(k, key)]['adap'], 15),
                   mpmath.nstr(ref[(k, key)]['mset'], 15), mpmath.nstr(ref[(k, key)]['adap_ends'], 15),
                   mpmath.nstr(ref[(k, key)]['mset_ends'], 15), time.time() - t0))
    # ---- a finer configuration set for k >= 2: client 1's pair at the ends with the others on
    # the 1/16 grid (1/8 at n = 4), and (n <= 3) every input on a finer grid (1/8 at n = 2, 1/6 at n = 3), added
    # to the undominated set above
    fine_pts = [F(j, 16 if n < 4 else 8) for j in range(-16 if n < 4 else -8, 17 if n < 4 else 9)]
    flabels = [(w, w2, tuple(o)) for o in itertools.combinations_with_replacement(fine_pts, n - 1)
               for w, w2 in ((F(-1), F(1)), (F(1), F(-1)))]
    if n == 2:
        flabels += grid_labels(2, [F(j, 8) for j in range(-8, 9)])
    if n == 3:
        flabels += grid_labels(3, [F(j, 6) for j in range(-6, 7)])
    seen = set(map(canon, kept.labels))
    flabels = [lab for lab in dict.fromkeys(map(canon, flabels)) if lab not in seen]
    fc = Configs(s, n, kept.labels + flabels)
    fkeep = prune(fc)
    fk = fc.subset(fkeep)
    adapt_f = Adaptive(fk, max(KS))
    msets_f = Multisets(fk, adapt_f)
    info.update(fine_configs=len(fc), fine_undominated=len(fkeep))
    for k in KS[1:]:
        for key in KEYS:
            r = ref[(k, key)]
            r['adap_fine'] = adapt_f.value(k, key)
            start = None
            if key[0] == 'delta':
                start = (multiset_t(s, n, r['mset_cfg'], F(key[1])), r['mset_cfg'])
            r['mset_fine'] = msets_f.value(k, key, start)[0]
    log('# n=%d e^eps=%d: finer set for k >= 2: %d configurations, %d undominated; %.1fs'
        % (n, e, len(fc), len(fkeep), time.time() - t0))
    # ---- corbin
    for k in KS:
        for key in KEYS:
            budget = ['--delta', key[1]] if key[0] == 'delta' else ['--at-eps', key[1]]
            modes = [('rounds', 'adap')] + ([('m', 'mset')] if k > 1 else [])
            for flag, which in modes:
                args = ['--mechanism', 'pbm2', '--n', str(n), '--exp-eps', str(e), '--' + flag, str(k)] + budget
                rows.append(compare(args, n, s, e, k, key, flag, ref[(k, key)][which], ref[(k, key)]))
    info['seconds'] = time.time() - t0
    return ref, info


def multiset_t(s, n, labels, delta):
    c = Configs(s, n, labels)
    P, Q = compose_exact(list(zip(c.Pe, c.Qe)))
    return t_of_delta(P, Q, delta)


def strategy_value(s, n, parts, k, key):
    """exact adaptive worst case using only the named configurations (their uses ignored)."""
    labs = list(dict.fromkeys((w, w2, o) for w, w2, o, _ in parts))
    c = Configs(s, n, labs)
    return Adaptive(c, k).value(k, key)


def compare(args, n, s, e, k, key, flag, true, r, radius=F(1)):
    rc, js, err = corbin(args)
    row = {'cmd': 'corbin account ' + ' '.join(args) + ' --json', 'n': n, 'e': e, 'k': k,
           'mode': flag, 'kind': key[0], 'target': key[1], 'rc': rc, 'true': float(true)}
    if rc != 0 or js is None:
        row.update(verdict='CORBIN-ERROR', err=err[:300])
        return row
    lo, hi = bracket(js, key[0])
    row.update(lo=lo, hi=hi)
    which = 'adap' if flag == 'rounds' else 'mset'
    if k > 1 and (which + '_fine') in r:
        row['grid_value'] = float(true)
        row['fine_value'] = float(r[which + '_fine'])
        if r[which + '_fine'] > true * (1 + mpmath.mpf(10) ** -25):
            row['fine_above_grid'] = float((r[which + '_fine'] - true) / true)
        true = max(true, r[which + '_fine'])       # the best value known, of a real configuration
        row['true'] = float(true)
    v = []
    what = 'adaptive' if flag == 'rounds' and k > 1 else ('multiset' if k > 1 else 'k=1 best')
    if mpmath.mpf(hi) < true:
        v.append('DEFECT:upper<exact(%s)' % what)
    if flag == 'm' and mpmath.mpf(hi) < r['adap']:
        row['m_upper_below_adaptive'] = True       # allowed: one round does not adapt
    if mpmath.mpf(lo) > true:
        v.append('DEFECT:lower>exact(%s)%s' % (what, '' if mpmath.mpf(lo) <= true * (1 + mpmath.mpf(10) ** -12)
                                                 else ' [value here is over the searched inputs only]'))
    parts, why = named_parts(js, n, radius)
    if parts is None:
        v.append('NOTE:named-config-unparsed(%s)' % why)
    else:
        row['named'] = [('%s,%s|%s' % (w, w2, ','.join(map(str, o))), u) for w, w2, o, u in parts]
        if any(abs(x) > 1 for w, w2, o, _ in parts for x in (w, w2) + o):
            v.append('DEFECT:named-non-input')
        row['named_all_ends'] = all(abs(x) == 1 for w, w2, o, _ in parts for x in (w, w2) + o)
        if flag == 'm' or k == 1 or (len(parts) == 1 and parts[0][3] == k):
            # a fixed composition: its exact value bounds the lower end from above
            pairs = []
            for w, w2, o, u in parts:
                c = Configs(s, n, [(w, w2, o)])
                pairs += [(c.Pe[0], c.Qe[0])] * u
            if sum(u for *_, u in parts) != k:
                v.append('NOTE:named-uses-sum=%d' % sum(u for *_, u in parts))
            P, Q = compose_exact(pairs)
            nv = target_exact(P, Q, key)
        else:
            nv = strategy_value(s, n, parts, k, key)
        row['named_value'] = float(nv)
        if mpmath.mpf(lo) > nv * (1 + mpmath.mpf(10) ** -13):
            v.append('DEFECT:lower>its-named-config(%s)' % mpmath.nstr(nv, 17))
    if true not in (0, mpmath.inf):
        row['rel_upper_gap'] = float((mpmath.mpf(hi) - true) / true)
        row['rel_lower_gap'] = float((true - mpmath.mpf(lo)) / true)
    ends = r['adap_ends'] if flag == 'rounds' else r['mset_ends']
    row['ends_value'] = float(ends)
    if ends < true * (1 - mpmath.mpf(10) ** -12):
        row['interior_matters'] = float((true - ends) / true)
    row['verdict'] = ','.join(v) or 'OK'
    return row


def geometry_cases(rows, refs):
    """laws depend on (w - c)/r only: another (c, r) must give the same bracket around the same
    value, and name inputs c +- r."""
    for n, e, k, c, r in [(3, 9, 2, '5', '2'), (2, 4, 3, '-1/3', '7/2'), (4, 4, 1, '1000', '1/1000')]:
        key = ('delta', '1e-3')
        ref = refs[(n, e)][(k, key)]
        args = ['--mechanism', 'pbm2', '--n', str(n), '--exp-eps', str(e), '--rounds', str(k),
                '--center', c, '--radius', r, '--delta', '1e-3']
        rows.append(compare(args, n, EXP_EPS[e], e, k, key, 'rounds', ref['adap'], ref, radius=F(r)))


def main():
    global CORBIN
    if '--cli' in sys.argv:
        CORBIN = sys.argv[sys.argv.index('--cli') + 1]
    out_json = sys.argv[sys.argv.index('--out') + 1] if '--out' in sys.argv else None
    ns = [int(x) for x in sys.argv[sys.argv.index('--ns') + 1].split(',')] if '--ns' in sys.argv else NS
    self_check_laws()
    cross = cross_check_laws_with_corbin()
    log = lambda m: print(m, file=sys.stderr, flush=True)
    rows, refs, infos = [], {}, []
    t0 = time.time()
    for n in ns:
        for e in EXP_EPS:
            ref, info = run_case(e, n, rows, log)
            refs[(n, e)] = ref
            infos.append(info)
    if all(x in ns for x in (2, 3, 4)):
        geometry_cases(rows, refs)
    # ---------------- report
    fmt = lambda x: ('%.12g' % x) if isinstance(x, float) else str(x)
    print('# pbm2 brute force: laws %s; configuration sets:' % ('cross-checked with corbin.law' if cross == 'agree' else 'not cross-checked'))
    for i in infos:
        print('#   n=%d e^eps=%d: %d grid configurations, %d off-grid optima added, %d undominated (ends: %d); finer set %d, %d undominated; %.1fs'
              % (i['n'], i['e'], i['grid_configs'], i['extra_configs'], i['undominated'], i['ends_undominated'],
                 i['fine_configs'], i['fine_undominated'], i['seconds']))
    print()
    print('## k = 1: the worst case over inputs (exact values; interior vs ends)')
    print('| n | e^eps | quantity | ends only | 9-point grid | 1/48 pair, others at ends | continuous search | best configuration (w, w\'; others) |')
    print('|---|---|---|---|---|---|---|---|')
    interior1 = []
    for (n, e), ref in refs.items():
        for key in KEYS:
            r = ref[(1, key)]
            best = max(('grid', 'fine_pair', 'continuous'), key=lambda x: r[x if x != 'grid' else 'grid9'])
            lab = r['cfgs'][best]
            if r['adap'] > r['ends'] * (1 + mpmath.mpf(10) ** -12):
                interior1.append((n, e, key, float((r['adap'] - r['ends']) / r['ends']), lab))
            print('| %d | %d | %s(%s) | %s | %s | %s | %s | %s, %s; %s |' % (
                n, e, 'eps' if key[0] == 'delta' else 'delta', key[1], mpmath.nstr(r['ends'], 13),
                mpmath.nstr(r['grid9'], 13), mpmath.nstr(r['fine_pair'], 13), mpmath.nstr(r['continuous'], 13),
                lab[0], lab[1], ', '.join(map(str, lab[2]))))
    print()
    print('## corbin against the exact values')
    print('exact = the best value of a real configuration found here (k = 1: every search above; k >= 2: the')
    print('9-point grid with the k = 1 optima, or the finer set where larger); --rounds k: the adaptive')
    print('adversary; --m k: the best fixed multiset.')
    print()
    print('| command | corbin [lower, upper] | exact | 9-point grid | finer set | ends only | upper gap | lower gap | verdict |')
    print('|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        ref = refs.get((r['n'], r['e']), {}).get((r['k'], (r['kind'], r['target'])), {})
        if r['k'] == 1:
            g, f = ref.get('grid9'), ref.get('continuous')
        else:
            g, f = r.get('grid_value'), r.get('fine_value')
        print('| `%s` | [%s, %s] | %s | %s | %s | %s | %s | %s | %s |' % (
            r['cmd'].replace('corbin account ', '').replace(' --json', '').replace('--mechanism pbm2 ', ''),
            fmt(r.get('lo')), fmt(r.get('hi')), fmt(r.get('true')),
            fmt(float(g)) if g is not None else '', fmt(float(f)) if f is not None else '',
            fmt(r.get('ends_value', '')),
            ('%.2e' % r['rel_upper_gap']) if 'rel_upper_gap' in r else '',
            ('%.2e' % r['rel_lower_gap']) if 'rel_lower_gap' in r else '',
            r['verdict'] + ((' ' + r['err']) if r.get('err') else '')))
    bad = [r for r in rows if 'DEFECT' in r['verdict'] or 'ERROR' in r['verdict']]
    notes = [r for r in rows if 'NOTE' in r['verdict']]
    print()
    print('%d cases (%d --rounds, %d --m, of which %d at another centre/radius), %d defects, %d notes; %.0fs'
          % (len(rows), sum(r['mode'] == 'rounds' for r in rows), sum(r['mode'] == 'm' for r in rows),
             sum('--center' in r['cmd'] for r in rows), len(bad), len(notes),
             time.time() - t0))
    for r in bad:
        print('DEFECT: %s  ->  [%s, %s] vs %s: %s' % (r['cmd'], fmt(r.get('lo')), fmt(r.get('hi')), fmt(r['true']), r['verdict']))
    for mode in ('rounds', 'm'):
        for k in KS:
            sel = [r for r in rows if r['mode'] == mode and r['k'] == k and 'rel_upper_gap' in r]
            if sel:
                gu = max(sel, key=lambda r: r['rel_upper_gap'])
                gl = max(sel, key=lambda r: r['rel_lower_gap'])
                print('--%s %d: (upper - exact)/exact max %.3g (%s); (exact - lower)/exact max %.3g (%s); min upper gap %.3g, min lower gap %.3g'
                      % (mode, k, gu['rel_upper_gap'], gu['cmd'], gl['rel_lower_gap'], gl['cmd'],
                         min(r['rel_upper_gap'] for r in sel), min(r['rel_lower_gap'] for r in sel)))
    print('k = 1: interior inputs beat the ends in %d of %d (n, e^eps, quantity):' % (len(interior1), 4 * len(refs)))
    for n, e, key, g, lab in interior1:
        print('  n=%d e^eps=%d %s(%s): +%.3g relative, at w=%s, w\'=%s, others %s'
              % (n, e, 'eps' if key[0] == 'delta' else 'delta', key[1], g, lab[0], lab[1], [str(x) for x in lab[2]]))
    im = [r for r in rows if r.get('interior_matters') and r['k'] > 1]
    print('k >= 2: the grid value above the ends-only value in %d of %d rows (max +%.3g relative)'
          % (len(im), sum(1 for r in rows if r['k'] > 1), max([r['interior_matters'] for r in im] or [0])))
    fa = [r for r in rows if r.get('fine_above_grid')]
    print('k >= 2: the finer set above the 9-point grid in %d of %d rows (max +%.3g relative)'
          % (len(fa), sum(1 for r in rows if r['k'] > 1), max([r['fine_above_grid'] for r in fa] or [0])))
    named = [r for r in rows if 'named' in r]
    print('named configurations: %d parsed, all inputs within [c - r, c + r]: %s; all at c +- r: %s'
          % (len(named), all('named-non-input' not in r['verdict'] for r in named),
             all(r.get('named_all_ends') for r in named)))
    mb = [r for r in rows if r.get('m_upper_below_adaptive')]
    print('--m upper below the adaptive value (allowed: one round does not adapt): %d of %d'
          % (len(mb), sum(1 for r in rows if r['mode'] == 'm')))
    if out_json:
        with open(out_json, 'w') as f:
            json.dump({'rows': rows, 'infos': infos}, f, indent=1, default=str)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
