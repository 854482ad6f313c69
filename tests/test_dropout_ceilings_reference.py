#!/usr/bin/python3
"""Holds `corbin account`'s dropout lower end past the exact mixture (the ladder of survivor
ceilings, privacy/worst_case/survivors.hpp) to an independent reference of the configuration it
names: every other LDPQ client at c - r, every other pair at (c, c), inputs fixed before the draw.

Written from the paper by a reviewer who did not read the accountant; its laws are its own:
Independent reference for "model A" of the AugCorBin-FL round with client dropout.

Model (one round, one coordinate, replace-one, c = 0, r = 1): n = L + 2K clients, L of them on
LDPQ (Algorithm 1; client 1 is one of them) and K pairs running CorBinQ (Algorithm 2) with d shared
bits.  LDPQ at input w outputs "+" (c + r*alpha) with probability q(w) = 1/2 + (w - c)/(2 r alpha),
alpha = (E+1)/(E-1), E = e^{eps_p} (Algorithm 1, lines 1-2; the intro's alpha = (1+E)/(1-E) is a sign
typo, Algorithm 1 and Eq. (eq:th:1:3) give (E+1)/(E-1)), so q(-1) = qmin = 1/(E+1),
q(+1) = qmax = E/(E+1), q(0) = 1/2.  Every client drops independently with probability p; a pair
with one survivor leaves it on LDPQ at its own input (Sec. "Robustness to Client Dropout",
Theorem 4's preamble); the server sees who survived and the sum of the survivors' outputs, hence
(the survivor count being known) the number of "+".  Model A fixes the inputs before the draw:
client 1 at +1 in world P and -1 in world Q, every other LDPQ client at sigma = -1 (or +1), every
other pair at (0, 0).  Pair law at (0,0): Algorithm 2 with q1 = q2 = 1/2 gives
T1 = T2 = B_d(2^{d-1}); Z < T1 -> Q1 = +, Q2 = -;  Z > T1 -> Q1 = -, Q2 = +;  Z = T1 -> U ~
BinRand(2^d q1 - floor(2^d q1)) = BinRand(0), so U = -1 and Q1 = -, U' ~ BinRand(0), Q2 = c - U' r
alpha = +.  Hence P(-,-) = P(+,+) = 0 and the pair sends exactly one "+"; this agrees with the
appendix proof of Theorem 1 (case T1 = T2: P_{1,1} = 2^-d (1 - 2^d q1 + floor(2^d q1))(2^d(1-q2) -
floor(2^d(1-q2))) = 0) and with the optimal law Eqs. (eq:th:1:opt_dist)-(eq:th:1:opt_dist_2)
(P*_{1,1} = (2c - w - w')/(2 r alpha) = 0, P*_{2,2} = 0).  `pair_law` below derives it by running
Algorithm 2 literally over Z and the tie coins, for every d it is asked.  Since the pattern is
public and its law is the same in both worlds, delta(eps) = sum_pattern P(pattern) H_{e^eps}(P_pat
|| Q_pat); if client 1 dropped H = 0; otherwise the count of "+" is B1 + Bin(X, q_sigma) +
Bin(S, 1/2) + (#complete pairs, known), with X ~ Bin(L-1, 1-p) surviving other LDPQ clients and
S ~ Bin(K, 2p(1-p)) broken pairs (independent), B1 ~ Bern(qmax) vs Bern(qmin).  So
delta(eps) = (1-p) sum_{x,s} Bin(x) Bin(s) H_{e^eps}(P_{x,s} || Q_{x,s}), both orders, the larger
taken; eps(delta) = least eps with delta(eps) <= delta.  Floats: binomial weights from gammaln in
log space; the law f of N = Bin(x,q) + Bin(s,1/2) is log-concave, so the privacy loss is monotone
in the count and H_a = (tail of P) - a (tail of Q) past the crossing; (x, s) with weight < 1e-30
are dropped (their total mass is reported; dropping mass only lowers delta, and
true delta <= computed + dropped, so eps is bracketed by eps(delta) and eps(delta - dropped)).
Others at +1 instead of -1 is the mirror image (count k -> survivors - k swaps qmin/qmax and the
two worlds; a pair's "exactly one +" and a fair coin are symmetric), so with both orders taken the
two sigmas give the same eps; both are computed anyway.  The paper has no separate lemma for the
pair: its law is Algorithm 2 plus the proof of Theorem 1 (appendix), as above.
Validated against exact Fractions brute force over all 2^n dropout patterns (n = 3..8) and an
mpmath (60 digits) version of the same sum at n = 300 / 150.

Asserted per case: lower <= eps_A (1e-9 relative: a lower end attained by inputs fixed before the
draw), lower >= 0.995 eps_A on LDPQ alone and 0.985 eps_A with pairs (the ladder's measured
looseness, 0.25 % and 1.03 %: a regression guard), upper >= eps_A. The references with pairs take about a minute each, so the pair case's
eps_A is the reviewer's, kept with the command that recomputes it (`--recompute`). CORBIN_CLI
names the binary.
"""
import json
import math
import os
import subprocess
import sys
import time

import numpy as np
from scipy.special import gammaln

CLI = os.environ.get('CORBIN_CLI') or 'corbin'

# ---------------------------------------------------------------- float engine

def binom_pmf(N, prob):
    k = np.arange(N + 1, dtype=float)
    if prob == 1.0:
        out = np.zeros(N + 1); out[-1] = 1; return out
    lp = gammaln(N + 1) - gammaln(k + 1) - gammaln(N - k + 1) + k * math.log(prob) + (N - k) * math.log1p(-prob)
    return np.exp(lp)

FLOOR = 1e-280   # entries below this are left out (mass < 1e-276 per law; keeps P, Q normal)

def trim(v):
    nz = np.nonzero(v > FLOOR)[0]
    return v[nz[0]:nz[-1] + 1], int(nz[0])

class ModelA:
    def __init__(self, L, K, p, E, sigma=-1, tol=1e-30):
        self.L, self.K, self.p, self.E, self.sigma = L, K, float(p), float(E), sigma
        E = float(E)
        self.qmax, self.qmin = E / (E + 1), 1 / (E + 1)
        self.qo = self.qmax if sigma > 0 else self.qmin
        p = float(p)
        wx = binom_pmf(L - 1, 1 - p)
        ws = binom_pmf(K, 2 * p * (1 - p)) if K > 0 else np.array([1.0])
        kx = np.nonzero(wx >= tol)[0]; ks = np.nonzero(ws >= tol)[0]
        self.xs = np.arange(kx[0], kx[-1] + 1); self.ss = np.arange(ks[0], ks[-1] + 1)
        self.wx, self.ws = wx, ws
        kept = wx[self.xs].sum() * ws[self.ss].sum()
        dropped_x = wx.sum() - wx[self.xs].sum()  # mass outside the window (computed from the small side)
        dropped_x = wx[:self.xs[0]].sum() + wx[self.xs[-1] + 1:].sum()
        dropped_s = ws[:self.ss[0]].sum() + ws[self.ss[-1] + 1:].sum()
        self.dropped = (1 - p) * (dropped_x + dropped_s)   # upper bound on the mass left out
        self.max_mono_violation = 0.0
        self.ncomp = len(self.xs) * len(self.ss)

    def _component(self, f, w, la, a, accPQ, accQP):
        qmax, qmin = self.qmax, self.qmin
        f0 = np.concatenate(([0.0], f)); f1 = np.concatenate((f, [0.0]))
        P = qmax * f0 + (1 - qmax) * f1
        Q = qmin * f0 + (1 - qmin) * f1
        ell = np.log(P) - np.log(Q)          # P, Q > 0 on the trimmed support
        assert np.all(np.isfinite(ell))
        mono = np.maximum.accumulate(ell)
        v = float(np.max(mono - ell))
        if v > self.max_mono_violation: self.max_mono_violation = v
        # P||Q: atoms with ell > la, i.e. an upper tail
        Pt = np.concatenate((np.cumsum(P[::-1])[::-1], [0.0]))
        Qt = np.concatenate((np.cumsum(Q[::-1])[::-1], [0.0]))
        idx = np.searchsorted(mono, la, side='right')
        accPQ += w * np.maximum(Pt[idx] - a * Qt[idx], 0.0)
        # Q||P: atoms with -ell > la, i.e. ell < -la: a lower head
        Ph = np.concatenate(([0.0], np.cumsum(P)))
        Qh = np.concatenate(([0.0], np.cumsum(Q)))
        idx2 = np.searchsorted(mono, -la, side='left')
        accQP += w * np.maximum(Qh[idx2] - a * Ph[idx2], 0.0)

    def deltas(self, eps_grid):
        """(delta_PQ, delta_QP) on eps_grid (arrays)."""
        la = np.asarray(eps_grid, float); a = np.exp(la)
        accPQ = np.zeros_like(la); accQP = np.zeros_like(la)
        s_lo, s_hi = int(self.ss[0]), int(self.ss[-1])
        bs, _ = trim(binom_pmf(s_lo, 0.5))
        for x in self.xs:
            base, _ = trim(binom_pmf(int(x), self.qo))
            f = np.convolve(base, bs) if s_lo > 0 else base
            f, _ = trim(f)
            for s in range(s_lo, s_hi + 1):
                w = (1 - self.p) * self.wx[x] * self.ws[s]
                self._component(f, w, la, a, accPQ, accQP)
                if s < s_hi:
                    f = 0.5 * (np.concatenate((f, [0.0])) + np.concatenate(([0.0], f)))
                    f, _ = trim(f)
        return accPQ, accQP

    def eps(self, delta, passes=4, J=96, lo=0.0, hi=None, verbose=False):
        if hi is None: hi = math.log(self.E) * (1 + 1e-12)
        for it in range(passes):
            g = np.linspace(lo, hi, J)
            dPQ, dQP = self.deltas(g)
            d = np.maximum(dPQ, dQP)
            ok = np.nonzero(d <= delta)[0]
            if len(ok) == 0:
                raise RuntimeError("no grid point reaches delta")
            i = ok[0]
            if i == 0:
                return float(g[0]), (float(g[0]), float(g[0])), None
            lo, hi = float(g[i - 1]), float(g[i])
            if verbose: print(f"  pass {it}: [{lo:.12g}, {hi:.12g}]", file=sys.stderr)
        # final: interpolate log delta linearly inside the bracket (bracket width is tiny)
        dl = max(self.deltas([lo])); dh = max(self.deltas([hi]))
        if dh > 0 and dl > dh:
            t = (math.log(dl) - math.log(delta)) / (math.log(dl) - math.log(dh))
            est = lo + t * (hi - lo)
        else:
            est = hi
        # which direction dominates at the answer
        dPQ, dQP = self.deltas([est])
        return est, (lo, hi), ("P||Q" if dPQ[0] >= dQP[0] else "Q||P")


# (n, gamma, L, K, p, delta, eps_A or None to compute): L LDPQ clients (client 1 among them), K pairs.
CASES = [
    (1025, '1', 1025, 0, '1/10', '1e-5', None),
    (2000, '1', 2000, 0, '1/10', '1e-5', None),
    (2000, '1', 2000, 0, '1/2', '1e-5', None),
    (1025, '1', 1025, 0, '1/10', '1e-3', None),
    # ModelA(1000, 500, 0.1, 3.0).eps(1e-5), 70 s: 0.1153751599 (grid bracket below 1.4e-8).
    (2000, '1/2', 1000, 500, '1/10', '1e-5', 0.1153751599),
]


def corbin(n, gamma, p, delta):
    cmd = [CLI, 'account', '--n', str(n), '--gamma', gamma, '--exp-eps', '3', '--dropout', p,
           '--delta', delta, '--json'] + (['--role', 'ldpq'] if gamma != '1' else [])
    return json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout), ' '.join(cmd)


def fraction(x):
    a, _, b = x.partition('/')
    return float(a) / float(b or 1)


def main():
    start = time.time()
    recompute = '--recompute' in sys.argv
    failures = []
    for n, gamma, L, K, p, delta, kept in CASES:
        if kept is None or recompute:
            eps_a = max(ModelA(L, K, fraction(p), 3.0, sigma).eps(float(delta))[0] for sigma in (-1, 1))
        else:
            eps_a = kept
        out, cmd = corbin(n, gamma, p, delta)
        lower, upper = float(out['eps_lower']), float(out['eps_upper'])
        print('n=%d gamma=%s p=%s delta=%s: corbin [%.10f, %.10f], eps_A %.10f, lower/A %.6f, upper/A %.6f'
              % (n, gamma, p, delta, lower, upper, eps_a, lower / eps_a, upper / eps_a), flush=True)
        if lower > eps_a * (1 + 1e-9):
            failures.append('lower above the configuration it names: ' + cmd)
        if lower < (0.995 if K == 0 else 0.985) * eps_a:
            failures.append('lower looser than measured: ' + cmd)
        if upper < eps_a * (1 - 1e-9):
            failures.append('upper below an attained value: ' + cmd)
    print('%d cases, %.1f s' % (len(CASES), time.time() - start))
    if failures:
        print('\n'.join(failures))
        sys.exit(1)


if __name__ == '__main__':
    main()
