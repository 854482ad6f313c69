"""Witnesses (proofs-check/witness.hpp and the checks): every input of a counterexample is in the
item; each value and the item's "refutes" are recomputed here from those inputs. The kinds
witness.cpp writes are here; a check that writes its own kind has it in its claim's module (T3,
T3m, G1, B1), and every kind is dispatched from here."""
from decimal import Decimal, localcontext
from fractions import Fraction as F

from . import b1, g1, t3
from .algorithm2 import alpha_of, checked_joint_law, ldpq_q, marginals
from .exact import dec, floor_frac, rat
from .limits import VARIANTS, kMaxBits, kWorkDigits
from .report import Malformed, short
from .schema import (BITS, EXP_EPS, PROBABILITY, RADIUS_POSITIVE, WITNESS, all_rules, check_input, eps_decimal,
                     inputs_in_range, list_of, nat, nat_between, obj, one_of, put, rational, sub)
from .utility import pair_mse, paper_gap_bound


# Each witness kind's fields (witness.cpp, check_t3.cpp, check_t3m.cpp, check_g1.cpp, check_b1.cpp),
# every parameter within the domain of the formula its recheck feeds it to (witness_* below).
WITNESS_SETTING = {"exp_eps": EXP_EPS, "center": rational, "radius": RADIUS_POSITIVE, "bits": BITS}


def competitor_levels_rule(value, path):
    lo, hi = (F(v) for v in value["competitor_levels"])
    if not lo < hi:
        raise Malformed(sub(path, "competitor_levels"), f"{lo}, {hi} are outside their domain (lo < hi: p(w) = "
                                                        f"(w − lo)/(hi − lo))")


def pairs_in_range(value, path):
    for i, pair in enumerate(value["pairs"]):
        for j, item in enumerate(pair):
            check_input(item, sub(path, f"pairs/{i}/{j}"), value)


def z_rule(value, path):
    """Z is uniform on {0, …, 2^d − 1}: z < 2^d iff z has at most d bits."""
    if value["z"].bit_length() > value["bits"]:
        raise Malformed(sub(path, "z"), f"{short(value['z'])} is outside its domain (a value of Z: 0 <= z < 2^d, "
                                        f"d = {value['bits']})")


WITNESS_SCHEMAS = {
    "free_levels_pair": obj({**WITNESS_SETTING,
                             "bits": nat_between(1, kMaxBits, "d", "the competitor picks by Z's last bit; "
                                                                   "corbinq.hpp kMaxBits"),
                             "claim_part": one_of("bound", "optimality", "limit"), "w1": rational, "w2": rational,
                             "competitor_levels": list_of(rational, lengths=(2,)),
                             **put("corbinq_mse", "competitor_mse", "thm1_bound")},
                            rule=all_rules(inputs_in_range("w1", "w2"), competitor_levels_rule)),
    "aggregate_mean": obj({**WITNESS_SETTING, "variant": one_of(*VARIANTS),
                           "pairs": list_of(list_of(rational, lengths=(2,))),
                           **put("expected_average", "average_of_inputs")}, rule=pairs_in_range),
    "printed_q2": obj({**WITNESS_SETTING, "leader": rational, "follower_a": rational, "follower_b": rational,
                       **put("plus_at_a", "plus_at_b", spec=PROBABILITY), **put("mean_at_b")},
                      rule=inputs_in_range("leader", "follower_a", "follower_b")),
    "reference_top_cell": obj({"exp_eps_at_least": EXP_EPS, "center": rational, "radius": RADIUS_POSITIVE, "bits": BITS,
                               **put("plus_at_c_plus_r", "ldpq_q_at_c_plus_r", "minus_at_c_minus_r",
                                     spec=PROBABILITY)},
                              {"eps": eps_decimal, **put("minus_at_c_plus_r", spec=PROBABILITY)}),
    "given_z": obj({**WITNESS_SETTING, "z": nat, "w_a": rational, "w_b": rational,
                    **put("plus_given_z_at_a", "plus_given_z_at_b", spec=PROBABILITY)},
                   rule=all_rules(z_rule, inputs_in_range("w_a", "w_b"))),
    **g1.WITNESS_SCHEMAS, **t3.WITNESS_SCHEMAS, "baseline_law": b1.BASELINE_LAW,
}


def _in_range(report, path, c, r, *ws):
    return report.expect(all(c - r <= w <= c + r for w in ws), path, "an input outside [c − r, c + r]")


def witness_free_levels(report, w, path):
    """Thm 1 with 𝒬 as printed: CorBinQ against a pair with levels lo, hi in which the last bit of
    Z picks which client may go high (z even: client 1 high w.p. 2p(w1), client 2 low; z odd: the
    mirror), p(w) = (w − lo)/(hi − lo). Each client's marginal P(hi) is p(w): unbiased; it is
    ε-PLDP when p and 1 − p at the range's ends are within e^ε (p is monotone)."""
    x = rat(w["exp_eps"])
    alpha, c, r, d = alpha_of(x), rat(w["center"]), rat(w["radius"]), BITS(w["bits"], f"{path}/bits") or w["bits"]
    w1, w2 = rat(w["w1"]), rat(w["w2"])
    lo, hi = (rat(v) for v in w["competitor_levels"])
    _in_range(report, path, c, r, w1, w2)
    report.expect(c > 0 and r > 0 and d >= 1, path, "Theorem 1 needs c, r > 0; the parity rule needs d >= 1")

    def p(v):
        return (v - lo) / (hi - lo)
    ends = (p(c - r), p(c + r))
    report.expect(0 <= min(ends) and 2 * max(ends) <= 1, path, "2p(w) is not a probability on the range")
    report.expect(max(ends) <= x * min(ends) and 1 - min(ends) <= x * (1 - max(ends)), path,
                  "the competitor is not ε-PLDP: it is not in 𝒬")
    s = w1 + w2
    even = 2 * p(w1) * (hi + lo - s) ** 2 + (1 - 2 * p(w1)) * (2 * lo - s) ** 2
    odd = 2 * p(w2) * (lo + hi - s) ** 2 + (1 - 2 * p(w2)) * (2 * lo - s) ** 2
    competitor = (even + odd) / 2
    law = checked_joint_law(alpha, c, r, w1, w2, d, "corrected")
    corbinq = pair_mse(law, r * alpha, w1 - c, w2 - c)
    bound = paper_gap_bound(alpha, d, r)
    report.equal(f"{path}/corbinq_mse", rat(w["corbinq_mse"]), corbinq, w["corbinq_mse"])
    report.equal(f"{path}/competitor_mse", rat(w["competitor_mse"]), competitor, w["competitor_mse"])
    report.equal(f"{path}/thm1_bound", rat(w["thm1_bound"]), bound, w["thm1_bound"])
    return corbinq > competitor + bound if w["claim_part"] == "bound" else corbinq > competitor


def witness_aggregate_mean(report, w, path):
    """E of the server's average (1/n) Σ over the pairs' outputs c ± rα, from each pair's exact law."""
    x = rat(w["exp_eps"])
    alpha, c, r, d = alpha_of(x), rat(w["center"]), rat(w["radius"]), w["bits"]
    level, total, inputs = r * alpha, F(0), F(0)
    for i, (a, b) in enumerate(w["pairs"]):
        w1, w2 = rat(a), rat(b)
        _in_range(report, f"{path}/pairs/{i}", c, r, w1, w2)
        p1, p2 = marginals(checked_joint_law(alpha, c, r, w1, w2, d, w["variant"]))
        total += 2 * c + level * (2 * p1 - 1) + level * (2 * p2 - 1)
        inputs += w1 + w2
    n = 2 * len(w["pairs"])
    report.equal(f"{path}/expected_average", rat(w["expected_average"]), total / n, w["expected_average"])
    report.equal(f"{path}/average_of_inputs", rat(w["average_of_inputs"]), inputs / n, w["average_of_inputs"])
    return total != inputs


def witness_printed_q2(report, w, path):
    """Alg. 2 as printed: P(Q2 = c + rα) at two follower inputs, the leader fixed; C5 or C4 broken."""
    x = rat(w["exp_eps"])
    alpha, c, r, d = alpha_of(x), rat(w["center"]), rat(w["radius"]), w["bits"]
    leader, a, b = rat(w["leader"]), rat(w["follower_a"]), rat(w["follower_b"])
    _in_range(report, path, c, r, leader, a, b)
    pa = marginals(checked_joint_law(alpha, c, r, leader, a, d, "as-printed"))[1]
    pb = marginals(checked_joint_law(alpha, c, r, leader, b, d, "as-printed"))[1]
    mean_b = c + r * alpha * (2 * pb - 1)
    report.equal(f"{path}/plus_at_a", rat(w["plus_at_a"]), pa, w["plus_at_a"])
    report.equal(f"{path}/plus_at_b", rat(w["plus_at_b"]), pb, w["plus_at_b"])
    report.equal(f"{path}/mean_at_b", rat(w["mean_at_b"]), mean_b, w["mean_at_b"])
    return pa > x * pb or pb > x * pa or mean_b != b


def witness_reference_top(report, w, path):
    """The reference code once the leader at c + r reaches the top cell (e^ε >= 2^d − 1): its
    law at e^ε = exp_eps_at_least; with "eps", e^eps >= that bound is checked in decimals (the top
    cell, once reached, stays reached as e^ε grows: 2^d q(c + r) = 2^(d−1)(1 + 1/α) increases)."""
    x = rat(w["exp_eps_at_least"])
    alpha, c, r, d = alpha_of(x), rat(w["center"]), rat(w["radius"]), w["bits"]
    n = 2 ** d
    if "eps" in w:
        with localcontext() as ctx:
            ctx.prec = kWorkDigits
            # e^eps > e^ε's bound, compared as logarithms (e^eps may exceed a Decimal's exponent range)
            report.expect(Decimal(w["eps"]) > dec(x).ln(), f"{path}/eps", f"e^{w['eps']} is below {w['exp_eps_at_least']}")
        report.expect(n * ldpq_q(alpha, c, r, c + r) >= n - 1, f"{path}/exp_eps_at_least",
                      "below the top cell: the bound does not carry to e^eps")
    top = marginals(checked_joint_law(alpha, c, r, c + r, c, d, "reference-code"))[0]
    bottom = marginals(checked_joint_law(alpha, c, r, c - r, c, d, "reference-code"))[0]
    q = ldpq_q(alpha, c, r, c + r)
    report.equal(f"{path}/plus_at_c_plus_r", rat(w["plus_at_c_plus_r"]), top, w["plus_at_c_plus_r"])
    report.equal(f"{path}/ldpq_q_at_c_plus_r", rat(w["ldpq_q_at_c_plus_r"]), q, w["ldpq_q_at_c_plus_r"])
    report.equal(f"{path}/minus_at_c_minus_r", rat(w["minus_at_c_minus_r"]), 1 - bottom, w["minus_at_c_minus_r"])
    if "minus_at_c_plus_r" in w:
        report.equal(f"{path}/minus_at_c_plus_r", rat(w["minus_at_c_plus_r"]), 1 - top, w["minus_at_c_plus_r"])
    return top != q or (top == 1 and bottom != 1)


def witness_given_z(report, w, path):
    """A CorBinQ leader's law given Z = z (Alg. 2, lines 3–11): "+" for z < ⌊u⌋, w.p. u − ⌊u⌋ at z = ⌊u⌋."""
    x = rat(w["exp_eps"])
    alpha, c, r, d, z = alpha_of(x), rat(w["center"]), rat(w["radius"]), w["bits"], w["z"]
    report.expect(z < 2 ** d, f"{path}/z", "z is not a value of Z")

    def given(v):
        a, f = floor_frac(2 ** d * ldpq_q(alpha, c, r, v))
        return F(1) if z < a else f if z == a else F(0)
    wa, wb = rat(w["w_a"]), rat(w["w_b"])
    _in_range(report, path, c, r, wa, wb)
    pa, pb = given(wa), given(wb)
    report.equal(f"{path}/plus_given_z_at_a", rat(w["plus_given_z_at_a"]), pa, w["plus_given_z_at_a"])
    report.equal(f"{path}/plus_given_z_at_b", rat(w["plus_given_z_at_b"]), pb, w["plus_given_z_at_b"])
    return pa > x * pb or pb > x * pa or 1 - pa > x * (1 - pb) or 1 - pb > x * (1 - pa)


WITNESS_RECHECKS = {"free_levels_pair": witness_free_levels, "aggregate_mean": witness_aggregate_mean,
                    "printed_q2": witness_printed_q2, "reference_top_cell": witness_reference_top,
                    "given_z": witness_given_z, **g1.WITNESS_RECHECKS, **t3.WITNESS_RECHECKS,
                    "baseline_law": b1.witness_baseline_law}


def recheck_witnesses(report, cert):
    """Every witness's values and "refutes"; returns {reading: True if some witness refutes it}."""
    refuted = {}
    for i, w in enumerate(cert["data"].get("witnesses", [])):
        path = f"data/witnesses/{i}"
        WITNESS(w, path)
        WITNESS_SCHEMAS[w["kind"]](w, path)  # every parameter inside its formula's domain
        try:
            refutes = WITNESS_RECHECKS[w["kind"]](report, w, path)
        except (KeyError, TypeError, ValueError, ArithmeticError) as e:
            raise Malformed(path, f"a {w['kind']} witness lacks or mistypes a field ({type(e).__name__}: {e})") from None
        report.expect(w["refutes"] == refutes, f"{path}/refutes", f"{w['refutes']} != recomputed {refutes}")
        refuted[w["reading"]] = refuted.get(w["reading"], False) or refutes
    return refuted
