"""A2 (Algorithm 2 as printed, check_a2.cpp): the printed line 14's bias and PLDP ratio."""
from fractions import Fraction as F

from .algorithm2 import alpha_of, checked_joint_law, joint_law, ldpq_q, marginals, threshold_range
from .common import check_joint_item_is, check_verdict
from .exact import rat
from .grids import GRIDS, exp_eps_of, grid_inputs
from .limits import CENTER, RADIUS
from .pldp import UNBOUNDED, cells_at, client_plus, pldp_sup, pldp_table
from .schema import BITS, EXP_EPS, JOINT_ITEM, PROBABILITY, WEIGHT, boolean, empty_or, list_of, nat, obj, one_of, put


DATA = {
    "A2": obj({"pldp_counterexample": empty_or(obj({
                   **put("exp_eps", spec=EXP_EPS), "bits": BITS, **put("ratio"),
                   **put("w_high", "w_low", "w_partner", spec=WEIGHT),
                   "client": one_of(1, 2), "output": one_of(1, -1), "attained": boolean,
                   "recheck": list_of(JOINT_ITEM, lengths=(2,))},
                   {"at_inputs": obj({**put("w_high", "w_low", "w_partner", spec=WEIGHT),
                                      **put("p_high", "p_low", spec=PROBABILITY), **put("ratio")})})),
               **put("ratio_at_exp_eps_3_d_5"), "points": nat, "printed_biased_points": nat,
               "printed_pldp_broken_cases": nat, "corrected_violations": nat}),
}


def recheck_a2(cert, report):
    """A2 (Alg. 2 as printed, check_a2.cpp). Recomputed: the PLDP supremum of the as-printed
    algorithm at e^ε = 3, d = 5 (24/7); for the counterexample, its ratio (the supremum at its
    e^ε and d), that it exceeds e^ε, that its (client, output) attains it, that its inputs give
    it (as values or, when not attained, limits from the left of a cell end), and that its recheck
    items are the laws at those inputs. Facts from the closed form: the intended algorithm's
    marginals are LDPQ's and its PLDP ratio is exactly e^ε at every d, so corrected_violations is
    0. Verdict: fails iff a printed point is biased or a printed case breaks ε-PLDP."""
    data = cert["data"]
    report.equal("data/ratio_at_exp_eps_3_d_5", rat(data["ratio_at_exp_eps_3_d_5"]), pldp_sup(F(2), 5, "as-printed"))
    report.equal("data/corrected_violations", data["corrected_violations"], 0)
    report.expect(data["printed_biased_points"] <= data["points"], "data/printed_biased_points",
                  f"{data['printed_biased_points']} biased of {data['points']} points")
    witness = data["pldp_counterexample"]
    if witness:
        path = "data/pldp_counterexample"
        x, d = rat(witness["exp_eps"]), witness["bits"]
        alpha = alpha_of(x)
        table = pldp_table(alpha, d, "as-printed")
        best = pldp_sup(alpha, d, "as-printed")
        ratio = rat(witness["ratio"])
        report.equal(f"{path}/ratio", ratio, best, witness["ratio"])
        report.expect(ratio > x, f"{path}/ratio", f"{witness['ratio']} does not exceed e^ε = {witness['exp_eps']}")
        client, output = witness["client"], witness["output"]
        report.expect(table.get((client, output)) == ratio, f"{path}/client",
                      f"client {client}, output {output:+d} reaches {table.get((client, output))}, "
                      f"not {witness['ratio']}")
        check_pldp_witness(report, path, witness, alpha, d, ratio)
        pair = witness.get("at_inputs")
        report.expect(witness["attained"] or pair is not None, f"{path}/at_inputs",
                      "missing: a supremum that is only a limit needs actual inputs past e^ε")
        if pair is not None:  # the two laws at actual inputs, and their plain ratio past e^ε
            own_partner = rat(pair["w_partner"])

            def output_prob(own):
                w1, w2 = (own, own_partner) if client == 1 else (own_partner, own)
                up = marginals(checked_joint_law(alpha, CENTER, RADIUS, w1, w2, d, "as-printed"))[client - 1]
                return up if output == 1 else 1 - up
            p_high, p_low = output_prob(rat(pair["w_high"])), output_prob(rat(pair["w_low"]))
            report.equal(f"{path}/at_inputs/p_high", rat(pair["p_high"]), p_high, pair["p_high"])
            report.equal(f"{path}/at_inputs/p_low", rat(pair["p_low"]), p_low, pair["p_low"])
            if report.expect(p_low > 0, f"{path}/at_inputs/p_low", "0: no ratio"):
                report.equal(f"{path}/at_inputs/ratio", rat(pair["ratio"]), p_high / p_low, pair["ratio"])
                report.expect(x < p_high / p_low <= ratio, f"{path}/at_inputs/ratio",
                              f"{pair['ratio']} is not in (e^ε, the supremum {witness['ratio']}]")
        partner, high, low = rat(witness["w_partner"]), rat(witness["w_high"]), rat(witness["w_low"])
        for i, own in enumerate((high, low)):
            w1, w2 = (own, partner) if client == 1 else (partner, own)
            check_joint_item_is(report, witness["recheck"][i], f"{path}/recheck/{i}", alpha, d, w1, w2, "as-printed")
        report.expect(data["printed_pldp_broken_cases"] >= 1, "data/printed_pldp_broken_cases",
                      "0, but the counterexample breaks ε-PLDP")
    # Over the certificate's grid (check_a2.cpp: c = 0, r = 1, d <= 16): every point's follower
    # marginal as printed against q(w2), and every (e^ε, d)'s printed PLDP supremum against e^ε.
    grid = GRIDS[cert["grid"]]
    inputs = grid_inputs(cert["grid"], F(0), F(1))
    points = biased = broken = 0
    for eps in grid["eps"]:
        x = exp_eps_of(eps)
        alpha = alpha_of(x)
        for d in (d for d in grid["bits"] if d <= 16):
            ratio = pldp_sup(alpha, d, "as-printed")
            broken += ratio == UNBOUNDED or ratio > x
            for w1 in inputs:
                for w2 in inputs:
                    points += 1
                    biased += marginals(joint_law(alpha, F(0), F(1), w1, w2, d, "as-printed"))[1] != \
                        ldpq_q(alpha, F(0), F(1), w2)
    report.equal("data/points", data["points"], points)
    report.equal("data/printed_biased_points", data["printed_biased_points"], biased)
    report.equal("data/printed_pldp_broken_cases", data["printed_pldp_broken_cases"], broken)
    fails = data["printed_biased_points"] > 0 or data["printed_pldp_broken_cases"] > 0
    check_verdict(report, cert, "fails" if fails else "holds")


def check_pldp_witness(report, path, witness, alpha, d, ratio):
    """P(output | w_high, partner)/P(output | w_low, partner) = ratio, each input at its threshold
    position or (only when the witness is not attained) as the limit from the left of it."""
    n = 2 ** d
    lo, _ = threshold_range(alpha, n)
    client, output, attained = witness["client"], witness["output"], witness["attained"]

    def position(w, role):  # role 1: leader, 2: follower (Alg. 2, line 3)
        q = ldpq_q(alpha, CENTER, RADIUS, w)
        return n * q if role == 1 else n * (1 - q)

    def options(w, role):
        return [cell for cell, exact in cells_at(position(w, role), lo) if exact or not attained]

    found = False
    for partner in options(rat(witness["w_partner"]), 3 - client):
        def prob(cell):
            plus = client_plus(client, cell, partner, n, "as-printed")
            return plus if output == 1 else 1 - plus
        for high in options(rat(witness["w_high"]), client):
            for low in options(rat(witness["w_low"]), client):
                den = prob(low)
                found = found or (den != 0 and prob(high) / den == ratio)
    report.expect(found, f"{path}/w_high",
                  "the witness's inputs do not give its ratio" + ("" if attained else " (nor as limits)"))
