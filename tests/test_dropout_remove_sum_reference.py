#!/usr/bin/python3
"""Independent reference for `corbin account --neighbours remove` on an all-LDPQ round with client
dropout where the server sees only the sum of the survivors' outputs (not who survived).

Written from the paper (corbin-fl.tex: Algorithm 1 "LDPQ", Sec. "Robustness to Client Dropout",
appendix proof of Theorem 3 for the remove-one neighbours) without reading the accountant's sources.

Model (one round, one coordinate, c = 0, r = 1, gamma = 1 so every client runs LDPQ):
  E = e^{eps_p}, alpha = (E+1)/(E-1) (Algorithm 1 line 1).  LDPQ at input w outputs c + r*alpha
  ("+") with probability q(w) = 1/2 + (w - c)/(2 r alpha), c - r*alpha ("-") otherwise, so
  q(+1) = E/(E+1), q(-1) = 1/(E+1).  Each client drops independently with probability p.
  Per-client law on D-steps {-1, 0, +1}: (-1: (1-p)(1-q), 0: p, +1: (1-p) q).
  Released: alpha * D, D = #"+" - #"-" among survivors.  Remove-one neighbours: world P has
  client 1 at x in {+1, -1}; world Q has client 1 removed.  Other n-1 inputs fixed before the draw:
  j at +1, n-1-j at -1.  Q = law of D_others = A_j * B_{n-1-j} (A_m: m iid clients at +1,
  B_m: m iid clients at -1), P = Q * (client-1 law).  delta(eps) = max over (P||Q), (Q||P) of
  sum_d max(0, P(d) - e^eps Q(d)); eps(delta) = least eps >= 0 with delta(eps) <= delta
  (= the larger of the two directions' eps, since delta(eps) is the max of two non-increasing maps).

Numerics (float64): every law is built by direct (np.convolve, not FFT) convolution of
NONNEGATIVE arrays, so there is no cancellation: each entry carries a relative error of at most
about (3 per 3-tap step * n steps + one final convolution of length <= 2n) * u ~ 5n * 1.1e-16,
i.e. <= ~2e-12 relative at n = 3000, entrywise (tail entries included, down to underflow; entries
that underflow below 1e-308 have total mass < 1e-300, irrelevant).  The hockey-stick sum
sum max(0, P - a Q) then has absolute error <= ~2e-12 (1 + a), negligible against delta >= 1e-5,
and the resulting eps error is ~ that / |d delta / d eps| (|d delta/d eps| = a Q(loss > eps) is
of the order of delta), i.e. ~1e-10 relative at worst; bisection runs to a bracket of 1e-12 and
returns the upper end (delta(hi) <= delta), so the reference is never below the true eps by more
than float noise.  For the scan over all configurations, delta(eps) is evaluated from the loss
values sorted once and reverse cumulative sums (the same quantity: only d with log(P/Q) > eps
contribute); the named configuration and the argmax are recomputed with the plain sum formula.

Configurations scanned: x in {+1, -1}, and every j in 0..n-1 when n <= FULL_SCAN_MAX_N (all four
cases here); above that a spread of ~100 j values plus every j within a window around the best
spread point (a restricted maximum is a lower bound of the true maximum, so "eps_upper >= max" is
still a necessary check; "eps_lower <= max" becomes a heuristic).

Checks per case (CORBIN_CLI names the binary):
  eps_lower <= exact(named) (1 + 1e-9) + 1e-12;   eps_lower >= 0.999 exact(named);
  eps_lower <= max_exact (1 + 1e-9) + 1e-12;      eps_upper >= max_exact (1 - 1e-9) - 1e-12.
Exit status non-zero on any violation.
"""
import json
import math
import os
import re
import subprocess
import sys
import time

import numpy as np

FULL_SCAN_MAX_N = 3200
CASES = [  # (N, E, P, DELTA)
    (1025, 3.0, 0.1, 1e-5),
    (1500, 3.0, 0.5, 1e-5),
    (2000, 2.0, 0.1, 1e-3),
    (1000, 3.0, 0.1, 1e-5),  # below the accountant's method switch: consistency row
]
ROOM_CASES = [  # (N, E, P, DELTA): --mechanism ldp, one coordinate, one round
    (6, 3.0, 0.5, 0.01),
    (20, 3.0, 0.5, 0.001),
    (50, 3.0, 0.9, 1e-5),
    (200, 3.0, 0.99, 1e-5),
]


def step_law(q, p):
    """Law of one client's D-step on (-1, 0, +1)."""
    return np.array([(1.0 - p) * (1.0 - q), p, (1.0 - p) * q])


def iid_laws(q, p, m_max):
    """laws[m] = law of the sum of m iid step laws, on -m..m (length 2m+1)."""
    k = step_law(q, p)
    laws = [np.array([1.0])]
    cur = laws[0]
    for _ in range(m_max):
        cur = np.convolve(cur, k)
        laws.append(cur)
    return laws


def hockey(P, Q, a):
    """sum_d max(0, P(d) - a Q(d)), plain formula."""
    return math.fsum(np.maximum(0.0, P - a * Q).tolist())


def eps_plain(P, Q, delta, tol=1e-12):
    """Least eps >= 0 with hockey(P,Q,e^eps) <= delta, by bisection on the plain formula."""
    if hockey(P, Q, 1.0) <= delta:
        return 0.0
    if math.fsum(P[Q == 0].tolist()) > delta:
        return math.inf
    lo, hi = 0.0, 1.0
    while hockey(P, Q, math.exp(hi)) > delta:
        lo, hi = hi, 2 * hi
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        if hockey(P, Q, math.exp(mid)) > delta:
            lo = mid
        else:
            hi = mid
    return hi


class SortedHockey:
    """Same delta(eps) as hockey(), from the losses sorted once: O(log n) per evaluation."""

    def __init__(self, P, Q):
        keep = P > 0
        P, Q = P[keep], Q[keep]
        with np.errstate(divide='ignore'):
            loss = np.where(Q > 0, np.log(P) - np.log(np.where(Q > 0, Q, 1.0)), np.inf)
        order = np.argsort(loss)
        self.loss = loss[order]
        # tail sums: tailP[i] = sum_{k >= i} P_k (sorted), with a trailing 0
        self.tailP = np.concatenate([np.cumsum(P[order][::-1])[::-1], [0.0]])
        self.tailQ = np.concatenate([np.cumsum(Q[order][::-1])[::-1], [0.0]])

    def __call__(self, eps):
        i = np.searchsorted(self.loss, eps, side='right')  # first index with loss > eps
        return max(0.0, self.tailP[i] - math.exp(eps) * self.tailQ[i])

    def eps(self, delta, tol=1e-12):
        if self(0.0) <= delta:
            return 0.0
        inf_mass = self.tailP[np.searchsorted(self.loss, np.inf, side='left')]
        if inf_mass > delta:   # mass of P where Q = 0: no finite eps suffices
            return math.inf
        lo, hi = 0.0, 1.0
        while self(hi) > delta:
            lo, hi = hi, 2 * hi
        while hi - lo > tol:
            mid = 0.5 * (lo + hi)
            if self(mid) > delta:
                lo = mid
            else:
                hi = mid
        return hi


class Round:
    def __init__(self, n, E, p):
        self.n, self.E, self.p = n, E, p
        self.alpha = (E + 1.0) / (E - 1.0)
        self.qp = 0.5 + 1.0 / (2 * self.alpha)   # = E/(E+1)
        self.qm = 0.5 - 1.0 / (2 * self.alpha)   # = 1/(E+1)
        self.A = iid_laws(self.qp, p, n - 1)
        self.B = iid_laws(self.qm, p, n - 1)

    def worlds(self, x, j):
        """(P, Q) on a common support -n..n for client 1 at x and j others at +1."""
        others = np.convolve(self.A[j], self.B[self.n - 1 - j])   # on -(n-1)..n-1
        return self.worlds_from(others, x)

    def worlds_from(self, others, x):
        c1 = step_law(self.qp if x > 0 else self.qm, self.p)
        P = np.convolve(others, c1)                                 # on -n..n
        Q = np.concatenate([[0.0], others, [0.0]])
        return P, Q

    def eps_exact(self, x, j, delta):
        P, Q = self.worlds(x, j)
        return max(eps_plain(P, Q, delta), eps_plain(Q, P, delta))

    def scan(self, delta):
        n = self.n
        if n <= FULL_SCAN_MAX_N:
            js = list(range(n))
            full = True
        else:
            js = sorted(set(np.linspace(0, n - 1, 101).round().astype(int).tolist()))
            full = False
        best = (-1.0, None)
        seen = {}

        def visit(j):
            if j in seen:
                return
            others = np.convolve(self.A[j], self.B[n - 1 - j])
            for x in (+1, -1):
                P, Q = self.worlds_from(others, x)
                e = max(SortedHockey(P, Q).eps(delta), SortedHockey(Q, P).eps(delta))
                seen[(x, j)] = e
            seen[j] = True
        for j in js:
            visit(j)
        if not full:
            bx, bj = max(((k, v) for k, v in seen.items() if isinstance(k, tuple)),
                         key=lambda kv: kv[1])[0]
            w = (n // 100) + 2
            for j in range(max(0, bj - w), min(n - 1, bj + w) + 1):
                visit(j)
        for k, v in seen.items():
            if isinstance(k, tuple) and v > best[0]:
                best = (v, k)
        return best[0], best[1], full


def self_check():
    """Tiny brute force: for n = 5 enumerate all 3^5 step outcomes and compare with the
    convolution laws (guards the support alignment of P and Q)."""
    import itertools
    n, E, p = 5, 3.0, 0.3
    rnd = Round(n, E, p)
    for x in (+1, -1):
        for j in range(n):
            qs = [rnd.qp if x > 0 else rnd.qm] + [rnd.qp] * j + [rnd.qm] * (n - 1 - j)
            P = np.zeros(2 * n + 1)
            Q = np.zeros(2 * n + 1)
            for outs in itertools.product((-1, 0, 1), repeat=n):
                pr = 1.0
                for q, o in zip(qs, outs):
                    pr *= step_law(q, p)[o + 1]
                P[sum(outs) + n] += pr
            for outs in itertools.product((-1, 0, 1), repeat=n - 1):
                pr = 1.0
                for q, o in zip(qs[1:], outs):
                    pr *= step_law(q, p)[o + 1]
                Q[sum(outs) + n] += pr
            P2, Q2 = rnd.worlds(x, j)
            assert np.allclose(P, P2, rtol=1e-13, atol=0) and np.allclose(Q, Q2, rtol=1e-13, atol=0)
            for d in (1e-3, 1e-2, 1e-1, 0.3):
                a = max(eps_plain(P, Q, d), eps_plain(Q, P, d))
                b = max(SortedHockey(P, Q).eps(d), SortedHockey(Q, P).eps(d))
                assert a == b or abs(a - b) <= 1e-10 * max(1.0, a), (a, b)


def parse_eps(s):
    s = str(s).strip()
    if s.lower() in ('infinite', 'inf', 'infinity'):
        return math.inf
    return float(s)


def parse_config(entry, n):
    c1 = entry['client_1']
    if re.search(r'c\s*\+\s*r', c1):
        x = +1
    elif re.search(r'c\s*-\s*r', c1):
        x = -1
    else:
        raise ValueError('cannot read client_1: %r' % c1)
    other = entry['other_ldpq']
    m = re.search(r'(\d+)\s+of the other\s+(\d+)\s+LDPQ clients at c\s*\+\s*r', other)
    if m:
        j, tot = int(m.group(1)), int(m.group(2))
    else:
        m = re.search(r'(\d+)\s+of the other\s+(\d+)\s+LDPQ clients at c\s*-\s*r', other)
        if not m:
            raise ValueError('cannot read other_ldpq: %r' % other)
        tot = int(m.group(2))
        j = tot - int(m.group(1))
    if tot != n - 1:
        raise ValueError('other_ldpq counts %d others, expected %d: %r' % (tot, n - 1, other))
    return x, j


def main():
    cli = os.environ.get('CORBIN_CLI')
    if not cli:
        print('CORBIN_CLI must name the corbin binary')
        return 2
    violations = []
    self_check()
    print('%5s %3s %4s %7s | %14s %14s | %14s %14s %-12s | %6s %6s' % (
        'N', 'E', 'P', 'DELTA', 'corbin_lower', 'corbin_upper', 'exact_named', 'max_exact',
        'argmax(x,j)', 'cli_s', 'ref_s'))
    for (n, E, p, delta) in CASES:
        cmd = [cli, 'account', '--n', str(n), '--gamma', '1', '--exp-eps', repr(E),
               '--dropout', repr(p), '--delta', repr(delta), '--neighbours', 'remove', '--json']
        t0 = time.time()
        out = subprocess.run(cmd, capture_output=True, text=True)
        cli_s = time.time() - t0
        tag = 'N=%d E=%g P=%g DELTA=%g' % (n, E, p, delta)
        if out.returncode != 0:
            violations.append('%s: CLI exit %d: %s' % (tag, out.returncode, out.stderr.strip()))
            print('%s: CLI failed: %s' % (tag, out.stderr.strip()))
            continue
        js = json.loads(out.stdout)
        lower, upper = parse_eps(js['eps_lower']), parse_eps(js['eps_upper'])
        entry = js['worst_case']['lower_bound_attained_by'][0]
        x, j = parse_config(entry, n)

        t1 = time.time()
        rnd = Round(n, E, p)
        named = rnd.eps_exact(x, j, delta)
        mx, (bx, bj), full = rnd.scan(delta)
        mx_plain = rnd.eps_exact(bx, bj, delta)
        mx = max(mx, mx_plain)
        ref_s = time.time() - t1

        print('%5d %3g %4g %7g | %14.10f %14.10f | %14.10f %14.10f %-12s | %6.2f %6.2f%s' % (
            n, E, p, delta, lower, upper, named, mx, '(%+d,%d)' % (bx, bj), cli_s, ref_s,
            '' if full else '  (j restricted to a spread + window)'))
        print('      named: client_1=%r other_ldpq=%r -> (x=%+d, j=%d)' % (
            entry['client_1'], entry['other_ldpq'], x, j))
        if not (lower <= named * (1 + 1e-9) + 1e-12):
            violations.append('%s: eps_lower %.12g > exact of named config %.12g' % (tag, lower, named))
        if not (lower >= 0.999 * named):
            violations.append('%s: eps_lower %.12g < 0.999 * exact of named config %.12g'
                              % (tag, lower, named))
        if not (lower <= mx * (1 + 1e-9) + 1e-12):
            violations.append('%s: eps_lower %.12g > max over configurations %.12g' % (tag, lower, mx))
        if not (upper >= mx * (1 - 1e-9) - 1e-12):
            violations.append('%s: eps_upper %.12g < max over configurations %.12g' % (tag, upper, mx))
    # The lone room `ldp` (the same LDPQ clients, its own builder): at one coordinate and one round
    # its upper end is the worst case of the sum alone over every configuration, both ends.
    for (n, E, p, delta) in ROOM_CASES:
        cmd = [cli, 'account', '--mechanism', 'ldp', '--n', str(n), '--exp-eps', repr(E), '--dropout', repr(p),
               '--delta', repr(delta), '--neighbours', 'remove', '--json']
        tag = 'ldp N=%d E=%g P=%g DELTA=%g' % (n, E, p, delta)
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            violations.append('%s: CLI exit %d: %s' % (tag, out.returncode, out.stderr.strip()))
            continue
        js = json.loads(out.stdout)
        lower, upper = parse_eps(js['eps_lower']), parse_eps(js['eps_upper'])
        mx, (bx, bj), _ = Round(n, E, p).scan(delta)
        mx = max(mx, Round(n, E, p).eps_exact(bx, bj, delta))
        print('ldp %5d %3g %4g %7g | %14.10f %14.10f | max_exact %14.10f at (%+d,%d)' % (
            n, E, p, delta, lower, upper, mx, bx, bj))
        if not (upper >= mx * (1 - 1e-9) - 1e-12):
            violations.append('%s: eps_upper %.12g < max over configurations %.12g' % (tag, upper, mx))
        if not (upper <= mx * (1 + 1e-6) + 1e-9):
            violations.append('%s: eps_upper %.12g is not the max over configurations %.12g' % (tag, upper, mx))
        if not (lower <= mx * (1 + 1e-9) + 1e-12):
            violations.append('%s: eps_lower %.12g > max over configurations %.12g' % (tag, lower, mx))
    for v in violations:
        print('VIOLATION: ' + v)
    print('OK' if not violations else '%d violation(s)' % len(violations))
    return 1 if violations else 0


if __name__ == '__main__':
    sys.exit(main())
