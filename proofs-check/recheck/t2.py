"""Theorem 2: T2a (an unbiased aggregate), T2b (its MSE bound, and Appendix C's steps), T2c (the
factor two over LDP-FL)."""
from fractions import Fraction as F

from .algorithm2 import alpha_of, checked_joint_law, joint_law, ldpq_q, marginals
from .common import bound_verdict, check_exp_eps_and_alpha, check_verdict, count_and_witness
from .exact import rat
from .grids import GRIDS, exp_eps_of, grid_inputs
from .limits import CENTER, RADIUS
from .schema import ALPHA, BITS, EXP_EPS, JOINT_ITEM, WEIGHT, boolean, list_of, nat, obj, put
from .utility import independent_law, optimal_law, pair_mse, sup_optimal_pair_mse


T2C_ROW = {**put("exp_eps", spec=EXP_EPS), **put("worst_case_ratio", "ratio_at_w1_w2_c_plus_r")}


DATA = {
    "T2a": obj({"cases": nat, "biased_cases": nat, "printed_variant_biased_cases": nat},
               {"witness": obj(put("mean", "sum_of_weights"))}),
    "T2b": obj({"rows": list_of(obj({**put("exp_eps", spec=EXP_EPS), **put("alpha", spec=ALPHA),
                                     **put("sup_pair_mse", "claimed_pair_bound"),
                                     **put("witness_w", spec=WEIGHT)})),
                "grid_never_exceeds_witness": boolean,
                "appendix_c_steps": obj({"points": nat, "mse_equals_var_plus_2cov": nat,
                                         "mse_equals_var_plus_cov_as_in_proof": nat, "var_at_most_r2alpha2": nat,
                                         "cov_formula_holds": nat, "cov_at_most_minus_r2_alpha_minus_1_squared": nat,
                                         **put("max_cov_when_w_plus_w2_at_most_2c")}),
                **put("smallest_bound_over_sup")},
               {"as_printed": obj({**put("exp_eps", spec=EXP_EPS), **put("center", "radius", "w1", "w2", "bound"),
                                   "n": nat,
                                   "rows": list_of(obj({"bits": BITS, **put("aggregate_mse"), "recheck": JOINT_ITEM}))})}),
    "T2c": obj({"rows": list_of(obj(T2C_ROW))}, {"per_input_counterexample": obj(T2C_ROW)}),
}


def recheck_t2a(cert, report):
    """T2a (Thm 2, unbiased aggregate, check_t2a.cpp). Fact: each corrected client's marginal is
    LDPQ's (T1a's closed form), whose mean is c + rα(2q − 1) = w, so the released sum's mean is
    the sum of the weights in every population: biased_cases is 0. Verdict: holds iff 0; a
    witness exists iff a case is biased."""
    data = cert["data"]
    witness = count_and_witness(report, data, "biased_cases", "present with no biased case",
                                "missing, but a case is biased")
    if witness is not None:
        report.expect(rat(witness["mean"]) != rat(witness["sum_of_weights"]), "data/witness/mean",
                      "equals the sum of the weights")
    report.expect(data["printed_variant_biased_cases"] <= data["cases"], "data/printed_variant_biased_cases",
                  "more than the cases")
    # The populations over the certificate's grid (check_t2a.cpp: c = 0, r = 1; for each e^ε, d and
    # n = 2..9, client i's weight is input (7i + 3n + d) mod |inputs|; client 0 and, for even n, the
    # last client on LDPQ, the others in consecutive pairs, the first of each leading). The sum's
    # mean is the sum of the outputs' means (linearity), each c + rα(2P(+) − 1) from its marginal:
    # LDPQ's is its weight; a pair's as printed comes from the printed joint law.
    grid = GRIDS[cert["grid"]]
    inputs = grid_inputs(cert["grid"], F(0), F(1))
    cases = printed_biased = 0
    for eps in grid["eps"]:
        alpha = alpha_of(exp_eps_of(eps))
        for d in grid["bits"]:
            for n in range(2, 10):
                def w(i):
                    return inputs[(i * 7 + n * 3 + d) % len(inputs)]
                total = sum(w(i) for i in range(n))
                mean = w(0) + (w(n - 1) if n % 2 == 0 else 0)
                for i in range(1, n - 1, 2):
                    p1, p2 = marginals(joint_law(alpha, F(0), F(1), w(i), w(i + 1), d, "as-printed"))
                    mean += alpha * (2 * p1 - 1) + alpha * (2 * p2 - 1)
                cases += 1
                printed_biased += mean != total
    report.equal("data/cases", data["cases"], cases)
    report.equal("data/printed_variant_biased_cases", data["printed_variant_biased_cases"], printed_biased)
    check_verdict(report, cert, "holds" if data["biased_cases"] == 0 else "fails")


# check_t2b.cpp walks Appendix C at e^ε = 3, i.e. α = 2 (and c = 0, r = 1).
T2B_APPENDIX_ALPHA = F(2)


def recheck_t2b(cert, report):
    """T2b (Thm 2's MSE bound, check_t2b.cpp). Per row: α, the exact worst case sup M (see
    sup_optimal_pair_mse), M at the witness w1 = w2 = witness_w (optimal coupling), the claimed
    r²(α² + 2α − 1) (the √2 cancel). Facts: sup M is the sup over the whole square, so
    grid_never_exceeds_witness is true. Appendix C at α = 2, r = 1: MSE = Var1 + Var2 + 2Cov is
    an identity, Var = (rα)² − (w − c)² <= (rα)², and with x + y <= 0 the coupling has P(++) = 0,
    so Cov = −L² − L(x + y) − xy (the printed formula) = −(L + x)(L + y) < 0, decreasing in x and
    y, at most −r²(α − 1)² (at w = w' = c − r, on every grid); symmetric for x + y > 0. So every
    count equals points except MSE = Var1 + Var2 + Cov, which holds nowhere (Cov < 0), and the
    max covariance is −(α − 1)² = −1. Verdict: the BoundTally rule, undecided if the grid
    exceeded the witness."""
    data = cert["data"]
    pairs, slacks = [], []
    for i, row in enumerate(data["rows"]):
        path = f"data/rows/{i}"
        alpha = check_exp_eps_and_alpha(report, row, path)
        sup = sup_optimal_pair_mse(alpha)
        bound = RADIUS * RADIUS * (alpha * alpha + 2 * alpha - 1)
        report.equal(f"{path}/sup_pair_mse", rat(row["sup_pair_mse"]), sup)
        report.equal(f"{path}/claimed_pair_bound", rat(row["claimed_pair_bound"]), bound)
        w = rat(row["witness_w"])
        q = ldpq_q(alpha, CENTER, RADIUS, w)
        report.equal(f"{path}/sup_pair_mse", rat(row["sup_pair_mse"]),
                     pair_mse(optimal_law(q, q), RADIUS * alpha, w - CENTER, w - CENTER),
                     f"{row['sup_pair_mse']} (M at the witness)")
        pairs.append((sup, bound))
        slacks.append(bound / sup)
    report.equal("data/grid_never_exceeds_witness", data["grid_never_exceeds_witness"], True)
    report.equal("data/smallest_bound_over_sup", rat(data["smallest_bound_over_sup"]), min(slacks))
    steps, path = data["appendix_c_steps"], "data/appendix_c_steps"
    for key in ("mse_equals_var_plus_2cov", "var_at_most_r2alpha2", "cov_formula_holds",
                "cov_at_most_minus_r2_alpha_minus_1_squared"):
        report.equal(f"{path}/{key}", steps[key], steps["points"], f"{steps[key]} (points: {steps['points']})")
    report.equal(f"{path}/mse_equals_var_plus_cov_as_in_proof", steps["mse_equals_var_plus_cov_as_in_proof"], 0)
    alpha = T2B_APPENDIX_ALPHA
    report.equal(f"{path}/max_cov_when_w_plus_w2_at_most_2c", rat(steps["max_cov_when_w_plus_w2_at_most_2c"]),
                 -RADIUS * RADIUS * (alpha - 1) ** 2)
    report.equal(f"{path}/points", steps["points"], len(grid_inputs(cert["grid"], CENTER, RADIUS)) ** 2,
                 f"{steps['points']} (the input grid's pairs)")
    check_verdict(report, cert, bound_verdict(pairs) if data["grid_never_exceeds_witness"] else "undecided")
    # Line 14 as printed: the pair's exact law at each d (its own closed form, enumerated for
    # small d), the average's MSE (a pair's over 4), above the bound (r²/2n)(α² + 2α − 1) at some d.
    printed = data.get("as_printed")
    if printed is not None:
        alpha = alpha_of(rat(printed["exp_eps"]))
        c, r, w1, w2, n = (rat(printed[k]) for k in ("center", "radius", "w1", "w2", "n"))
        bound = r * r * (alpha * alpha + 2 * alpha - 1) / (2 * n)
        report.equal("data/as_printed/bound", rat(printed["bound"]), bound)
        report.equal("data/as_printed/n", n, 2)
        above = False
        for i, row in enumerate(printed["rows"]):
            path = f"data/as_printed/rows/{i}"
            law = checked_joint_law(alpha, c, r, w1, w2, row["bits"], "as-printed")
            aggregate = pair_mse(law, r * alpha, w1 - c, w2 - c) / 4
            report.equal(f"{path}/aggregate_mse", rat(row["aggregate_mse"]), aggregate)
            above = above or aggregate > bound
            item = row["recheck"]
            report.expect((rat(item["alpha"]), rat(item["center"]), rat(item["radius"]), rat(item["w1"]),
                           rat(item["w2"]), item["bits"], item["variant"]) ==
                          (alpha, c, r, w1, w2, row["bits"], "as-printed"), f"{path}/recheck", "is not at this row's point")
        report.expect(above, "data/as_printed/rows", "no d where the printed MSE is above the bound")


T2C_CONDITION = "a comparison of worst cases over inputs"


def recheck_t2c(cert, report):
    """T2c (the factor two, check_t2c.cpp). Per row: LDP-FL's worst case L² per client over
    CorBin-FL's sup M/2 per client (T2b), 2L²/sup M; and at w1 = w2 = c + r, the MSE of two
    independent LDPQs over that of the d → ∞ coupling (exact laws). The per-input counterexample
    is the first row whose ratio at the edge is < 2. Verdict: fails if a worst-case ratio is < 2;
    "holds only under a comparison of worst cases over inputs" if a per-input ratio is < 2;
    holds otherwise."""
    data = cert["data"]
    worst_ok, first = True, None
    for i, row in enumerate(data["rows"]):
        path = f"data/rows/{i}"
        alpha = alpha_of(rat(row["exp_eps"]))
        level = RADIUS * alpha
        worst = 2 * level * level / sup_optimal_pair_mse(alpha)
        q = ldpq_q(alpha, CENTER, RADIUS, CENTER + RADIUS)
        at_edge = (pair_mse(independent_law(q, q), level, RADIUS, RADIUS)
                   / pair_mse(optimal_law(q, q), level, RADIUS, RADIUS))
        report.equal(f"{path}/worst_case_ratio", rat(row["worst_case_ratio"]), worst)
        report.equal(f"{path}/ratio_at_w1_w2_c_plus_r", rat(row["ratio_at_w1_w2_c_plus_r"]), at_edge)
        worst_ok = worst_ok and worst >= 2
        if at_edge < 2 and first is None:
            first = row
    counterexample = data.get("per_input_counterexample")
    report.expect((counterexample is None) == (first is None), "data/per_input_counterexample",
                  "present, but no row is below 2 at the edge" if first is None else "missing, but a row is below 2")
    if counterexample is not None and first is not None:
        report.equal("data/per_input_counterexample", counterexample, first, "the counterexample")
    check_verdict(report, cert, "fails" if not worst_ok else
                  f"holds only under {T2C_CONDITION}" if first is not None else "holds")
