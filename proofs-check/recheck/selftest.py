"""Self-test: the closed forms against brute force over a small domain, and T3's accountant
against exact compositions."""
import math
from decimal import Decimal, localcontext
from fractions import Fraction as F

from . import pld
from .algorithm2 import enumerate_joint, joint_from_cells, joint_law, threshold_range
from .exact import floor_frac
from .limits import CENTER, RADIUS, VARIANTS
from .pldp import pldp_brute_force, pldp_sup
from .ucdp import binomial_numerators, poly_mul
from .utility import min_pp_over_d_bit_pairs, optimal_law, pair_mse, sup_gap


def self_test():
    """Closed-form joint law = enumeration (every reading, d <= 4, inputs at steps of r/4, several
    α); analytic PLDP supremum = the search over every cell end; sup_gap = the gap maximised over
    every pair of cell ends and midpoints; CorBinQ's P(++) = the d-bit optimum (T1c); T3's
    accountant brackets exact compositions (accountant_test)."""
    failures = 0
    alphas = (F(2), F(3), F(21, 19), F(1859141, 859141), F(3735329, 3685329), F(7, 2))
    inputs = [CENTER + RADIUS * F(k, 4) for k in range(-4, 5)]
    for alpha in alphas:
        for d in range(0, 5):
            n = 2 ** d
            for variant in VARIANTS:
                for w1 in inputs:
                    for w2 in inputs:
                        if joint_law(alpha, CENTER, RADIUS, w1, w2, d, variant) != \
                                enumerate_joint(alpha, CENTER, RADIUS, w1, w2, d, variant):
                            failures += 1
                            print(f"self-test: joint law α={alpha} d={d} {variant} w=({w1}, {w2})")
                if pldp_sup(alpha, d, variant) != pldp_brute_force(alpha, d, variant):
                    failures += 1
                    print(f"self-test: PLDP α={alpha} d={d} {variant}: {pldp_sup(alpha, d, variant)} "
                          f"!= {pldp_brute_force(alpha, d, variant)}")
            lo, hi = threshold_range(alpha, n)
            points = sorted({lo, hi} | {F(k) for k in range(math.ceil(lo), math.floor(hi) + 1)})
            points = sorted(set(points) | {(a + b) / 2 for a, b in zip(points, points[1:])}
                            | {F(math.floor(p)) + F(1, 2) for p in points if lo <= math.floor(p) + F(1, 2) <= hi})
            best, level = F(0), RADIUS * alpha
            for u in points:
                for v in points:
                    law = joint_from_cells(floor_frac(u), floor_frac(v), n, "corrected")
                    q1, q2 = u / n, 1 - v / n
                    x, y = level * (2 * q1 - 1), level * (2 * q2 - 1)
                    best = max(best, pair_mse(law, level, x, y) - pair_mse(optimal_law(q1, q2), level, x, y))
                    if law["++"] != min_pp_over_d_bit_pairs(q1, q2, n):
                        failures += 1
                        print(f"self-test: T1c optimum α={alpha} d={d} u={u} v={v}")
            if best != sup_gap(alpha, d):
                failures += 1
                print(f"self-test: sup_gap α={alpha} d={d}: {sup_gap(alpha, d)} != search {best}")
    for line in accountant_test():
        failures += 1
        print(f"self-test: accountant {line}")
    print(f"self-test: {failures} failures")
    return 1 if failures else 0


def _exact_epsilon(atoms, delta):
    """ε(δ) of a pair given as exact atoms (P, Q), at 60 digits: δ(ε) = Σ_(P > e^ε Q) (P − e^ε Q)
    is linear in e^ε between consecutive ratios P/Q, so ε is ln((A − δ)/B) on the segment that
    reaches δ, A and B the P- and Q-mass above it; +∞ when the mass where Q = 0 is above δ."""
    infinite = sum((p for p, q in atoms if q == 0 and p > 0), F(0))
    if infinite > delta:
        return Decimal("Infinity")
    ratios = sorted({p / q for p, q in atoms if q > 0 and p > 0}, reverse=True)
    above_p, above_q = infinite, F(0)
    for i, ratio in enumerate(ratios):
        above_p += sum((p for p, q in atoms if q > 0 and p / q == ratio), F(0))
        above_q += sum((q for p, q in atoms if q > 0 and p > 0 and p / q == ratio), F(0))
        floor = ratios[i + 1] if i + 1 < len(ratios) else F(0)
        # On (floor, ratio]: δ(e^ε) = above_p − e^ε above_q.
        if above_p - floor * above_q > delta:
            level = max((above_p - delta) / above_q, F(1))
            with localcontext() as ctx:
                ctx.prec = 60
                return (Decimal(level.numerator) / Decimal(level.denominator)).ln()
    return Decimal(0)


def _binomial(trials, q):
    return [F(v, q.denominator ** trials) for v in binomial_numerators(trials, q.numerator, q.denominator)]


def _composed(p, q, k):
    """The k-fold product of the pair (p, q) (lists over the same outputs), its outputs merged by
    their ratio P/Q after each factor (a merge of outputs of equal ratio changes no δ(ε))."""
    base = [(x, y) for x, y in zip(p, q) if x > 0 or y > 0]
    atoms = {F(1): (F(1), F(1))}
    for _ in range(k):
        merged = {}
        for pp, qq in atoms.values():
            for x, y in base:
                a, b = pp * x, qq * y
                key = a / b if b else None
                old = merged.get(key, (F(0), F(0)))
                merged[key] = (old[0] + a, old[1] + b)
        atoms = merged
    return list(atoms.values())


def accountant_test():
    """T3's accountant (pld.py) against exact compositions in rationals: client 1 alone (n = 3,
    γ = 1/3: randomized response, both directions alike) composed 1 to 200 times, and every
    configuration of small populations on LDPQ and in a pair, composed 1 to 3 times: the lower
    bound is at most the exact ε(δ) of the configuration it names, the upper bound at least that of
    every configuration. Returns the failures."""
    failures = []
    alpha = F(2)
    q_low = F(1, 2) - 1 / (2 * alpha)
    for delta in (F(1, 10), F(1, 1000), F(1, 100000)):
        ks = (1, 7, 64, 200)
        account = pld.Account(3, F(1, 3), alpha, 5, "ldpq", delta, set(ks))
        for k in ks:
            exact = _exact_epsilon(_composed([1 - q_low, q_low][::-1], [1 - q_low, q_low], k), delta)
            lower, upper = account.lower_epsilon(k)[0], account.upper_bound(k)[0]
            if not Decimal(lower) <= exact <= Decimal(upper):
                failures.append(f"randomized response k={k} δ={delta}: {exact:.12g} outside [{lower!r}, {upper!r}]")
    for n, role in ((8, "ldpq"), (8, "leader"), (9, "leader")):
        for delta in (F(1, 100), F(1, 100000)):
            ks = (1, 2, 3)
            account = pld.Account(n, F(1, 2), alpha, 5, role, delta, set(ks))
            family = account.family
            for k in ks:
                exact = {}
                for top in range(family.others + 1):
                    others = poly_mul(_binomial(family.others - top, q_low), _binomial(top, 1 - q_low))
                    for c, (_, with_law, neighbour_law, _) in enumerate(family.candidates):
                        pair = poly_mul(others, with_law), poly_mul(others, neighbour_law)
                        exact[(top, c)] = _exact_epsilon(_composed(*pair, k), delta)
                lower, upper = account.lower_epsilon(k)[0], account.upper_bound(k)[0]
                named = exact[account.attaining(k)]
                worst = max(exact.values())
                if not (Decimal(lower) <= named and worst <= Decimal(upper)):
                    failures.append(f"n={n} {role} k={k} δ={delta}: [{lower!r}, {upper!r}] against the named "
                                    f"configuration's {named:.12g} and the largest {worst:.12g}")
    return failures
