#!/usr/bin/python3
"""Holds `corbin account` with dropout and pairs to an exact brute force of the mechanism.

One round, one coordinate, replace one (client 1's input changes), shared bits d = 2, centre 0,
radius 1. n clients: the LDPQ positions and pairs that `corbin account` prints (ldpq_clients,
pairs); client 1 on LDPQ (--role ldpq), in a pair (--role paired), or drawn (--role drawn: alone
with probability ldpq_clients/n, else paired; the roles are public). Every client, client 1
included, drops out independently with probability p; a pair with one survivor leaves that
survivor on LDPQ at its own input; the server sees the roles, who survived and the sum of the
survivors' outputs.

The reference shares no code with the accountant: it is built on the laws of
proofs-check/reference/dropout_bruteforce.py (LDPQ, CorBinQ with Algorithm 2's line 14 corrected,
the dropout units), with standard-library Fractions for every probability and ratio. It computes,
exactly, for delta(eps) at eps in {1/10, 1/2, 1} and eps(delta) at delta in {1/10, 1/100}:

  A      the worst case over datasets fixed before the draw: client 1's two inputs and ONE set of
         inputs for the other clients, the same in both worlds. For --role ldpq / paired the roles
         are fixed and known, so the other clients may sit wherever the adversary likes (this is
         dropout_bruteforce.py's survivors+sum model, and the script checks it agrees with it at
         n <= 4). For --role drawn the same dataset is used in both branches of client 1's role,
         the other clients placed in each branch in the way the adversary likes best.
  A_uni  the same with every position drawn uniformly at random (the paper's uniformly random
         pairing, the LDPQ positions likewise), the dataset fixed before that draw too. A_uni <= A.
  B      the draw-aware adversary: it sees the roles and who survived before choosing every input,
         client 1's two included: the sum over the outcomes of the draw of their probability times
         the worst case of the survivors' sum given that outcome (outcomes with client 1 dropped
         give 0; outcomes with the same surviving units are grouped). B >= A always.

Why these are exact: the law of the release is affine in each LDPQ client's probability q and, on
each cell of the grid {q_min, k/2^d, q_max}, in each paired client's (CorBinQ's P(++) is piecewise
bilinear with those breakpoints and continuous), and H_{e^eps}(P||Q) is jointly convex; so every
worst case above is attained with every input on that grid, which the script enumerates (for
A_uni, with the exact probability of every placement). delta is piecewise linear and convex in
e^eps: eps(delta) is found by Newton's method from e^eps = 1, which lands on the exact rational
root; logarithms and e^eps at irrational eps use 90-digit decimals, and a comparison is failed
only by more than 1e-50.

  R      corbin's model of the adversary's knowledge for its lower end: the roles are public before
         the inputs are chosen (the server announces them with the round, and a pair shares a
         coin), the dropout draw is not (a message fails to arrive after it is sent): client 1's
         two inputs the same in both of its roles, the other clients' inputs chosen for each role,
         all before the dropout draw. For a fixed role R = A. A <= R <= B.

Claims checked per row: B <= delta_upper <= B (1 + 1e-6) + 1e-9, and delta_lower <= R (the same
for eps): the upper end must cover an adversary that sees the public draw, and every case here is
within the mixture over who survived, which is B itself; the lower end must be attained by inputs
chosen knowing the roles, before the dropout draw. Rows whose lower end is above A or A_uni, the
stricter models, are noted (not counted); CORBIN_DPB_LOWER=placed or uniform counts them. One line per row, "ok ..." or "VIOLATION ...", then
"<rows> rows <v> violations"; exit status 1 on any violation.

The binary is the one CORBIN_CLI names. Its calls at these settings take 0.1 to 2 s each, so to
stay within about a minute each configuration (population, e^eps_p, p, role) is asked one of the
five questions, the questions taking turns within each role, and the drawn role is left out where
the population has no LDPQ position (it is the paired role there); CORBIN_DPB_FULL=1 asks every
question of every configuration (380 rows, a few minutes).
"""
import itertools
import json
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from fractions import Fraction as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'proofs-check', 'reference'))
import dropout_bruteforce as R  # noqa: E402  (sets the decimal precision to 90 digits)

BITS = 2
TOL = Decimal('1e-50')
INF = Decimal('Infinity')


# ----------------------------------------------------------------------------- piecewise-linear nodes
# A node evaluates a convex, nonincreasing, piecewise-linear function of t = e^eps: piece(t) gives
# the exact rationals (A, B) of the affine piece A + B*t to the right of t. t is a Fraction, or a
# Decimal when e^eps is irrational (then no breakpoint, which is rational, equals it).
def value(ab, t):
    a, b = ab
    if isinstance(t, F):
        return a + b * t
    return R.dec(a) + R.dec(b) * t


class Leaf:
    def __init__(self, pld):
        self.pld = pld

    def piece(self, t):
        return self.pld.H_affine(t) if isinstance(t, F) else self.pld.H_affine_dec(t)


class Max:
    def __init__(self, kids):
        self.kids = kids

    def piece(self, t):
        best, bv = None, None
        for k in self.kids:
            ab = k.piece(t)
            v = value(ab, t)
            if best is None or v > bv or (v == bv and ab[1] > best[1]):
                best, bv = ab, v
        return best


class Sum:
    def __init__(self, terms):
        self.terms = terms  # [(weight, node)]

    def piece(self, t):
        a, b = F(0), F(0)
        for w, k in self.terms:
            x, y = k.piece(t)
            a += w * x
            b += w * y
        return a, b


def delta_at(node, t):
    return value(node.piece(t), t)


def solve_exp_eps(node, delta):
    """Least e^eps >= 1 with node(e^eps) <= delta, exact; None where no finite eps reaches delta."""
    g = F(1)
    for _ in range(100000):
        a, b = node.piece(g)
        v = a + b * g
        if v <= delta:
            assert g == 1 or v == delta, 'Newton landed below delta'
            return g
        if b >= 0:
            return None
        g2 = (delta - a) / b
        assert g2 > g
        g = g2
    raise RuntimeError('Newton did not terminate')


def eps_of(node, delta):
    g = solve_exp_eps(node, delta)
    return INF if g is None else R.dec(g).ln()


# ----------------------------------------------------------------------------- configurations and laws
# A configuration: (client 1, other LDPQ clients' inputs, other pairs' inputs), each input an index
# into the grid of LDPQ probabilities q; client 1: ('L', in D, in D') or ('P', in D, in D', partner).
#
# Who survives is public and independent of the data, so the release (who survived, the sum) is the
# labelled mixture over the survivors of the sum of the surviving units: client 1 on LDPQ or still
# paired, the other LDPQ clients and lone pair survivors on LDPQ, the full pairs on CorBinQ. Given a
# survivor set without client 1 both worlds have one law, which adds nothing to H_t at t >= 1 (the
# only t evaluated), so those sets are left out.
_sum_caches = {}


class Ctx:
    """The grid of inputs for one e^eps_p, the dropout probability p, and the laws computed."""

    def __init__(self, E, p):
        self.q = R.q_grid(F(E), BITS)
        self.n_q = len(self.q)
        self.p = F(p)
        self.sums = _sum_caches.setdefault(E, {})
        self.survs = {}
        self.plds = {}

    def sum_pld(self, cfg):
        """PLD of the sum of the units of cfg, nobody dropping (the release given the survivors)."""
        pl = self.sums.get(cfg)
        if pl is None:
            q, z = self.q, F(0)
            c1, ldpq, pairs = cfg
            if c1[0] == 'L':
                u1, u2, idx = R.unit_ldpq(q[c1[1]], 0, z), R.unit_ldpq(q[c1[2]], 0, z), 1
            else:
                u1 = R.unit_pair(q[c1[1]], q[c1[3]], 0, 1, z, BITS)
                u2 = R.unit_pair(q[c1[2]], q[c1[3]], 0, 1, z, BITS)
                idx = 2
            rest = []
            for i in ldpq:
                rest.append(R.unit_ldpq(q[i], idx, z))
                idx += 1
            for i, j in pairs:
                rest.append(R.unit_pair(q[i], q[j], idx, idx + 1, z, BITS))
                idx += 2
            rl = R.rest_law(rest, 'sum')
            P = R.release_law(u1, rl, 'sum', z, F(1))
            Q = R.release_law(u2, rl, 'sum', z, F(1))
            pl = R.PLD.from_laws(P, Q)
            self.sums[cfg] = pl
        return pl

    def survivors(self, cfg):
        """{surviving configuration: probability}: every client drops w.p. p, client 1 survives."""
        out = self.survs.get(cfg)
        if out is not None:
            return out
        p = self.p
        s = 1 - p
        c1, ldpq, pairs = cfg
        if c1[0] == 'L':
            cur = {(c1, (), ()): s}
        else:
            cur = {(c1, (), ()): s * s, (('L', c1[1], c1[2]), (), ()): s * p}
        for i in ldpq:
            nxt = {}
            for (c, ld, pr), w in cur.items():
                for k, x in (((c, tuple(sorted(ld + (i,))), pr), w * s), ((c, ld, pr), w * p)):
                    nxt[k] = nxt.get(k, 0) + x
            cur = nxt
        for i, j in pairs:
            nxt = {}
            for (c, ld, pr), w in cur.items():
                for k, x in (((c, ld, tuple(sorted(pr + ((i, j),)))), w * s * s),
                             ((c, tuple(sorted(ld + (i,))), pr), w * s * p),
                             ((c, tuple(sorted(ld + (j,))), pr), w * p * s),
                             ((c, ld, pr), w * p * p)):
                    nxt[k] = nxt.get(k, 0) + x
            cur = nxt
        self.survs[cfg] = cur
        return cur

    def release_pld(self, cfg):
        """PLD of the release (who survived, the sum of the survivors' outputs) for cfg."""
        pl = self.plds.get(cfg)
        if pl is None:
            pl = mix_plds([(w, self.sum_pld(k)) for k, w in self.survivors(cfg).items()])
            self.plds[cfg] = pl
        return pl

    def client1(self, kind, ends=False):
        """Client 1's inputs; ends: an LDPQ client 1 at the ends of the range only."""
        r = range(self.n_q)
        if kind == 'L':
            r = (0, self.n_q - 1) if ends else r
            return [('L', a, b) for a in r for b in r if a != b]
        return [('P', a, b, c) for a in r for b in r if a != b for c in r]

    def configs(self, c1s, k, j):
        """Every configuration: the other LDPQ clients at the ends of the range (an LDPQ law is
        affine in q on all of [q_min, q_max]), the pairs anywhere on the grid."""
        r = range(self.n_q)
        upairs = list(itertools.combinations_with_replacement(r, 2))
        for c1 in c1s:
            for ld in itertools.combinations_with_replacement((0, self.n_q - 1), k):
                for pr in itertools.combinations_with_replacement(upairs, j):
                    yield (c1, ld, pr)


def mix_plds(wplds):
    """PLD of a labelled mixture (the label public): the weighted union of the parts."""
    agg, m_inf = {}, F(0)
    for w, pl in wplds:
        m_inf += w * pl.m_inf
        for r, a, b in zip(pl.rhos, pl.mP, pl.mQ):
            t = agg.get(r)
            agg[r] = (w * a, w * b) if t is None else (t[0] + w * a, t[1] + w * b)
    return R.PLD(m_inf, [(r, a, b) for r, (a, b) in agg.items()])


def placements(ms, nl, npair):
    """The distinct ways to seat the multiset ms on nl LDPQ positions and npair pairs."""
    out = set()
    for perm in set(itertools.permutations(ms)):
        ld = tuple(sorted(perm[:nl]))
        prs = tuple(sorted(tuple(sorted(perm[nl + 2 * i: nl + 2 * i + 2])) for i in range(npair)))
        out.add((ld, prs))
    return sorted(out)


def node_A(cx, n, L, P, role):
    """Dataset fixed before the draw, the other clients placed as the adversary likes."""
    if role == 'ldpq':
        return Max([Leaf(cx.release_pld(c)) for c in cx.configs(cx.client1('L', True), L - 1, P)])
    if role == 'paired':
        return Max([Leaf(cx.release_pld(c)) for c in cx.configs(cx.client1('P'), L, P - 1)])
    wl = F(L, n)
    kids = []
    for _, a, a2 in cx.client1('L'):
        for ms in itertools.combinations_with_replacement(range(cx.n_q), n - 1):
            terms = []
            if L:
                terms.append((wl, Max([Leaf(cx.release_pld((('L', a, a2), ld, pr)))
                                       for ld, pr in placements(ms, L - 1, P)])))
            if P:
                ks = []
                for i in sorted(set(ms)):
                    rest = list(ms)
                    rest.remove(i)
                    for ld, pr in placements(tuple(rest), L, P - 1):
                        ks.append(Leaf(cx.release_pld((('P', a, a2, i), ld, pr))))
                terms.append((1 - wl, Max(ks)))
            kids.append(Sum(terms))
    return Max(kids)


def node_R(cx, n, L, P, role):
    """The roles public before the inputs are chosen (the server announces them with the round),
    the dropout draw not: client 1's two inputs the same in both of its roles, the other clients'
    inputs chosen for each role. For a fixed role this is A."""
    if role != 'drawn':
        return node_A(cx, n, L, P, role)
    wl = F(L, n)
    kids = []
    for _, a, a2 in cx.client1('L'):
        terms = []
        if L:
            terms.append((wl, Max([Leaf(cx.release_pld(c)) for c in cx.configs([('L', a, a2)], L - 1, P)])))
        if P:
            c1s = [('P', a, a2, i) for i in range(cx.n_q)]
            terms.append((1 - wl, Max([Leaf(cx.release_pld(c)) for c in cx.configs(c1s, L, P - 1)])))
        kids.append(Sum(terms))
    return Max(kids)


def node_A_uniform(cx, n, L, P, role):
    """Dataset fixed before the draw; every position drawn uniformly (client 1's within its role
    for ldpq / paired); the roles public, so each dataset gives a labelled mixture."""
    want = {'ldpq': range(L), 'paired': range(L, n)}.get(role, range(n))  # pair k: slots L+2k, L+2k+1
    kids = []
    for _, a, a2 in cx.client1('L'):
        for others in itertools.combinations_with_replacement(range(cx.n_q), n - 1):
            count = {}
            perms = set(itertools.permutations(others))   # the distinct seatings, equally likely
            for s1 in want:
                rest = [s for s in range(n) if s != s1]
                for perm in perms:
                    pos = dict(zip(rest, perm))
                    ld = tuple(sorted(pos[s] for s in range(L) if s != s1))
                    prs, partner = [], None
                    for k in range(P):
                        s, u = L + 2 * k, L + 2 * k + 1
                        if s == s1:
                            partner = pos[u]
                        elif u == s1:
                            partner = pos[s]
                        else:
                            prs.append(tuple(sorted((pos[s], pos[u]))))
                    c1 = ('L', a, a2) if s1 < L else ('P', a, a2, partner)
                    key = (c1, ld, tuple(sorted(prs)))
                    count[key] = count.get(key, 0) + 1
            tot = sum(count.values())
            sw = {}
            for k, c in count.items():
                f = F(c, tot)
                for k2, w in cx.survivors(k).items():
                    sw[k2] = sw.get(k2, 0) + f * w
            kids.append(Leaf(mix_plds([(w, cx.sum_pld(k)) for k, w in sw.items()])))
    return Max(kids)


def outcome_weights(L, P, p, kind):
    """{(client 1's unit 'L' or 'P', surviving units on LDPQ besides it, full pairs besides it):
    probability}, client 1 surviving, given client 1's role ('L' or 'P')."""
    s = 1 - p
    if kind == 'L':
        c1, nl, npair = [('L', s)], L - 1, P
    else:
        c1, nl, npair = [('P', s * s), ('L', s * p)], L, P - 1
    pairs = {(0, 0): F(1)}
    for _ in range(npair):
        nxt = {}
        for (f, l), w in pairs.items():
            for df, dl, q in ((1, 0, s * s), (0, 1, 2 * s * p), (0, 0, p * p)):
                nxt[(f + df, l + dl)] = nxt.get((f + df, l + dl), 0) + w * q
        pairs = nxt
    out = {}
    for t, w1 in c1:
        for a in range(nl + 1):
            wa = F(math.comb(nl, a)) * s ** a * p ** (nl - a)
            for (f, l), wp in pairs.items():
                key = (t, a + l, f)
                out[key] = out.get(key, 0) + w1 * wa * wp
    assert sum(out.values()) == s
    return out


def node_B(cx, n, L, P, role):
    """The draw-aware adversary: sum over outcomes of P(outcome) * worst case given the outcome."""
    if role == 'drawn':
        ws = {}
        for kind, wr in (('L', F(L, n)), ('P', 1 - F(L, n))):
            if wr:
                for k, w in outcome_weights(L, P, cx.p, kind).items():
                    ws[k] = ws.get(k, 0) + wr * w
    else:
        ws = outcome_weights(L, P, cx.p, 'L' if role == 'ldpq' else 'P')
    terms = []
    for (t, k, j), w in sorted(ws.items()):
        if w:
            terms.append((w, Max([Leaf(cx.sum_pld(c)) for c in cx.configs(cx.client1(t, True), k, j)])))
    return Sum(terms)


# ----------------------------------------------------------------------------- the binary
def run_corbin(cli, n, gamma, E, p, role, opt, val):
    args = [cli, 'account', '--n', str(n), '--gamma', gamma, '--exp-eps', E, '--bits', str(BITS),
            '--dropout', p, '--role', role, opt, val, '--json']
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return None, 'timed out'
    if r.returncode != 0:
        return None, 'exit %d: %s' % (r.returncode, r.stderr.strip()[-300:])
    try:
        return json.loads(r.stdout), None
    except ValueError as e:
        return None, 'bad JSON: %s' % e


def parse_end(s):
    if s is None:
        return None
    if s == 'infinite':
        return INF
    return Decimal(s)


def fmt(x):
    if x is None:
        return 'none'
    if x.is_infinite():
        return 'inf'
    return '%.10f' % x


# ----------------------------------------------------------------------------- cases
POPS = [(3, '0'), (3, '1/2'), (4, '0'), (4, '1/2'), (5, '0'), (5, '1/2'), (6, '0'), (6, '1/2')]
EXPS = ['2', '3']
DROPS = ['1/10', '1/2']
EPSS = ['1/10', '1/2', '1']
DELTAS = ['1/10', '1/100']


def cases(full):
    """[(configuration, queries)]: every query with full, else one, taking turns within each role."""
    queries = [('--at-eps', e) for e in EPSS] + [('--delta', d) for d in DELTAS]
    out, seen, turn = [], set(), {}
    for n, g in POPS:
        L, P = R.roles(n, F(g))
        if (n, L, P) in seen:       # n = 3: gamma 0 and 1/2 give the same population
            continue
        seen.add((n, L, P))
        for E in EXPS:
            for p in DROPS:
                for role in ('ldpq', 'paired', 'drawn'):
                    if (role == 'ldpq' and L == 0) or (role == 'paired' and P == 0):
                        continue
                    if role == 'drawn' and (L == 0 or P == 0) and not full:
                        continue
                    if full:
                        qs = queries
                    else:
                        k = turn.get(role, 0)
                        turn[role] = k + 1
                        qs = [queries[k % len(queries)]]
                    out.append(((n, g, L, P, E, p, role), qs))
    return out


def main():
    t_start = time.time()
    if 'CORBIN_CLI' not in os.environ:
        print('CORBIN_CLI must name the corbin binary')
        return 2
    cli = os.environ['CORBIN_CLI']
    full = os.environ.get('CORBIN_DPB_FULL', '') not in ('', '0')
    lower_mode = os.environ.get('CORBIN_DPB_LOWER', 'roles')
    if lower_mode not in ('roles', 'placed', 'uniform'):
        print('CORBIN_DPB_LOWER must be roles, placed or uniform')
        return 2
    todo = cases(full)
    jobs = {}
    with ThreadPoolExecutor(max_workers=2) as pool:
        for (n, g, L, P, E, p, role), qs in todo:
            for opt, val in qs:
                jobs[(n, g, E, p, role, opt, val)] = pool.submit(run_corbin, cli, n, g, E, p, role, opt, val)
        nodes, ctxs = {}, {}
        for (n, g, L, P, E, p, role), qs in todo:
            cx = ctxs.setdefault((E, p), Ctx(E, p))
            nodes[(n, g, E, p, role)] = (node_A(cx, n, L, P, role), node_A_uniform(cx, n, L, P, role),
                                         node_R(cx, n, L, P, role), node_B(cx, n, L, P, role))
        results = {k: f.result() for k, f in jobs.items()}

    rows = violations = noted = 0
    for (n, g, L, P, E, p, role), qs in todo:
        nA, nU, nR, nB = nodes[(n, g, E, p, role)]
        check_module = role != 'drawn' and n <= 4
        if check_module:
            fam = R.build_families(n, F(g), F(E), BITS, F(p), role, 'replace', 'survivors+sum')[0]
            nM = Max([Leaf(pl) for pl in fam])
        for opt, val in qs:
            rows += 1
            head = 'n=%d gamma=%s (ldpq=%d pairs=%d) e^eps_p=%s p=%s role=%s' % (n, g, L, P, E, p, role)
            reasons, notes = [], []
            if opt == '--at-eps':
                t = R.dec(F(val)).exp()
                a, u, rr, b = delta_at(nA, t), delta_at(nU, t), delta_at(nR, t), delta_at(nB, t)
                if check_module and delta_at(nM, t) != a:
                    reasons.append('reference disagrees with dropout_bruteforce.py')
                what, lo_key, up_key = 'delta(eps=%s)' % val, 'delta_lower', 'delta_upper'
            else:
                d = F(val)
                a, u, rr, b = eps_of(nA, d), eps_of(nU, d), eps_of(nR, d), eps_of(nB, d)
                if check_module and eps_of(nM, d) != a:
                    reasons.append('reference disagrees with dropout_bruteforce.py')
                what, lo_key, up_key = 'eps(delta=%s)' % val, 'eps_lower', 'eps_upper'
            if not (u <= a <= rr <= b):
                reasons.append('reference out of order (need A_uni <= A <= R <= B)')
            out, err = results[(n, g, E, p, role, opt, val)]
            lo = up = None
            if err is not None:
                reasons.append('corbin failed: ' + err)
            elif out.get('ldpq_clients') != L or out.get('pairs') != P:
                reasons.append('population differs: corbin ldpq_clients=%s pairs=%s' % (out.get('ldpq_clients'), out.get('pairs')))
            else:
                lo, up = parse_end(out.get(lo_key)), parse_end(out.get(up_key))
                if lo is None or up is None:
                    reasons.append('corbin printed no %s / %s' % (lo_key, up_key))
                else:
                    if up.is_finite() and (b.is_infinite() or up < b - TOL):
                        reasons.append('upper below B (the draw-aware adversary)')
                    # Every case here is mixed over its survivors (at most 64 populations): that
                    # mixture is B itself, so the upper end meets it (the floors were 1.16 to 15
                    # times B).
                    if b.is_finite() and (up.is_infinite() or up > b * (1 + R.dec(F(1, 10**6))) + R.dec(F(1, 10**9))):
                        reasons.append('upper above B (the mixture over who survived is B)')
                    above = lambda x: lo.is_infinite() and x.is_finite() or lo.is_finite() and x.is_finite() and lo > x + TOL
                    for name, x, mode, why in (
                            ('R', rr, 'roles', 'no inputs chosen knowing the roles, before the dropout draw, attain it'),
                            ('A', a, 'placed', 'no dataset fixed before the draw attains it'),
                            ('A_uni', u, 'uniform', 'no dataset fixed before uniformly drawn positions attains it')):
                        if above(x):
                            if name == 'R' or lower_mode == mode or (lower_mode == 'uniform' and name == 'A'):
                                reasons.append('lower above %s (%s)' % (name, why))
                            else:
                                notes.append('lower above ' + name)
            if b == 0 or b.is_infinite() or up is None:
                ratio = '-'
            elif up.is_infinite():
                ratio = 'inf'
            else:
                ratio = '%.4f' % (up / b)
            line = '%s %s: A_uni=%s A=%s R=%s B=%s lower=%s upper=%s upper/B=%s' % (
                head, what, fmt(u), fmt(a), fmt(rr), fmt(b), fmt(lo), fmt(up), ratio)
            if reasons:
                violations += 1
                print('VIOLATION ' + line + ' [' + '; '.join(reasons) + ']')
            else:
                noted += bool(notes)
                print('ok ' + line + (' (note: ' + '; '.join(notes) + ')' if notes else ''))
    if lower_mode != 'uniform':
        print('# %d rows have a lower end above A or A_uni (not counted; CORBIN_DPB_LOWER=placed or uniform counts '
              'them)' % noted)
    print('# %.1f s' % (time.time() - t_start))
    print('%d rows %d violations' % (rows, violations))
    return 1 if violations else 0


if __name__ == '__main__':
    sys.exit(main())
