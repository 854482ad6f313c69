"""S1 (SCDP, the text after Thm 3): the paper states no ε_s; the exact replace-one ε at sensitivity
2r, as the certificate gives it, recomputed with its worst case."""
from decimal import localcontext
from fractions import Fraction as F

from .common import check_verdict
from .exact import dec, inside, rat
from .limits import kWorkDigits
from .schema import (ALPHA, DELTA, EXACT_CLIENTS, GAMMA, RADIUS_POSITIVE, at_most_field, boolean, list_of, nat, obj,
                     one_of, put, put_interval, rational_where)
from .ucdp import ldpq_replace_exp_eps, ldpq_replace_worst


DATA = {
    "S1": obj({"scdp_at_sensitivity_2r": list_of(obj({
                   "n": EXACT_CLIENTS, "others_at_c_plus_r": nat, "others_at_c_minus_r": nat,
                   **put("gamma", spec=GAMMA), "m": one_of(1), **put("alpha", spec=ALPHA), **put("delta", spec=DELTA),
                   **put("center"), **put("radius", spec=RADIUS_POSITIVE), **put_interval("exact_eps_replace_one"),
                   **put("exact_exp_eps_replace_one", spec=rational_where(lambda x: x >= 1, "e^ε >= 1"))},
                   rule=at_most_field("others_at_c_plus_r", "n", 1, ": the other clients"))),
               "epsilon_s_stated": boolean}),
}


def recheck_s1(cert, report):
    """S1: the paper states no ε_s (so the verdict is undecided); at each n the exact replace-one ε of
    the worst case over every other client's input, at the row's γ (= 1), α and δ: e^ε recomputed
    exactly at the configuration the row names (others at c + r and c − r), and every other
    configuration of the reduction screened (ldpq_replace_worst)."""
    report.equal("data/epsilon_s_stated", cert["data"]["epsilon_s_stated"], False)
    for i, row in enumerate(cert["data"]["scdp_at_sensitivity_2r"]):
        path = f"data/scdp_at_sensitivity_2r/{i}"
        n, top = row["n"], row["others_at_c_plus_r"]
        # The row's own setting: every client on LDPQ (γ = 1; the reduction below is LDPQ's), the
        # others at c ± r as counted. Where c and r sit does not matter (the law of the sum in
        # units of rα depends on α alone), α and δ do.
        delta, alpha = rat(row["delta"]), rat(row["alpha"])
        report.equal(f"{path}/gamma", rat(row["gamma"]), F(1), f"{row['gamma']} (the reduction is LDPQ's: γ = 1)")
        report.equal(f"{path}/others_at_c_minus_r", row["others_at_c_minus_r"], n - 1 - top)
        exact = ldpq_replace_exp_eps(n - 1, top, alpha, delta)
        report.equal(f"{path}/exact_exp_eps_replace_one", rat(row["exact_exp_eps_replace_one"]), exact)
        report.equal(f"{path}/worse_configurations", ldpq_replace_worst(n - 1, alpha, delta, exact), [])
        with localcontext() as ctx:
            ctx.prec = kWorkDigits
            report.expect(inside(dec(exact).ln(), row["exact_eps_replace_one"]), path,
                          "the exact replace-one ε is outside the enclosure")
    check_verdict(report, cert, "undecided")
