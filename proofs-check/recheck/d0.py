"""D0 ("if d = 0 CorBin-FL reduces to LDP-FL", check_d0.cpp)."""
from fractions import Fraction as F

from .algorithm2 import alpha_of, checked_joint_law, ldpq_q
from .common import check_verdict
from .exact import rat
from .grids import GRIDS, exp_eps_of, grid_inputs
from .limits import JOINT_KEYS
from .schema import JOINT_ITEM, list_of, nat, obj
from .utility import independent_law


DATA = {
    "D0": obj({"points": nat, "corrected_differences": nat, "reference_code_differences": nat,
               "recheck": list_of(JOINT_ITEM)}),
}


def recheck_d0(cert, report):
    """D0 (d = 0, check_d0.cpp). Recomputed: the recheck items' laws. Facts from the closed form
    at d = 0 (one cell, Z = 0): the corrected law is P(+-) = f1 f2 = q1(1 − q2) etc., the product
    of the LDPQ marginals at every input, so corrected_differences is 0; the reference code's
    tie probability at the top cell 0 is 1, so Q1 = + and Q2 = − whatever the inputs, and its law
    differs from the product (q1 q2 > 0) at every point: reference_code_differences = points.
    Verdict: holds iff corrected_differences is 0."""
    data = cert["data"]
    for i, item in enumerate(data["recheck"]):
        if item["bits"] == 0 and item["variant"] == "corrected":
            alpha, c, r = rat(item["alpha"]), rat(item["center"]), rat(item["radius"])
            product = independent_law(ldpq_q(alpha, c, r, rat(item["w1"])), ldpq_q(alpha, c, r, rat(item["w2"])))
            report.equal(f"data/recheck/{i}/joint", {k: rat(item["joint"][k]) for k in JOINT_KEYS}, product,
                         "the law at d = 0")
    report.equal("data/corrected_differences", data["corrected_differences"], 0)
    report.equal("data/reference_code_differences", data["reference_code_differences"], data["points"])
    # Over the certificate's grid (check_d0.cpp, c = 0, r = 1): every point's law at d = 0.
    points = corrected = 0
    for eps in GRIDS[cert["grid"]]["eps"]:
        alpha = alpha_of(exp_eps_of(eps))
        for w1 in grid_inputs(cert["grid"], F(0), F(1)):
            for w2 in grid_inputs(cert["grid"], F(0), F(1)):
                points += 1
                product = independent_law(ldpq_q(alpha, F(0), F(1), w1), ldpq_q(alpha, F(0), F(1), w2))
                law = checked_joint_law(alpha, F(0), F(1), w1, w2, 0, "corrected")
                corrected += law["++"] != product["++"] or law["--"] != product["--"]
    report.equal("data/points", data["points"], points)
    report.equal("data/corrected_differences", data["corrected_differences"], corrected)
    check_verdict(report, cert, "holds" if data["corrected_differences"] == 0 else "fails")
