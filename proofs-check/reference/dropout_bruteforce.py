#!/usr/bin/python3
"""Exact brute-force privacy of ONE coordinate of CorBin-FL / AugCorBin-FL with client dropout.

An independent reference for the accountant, written from paper/corbin-fl.tex (Alg. 1 LDPQ, Alg. 2 CorBinQ with the
line-14 correction T1 -> T2, Alg. 3 CorBin-FL, AugCorBin-FL text, Eq. (UCDP), Thms 3-4) only.
Pure standard library: fractions.Fraction for every probability / likelihood ratio, decimal only
to print logarithms and to compare rationals against an irrational e^eps.

Model (one coordinate, one round) -- see proofs-check/reference/README.md for the argument that the enumeration is exhaustive.
  * n clients; L = floor(gamma*n) LDPQ positions, +1 if n-L is odd; the other n-L clients in pairs.
  * LDPQ: output c +/- r*alpha, '+' w.p. q(w) = 1/2 + (w-c)/(2 r alpha), w in [c-r, c+r], so
    q in [qmin, qmax] = [1/(E+1), E/(E+1)], E = e^{eps_p}.
  * CorBinQ (corrected): Z uniform on {0..2^d-1}; T1 = floor(2^d q1), T2 = floor(2^d (1-q2));
    Q1 = '+' iff Z<T1, or Z=T1 and a private coin with P(+) = frac(2^d q1);
    Q2 = '-' iff Z<T2, or Z=T2 and a private coin with P(-) = frac(2^d (1-q2)).  (Printed line 14
    compares with T1; the corrected rule compares with T2 and gives exactly LDPQ marginals.)
  * dropout: every client independently drops w.p. p; a lone pair survivor uses LDPQ (same input).
  * releases: 'sum' = sum of survivors' outputs (one number K*c + r*alpha*(#plus-#minus));
              'survivors+sum' = (set of survivors, sum); 'count+sum' = (#survivors, sum) (extra).
  * neighbours: 'replace' = client 1's input changes, all else fixed;
                'remove'  = client 1 absent in D' (Eq. (UCDP): W'_g = sum_{i>=2} W_i with the SAME
                mechanism for the others, i.e. the roles are kept and a partner of client 1 behaves as
                a lone survivor = LDPQ).  Both directions (D,D') and (D',D) are taken.
"""
import argparse
import bisect
import itertools
import json
import math
import random
import sys
import time
from decimal import Decimal, getcontext
from fractions import Fraction as F

getcontext().prec = 90
INF = 'inf'


def fr(x):
    if isinstance(x, F):
        return x
    if isinstance(x, str):
        return F(x)
    return F(x)


def dec(x):
    return Decimal(x.numerator) / Decimal(x.denominator)


def floor_fr(x):
    return x.numerator // x.denominator


# ----------------------------------------------------------------------------- quantizers
def q_range(E):
    return F(1) / (E + 1), E / (E + 1)


def corbin_joint_bruteforce(q1, q2, d):
    """Joint law of the corrected CorBinQ by enumerating all 2^d shared vectors Z.
    Returns P(Q1=+,Q2=+), P(+,-), P(-,+), P(-,-) (first sign for Q1 = client with q1)."""
    N = 2 ** d
    x, y = N * q1, N * (1 - q2)
    T1, T2 = floor_fr(x), floor_fr(y)
    f1, f2 = x - T1, y - T2
    pp = pm = mp = mm = F(0)
    for z in range(N):
        a = F(1) if z < T1 else (f1 if z == T1 else F(0))          # P(Q1 = + | Z)
        bminus = F(1) if z < T2 else (f2 if z == T2 else F(0))     # P(Q2 = - | Z)  (line 14: T2)
        b = 1 - bminus
        pp += a * b
        pm += a * bminus
        mp += (1 - a) * b
        mm += (1 - a) * bminus
    return pp / N, pm / N, mp / N, mm / N


def corbin_pp_closed(q1, q2, d):
    N = 2 ** d
    x, y = N * q1, N * (1 - q2)
    T1, T2 = floor_fr(x), floor_fr(y)
    if T1 > T2:
        return (x - y) / N
    if T1 < T2:
        return F(0)
    return (x - T1) * (1 - (y - T2)) / N


def pair_joint(qa, qb, d):
    """(P++, P+-, P-+, P--) for a pair (a, b), a in the Q1 role.  Checked symmetric in roles."""
    pp = corbin_pp_closed(qa, qb, d)
    return pp, qa - pp, qb - pp, 1 - qa - qb + pp


# ----------------------------------------------------------------------------- units
# A unit outcome: (prob, mask, plus, minus)
def unit_ldpq(q, idx, p):
    b = 1 << idx
    return [(p, 0, 0, 0), ((1 - p) * q, b, 1, 0), ((1 - p) * (1 - q), b, 0, 1)]


def unit_pair(qa, qb, ia, ib, p, d):
    pp, pm, mp, mm = pair_joint(qa, qb, d)
    A, B = 1 << ia, 1 << ib
    s2 = (1 - p) ** 2
    s1 = p * (1 - p)
    out = [(p * p, 0, 0, 0)]
    for pr, pl, mi in ((pp, 2, 0), (pm, 1, 1), (mp, 1, 1), (mm, 0, 2)):
        if pr:
            out.append((s2 * pr, A | B, pl, mi))
    out += [(s1 * qa, A, 1, 0), (s1 * (1 - qa), A, 0, 1), (s1 * qb, B, 1, 0), (s1 * (1 - qb), B, 0, 1)]
    return [o for o in out if o[0]]


def unit_absent():
    return [(F(1), 0, 0, 0)]


MODELS = ('sum', 'survivors+sum', 'count+sum')


def rest_law(units, model):
    """Law of the other units, keyed by (maskpart, diff): maskpart = mask for survivors+sum, else K."""
    law = {(0, 0): F(1)}
    surv = model == 'survivors+sum'
    for u in units:
        new = {}
        for (mk, df), pr in law.items():
            for (q, m, pl, mi) in u:
                key = ((mk | m) if surv else (mk + pl + mi), df + pl - mi)
                new[key] = new.get(key, 0) + pr * q
        law = new
    return law


def release_law(unit1, rlaw, model, c, ralpha):
    out = {}
    surv = model == 'survivors+sum'
    for (q, m, pl, mi) in unit1:
        for (mk, df), pr in rlaw.items():
            if surv:
                key = (mk | m, df + pl - mi)
            else:
                K = mk + pl + mi
                D = df + pl - mi
                key = (K, D) if model == 'count+sum' else K * c + ralpha * D
            out[key] = out.get(key, 0) + pr * q
    return out


class PLD:
    """Privacy-loss description of a pair (P, Q): m_inf = P-mass where Q = 0; finite ratios
    rho > 0 sorted ascending with aggregated (mP, mQ); suffix sums for fast H evaluation."""
    __slots__ = ('m_inf', 'rhos', 'mP', 'mQ', 'sufP', 'sufQ', 'rhos_dec', 'desc', 'key')

    def __init__(self, m_inf, items, desc=None):
        self.m_inf = m_inf
        items = sorted(items)
        self.rhos = [r for r, _, _ in items]
        self.mP = [a for _, a, _ in items]
        self.mQ = [b for _, _, b in items]
        k = len(items)
        self.sufP = [F(0)] * (k + 1)
        self.sufQ = [F(0)] * (k + 1)
        for i in range(k - 1, -1, -1):
            self.sufP[i] = self.sufP[i + 1] + self.mP[i]
            self.sufQ[i] = self.sufQ[i + 1] + self.mQ[i]
        self.rhos_dec = None
        self.desc = desc
        self.key = (m_inf, tuple(items))

    @staticmethod
    def from_laws(P, Q, desc=None):
        agg = {}
        m_inf = F(0)
        for x, a in P.items():
            b = Q.get(x, 0)
            if b == 0:
                m_inf += a
            else:
                r = a / b
                t = agg.get(r)
                agg[r] = (a, b) if t is None else (t[0] + a, t[1] + b)
        items = [(r, a, b) for r, (a, b) in agg.items()]
        return PLD(m_inf, items, desc)

    def compose(self, other):
        agg = {}
        m_inf = self.m_inf + other.m_inf - self.m_inf * other.m_inf
        # m_inf(product) = P(x1 in inf-part or x2 in inf-part) (the P masses of inf parts)
        for r1, a1, b1 in zip(self.rhos, self.mP, self.mQ):
            for r2, a2, b2 in zip(other.rhos, other.mP, other.mQ):
                r = r1 * r2
                t = agg.get(r)
                agg[r] = (a1 * a2, b1 * b2) if t is None else (t[0] + a1 * a2, t[1] + b1 * b2)
        return PLD(m_inf, [(r, a, b) for r, (a, b) in agg.items()], self.desc)

    def H_affine(self, t):
        """H_t(P||Q) = A + B*t on the piece right of t (rational t): returns (A, Bcoef_of_t)."""
        i = bisect.bisect_right(self.rhos, t)
        return self.m_inf + self.sufP[i], -self.sufQ[i]

    def H_affine_dec(self, tdec):
        if self.rhos_dec is None:
            self.rhos_dec = [dec(r) for r in self.rhos]
        i = bisect.bisect_right(self.rhos_dec, tdec)
        return self.m_inf + self.sufP[i], -self.sufQ[i]

    def H(self, t):
        A, B = self.H_affine(t)
        return A + B * t

    def breakpoints(self):
        return self.rhos


def dominated(a, b):
    """True if H_t(a) <= H_t(b) for all t >= 0 (then a is a post-processing of b: Blackwell)."""
    pts = set(a.rhos) | set(b.rhos) | {F(0)}
    for t in pts:
        if a.H(t) > b.H(t):
            return False
    return a.m_inf <= b.m_inf


def prune_family(fam, limit=400):
    # exact duplicates first
    seen = {}
    for pl in fam:
        if pl.key not in seen:
            seen[pl.key] = pl
    fam = list(seen.values())
    if len(fam) > limit:
        return fam
    keep = []
    for i, a in enumerate(fam):
        dom = False
        for j, b in enumerate(fam):
            if i != j and dominated(a, b) and (not dominated(b, a) or j < i):
                dom = True
                break
        if not dom:
            keep.append(a)
    return keep


# ----------------------------------------------------------------------------- adaptive DP
class Evaluator:
    """V_k(s*gamma) for the family (k rounds, adversary adaptive):
         V_0(t) = (1-t)_+,
         V_k(t) = max_c [ m_inf(c) + sum_rho mP_c(rho) V_{k-1}(t/rho) ].
    Returns the affine piece (A, B) with V_k(s*gamma) = A + B*gamma on the piece to the right of
    gamma.  gamma is a Fraction (exact) or, if irrational (e^eps), given by a high-precision Decimal
    used only to take branch decisions (no rational equals e^eps for rational eps != 0)."""

    def __init__(self, fam, gamma_exact=None, gamma_dec=None):
        self.fam = fam
        self.ge = gamma_exact
        self.gd = gamma_dec if gamma_exact is None else dec(gamma_exact)
        self.memo = {}

    def val(self, A, B):
        return (A + B * self.ge) if self.ge is not None else (dec(A) + dec(B) * self.gd)

    def V(self, k, s):
        key = (k, s)
        r = self.memo.get(key)
        if r is not None:
            return r
        best = None
        for pl in self.fam:
            if k == 1:
                if self.ge is not None:
                    A, Bt = pl.H_affine(s * self.ge)
                else:
                    A, Bt = pl.H_affine_dec(dec(s) * self.gd)
                A, B = A, Bt * s
            else:
                A, B = pl.m_inf, F(0)
                for rho, mp in zip(pl.rhos, pl.mP):
                    a, b, _ = self.V(k - 1, s / rho)
                    A += mp * a
                    B += mp * b
            if best is None:
                best = (A, B, pl)
            else:
                v1, v0 = self.val(A, B), self.val(best[0], best[1])
                if v1 > v0 or (v1 == v0 and B > best[1]):
                    best = (A, B, pl)
        self.memo[key] = best
        return best


def V_at_infinity(fam, T):
    v = F(0)
    for _ in range(T):
        v = max(pl.m_inf + (1 - pl.m_inf) * v for pl in fam)
    return v


def solve_gamma(fam, T, delta, maxit=100000):
    """Least gamma >= 1 with V_T(gamma) <= delta (exact rational), or None for +infinity.
    Newton from the left on a convex nonincreasing piecewise-linear function: exact, finite."""
    if V_at_infinity(fam, T) > delta:
        return None, None
    g = F(1)
    for _ in range(maxit):
        ev = Evaluator(fam, gamma_exact=g)
        A, B, pl = ev.V(T, F(1))
        v = A + B * g
        if v <= delta:
            assert g == 1 or v == delta, 'Newton landed below delta'
            return g, pl
        if B >= 0:
            return None, None
        g2 = (delta - A) / B
        assert g2 > g
        g = g2
    raise RuntimeError('Newton did not terminate')


def delta_at(fam, T, gamma_exact=None, eps_dec=None):
    if gamma_exact is not None:
        ev = Evaluator(fam, gamma_exact=gamma_exact)
        A, B, pl = ev.V(T, F(1))
        return A + B * gamma_exact, (A, B), pl
    gd = eps_dec.exp()
    ev = Evaluator(fam, gamma_dec=gd)
    A, B, pl = ev.V(T, F(1))
    return dec(A) + dec(B) * gd, (A, B), pl


def ln_str(g, digits=15):
    if g is None:
        return 'inf'
    return format(dec(g).ln(), '.%df' % digits)


# ----------------------------------------------------------------------------- candidate sets
def q_grid(E, d):
    qmin, qmax = q_range(E)
    N = 2 ** d
    G = [qmin] + [F(k, N) for k in range(N + 1) if qmin < F(k, N) < qmax] + [qmax]
    return G


def strictly_between(v, u, w):
    """v strictly inside segment (u, w) (exact vectors)."""
    t = None
    for a, b, c in zip(v, u, w):
        den = c - b
        num = a - b
        if den == 0:
            if num != 0:
                return False
            continue
        tt = num / den
        if t is None:
            t = tt
        elif tt != t:
            return False
    return t is not None and 0 < t < 1


def midpoint_prune(shape, vec):
    """Keep every grid point except those proven non-extreme: strictly between two other grid
    points lying on one grid line through it (directions in {-1,0,1}^k). Sound: an extreme point of
    conv(image) is never strictly inside a segment of two image points."""
    dims = len(shape)
    dirs = [dv for dv in itertools.product((-1, 0, 1), repeat=dims) if any(dv)]
    dirs = [dv for dv in dirs if next(x for x in dv if x) > 0]
    keep = []
    for idx in itertools.product(*[range(s) for s in shape]):
        v = vec(idx)
        ext = True
        for dv in dirs:
            lo = []
            j = 1
            while True:
                pt = tuple(i - j * e for i, e in zip(idx, dv))
                if all(0 <= x < s for x, s in zip(pt, shape)):
                    lo.append(pt); j += 1
                else:
                    break
            hi = []
            j = 1
            while True:
                pt = tuple(i + j * e for i, e in zip(idx, dv))
                if all(0 <= x < s for x, s in zip(pt, shape)):
                    hi.append(pt); j += 1
                else:
                    break
            for a in lo:
                va = vec(a)
                for b in hi:
                    if strictly_between(v, va, vec(b)):
                        ext = False
                        break
                if not ext:
                    break
            if not ext:
                break
        if ext:
            keep.append(idx)
    return keep


def pair_candidates(E, d):
    """(qa, qb) candidates for a pair whose inputs are the same in D and D'."""
    G = q_grid(E, d)
    vec = lambda ij: (G[ij[0]], G[ij[1]], corbin_pp_closed(G[ij[0]], G[ij[1]], d))
    return [(G[i], G[j]) for i, j in midpoint_prune((len(G), len(G)), vec)]


def client1_pair_candidates(E, d):
    """(qa, qa', qb) candidates: client 1 (Q1 role) at qa in D and qa' in D', partner qb in both."""
    G = q_grid(E, d)

    def vec(t):
        a, a2, b = G[t[0]], G[t[1]], G[t[2]]
        return (a, a2, b, corbin_pp_closed(a, b, d), corbin_pp_closed(a2, b, d))
    return [(G[i], G[j], G[k]) for i, j, k in midpoint_prune((len(G),) * 3, vec) if i != j]


# ----------------------------------------------------------------------------- configurations
def roles(n, gamma):
    L = floor_fr(gamma * n)
    if (n - L) % 2:
        L += 1
    return L, (n - L) // 2


def w_of_q(q, c, r, al):
    return c + r * al * (2 * q - 1)


def fmt(x):
    return str(x)


def build_families(n, gamma, E, d, p, role, neighbour, model, c=F(0), r=F(1)):
    """Return list of families (one per direction for 'remove', one for 'replace'); each family
    is a list of PLDs, one per extreme configuration (every input of every client named)."""
    al = (E + 1) / (E - 1)
    qmin, qmax = q_range(E)
    L, npairs = roles(n, gamma)
    if role == 'ldpq' and L < 1:
        raise ValueError('role ldpq impossible: no LDPQ position (n=%d, gamma=%s)' % (n, gamma))
    if role == 'paired' and npairs < 1:
        raise ValueError('role paired impossible: no pair (n=%d, gamma=%s)' % (n, gamma))
    if role == 'ldpq':
        n_ldpq_other, n_pair_other, first_other = L - 1, npairs, 1
    else:
        n_ldpq_other, n_pair_other, first_other = L, npairs - 1, 2
    pc = pair_candidates(E, d) if n_pair_other else []
    rests = []
    for k in range(n_ldpq_other + 1):
        qs = [qmax] * k + [qmin] * (n_ldpq_other - k)
        for pairs in itertools.combinations_with_replacement(range(len(pc)), n_pair_other):
            units = []
            idx = first_other
            desc = {'other_ldpq_w': [fmt(w_of_q(q, c, r, al)) for q in qs], 'other_pairs_w': []}
            for q in qs:
                units.append(unit_ldpq(q, idx, p)); idx += 1
            for pi in pairs:
                qa, qb = pc[pi]
                units.append(unit_pair(qa, qb, idx, idx + 1, p, d)); idx += 2
                desc['other_pairs_w'].append([fmt(w_of_q(qa, c, r, al)), fmt(w_of_q(qb, c, r, al))])
            rests.append((units, desc))
    # client-1 units: list of (unitD, unitD', desc)
    c1 = []
    if role == 'ldpq':
        if neighbour == 'replace':
            for qa, qa2 in ((qmax, qmin), (qmin, qmax)):
                c1.append((unit_ldpq(qa, 0, p), unit_ldpq(qa2, 0, p),
                           {'client1_w_D': fmt(w_of_q(qa, c, r, al)), 'client1_w_Dprime': fmt(w_of_q(qa2, c, r, al))}))
        else:
            for qa in (qmax, qmin):
                c1.append((unit_ldpq(qa, 0, p), unit_absent(),
                           {'client1_w_D': fmt(w_of_q(qa, c, r, al)), 'client1_w_Dprime': 'absent'}))
    else:
        if neighbour == 'replace':
            for qa, qa2, qb in client1_pair_candidates(E, d):
                c1.append((unit_pair(qa, qb, 0, 1, p, d), unit_pair(qa2, qb, 0, 1, p, d),
                           {'client1_w_D': fmt(w_of_q(qa, c, r, al)), 'client1_w_Dprime': fmt(w_of_q(qa2, c, r, al)),
                            'partner_w': fmt(w_of_q(qb, c, r, al))}))
        else:
            for qa, qb in pair_candidates(E, d):
                c1.append((unit_pair(qa, qb, 0, 1, p, d), unit_ldpq(qb, 1, p),
                           {'client1_w_D': fmt(w_of_q(qa, c, r, al)), 'client1_w_Dprime': 'absent',
                            'partner_w': fmt(w_of_q(qb, c, r, al))}))
    ralpha = r * al
    famA, famB = [], []
    for units, rdesc in rests:
        R = rest_law(units, model)
        for uD, uD2, cdesc in c1:
            P = release_law(uD, R, model, c, ralpha)
            Q = release_law(uD2, R, model, c, ralpha)
            desc = dict(cdesc); desc.update(rdesc)
            famA.append(PLD.from_laws(P, Q, dict(desc, order='H(P_D || P_Dprime)')))
            if neighbour == 'remove':
                famB.append(PLD.from_laws(Q, P, dict(desc, order='H(P_Dprime || P_D)')))
    if neighbour == 'replace':
        return [famA]        # closed under swapping D and D' (both input orders enumerated)
    return [famA, famB]


# ----------------------------------------------------------------------------- top-level
def analyse(n, gamma, E, d, p, delta, role, neighbour, model, T_list=(1,), eps_list=(),
            adaptive=True, c=F(0), r=F(1)):
    t0 = time.time()
    fams = build_families(n, gamma, E, d, p, role, neighbour, model, c, r)
    nconf = sum(len(f) for f in fams)
    pfams = [prune_family(f) for f in fams]
    res = {'n': n, 'gamma': str(gamma), 'exp_eps': str(E), 'd': d, 'p': str(p), 'delta': str(delta),
           'role': role, 'neighbour': neighbour, 'model': model, 'c': str(c), 'r': str(r),
           'configurations': nconf, 'configurations_after_pruning': sum(len(f) for f in pfams),
           'T': {}}
    for T in T_list:
        out = {}
        # exact adaptive worst case (T = 1: the exact worst case)
        if T == 1 or adaptive:
            best = None
            for f in pfams:
                g, pl = solve_gamma(f, T, delta)
                if best is None or g is None or (best[0] is not None and g > best[0]):
                    best = (g, pl)
                    if g is None:
                        break
            g, pl = best
            key = 'exact' if T == 1 else 'adaptive_exact'
            out[key] = {'gamma': None if g is None else str(g), 'eps': ln_str(g),
                        'attained_by_round1_config': pl.desc if pl is not None else None}
            # delta(eps) at eps = eps_p (gamma = E exactly) and at requested eps
            dl = []
            for eps in [('0', 'zero'), ('eps_p=ln(exp_eps)', None)] + [(str(e), e) for e in eps_list]:
                vals = []
                for f in pfams:
                    if eps[1] is None or eps[1] == 'zero':
                        v, (A, B), _ = delta_at(f, T, gamma_exact=E if eps[1] is None else F(1))
                        vals.append((dec(v), str(v), None))
                    else:
                        v, (A, B), _ = delta_at(f, T, eps_dec=dec(F(eps[1])))
                        vals.append((v, '%s + (%s)*exp(%s)' % (A, B, eps[1]), None))
                m = max(vals, key=lambda x: x[0])
                dl.append({'eps': eps[0], 'delta': format(m[0], '.15g'), 'delta_exact': m[1]})
            out[key]['delta_of_eps'] = dl
        if T > 1:
            # best fixed configuration: same (D, D') pair every round, max over configurations
            best = (F(0), None)
            for f in pfams:
                for pl in f:
                    g, _ = solve_gamma([pl], T, delta)
                    if g is None:
                        best = (None, pl)
                        break
                    if g > best[0]:
                        best = (g, pl)
                if best[0] is None:
                    break
            g, pl = best
            dvals = [max(delta_at([pl2], T, gamma_exact=E)[0] for pl2 in f) for f in pfams]
            out['best_fixed'] = {'gamma': None if g is None else str(g), 'eps': ln_str(g),
                                 'config': pl.desc if pl is not None else None,
                                 'delta_at_eps_p': format(dec(max(dvals)), '.15g')}
        res['T'][str(T)] = out
    res['seconds'] = round(time.time() - t0, 2)
    return res


# ----------------------------------------------------------------------------- self-checks
def self_check(verbose=True):
    rnd = random.Random(1)
    # 1. corrected CorBinQ: marginals are LDPQ's, closed form == brute force, role symmetry,
    #    continuity of P++ across the floor boundaries.
    for E in (F(2), F(3), F(11, 10), F(7)):
        qmin, qmax = q_range(E)
        for d in (1, 2, 3, 5):
            G = q_grid(E, d)
            pts = G + [qmin + (qmax - qmin) * F(rnd.randint(0, 997), 997) for _ in range(12)]
            for qa in pts:
                for qb in pts:
                    bf = corbin_joint_bruteforce(qa, qb, d)
                    assert bf[0] + bf[1] == qa and bf[0] + bf[2] == qb, 'marginal'
                    assert bf[0] == corbin_pp_closed(qa, qb, d), 'closed form'
                    assert corbin_pp_closed(qa, qb, d) == corbin_pp_closed(qb, qa, d), 'role symmetry'
                    for h in (F(1, 10 ** 9), F(-1, 10 ** 9)):
                        for (xa, xb) in ((qa + h, qb), (qa, qb + h)):
                            if qmin <= xa <= qmax and qmin <= xb <= qmax:
                                assert abs(corbin_pp_closed(xa, xb, d) - bf[0]) <= 2 * abs(h), 'continuity'
    if verbose:
        print('self-check: CorBinQ marginals / closed form / role symmetry / continuity OK')
    return True


def random_check(n, gamma, E, d, p, delta, role, neighbour, model, gamma_star, samples=60, seed=7,
                 c=F(0), r=F(1)):
    """Random (non-extreme) inputs for every client: H_{gamma*}(P||Q) must not exceed delta."""
    if gamma_star is None:
        return 'skipped (eps = inf)'
    rnd = random.Random(seed)
    al = (E + 1) / (E - 1)
    qmin, qmax = q_range(E)
    rq = lambda: qmin + (qmax - qmin) * F(rnd.randint(0, 60), 60)
    L, npairs = roles(n, gamma)
    worst = F(0)
    for _ in range(samples):
        if role == 'ldpq':
            units = [unit_ldpq(rq(), 1 + i, p) for i in range(L - 1)]
            idx = L
            for _ in range(npairs):
                units.append(unit_pair(rq(), rq(), idx, idx + 1, p, d)); idx += 2
            qa, qa2 = rq(), rq()
            uD = unit_ldpq(qa, 0, p)
            uD2 = unit_ldpq(qa2, 0, p) if neighbour == 'replace' else unit_absent()
        else:
            units = [unit_ldpq(rq(), 2 + i, p) for i in range(L)]
            idx = 2 + L
            for _ in range(npairs - 1):
                units.append(unit_pair(rq(), rq(), idx, idx + 1, p, d)); idx += 2
            qa, qa2, qb = rq(), rq(), rq()
            uD = unit_pair(qa, qb, 0, 1, p, d)
            uD2 = unit_pair(qa2, qb, 0, 1, p, d) if neighbour == 'replace' else unit_ldpq(qb, 1, p)
        R = rest_law(units, model)
        P = release_law(uD, R, model, c, r * al)
        Q = release_law(uD2, R, model, c, r * al)
        for a, b in ((P, Q), (Q, P)):
            h = PLD.from_laws(a, b).H(gamma_star)
            worst = max(worst, h)
    assert worst <= delta, ('REDUCTION VIOLATED', worst, delta)
    return 'ok: max H over %d random configs = %.6g <= delta' % (2 * samples, float(worst))


# ----------------------------------------------------------------------------- case list
CASES = [
    # (n, gamma, exp_eps, d, p, delta, roles, extra eps list, T list)
    (6, '1', '2', 5, '1/2', '1/10', ['ldpq'], [], [1, 2, 3]),
    (6, '1', '2', 5, '1/10', '1/10', ['ldpq'], [], [1, 2, 3]),
    (4, '1', '3', 5, '1/10', '1/10', ['ldpq'], [], [1, 2, 3]),
    (2, '0', '2', 2, '1/2', '1/10', ['paired'], [], [1, 2, 3]),
    (4, '1', '2', 5, '1/2', '1/10', ['ldpq'], ['1/2'], [1]),
    (4, '1/2', '2', 2, '1/10', '1/10', ['ldpq', 'paired'], [], [1]),
    (5, '1/2', '2', 2, '1/4', '1/20', ['ldpq', 'paired'], [], [1]),
    (8, '1', '3', 5, '1/10', '1/1000', ['ldpq'], [], [1]),
    (8, '0', '3', 2, '1/10', '1/10', ['paired'], [], [1]),
    (3, '1', '3', 5, '1/3', '1/10', ['ldpq'], [], [1]),
]


def run_cases(path_json, models=MODELS, neighbours=('replace', 'remove'), check=True):
    results = []
    rows = []
    for (n, g, E, d, p, delta, rls, epsl, Ts) in CASES:
        for role in rls:
            for nb in neighbours:
                for model in models:
                    Tl = Ts if (nb, model) != ('remove', 'survivors+sum') else [1]
                    res = analyse(n, fr(g), fr(E), d, fr(p), fr(delta), role, nb, model,
                                  T_list=Tl, eps_list=[fr(e) for e in epsl])
                    if check:
                        gs = res['T']['1']['exact']['gamma']
                        res['random_check'] = random_check(n, fr(g), fr(E), d, fr(p), fr(delta), role, nb,
                                                           model, None if gs is None else F(gs), samples=25)
                    results.append(res)
                    t = res['T']
                    r8 = lambda x: x if x == 'inf' else format(Decimal(x), '.8f')
                    r6g = lambda x: format(Decimal(x), '.6g')
                    row = [n, g, E, d, p, delta, role, nb, model, r8(t['1']['exact']['eps']),
                           r6g(t['1']['exact']['delta_of_eps'][0]['delta']), r6g(t['1']['exact']['delta_of_eps'][1]['delta'])]
                    if len(t['1']['exact']['delta_of_eps']) > 2:
                        row[-1] += ' [d(%s)=%s]' % (t['1']['exact']['delta_of_eps'][2]['eps'],
                                                    r6g(t['1']['exact']['delta_of_eps'][2]['delta']))
                    for T in ('2', '3'):
                        if T in t:
                            row.append(r8(t[T]['best_fixed']['eps']))
                            row.append(r8(t[T]['adaptive_exact']['eps']))
                        else:
                            row += ['-', '-']
                    row.append(res['seconds'])
                    rows.append(row)
                    print(' '.join(str(x) for x in row), flush=True)
    with open(path_json, 'w') as fh:
        json.dump(results, fh, indent=1)
    return rows


def print_table(rows):
    hdr = ['n', 'gam', 'e^eps_p', 'd', 'p', 'delta', 'role', 'nbr', 'model', 'eps(delta) T=1',
           'delta(0)=TV', 'delta(eps_p)', 'T2 fixed', 'T2 adapt', 'T3 fixed', 'T3 adapt', 's']
    w = [max(len(str(x)) for x in col) for col in zip(hdr, *rows)]
    line = lambda r: ' | '.join(str(x).ljust(k) for x, k in zip(r, w))
    print(line(hdr))
    print('-+-'.join('-' * k for k in w))
    for r in rows:
        print(line(r))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--cases', action='store_true', help='run the built-in case list, write cases.json')
    ap.add_argument('--out', default='cases.json')
    ap.add_argument('--self-check', action='store_true')
    ap.add_argument('--n', type=int)
    ap.add_argument('--gamma', default='1')
    ap.add_argument('--exp-eps', default='2')
    ap.add_argument('--d', type=int, default=5)
    ap.add_argument('--p', default='0')
    ap.add_argument('--delta', default='1/10')
    ap.add_argument('--role', default='ldpq', choices=['ldpq', 'paired'])
    ap.add_argument('--neighbour', default='replace', choices=['replace', 'remove'])
    ap.add_argument('--model', default='sum', choices=list(MODELS))
    ap.add_argument('--T', default='1', help='comma list of round counts')
    ap.add_argument('--eps', default='', help='comma list of eps (rational) for delta(eps)')
    ap.add_argument('--no-adaptive', action='store_true')
    ap.add_argument('--c', default='0')
    ap.add_argument('--r', default='1')
    a = ap.parse_args(argv)
    if a.self_check:
        self_check()
        return
    if a.cases:
        self_check()
        rows = run_cases(a.out)
        print()
        print_table(rows)
        return
    if a.n is None:
        ap.error('--n is required (or --cases / --self-check)')
    res = analyse(a.n, fr(a.gamma), fr(a.exp_eps), a.d, fr(a.p), fr(a.delta), a.role, a.neighbour, a.model,
                  T_list=[int(x) for x in a.T.split(',')], eps_list=[fr(x) for x in a.eps.split(',') if x],
                  adaptive=not a.no_adaptive, c=fr(a.c), r=fr(a.r))
    print(json.dumps(res, indent=1))


if __name__ == '__main__':
    main()
