#!/usr/bin/python3
"""Independent exact brute force for `corbin account` (issue 38, "How it is checked").

Written from the paper (/work/shared/paper/corbin-fl.tex) and REFERENCES.md alone, without reading
the accountant's source. It computes, in exact rational arithmetic (fractions.Fraction; mpmath only
to compare a printed decimal ε with the logarithm of an exact rational, and for the Gaussian's
closed form), the true ε(δ) and δ(ε) of the released aggregate and checks that `corbin account`'s
certified bracket contains it: no upper end below the truth, no "attained" lower end above it.

The mechanism, from the paper
-----------------------------
* LDPQ (Algorithm 1, lines 144-160): client output c + U r α, U = ±1, P(U = 1) = q,
  q = 1/2 + (w − c)/(2 r α), α = (e^ε + 1)/(e^ε − 1); so q ∈ [q_min, q_max] = [1/2 ∓ 1/(2α)].
* CorBinQ (Algorithm 2, lines 181-209, line 14 read as T_2 ≺ Z, the evident intent): shared Z
  uniform on {0, …, 2^d − 1} (lexicographic order of d fair bits = integer order); the leader
  (Q_1) outputs + if Z < t_1 = ⌊2^d q_1⌋, − if Z > t_1, and at Z = t_1 + with probability
  2^d q_1 − t_1; the follower (Q_2) outputs − if Z < t_2 = ⌊2^d (1 − q_2)⌋, + if Z > t_2, and at
  Z = t_2 − with probability 2^d (1 − q_2) − t_2; the two tie coins are private and independent.
  `pair_law` is the exact law of the number of + outputs of a pair.
* CorBin-FL / AugCorBin-FL (Algorithm 3, lines 237-268; Section "The Augmented CorBin-FL",
  lines 294-296): ⌊γ n⌋ clients on LDPQ, the others paired at random (an odd one out is alone,
  i.e. on LDPQ, as the reference code's pairing leaves it); within a pair the leader/follower
  roles come from the clients' coins (lines 6-13). The server releases the sum of the outputs
  (Eq. (1), line 107: (1/n)Σ, a bijection of the sum). Every output is c ± rα, so the sum is
  (c − rα) N + 2 r α K with N the number of outputs and K the number of + outputs.
* Neighbouring relations: replace (client 1's inputs w_1 → w_1', everything else equal) and
  remove (Eq. (1): the aggregate with and without client 1's output; a partner of a removed
  client still outputs its CorBinQ marginal, which is LDPQ's, Theorem 1 / D1).
* Dropout (Theorem 4, lines 323-345, and the proof at lines 821-840): every client, client 1
  included, drops independently with probability p each round; a pair with one survivor leaves
  the survivor with its marginal, LDPQ's law (line 323). Under replace the server sees who
  survived and the sum; under remove only the sum (docs/account.md's model, which is the only
  one with a finite ε under remove).
* The baselines of --mechanism (REFERENCES.md, "Baselines of the authors' repository"): ldp,
  pbm1, rqm2 are LDPQ exactly (B1); rqm3 (q = 1/2): levels c − X, c, c + X with X = r(1 + D),
  D = 2/((1 − q)(e^ε − 1)), the law printed there; gaussian: the sum of n clients each with
  N(0, σ²) noise, σ the smallest with the analytic-Gaussian condition (Balle & Wang, REFERENCES)
  at Δ = 2r, ε_p and --calibration-delta: the loss of one use is N(μ²/2, μ²), μ = 2r/(σ√n).

The worst case, and why finitely many inputs suffice
----------------------------------------------------
The adversary chooses every input in [c − r, c + r] (the other clients', the partner's, client 1's
two inputs), per coordinate and per round, in rounds after T = 1 in view of the earlier outputs;
in AugCorBin-FL it also picks client 1's role (LDPQ, leader, follower) each round (the accountant's
--role worst covers "every role, any sequence"; --role paired covers leading and following).
* Convexity: the hockey-stick divergence H_x(P‖Q) = Σ_o (P(o) − x Q(o))_+ is jointly convex in
  (P, Q). Every client's (and every pair's) output law is affine in its input on each cell between
  consecutive breakpoints q ∈ {k/2^d} (for LDPQ and pbm1/rqm2 on the whole range; for rqm3 on
  either side of c), and the released law is multi-affine in the independent blocks' laws, so the
  supremum over one input, the others fixed, is attained at a breakpoint or an end: the inputs
  are restricted to these finitely many values, and a block whose law is restricted to a set may
  further be restricted to the extreme points of that set's convex hull (used for other pairs'
  laws, 2-dimensional (P(K=0), P(K=2)), and for client 1's own input at a fixed partner input).
* Rounds: with L the product of the per-round likelihood ratios and x = e^ε,
  δ(x) = sup_strategy E_P[(1 − x/L)_+]. With k rounds left and y the threshold divided by the
  ratio so far, D_k(y) = max_c Σ_o P_c(o) D_{k−1}(y / r_c(o)), D_0(y) = (1 − y)_+ (an o with
  Q_c(o) = 0 contributes P_c(o)): backward induction over the output history whose state is the
  accumulated likelihood ratio, exact in Fractions. The per-round objective Σ_o Q_c g(P_c/Q_c) has
  g(u) = u D_{k−1}(y/u), the perspective of a convex function, so it is convex in (P_c, Q_c) too:
  the same finite inputs are exact for the adaptive adversary; and a round configuration whose
  hockey-stick curve is dominated at every x ∈ (0, ∞) by another's is a garbling of it
  (Blackwell-Sherman-Stein for dichotomies) and is dropped (`prune`) without changing any value.
  D_T is convex, decreasing and piecewise linear in x, so ε(δ) = ln x* with x* rational is found
  exactly by Newton steps from x = 1 on supporting lines (each strategy's line is one).
* Coordinates of one round are released together (not adaptive within a round): without dropout a
  round is the product of its m coordinates' experiments (same role); with dropout the survivors
  are shared by the coordinates and the round's law is built jointly.
The value reported as "exact" is this adaptive supremum (the accountant's stated claim covers
adaptive choices, "even in view of earlier rounds' outputs"); for T = 1 it is the plain maximum
over configurations. An upper end below it, or a lower end above it, is a violation.

Use
---
  accountant_bruteforce.py quick            the ctest subset (exit 1 on any violation)
  accountant_bruteforce.py sweep [--budget S] [--jobs J] [--out FILE]   the larger sweep
  accountant_bruteforce.py case --n 4 --gamma 1 --exp-eps 3 --delta 1/10 [...]   one case
CORBIN_CLI (environment) or --cli names the corbin binary.
"""
import argparse
import itertools
import json
import math
import os
import random
import subprocess
import sys
import time
from fractions import Fraction as F

INF = math.inf

# --------------------------------------------------------------------------------------------
# Elementary laws
# --------------------------------------------------------------------------------------------


def alpha_of(e):
    return (e + 1) / (e - 1)


def q_range(e):
    a = alpha_of(e)
    return (1 - 1 / a) / 2, (1 + 1 / a) / 2


def breakpoints(d, qmin, qmax):
    """q values where a CorBinQ client's law changes slope: the ends and every k/2^d inside."""
    s = 2 ** d
    pts = {qmin, qmax}
    for k in range(s + 1):
        v = F(k, s)
        if qmin < v < qmax:
            pts.add(v)
    return sorted(pts)


def pair_law(ql, qf, d):
    """Exact law of the number of + outputs of a CorBinQ pair (leader input ql, follower qf)."""
    s = 2 ** d
    t1 = math.floor(s * ql)
    f1 = s * ql - t1
    t2 = math.floor(s * (1 - qf))
    f2 = s * (1 - qf) - t2
    law = {0: F(0), 1: F(0), 2: F(0)}
    for z in range(s):
        lp = F(1) if z < t1 else (f1 if z == t1 else F(0))          # P(leader +)
        fm = F(1) if z < t2 else (f2 if z == t2 else F(0))          # P(follower −)
        fp = 1 - fm
        law[2] += lp * fp
        law[1] += lp * fm + (1 - lp) * fp
        law[0] += (1 - lp) * fm
    return {k: v / s for k, v in law.items() if v}


def rqm3_law(x, r, e, qk=F(1, 2)):
    """RQM with three levels (REFERENCES.md): law of the level index 0, 1, 2 at x = w − c."""
    D = 2 / ((1 - qk) * (e - 1))
    X = r * (1 + D)
    if x >= 0:
        p0 = (1 - qk) * (X - x) / (2 * X)
        p1 = qk * (X - x) / X
        p2 = (1 - qk) * (X + x) / (2 * X) + qk * x / X
    else:
        p0 = (1 - qk) * (X - x) / (2 * X) + qk * (-x) / X
        p1 = qk * (X + x) / X
        p2 = (1 - qk) * (X + x) / (2 * X)
    return {k: v for k, v in ((0, p0), (1, p1), (2, p2)) if v}


class Enc:
    """Mixed-radix integer keys for the observation (K per coordinate, N, survivor counts per
    slot): adding two keys adds every digit, so the law of a sum of independent blocks is a
    convolution over integers."""

    def __init__(self, n, m, nslots=0, kmax=None):
        self.n = n
        self.m = m
        self.rk = (kmax if kmax is not None else 2 * n) + 1
        radices = [self.rk] * m + [n + 1] + [n + 1] * nslots
        self.w = []
        acc = 1
        for rad in radices:
            self.w.append(acc)
            acc *= rad

    def key(self, ks, N, slots=()):
        k = N * self.w[self.m]
        for j, kk in enumerate(ks):
            k += kk * self.w[j]
        for i, c in slots:
            k += c * self.w[self.m + 1 + i]
        return k

    def decode(self, key):
        ks = tuple((key // self.w[j]) % self.rk for j in range(self.m))
        N = (key // self.w[self.m]) % (self.n + 1)
        return ks, N


class Law:
    """A law as integer numerators over one denominator."""
    __slots__ = ("d", "den")

    def __init__(self, d, den):
        self.d = d
        self.den = den

    @staticmethod
    def of(fr):
        den = 1
        for v in fr.values():
            den = den * v.denominator // math.gcd(den, v.denominator)
        return Law({k: int(v * den) for k, v in fr.items() if v}, den)

    def sig(self):
        return (self.den, tuple(sorted(self.d.items())))


def conv(a, b):
    out = {}
    for ka, va in a.d.items():
        for kb, vb in b.d.items():
            k = ka + kb
            out[k] = out.get(k, 0) + va * vb
    return Law(out, a.den * b.den)


def unit():
    return Law({0: 1}, 1)


def product_over_coords(laws):
    """Product of per-coordinate laws (dict index -> prob) as a dict index-tuple -> prob."""
    out = {(): F(1)}
    for law in laws:
        nxt = {}
        for k, v in out.items():
            for kk, vv in law.items():
                nxt[k + (kk,)] = nxt.get(k + (kk,), 0) + v * vv
        out = nxt
    return out


def bern(q):
    return {1: q, 0: 1 - q}


def lone_block(enc, laws, p, slot=None):
    """One lone client (per-coordinate output laws), dropping with probability p; `slot` counts it
    among the observed survivors."""
    out = {}
    for ks, v in product_over_coords(laws).items():
        k = enc.key(ks, 1, [(slot, 1)] if slot is not None else ())
        out[k] = out.get(k, 0) + (1 - p) * v
    if p:
        k0 = enc.key((0,) * enc.m, 0)
        out[k0] = out.get(k0, 0) + p
    return Law.of(out)


def pair_block(enc, qas, qbs, d, p, slots=None):
    """A CorBinQ pair (client a leading, per-coordinate inputs); with dropout a lone survivor is on
    LDPQ. slots = (both, a only, b only), each a list of (slot, count), or None."""
    out = {}
    sb, sa, sbb = slots if slots else ((), (), ())
    for ks, v in product_over_coords([pair_law(x, y, d) for x, y in zip(qas, qbs)]).items():
        k = enc.key(ks, 2, sb)
        out[k] = out.get(k, 0) + (1 - p) ** 2 * v
    if p:
        for qs, sl in ((qas, sa), (qbs, sbb)):
            for ks, v in product_over_coords([bern(q) for q in qs]).items():
                k = enc.key(ks, 1, sl)
                out[k] = out.get(k, 0) + p * (1 - p) * v
        k0 = enc.key((0,) * enc.m, 0)
        out[k0] = out.get(k0, 0) + p * p
    return Law.of(out)


# --------------------------------------------------------------------------------------------
# Experiments: a pair of laws in canonical form, a list of (ratio, P-mass, Q-mass)
# --------------------------------------------------------------------------------------------


def experiment(P, Q):
    """Canonical form of the pair (P, Q) of laws (Law objects on the same observations): merged by
    likelihood ratio (lossless: the ratio is sufficient), sorted by ratio descending, INF first."""
    acc = {}
    Pd, Qd = P.den, Q.den
    for o, pn in P.d.items():
        qn = Q.d.get(o, 0)
        r = INF if qn == 0 else F(pn * Qd, qn * Pd)
        at = acc.get(r)
        if at is None:
            acc[r] = [pn, qn]
        else:
            at[0] += pn
            at[1] += qn
    z = sum(qn for o, qn in Q.d.items() if o not in P.d)
    if z:
        acc.setdefault(F(0), [0, 0])[1] += z
    return tuple(sorted(((r, F(at[0], Pd), F(at[1], Qd)) for r, at in acc.items()), key=lambda t: -t[0]))


def reverse(ex):
    out = []
    for r, p, q in ex:
        rr = INF if p == 0 else (F(0) if r == INF else 1 / r)
        out.append((rr, q, p))
    acc = {}
    for r, p, q in out:
        a = acc.setdefault(r, [F(0), F(0)])
        a[0] += p
        a[1] += q
    return tuple(sorted(((r, a[0], a[1]) for r, a in acc.items()), key=lambda t: -t[0]))


def compose(e1, e2):
    acc = {}
    for r1, p1, q1 in e1:
        for r2, p2, q2 in e2:
            p = p1 * p2
            q = q1 * q2
            if not p and not q:
                continue
            r = INF if q == 0 else p / q
            a = acc.get(r)
            if a is None:
                acc[r] = [p, q]
            else:
                a[0] += p
                a[1] += q
    return tuple(sorted(((r, a[0], a[1]) for r, a in acc.items()), key=lambda t: -t[0]))


def hockey(ex, y):
    """H_y(P‖Q) = Σ (P − yQ)_+ and its supporting line (a, b): H = a − y b."""
    a = F(0)
    b = F(0)
    for r, p, q in ex:
        if r > y:
            a += p
            b += q
        else:
            break
    return a - y * b, a, b


def eps_of(ex, delta):
    """Exact x* = e^ε of one experiment in the direction P‖Q: the least x >= 1 with H_x <= δ.
    H is piecewise linear: on [r_i, r_{i-1}) it is A − x B with A, B the masses of the atoms of
    ratio >= r_{i-1} (INF first)."""
    A = sum((p for r, p, q in ex if r == INF), F(0))
    B = F(0)
    if A > delta:
        return INF
    for r, p, q in ex:
        if r == INF:
            continue
        low = r if r > 1 else F(1)
        if A - low * B > delta:
            return (A - delta) / B
        if r <= 1:
            return F(1)
        A += p
        B += q
    if A - B > delta:
        return (A - delta) / B
    return F(1)


def dominated(e, f):
    """True when H_y(e) <= H_y(f) for every y in (0, ∞): e is a garbling of f (exact test).
    On each piece between f's ratios H(f) is linear and H(e) convex, so the ends suffice; beyond
    the largest ratio H(f) is constant at its INF mass and H(e) decreasing."""
    pe = sum((p for r, p, q in e if r == INF), F(0))
    pf = sum((p for r, p, q in f if r == INF), F(0))
    if pe > pf:
        return False
    for r, p, q in f:
        if r == INF or r == 0:
            continue
        if hockey(e, r)[0] > hockey(f, r)[0]:
            return False
    return True


def prune(exps):
    """Drop duplicates and experiments dominated (everywhere on the hockey-stick curve) by another:
    exact for every quantity computed here (Blackwell-Sherman-Stein for dichotomies)."""
    import numpy as np
    uniq = list(dict.fromkeys(exps))
    if len(uniq) <= 1:
        return uniq
    grid = sorted({float(r) for ex in uniq for r, p, q in ex if r != INF and r > 0})
    if len(grid) > 96:
        step = len(grid) / 96
        grid = [grid[int(i * step)] for i in range(96)]
    g = np.array(grid)
    prof = []
    for ex in uniq:
        rs = np.array([float(r) for r, p, q in ex])
        ps = np.array([float(p) for r, p, q in ex])
        qs = np.array([float(q) for r, p, q in ex])
        fin = np.isfinite(rs)
        mask = rs[None, :] > g[:, None]
        h = (mask * (ps[None, :] - np.where(fin, qs, 0.0)[None, :] * g[:, None])).sum(axis=1)
        prof.append(np.append(h, ps[~fin].sum()))
    P = np.array(prof)
    order = np.argsort(-P.sum(axis=1), kind="stable")
    kept = []
    for i in order:
        if kept:
            cand = np.nonzero((P[i][None, :] <= P[kept] + 1e-12).all(axis=1))[0]
            if any(dominated(uniq[i], uniq[kept[j]]) for j in cand):
                continue
        kept.append(i)
    return [uniq[i] for i in kept]


# --------------------------------------------------------------------------------------------
# Geometry helpers
# --------------------------------------------------------------------------------------------


def hull2d(points):
    """Vertices of the convex hull of 2-D rational points (collinear points dropped)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower, upper = [], []
    for pnt in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], pnt) <= 0:
            lower.pop()
        lower.append(pnt)
    for pnt in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], pnt) <= 0:
            upper.pop()
        upper.append(pnt)
    return lower[:-1] + upper[:-1]


def pt_of(law):
    return (law.get(0, F(0)), law.get(2, F(0)))


# --------------------------------------------------------------------------------------------
# The setting and its per-round experiments
# --------------------------------------------------------------------------------------------


class Setting:
    def __init__(self, n, exp_eps, gamma=F(1), d=5, p=F(0), relation="replace", role="worst",
                 m=1, T=1, c=F(0), r=F(1), mechanism=None, calibration_delta=None):
        self.n = n
        self.e = F(exp_eps)
        self.gamma = F(gamma)
        self.d = d
        self.p = F(p)
        self.relation = relation
        self.role = role
        self.m = m
        self.T = T
        self.c = F(c)
        self.r = F(r)
        self.mechanism = mechanism
        self.calibration_delta = calibration_delta
        self.alpha = alpha_of(self.e)
        self.qmin, self.qmax = q_range(self.e)

    def population(self):
        """(clients on LDPQ incl. an odd one out, pairs)."""
        nl = math.floor(self.gamma * self.n)
        rest = self.n - nl
        return nl + rest % 2, rest // 2

    def roles(self):
        nl, npairs = self.population()
        allowed = []
        if self.role in ("worst", "ldpq") and nl >= 1:
            allowed.append("ldpq")
        if self.role in ("worst", "paired") and npairs >= 1:
            # leading or following: a pair's count law is symmetric in its two inputs (checked
            # at every breakpoint by `pair_symmetric`, hence everywhere by bilinearity on cells),
            # so client 1 following with (q1, qp) is client 1 leading with the same inputs
            allowed.append("paired")
        return allowed

    def cli_args(self):
        a = ["--n", str(self.n), "--exp-eps", str(self.e), "--m", str(self.m), "--rounds", str(self.T)]
        if self.mechanism:
            a += ["--mechanism", self.mechanism]
            if self.mechanism == "gaussian":
                a += ["--calibration-delta", str(self.calibration_delta)]
            if self.c:
                a += ["--center", str(self.c)]
            if self.r != 1:
                a += ["--radius", str(self.r)]
            return a
        a += ["--gamma", str(self.gamma), "--bits", str(self.d), "--role", self.role,
              "--neighbours", self.relation]
        if self.p:
            a += ["--dropout", str(self.p)]
        if self.c:
            a += ["--center", str(self.c)]
        if self.r != 1:
            a += ["--radius", str(self.r)]
        return a

    def describe(self):
        return " ".join(self.cli_args())


def pair_symmetric(B, d):
    return all(pair_law(x, y, d) == pair_law(y, x, d) for x in B for y in B)


def release(s, enc, law):
    """The observation: under replace the key itself (K per coordinate, and with dropout who
    survived); under remove only the sum per coordinate, (c − rα) N + 2 r α K."""
    if s.relation == "replace":
        return law
    out = {}
    for k, v in law.d.items():
        ks, N = enc.decode(k)
        base = (s.c - s.r * s.alpha) * N
        key = tuple(base + 2 * s.r * s.alpha * kk for kk in ks)
        out[key] = out.get(key, 0) + v
    return Law(out, law.den)


def coord_candidates(s, role):
    """Per coordinate, client 1's candidate inputs (q1, q1', qp) after the convexity reductions."""
    B = breakpoints(s.d, s.qmin, s.qmax)
    keep_equal = s.m > 1 and bool(s.p)   # an uninformative coordinate can matter jointly
    if role == "ldpq":
        E = [s.qmin, s.qmax]
        if s.relation == "replace":
            return [(a, b, None) for a in E for b in E if a != b or keep_equal]
        return [(a, None, None) for a in E]
    cands = []
    for qp in B:
        if s.p:
            ones = B
        else:
            # at a fixed partner input, client 1's own law over (P(K=0), P(K=2)) may be restricted
            # to the hull vertices of the curve q1 -> law (the objective is convex in that law)
            pts = {}
            for q1 in B:
                pts.setdefault(pt_of(pair_law(q1, qp, s.d)), q1)
            ones = [pts[v] for v in hull2d(list(pts))]
        if s.relation == "replace":
            cands += [(a, b, qp) for a in ones for b in ones if a != b or keep_equal]
        else:
            cands += [(a, None, qp) for a in ones]
    return cands


def round_parts(s, role):
    """Client 1's blocks (in both worlds) and the other clients' joint laws, for one round of
    client 1 in `role`: (enc, [(blockP, blockQ)], [R])."""
    nl, npairs = s.population()
    if role == "ldpq":
        nl -= 1
    else:
        npairs -= 1
    observed = s.relation == "replace" and bool(s.p)
    m = s.m
    B = breakpoints(s.d, s.qmin, s.qmax)
    if not pair_symmetric(B, s.d):
        raise AssertionError("pair law not symmetric: leader and follower differ")
    lone_choices = list(itertools.product([s.qmin, s.qmax], repeat=m)) if nl else []
    if npairs == 0:
        pair_choices = []
    elif not s.p and m == 1:
        # other pairs: the hull vertices of their achievable laws (P(K=0), P(K=2))
        pts = {}
        for ql in B:
            for qf in B:
                pts.setdefault(pt_of(pair_law(ql, qf, s.d)), ((ql,), (qf,)))
        pair_choices = [pts[v] for v in hull2d(list(pts))]
    else:
        # every pair of breakpoint inputs, per coordinate; (a, b) and (b, a) are the same pair
        seen = {}
        for qls in itertools.product(B, repeat=m):
            for qfs in itertools.product(B, repeat=m):
                if (qfs, qls) in seen:
                    continue
                seen[(qls, qfs)] = True
        pair_choices = list(seen)
    nslots = (2 + len(lone_choices) + 3 * len(pair_choices)) if observed else 0
    enc = Enc(s.n, m, nslots)
    # client 1
    c1 = []
    cands = coord_candidates(s, role)
    for combo in itertools.product(cands, repeat=m):
        q1s = [t[0] for t in combo]
        q1ps = [t[1] for t in combo]
        qps = [t[2] for t in combo]
        if role == "ldpq":
            bP = lone_block(enc, [bern(q) for q in q1s], s.p, 0 if observed else None)
            bQ = (lone_block(enc, [bern(q) for q in q1ps], s.p, 0 if observed else None)
                  if s.relation == "replace" else unit())
        else:
            sl = (([(0, 1), (1, 1)], [(0, 1)], [(1, 1)]) if observed else None)
            bP = pair_block(enc, q1s, qps, s.d, s.p, sl)
            bQ = (pair_block(enc, q1ps, qps, s.d, s.p, sl) if s.relation == "replace"
                  else lone_block(enc, [bern(q) for q in qps], s.p, None))
        c1.append((bP, bQ))
    # the others
    lone_laws = [lone_block(enc, [bern(q) for q in ch], s.p, 2 + i if observed else None)
                 for i, ch in enumerate(lone_choices)]
    base = 2 + len(lone_choices)
    pair_laws = []
    for i, (qls, qfs) in enumerate(pair_choices):
        sl = (([(base + 3 * i, 1)], [(base + 3 * i + 1, 1)], [(base + 3 * i + 2, 1)]) if observed else None)
        pair_laws.append(pair_block(enc, list(qls), list(qfs), s.d, s.p, sl))

    def parts(laws, k):
        res = []
        for combo in itertools.combinations_with_replacement(range(len(laws)), k):
            law = unit()
            for i in combo:
                law = conv(law, laws[i])
            res.append(law)
        return res or [unit()]
    lone_parts = parts(lone_laws, nl) if nl else [unit()]
    pair_parts = parts(pair_laws, npairs) if npairs else [unit()]
    others = {}
    for a in lone_parts:
        for b in pair_parts:
            law = conv(a, b)
            others.setdefault(law.sig(), law)
    return enc, c1, list(others.values())


def rooms_round(s):
    """Per-coordinate experiments of a --mechanism room of n lone clients (replace)."""
    if s.mechanism in ("ldp", "pbm1", "rqm2"):
        ext = [s.qmin, s.qmax]
        lawf = bern
    elif s.mechanism == "rqm3":
        ext = [-s.r, F(0), s.r]
        lawf = lambda x: rqm3_law(x, s.r, s.e)
    else:
        raise ValueError(s.mechanism)
    enc = Enc(s.n, 1)
    blocks = [lone_block(enc, [lawf(x)], F(0)) for x in ext]
    others = []
    for cnt in itertools.combinations_with_replacement(range(len(ext)), s.n - 1):
        law = unit()
        for i in cnt:
            law = conv(law, blocks[i])
        others.append(law)
    exps = []
    for a in range(len(ext)):
        for b in range(len(ext)):
            if a != b:
                for R in others:
                    exps.append(experiment(conv(blocks[a], R), conv(blocks[b], R)))
    return exps


def role_round_experiments(s, role, budget_s=None):
    """The experiments of one round (all m coordinates) for client 1 in one role; for remove the
    forward direction only (P: with client 1)."""
    t0 = time.time()
    if s.p or s.m == 1:
        enc, c1, others = round_parts(s, role)
        exps = []
        for R in others:
            for bP, bQ in c1:
                exps.append(experiment(release(s, enc, conv(bP, R)), release(s, enc, conv(bQ, R))))
                if budget_s and time.time() - t0 > budget_s:
                    raise TimeoutError("configurations")
        return exps
    # m > 1 without dropout: a product of one-coordinate experiments of the same role
    s1 = Setting(s.n, s.e, s.gamma, s.d, s.p, s.relation, s.role, 1, s.T, s.c, s.r)
    one = prune(role_round_experiments(s1, role, budget_s))
    exps = list(one)
    for _ in range(s.m - 1):
        exps = prune([compose(a, b) for a in exps for b in one])
    return exps


def round_experiments(s, budget_s=None):
    """(forward, reverse) sets of round experiments; for replace both are the same closed set."""
    if s.mechanism:
        one = prune(rooms_round(s))
        exps = list(one)
        for _ in range(s.m - 1):
            exps = prune([compose(a, b) for a in exps for b in one])
        return exps, exps
    fwd = []
    for role in s.roles():
        fwd += role_round_experiments(s, role, budget_s)
    red = prune if s.T > 1 else (lambda xs: list(dict.fromkeys(xs)))
    if s.relation == "replace":
        fwd = red(fwd + [reverse(e) for e in fwd])
        return fwd, fwd
    rev = red([reverse(e) for e in fwd])
    return red(fwd), rev


# --------------------------------------------------------------------------------------------
# The adaptive dynamic program over rounds
# --------------------------------------------------------------------------------------------


class Envelope:
    """D_1(y) = max over experiments of H_y: the upper envelope of the lines a − y b of every
    experiment's threshold sets."""

    def __init__(self, exps):
        lines = {}
        for ex in exps:
            a = F(0)
            b = F(0)
            lines[b] = max(lines.get(b, F(-1)), a)
            for r, p, q in ex:
                a += p
                b += q
                if lines.get(b, F(-1)) < a:
                    lines[b] = a
        # sort by slope b descending (steepest first: best at small y)
        ls = sorted(lines.items(), key=lambda t: -t[0])
        hull = []   # (b, a)
        for b, a in ls:
            while hull:
                b2, a2 = hull[-1]
                if a2 <= a:    # same or larger value at y = 0 with a smaller slope: dominates
                    hull.pop()
                    continue
                if len(hull) >= 2:
                    b1, a1 = hull[-2]
                    # intersection of 1 and 3 vs 1 and 2
                    x13 = (a1 - a) / (b1 - b)
                    x12 = (a1 - a2) / (b1 - b2)
                    if x13 <= x12:
                        hull.pop()
                        continue
                break
            hull.append((b, a))
        self.lines = hull
        self.cuts = []   # y where line i+1 takes over from line i
        for i in range(len(hull) - 1):
            b1, a1 = hull[i]
            b2, a2 = hull[i + 1]
            self.cuts.append((a1 - a2) / (b1 - b2))

    def line(self, y):
        lo, hi = 0, len(self.cuts)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.cuts[mid] <= y:
                lo = mid + 1
            else:
                hi = mid
        b, a = self.lines[lo]
        return a, b


class DP:
    """δ(x) = sup over adaptive strategies, by backward induction (exact); rounds[t] is the set of
    experiments the adversary may pick from in round t (round 0 first)."""

    def __init__(self, rounds, deadline=None):
        self.rounds = rounds
        self.T = len(rounds)
        self.env = Envelope(rounds[-1])
        self.memo = {}
        self.deadline = deadline

    def line(self, k, y):
        """A supporting line (a, b) of D_k at y (k rounds left): D_k(y) = a − y b."""
        if k == 0:
            return (F(1), F(1)) if y < 1 else (F(0), F(0))
        if k == 1:
            return self.env.line(y)
        key = (k, y)
        got = self.memo.get(key)
        if got is not None:
            return got
        if self.deadline and time.time() > self.deadline:
            raise TimeoutError("dp")
        best = None
        for ex in self.rounds[self.T - k]:
            a = F(0)
            b = F(0)
            for r, p, q in ex:
                if p == 0:
                    continue
                if r == INF:
                    a += p
                    continue
                a2, b2 = self.line(k - 1, y / r)
                a += p * a2
                b += q * b2
            v = a - y * b
            if best is None or v > best[0]:
                best = (v, a, b)
        res = (best[1], best[2])
        self.memo[key] = res
        return res

    def value(self, x):
        a, b = self.line(self.T, x)
        return a - x * b

    def at_infinity(self):
        e = F(0)
        for exps in reversed(self.rounds):
            e = max(sum((p for r, p, q in ex if r == INF), F(0))
                    + sum((p for r, p, q in ex if r != INF), F(0)) * e for ex in exps)
        return e

    def exp_eps(self, delta):
        """x* = the least x >= 1 with δ(x) <= δ (INF when none): Newton on supporting lines."""
        if self.at_infinity() > delta:
            return INF
        x = F(1)
        for _ in range(500):
            a, b = self.line(self.T, x)
            v = a - x * b
            if v <= delta:
                return x
            if b == 0:
                return INF
            nx = (a - delta) / b
            assert nx > x
            x = nx
        raise AssertionError("Newton did not terminate")


def run_rounds(phases, budget_s=None):
    """Per direction, the list of per-round experiment sets of a run of phases."""
    rel = phases[0].relation
    assert all(ph.relation == rel for ph in phases)
    fw, rv = [], []
    for ph in phases:
        f, r = round_experiments(ph, budget_s)
        fw += [f] * ph.T
        rv += [r] * ph.T
    if all(ph.relation == "replace" or ph.mechanism for ph in phases):
        return [fw]
    return [fw, rv]


def truth(s, delta=None, eps=None, budget_s=60.0):
    """The exact worst case: {'x': e^ε* (Fraction or INF)} for a δ, or {'delta_lo', 'delta_hi'}
    (δ at rationals just below and above e^ε) for an ε. Adaptive over rounds when T > 1.
    s is a Setting or a list of Settings (phases, each with its own T)."""
    phases = s if isinstance(s, list) else [s]
    deadline = time.time() + budget_s
    dirs = run_rounds(phases, budget_s)
    T = len(dirs[0])
    res = {"configurations": sum(len(e) for e in {id(e): e for d_ in dirs for e in d_}.values())}
    if delta is not None:
        xs = []
        for rounds in dirs:
            if T == 1:
                xs.append(max(eps_of(ex, delta) for ex in rounds[0]))
            else:
                xs.append(DP(rounds, deadline).exp_eps(delta))
        res["x"] = max(xs)
        # the best fixed (non-adaptive) sequence: every sequence when few, else each round's two
        # best single configurations; a lower bound of the truth, reported beside it
        if T > 1:
            best = F(1)
            for rounds in dirs:
                ncomb = 1
                for exps in rounds:
                    ncomb *= len(exps)
                if ncomb <= 4000:
                    same = all(e is rounds[0] for e in rounds)
                    combos = (itertools.combinations_with_replacement(rounds[0], T) if same
                              else itertools.product(*rounds))
                else:
                    tops = [sorted(exps, key=lambda ex: -to_float_log(eps_of(ex, delta)))[:2] for exps in rounds]
                    combos = itertools.product(*tops)
                for combo in combos:
                    c = combo[0]
                    for ex in combo[1:]:
                        c = compose(c, ex)
                    best = max(best, eps_of(c, delta))
                    if time.time() > deadline:
                        break
            res["x_fixed"] = best
    else:
        import mpmath
        mpmath.mp.prec = 256
        xe = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
        m_, ex_ = mpmath.frexp(xe)
        xf = F(int(mpmath.ldexp(m_, 240)), 2 ** 240) * (F(2) ** ex_)
        x_lo = xf * (1 - F(1, 2 ** 200))
        x_hi = xf * (1 + F(1, 2 ** 200))
        lo = []
        hi = []
        for rounds in dirs:
            if T == 1:
                lo.append(max(hockey(ex, x_hi)[0] for ex in rounds[0]))
                hi.append(max(hockey(ex, x_lo)[0] for ex in rounds[0]))
            else:
                dp = DP(rounds, deadline)
                lo.append(dp.value(x_hi))
                hi.append(dp.value(x_lo))
        res["delta_lo"] = max(lo)   # the truth is in [delta_lo, delta_hi]
        res["delta_hi"] = max(hi)
    return res


# --------------------------------------------------------------------------------------------
# The Gaussian room, in closed form (mpmath)
# --------------------------------------------------------------------------------------------


def gaussian_truth(s, delta=None, eps=None):
    import mpmath
    mp = mpmath.mp
    mp.dps = 60
    Phi = lambda t: mpmath.ncdf(t)
    eps_p = mpmath.log(mpmath.mpf(s.e.numerator) / s.e.denominator)
    dcal = mpmath.mpf(s.calibration_delta.numerator) / s.calibration_delta.denominator
    Delta = 2 * (mpmath.mpf(s.r.numerator) / s.r.denominator)

    def cond(sig):
        return Phi(Delta / (2 * sig) - eps_p * sig / Delta) - mpmath.e ** eps_p * Phi(-Delta / (2 * sig) - eps_p * sig / Delta) - dcal
    lo, hi = mpmath.mpf("1e-6"), mpmath.mpf(1)
    while cond(hi) > 0:
        hi *= 2
    for _ in range(400):
        mid = (lo + hi) / 2
        if cond(mid) > 0:
            lo = mid
        else:
            hi = mid
    sigma = hi
    mu = Delta / (sigma * mpmath.sqrt(s.n)) * mpmath.sqrt(s.m * s.T)

    def dl(e_):
        return Phi(mu / 2 - e_ / mu) - mpmath.e ** e_ * Phi(-mu / 2 - e_ / mu)
    if delta is not None:
        dd = mpmath.mpf(delta.numerator) / delta.denominator
        if dl(0) <= dd:
            return {"eps": mpmath.mpf(0), "sigma": sigma}
        a, b = mpmath.mpf(0), mpmath.mpf(1)
        while dl(b) > dd:
            b *= 2
        for _ in range(300):
            mid = (a + b) / 2
            if dl(mid) > dd:
                a = mid
            else:
                b = mid
        return {"eps": (a + b) / 2, "sigma": sigma}
    return {"delta": dl(mpmath.mpf(eps.numerator) / eps.denominator), "sigma": sigma}


# --------------------------------------------------------------------------------------------
# Running corbin and comparing
# --------------------------------------------------------------------------------------------


def cli_path(arg=None):
    if arg:
        return arg
    if os.environ.get("CORBIN_CLI"):
        return os.environ["CORBIN_CLI"]
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", "build", "analysis", "corbin")


def phase_arg(ph):
    kv = [("rounds", ph.T), ("n", ph.n), ("gamma", ph.gamma), ("m", ph.m), ("dropout", ph.p),
          ("role", ph.role), ("exp-eps", ph.e), ("bits", ph.d)]
    return ",".join(f"{k}={v}" for k, v in kv)


def describe(phases):
    phases = phases if isinstance(phases, list) else [phases]
    return " ".join(phases[0].cli_args() + sum((["--phase", phase_arg(ph)] for ph in phases[1:]), []))


def run_cli(cli, s, delta=None, eps=None, timeout=300):
    phases = s if isinstance(s, list) else [s]
    args = [cli, "account"] + phases[0].cli_args()
    for ph in phases[1:]:
        args += ["--phase", phase_arg(ph)]
    if delta is not None:
        args += ["--delta", str(delta)]
    else:
        args += ["--at-eps", str(eps)]
    args += ["--json"]
    t0 = time.time()
    out = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    cmd = " ".join(["corbin"] + args[1:-1])
    if out.returncode not in (0, 3):
        return {"cmd": cmd, "error": (out.stderr or out.stdout).strip()[:300], "rc": out.returncode}
    j = json.loads(out.stdout)
    j["cmd"] = cmd
    j["cli_s"] = time.time() - t0
    return j


def parse_end(j, name):
    """(printed value as Fraction or INF, its double as Fraction or INF)."""
    v = j.get(name)
    if v is None:
        return None, None
    if v == "infinite":
        return INF, INF
    a = j.get(name + "_approx")
    return F(v), (F(a) if a is not None else F(v))


def cmp_log(x, e_val):
    """Sign of ln(x) − e_val for a rational x > 0 and a rational e_val (mpmath, 300 bits); 0 if
    they agree to 1e-70."""
    import mpmath
    mpmath.mp.prec = 300
    if x == INF:
        return 0 if e_val == INF else 1
    if e_val == INF:
        return -1
    lx = mpmath.log(mpmath.mpf(x.numerator) / x.denominator)
    ev = mpmath.mpf(e_val.numerator) / e_val.denominator
    dlt = lx - ev
    if abs(dlt) < mpmath.mpf(10) ** -70:
        return 0
    return 1 if dlt > 0 else -1


def to_float_log(x):
    if x == INF:
        return INF
    return math.log(x.numerator) - math.log(x.denominator)


def check_case(cli, s, delta=None, eps=None, budget_s=60.0):
    """One comparison: returns a record with the exact value, corbin's bracket and the verdict."""
    rec = {"case": describe(s), "query": (f"--delta {delta}" if delta is not None else f"--at-eps {eps}"),
           "when": time.strftime("%H:%M:%S"), "cli_mtime": os.path.getmtime(cli)}
    s0 = s[0] if isinstance(s, list) else s
    j = run_cli(cli, s, delta=delta, eps=eps)
    rec["cmd"] = j.get("cmd")
    if "error" in j:
        rec["status"] = "refused"
        rec["error"] = j["error"]
        return rec
    t0 = time.time()
    try:
        if s0.mechanism == "gaussian":
            g = gaussian_truth(s0, delta=delta, eps=eps)
        else:
            tr = truth(s, delta=delta, eps=eps, budget_s=budget_s)
    except TimeoutError as exc:
        rec["status"] = "skipped"
        rec["error"] = f"brute force over budget ({exc})"
        return rec
    rec["bf_s"] = round(time.time() - t0, 3)
    viol = []
    if delta is not None:
        lo, lo_d = parse_end(j, "eps_lower")
        hi, hi_d = parse_end(j, "eps_upper")
        rec["corbin"] = [j.get("eps_lower"), j.get("eps_upper")]
        if s0.mechanism == "gaussian":
            import mpmath
            ex = g["eps"]
            rec["exact"] = float(ex)
            tol = mpmath.mpf(10) ** -40
            for name, val, d_ in (("lower", lo, lo_d), ("upper", hi, hi_d)):
                if val is None:
                    continue
                for tag, v in (("printed", val), ("double", d_)):
                    vv = mpmath.inf if v == INF else mpmath.mpf(v.numerator) / v.denominator
                    if name == "upper" and vv < ex - tol:
                        viol.append(f"upper ({tag}) {float(vv)!r} < exact {float(ex)!r}")
                    if name == "lower" and vv > ex + tol:
                        viol.append(f"lower ({tag}) {float(vv)!r} > exact {float(ex)!r}")
        else:
            x = tr["x"]
            rec["exact"] = to_float_log(x)
            rec["exact_x"] = str(x)
            if "x_fixed" in tr:
                rec["fixed_sequence"] = to_float_log(tr["x_fixed"])
            for name, val, d_ in (("lower", lo, lo_d), ("upper", hi, hi_d)):
                if val is None:
                    continue
                for tag, v in (("printed", val), ("double", d_)):
                    c = cmp_log(x, v)   # sign of exact − corbin
                    if name == "upper" and c > 0:
                        viol.append(f"upper ({tag}) {float(v)!r} < exact {rec['exact']!r}")
                    if name == "lower" and c < 0:
                        viol.append(f"lower ({tag}) {float(v)!r} > exact {rec['exact']!r}")
        rec["lower"] = None if lo is None else (INF if lo == INF else float(lo))
        rec["upper"] = None if hi is None else (INF if hi == INF else float(hi))
    else:
        lo, lo_d = parse_end(j, "delta_lower")
        hi, hi_d = parse_end(j, "delta_upper")
        rec["corbin"] = [j.get("delta_lower"), j.get("delta_upper")]
        if s0.mechanism == "gaussian":
            import mpmath
            ex = g["delta"]
            rec["exact"] = float(ex)
            ex_lo = ex_hi = ex
            tol = mpmath.mpf(10) ** -40
            conv_ = lambda v: mpmath.mpf(v.numerator) / v.denominator
            for tag, v in (("printed", hi), ("double", hi_d)):
                if v is not None and conv_(v) < ex - tol:
                    viol.append(f"upper ({tag}) {float(v)!r} < exact {float(ex)!r}")
            for tag, v in (("printed", lo), ("double", lo_d)):
                if v is not None and conv_(v) > ex + tol:
                    viol.append(f"lower ({tag}) {float(v)!r} > exact {float(ex)!r}")
        else:
            ex_lo, ex_hi = tr["delta_lo"], tr["delta_hi"]
            rec["exact"] = float(ex_hi)
            for tag, v in (("printed", hi), ("double", hi_d)):
                if v is not None and v < ex_lo:
                    viol.append(f"upper ({tag}) {float(v)!r} < exact {float(ex_lo)!r}")
            for tag, v in (("printed", lo), ("double", lo_d)):
                if v is not None and v > ex_hi:
                    viol.append(f"lower ({tag}) {float(v)!r} > exact {float(ex_hi)!r}")
        rec["lower"] = None if lo is None else float(lo)
        rec["upper"] = None if hi is None else float(hi)
    if s0.mechanism != "gaussian":
        rec["configurations"] = tr["configurations"]
    rec["status"] = "VIOLATION" if viol else "ok"
    rec["violations"] = viol
    return rec


# --------------------------------------------------------------------------------------------
# Case lists
# --------------------------------------------------------------------------------------------


def quick_cases():
    """The ctest subset: the issue's dropout witnesses first, then one of each kind (< 60 s)."""
    S = Setting
    return [
        (S(6, 2, gamma=1, p=F(1, 2), role="ldpq"), F(1, 10), None),
        (S(4, 3, gamma=1, p=F(1, 10), role="ldpq"), F(1, 10), None),
        (S(4, 3, gamma=1, p=F(1, 10), role="ldpq"), None, F(1, 2)),
        (S(2, 2, gamma=0, d=2, p=F(1, 2), role="paired"), F(1, 10), None),
        (S(2, 2, gamma=0, d=2, p=F(1, 2), role="paired", relation="remove"), F(1, 10), None),
        (S(4, 2, gamma=F(1, 2), d=2, p=F(1, 10)), F(1, 10), None),
        (S(5, 2, gamma=F(1, 2), d=2), F(1, 10), None),
        (S(5, 2, gamma=F(1, 2), d=2, T=2), F(1, 10), None),
        (S(4, 3, gamma=1, T=3), F(1, 10), None),
        (S(3, 3, gamma=0, d=2, role="paired"), F(1, 3), None),
        (S(4, 2, gamma=0, d=1, role="paired", m=2), F(1, 3), None),
        (S(4, 3, gamma=1, relation="remove", c=2), F(1, 10), None),
        (S(3, 2, gamma=F(1, 2), d=2, relation="remove", c=3, p=F(1, 2)), F(1, 10), None),
        # the coordinates of one round share its survivors (found by this brute force: corbin's
        # lower end composed one coordinate's dropout mixture m times, as if each coordinate had its
        # own dropout draw: [0.4773, 1.0944] against the exact 0.4638; remove: [inf, inf] against 0.3992)
        (S(3, 2, gamma=1, p=F(1, 10), m=2, role="ldpq"), F(1, 10), None),
        (S(5, 3, gamma=1, p=F(1, 4), m=2, role="ldpq", relation="remove"), F(1, 10), None),
        # a round's m coordinates are released together: an adversary cannot choose coordinate 2's
        # inputs after seeing coordinate 1's output (corbin's lower end at m = 2 played them
        # adaptively: T = 2, n = 2, [1.3061, 1.3061] against 1.3007; T = 1, n = 5, γ = 1/2,
        # d = 1: lower 0.4962 against 0.4915)
        (S(2, 2, gamma=1, m=2, T=2), F(1, 10), None),
        (S(5, 2, gamma=F(1, 2), d=1, m=2), F(1, 10), None),
        (S(4, 3, mechanism="rqm3"), F(1, 10), None),
        (S(3, 2, mechanism="pbm1", T=2), F(1, 10), None),
        (S(4, 3, mechanism="gaussian", calibration_delta=F(1, 10 ** 5), T=2), F(1, 10 ** 5), None),
    ]


def sweep_cases(seed=1):
    """The larger sweep: every role, relation, dropout rate and mechanism over small n, d, T, m."""
    S = Setting
    out = []
    # 1. one round, one coordinate: a full grid
    for n in range(2, 9):
        for e in (2, 3):
            for gamma in (F(1), F(1, 2), F(0)):
                for d in (1, 2, 5):
                    if gamma == 1 and d != 5:
                        continue
                    for p in (F(0), F(1, 10), F(1, 2)):
                        if p and d == 5 and gamma != 1:
                            continue
                        for rel in ("replace", "remove"):
                            for role in ("worst", "ldpq", "paired"):
                                st = S(n, e, gamma=gamma, d=d, p=p, relation=rel, role=role)
                                if not st.roles():
                                    continue
                                if role == "worst" and len(set(r if r == "ldpq" else "p" for r in st.roles())) < 2:
                                    continue
                                if rel == "remove":
                                    st.c = st.r * st.alpha if not p else F(0)
                                out.append((st, F(1, 10), None))
                                if rel == "replace" and n in (2, 4, 7):
                                    out.append((S(n, e, gamma=gamma, d=d, p=p, relation=rel, role=role), None, F(1, 2)))
                                    out.append((S(n, e, gamma=gamma, d=d, p=p, relation=rel, role=role), F(1, 3), None))
    # 2. rounds and coordinates
    for n in range(2, 9):
        for e in (2, 3):
            for gamma in (F(1), F(1, 2), F(0)):
                d = 5 if gamma == 1 else 2
                for T in (2, 3):
                    for role in ("worst", "ldpq", "paired"):
                        st = S(n, e, gamma=gamma, d=d, T=T, role=role)
                        if not st.roles():
                            continue
                        if role == "worst" and len(set(r if r == "ldpq" else "p" for r in st.roles())) < 2:
                            continue
                        out.append((st, F(1, 10), None))
                        if n <= 5:
                            out.append((S(n, e, gamma=gamma, d=d, T=T, role=role, relation="remove",
                                          c=st.r * st.alpha), F(1, 10), None))
                            out.append((S(n, e, gamma=gamma, d=d, T=T, role=role), None, F(1, 2)))
                        if n <= 6:
                            out.append((S(n, e, gamma=gamma, d=d, T=T, role=role, p=F(1, 10)), F(1, 10), None))
                            out.append((S(n, e, gamma=gamma, d=d, T=T, role=role, p=F(1, 2)), F(1, 10), None))
                for m in (2,):
                    for T in (1, 2):
                        st = S(n, e, gamma=gamma, d=d if gamma == 1 else 1, m=m, T=T)
                        if st.roles():
                            out.append((st, F(1, 10), None))
                        if n <= 4:
                            out.append((S(n, e, gamma=gamma, d=1, m=m, T=T, p=F(1, 10)), F(1, 10), None))
    # 3. the rooms
    for n in range(2, 9):
        for e in (2, 3):
            for mech in ("ldp", "pbm1", "rqm2", "rqm3"):
                for T in (1, 2, 3):
                    for m in (1, 2):
                        if m * T > 4:
                            continue
                        out.append((S(n, e, mechanism=mech, T=T, m=m), F(1, 10), None))
                        if T == 1 and m == 1:
                            out.append((S(n, e, mechanism=mech, T=T, m=m), None, F(1, 2)))
            for T in (1, 2, 3):
                out.append((S(n, e, mechanism="gaussian", calibration_delta=F(1, 10 ** 5), T=T), F(1, 10 ** 5), None))
                out.append((S(n, e, mechanism="gaussian", calibration_delta=F(1, 10 ** 5), T=T), None, F(1, 2)))
    # 4. other budgets and δ
    for n in (3, 5, 8):
        for e in (F(3, 2), 5):
            out.append((S(n, e, gamma=F(1, 2), d=2), F(1, 100), None))
            out.append((S(n, e, gamma=1, p=F(1, 10)), F(1, 100), None))
    return out


def extra_cases():
    """Targeted cases: coordinates sharing a round's dropout, mixed runs (--phase), more δ."""
    S = Setting
    out = []
    for n in range(2, 7):
        for e in (2, 3):
            for p in (F(1, 10), F(1, 4), F(1, 2)):
                for delta in (F(1, 10), F(1, 3), F(1, 100)):
                    out.append((S(n, e, gamma=1, p=p, m=2, role="ldpq"), delta, None))
                out.append((S(n, e, gamma=1, p=p, m=2, role="ldpq"), None, F(1, 2)))
                out.append((S(n, e, gamma=1, p=p, m=2, role="ldpq", relation="remove"), F(1, 10), None))
                if n <= 4:
                    out.append((S(n, e, gamma=1, p=p, m=2, T=2, role="ldpq"), F(1, 10), None))
                    out.append((S(n, e, gamma=F(1, 2), d=1, p=p, m=2, role="ldpq"), F(1, 10), None))
                    out.append((S(n, e, gamma=0, d=1, p=p, m=2, role="paired"), F(1, 10), None))
                if n <= 3:
                    out.append((S(n, e, gamma=1, p=p, m=3, role="ldpq"), F(1, 10), None))
    for n in range(2, 8):
        for e in (2, 3):
            base = dict(gamma=F(1, 2), d=2)
            out.append(([S(n, e, T=1, **base), S(n, e, T=1, p=F(1, 10), **base)], F(1, 10), None))
            out.append(([S(n, e, T=1, p=F(1, 2), **base), S(n, e, T=2, **base)], F(1, 10), None))
            out.append(([S(n, e, T=1, gamma=1, role="ldpq"), S(n, e, T=1, gamma=0, d=2, role="paired")], F(1, 3), None))
            out.append(([S(n, e, T=1, gamma=1), S(n, e, T=1, gamma=F(1, 2), d=2)], F(1, 10), None))
            out.append(([S(n, e, T=1, gamma=1), S(n, F(3, 2), T=1, gamma=1, p=F(1, 10))], F(1, 10), None))
            out.append(([S(n, e, T=1, gamma=1), S(n, e, T=1, gamma=1, p=F(1, 10))], None, F(1, 2)))
            for delta in (F(1, 10 ** 3), F(1, 10 ** 5)):
                for T in (1, 2, 3):
                    out.append((S(n, e, gamma=1, role="ldpq", T=T), delta, None))
                out.append((S(n, e, gamma=F(1, 2), d=2, role="ldpq"), delta, None))
                out.append((S(n, e, gamma=1, role="ldpq", relation="remove", c=alpha_of(F(e))), delta, None))
            for eps in (F(1, 10), F(1), F(2)):
                out.append((S(n, e, gamma=1, role="ldpq", T=2), None, eps))
                out.append((S(n, e, gamma=F(1, 2), d=2, T=1), None, eps))
            for delta in (F(1, 100), F(1, 2)):
                out.append((S(n, e, gamma=F(1, 2), d=2), delta, None))
                out.append((S(n, e, gamma=1, p=F(1, 10), role="ldpq"), delta, None))
                out.append((S(n, e, gamma=F(1, 2), d=2, T=2), delta, None))
    return out


def _worker(args):
    cli, (st, delta, eps), budget = args
    try:
        return check_case(cli, st, delta=delta, eps=eps, budget_s=budget)
    except Exception as exc:  # report, never hide
        return {"case": describe(st), "query": str(delta or eps), "status": "error", "error": repr(exc)}


def percentile(vals, q):
    if not vals:
        return None
    v = sorted(vals)
    k = max(0, min(len(v) - 1, int(math.floor(q * (len(v) - 1)))))
    return v[k]


def summarise(recs):
    counts = {}
    for r in recs:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    lo_ratio = []
    up_ratio = []
    for r in recs:
        if r["status"] not in ("ok", "VIOLATION"):
            continue
        ex = r.get("exact")
        if ex is None or ex == INF or ex <= 0 or not r["query"].startswith("--delta"):
            continue
        if r.get("lower") is not None and r["lower"] != INF:
            lo_ratio.append(r["lower"] / ex)
        if r.get("upper") is not None and r["upper"] != INF:
            up_ratio.append(r["upper"] / ex)
    return {"counts": counts, "lower_over_exact_p5": percentile(lo_ratio, 0.05),
            "upper_over_exact_p95": percentile(up_ratio, 0.95),
            "upper_over_exact_p5": percentile(up_ratio, 0.05),
            "ratios": len(lo_ratio)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["quick", "sweep", "extra", "case"])
    ap.add_argument("--cli")
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per case for the brute force")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--n", type=int)
    ap.add_argument("--gamma", default="1")
    ap.add_argument("--exp-eps", default="2")
    ap.add_argument("--bits", type=int, default=5)
    ap.add_argument("--dropout", default="0")
    ap.add_argument("--neighbours", default="replace")
    ap.add_argument("--role", default="worst")
    ap.add_argument("--m", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--center", default="0")
    ap.add_argument("--mechanism")
    ap.add_argument("--calibration-delta")
    ap.add_argument("--delta")
    ap.add_argument("--at-eps")
    a = ap.parse_args()
    cli = cli_path(a.cli)
    if a.what == "case":
        st = Setting(a.n, F(a.exp_eps), gamma=F(a.gamma), d=a.bits, p=F(a.dropout), relation=a.neighbours,
                     role=a.role, m=a.m, T=a.rounds, c=F(a.center), mechanism=a.mechanism,
                     calibration_delta=F(a.calibration_delta) if a.calibration_delta else None)
        rec = check_case(cli, st, delta=F(a.delta) if a.delta else None, eps=F(a.at_eps) if a.at_eps else None,
                         budget_s=a.budget)
        print(json.dumps(rec, indent=1, default=str))
        return 1 if rec["status"] == "VIOLATION" else 0
    cases = {"quick": quick_cases, "sweep": sweep_cases, "extra": extra_cases}[a.what]()
    if a.limit:
        cases = cases[:a.limit]
    jobs = [(cli, c, a.budget) for c in cases]
    recs = []
    t0 = time.time()
    if a.jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(a.jobs) as pool:
            for rec in pool.imap_unordered(_worker, jobs):
                recs.append(rec)
                if rec["status"] not in ("ok",):
                    print(json.dumps(rec, default=str), flush=True)
    else:
        for jb in jobs:
            rec = _worker(jb)
            recs.append(rec)
            line = f"{rec['status']:9s} {rec.get('cmd') or rec['case']} {rec['query'] if not rec.get('cmd') else ''}"
            if rec["status"] in ("ok", "VIOLATION"):
                line += f"  exact {rec['exact']!r} corbin {rec['corbin']}"
            if rec.get("violations"):
                line += "  " + "; ".join(rec["violations"])
            if rec.get("error"):
                line += "  " + rec["error"]
            print(line, flush=True)
    summ = summarise(recs)
    summ["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(summ, default=str))
    if a.out:
        with open(a.out, "w") as fh:
            json.dump({"summary": summ, "records": recs}, fh, indent=1, default=str)
    bad = summ["counts"].get("VIOLATION", 0) + summ["counts"].get("error", 0)
    if a.what == "quick":   # every quick case must be answered
        bad += summ["counts"].get("refused", 0) + summ["counts"].get("skipped", 0)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
