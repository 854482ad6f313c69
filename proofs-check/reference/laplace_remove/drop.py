"""The Laplace pair under remove one with client dropout, one use, m = 1 (mpmath, 40 digits).

Every client, client 1 included, drops independently with probability p; the server sees the
survivors' sum (each survivor's input plus its Laplace(b) noise), 0 when nobody survived.

- As run (`asrun_delta`): the server sees the sum alone. P (client 1 present) and Q (absent) are
  mixtures over who survived: an atom at 0 (nobody) and f_k(. - shift) for each surviving set
  (grouped by size k and shift, the survivors' inputs summed, in units of b). H between two such
  mixtures as in `lap.hockey`: the sign of log p/q - eps on a grid, crossings refined in mpmath,
  exact CDF differences between them, plus the atoms' (P_0 - e^eps Q_0)_+.
- Others' survival known (`knows_delta`): the server also sees which of the other clients survived
  (not whether client 1 did). Given that label, the others' sum is a known shift and cancels; with k
  others surviving, P = p f_k + (1 - p) f_(k+1)(. - s) against Q = f_k (k = 0: P = p [atom at 0] +
  (1 - p) f_1(. - s) against Q = the atom). H is the label's mixture of these. The sum alone is a
  function of (label, sum), so this bounds the as-run value from above at every configuration of
  the other inputs.
- Count known (`count_delta`): the server sees how many clients survived, client 1 included, and the
  sum (all others at one input). Informational only: it bounds the as-run value at the same
  configuration from above, but the count reveals much of whether client 1 took part, it is no model
  the accountant claims, and nothing is asserted about it.
"""
import itertools

from lap import *  # noqa: F401,F403  (mp, np, math, Fraction, f_mp, F_mp, logf_np, refine, M)


def mix_logpdf_np(comps, u):
    """log of sum_i w_i f_(k_i)(u - s_i), float64; comps: (w, k, shift) floats."""
    out = np.full_like(u, -np.inf)
    for w, k, s in comps:
        out = np.logaddexp(out, math.log(w) + logf_np(k, u - s))
    return out


def mix_pdf_mp(comps, u):
    return mp.fsum(w * f_mp(k, u - s) for w, k, s in comps)


def mix_cdf_mp(comps, u):
    return mp.fsum(w * F_mp(k, u - s) for w, k, s in comps)


def hockey_mix(Pc, aP, Qc, aQ, eps, U=300.0, step=0.004):
    """H_eps(P||Q), P = aP [atom at 0] + Pc (continuous components), Q likewise (mpmath)."""
    ee = mp.e**eps
    d = max(mp.mpf(0), aP - ee * aQ)
    if not Pc:
        return d
    if not Qc:
        return d + mp.fsum(w for w, k, s in Pc)
    u = np.arange(-U, U + step / 2, step)
    L = mix_logpdf_np([(float(w), k, float(s)) for w, k, s in Pc], u) - \
        mix_logpdf_np([(float(w), k, float(s)) for w, k, s in Qc], u)
    sg = L - float(eps) > 0
    idx = np.nonzero(sg[1:] != sg[:-1])[0]

    def g(x):
        return mp.log(mix_pdf_mp(Pc, x)) - mp.log(mix_pdf_mp(Qc, x)) - eps
    roots = [refine(g, u[i], u[i + 1]) for i in idx]
    pts = [-mp.inf] + roots + [mp.inf]
    for i in range(len(pts) - 1):
        lo, hi = pts[i], pts[i + 1]
        if lo == -mp.inf:
            pos = sg[0]
        elif hi == mp.inf:
            pos = sg[-1]
        else:
            pos = g((lo + hi) / 2) > 0
        if pos:
            d += (mix_cdf_mp(Pc, hi) - mix_cdf_mp(Pc, lo)) - ee * (mix_cdf_mp(Qc, hi) - mix_cdf_mp(Qc, lo))
    return d


def asrun_laws(n, p, x1, others, b):
    """The as-run laws (Pc, aP, Qc, aQ), shifts in units of b; x1, others in input units."""
    p = M(p)
    q1 = 1 - p
    bm = mp.mpf(b)

    def laws(xs):
        comps = {}
        atom = mp.mpf(0)
        for surv in itertools.product([0, 1], repeat=len(xs)):
            w = mp.fprod(q1 if s_ else p for s_ in surv)
            k = sum(surv)
            if k == 0:
                atom += w
                continue
            sh = mp.fsum(M(x) for x, s_ in zip(xs, surv) if s_) / bm
            key = (k, mp.nstr(sh, 35))
            if key in comps:
                comps[key][0] += w
            else:
                comps[key] = [w, k, sh]
        return [tuple(v) for v in comps.values()], atom
    Pc, aP = laws([x1] + list(others))
    Qc, aQ = laws(list(others))
    return Pc, aP, Qc, aQ


def asrun_both(n, p, x1, others, b, eps):
    """(H(P||Q), H(Q||P)) as run, the sum alone."""
    Pc, aP, Qc, aQ = asrun_laws(n, p, x1, others, b)
    return hockey_mix(Pc, aP, Qc, aQ, eps), hockey_mix(Qc, aQ, Pc, aP, eps)


def asrun_delta(n, p, x1, others, b, eps):
    return max(asrun_both(n, p, x1, others, b, eps))


def knows_delta(n, p, x1, b, eps):
    """(max, H(P||Q), H(Q||P)) when the server also sees which other clients survived."""
    p = M(p)
    s = M(x1) / mp.mpf(b)
    dPQ = mp.mpf(0)
    dQP = mp.mpf(0)
    for k in range(n):
        w = mp.binomial(n - 1, k) * (1 - p)**k * p**(n - 1 - k)
        if k == 0:
            Pc, aP, Qc, aQ = [(1 - p, 1, s)], p, [], mp.mpf(1)
        else:
            Pc, aP, Qc, aQ = [(p, k, mp.mpf(0)), (1 - p, k + 1, s)], mp.mpf(0), [(mp.mpf(1), k, mp.mpf(0))], mp.mpf(0)
        dPQ += w * hockey_mix(Pc, aP, Qc, aQ, eps)
        dQP += w * hockey_mix(Qc, aQ, Pc, aP, eps)
    return max(dPQ, dQP), dPQ, dQP


def count_delta(n, p, x1, xo, b, eps):
    """The server sees (how many survived, client 1 included; the sum); all others at xo."""
    p = M(p)
    q1 = 1 - p
    bm = mp.mpf(b)
    s1 = M(x1) / bm
    so = M(xo) / bm
    dPQ = mp.mpf(0)
    dQP = mp.mpf(0)
    for k in range(n + 1):
        Pc = []
        aP = mp.mpf(0)
        Qc = []
        aQ = mp.mpf(0)
        wA = mp.binomial(n - 1, k - 1) * q1**k * p**(n - k) if k >= 1 else 0
        wB = mp.binomial(n - 1, k) * q1**k * p**(n - k) if k <= n - 1 else 0
        wQ = mp.binomial(n - 1, k) * q1**k * p**(n - 1 - k) if k <= n - 1 else 0
        if k == 0:
            aP, aQ = wB, wQ
        else:
            if wA:
                Pc.append((wA, k, s1 + (k - 1) * so))
            if wB:
                Pc.append((wB, k, k * so))
            if wQ:
                Qc.append((wQ, k, k * so))
        dPQ += hockey_mix(Pc, aP, Qc, aQ, eps)
        dQP += hockey_mix(Qc, aQ, Pc, aP, eps)
    return max(dPQ, dQP)
