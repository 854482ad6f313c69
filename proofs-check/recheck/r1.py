"""The authors' published implementation (REFERENCES.md, "reference code"): R1 (its quantizer's
marginal and PLDP ratio, check_r1.cpp) and X1 (the experiments' PLDP budgets, check_x1.cpp, from
its witnesses)."""
import math
from fractions import Fraction as F

from .algorithm2 import alpha_of, checked_joint_law, ldpq_q, marginals, threshold_range
from .common import check_verdict
from .exact import rat
from .grids import exp_eps_of, grid_inputs
from .limits import CENTER, RADIUS
from .pldp import UNBOUNDED, pldp_sup
from .readings import recheck_witnessed
from .report import Malformed
from .schema import BITS, EXP_EPS, WITNESS, list_of, number, obj, put, rational_or


def approx_when_exact(key):
    """R1's ratio: "unbounded", or a rational with its decimal twin."""
    def rule(value, path):
        if value[key] != "unbounded":
            number(value.get(key + "_approx"), f"{path}/{key}_approx")
    return rule


def r1_row_rule(value, path):
    """R1's row: ε in (0, 700] (e^ε stays a finite double) and an approx beside an exact ratio."""
    if not 0 < value["eps"] <= 700:
        raise Malformed(f"{path}/eps", f"{value['eps']} is outside (0, 700]")
    approx_when_exact("ratio")(value, path)


DATA = {
    "R1": obj({"bits": BITS, "rows": list_of(obj({"eps": number, **put("exp_eps", spec=EXP_EPS),
                                                 "ratio": rational_or("unbounded"), **put("largest_marginal_bias")},
                                                rule=r1_row_rule)),
              "just_below_threshold": obj({**put("exp_eps", spec=EXP_EPS), "ratio": rational_or("unbounded"),
                                           **put("largest_marginal_bias")}, rule=approx_when_exact("ratio"))}),
    "X1": obj({"witnesses": list_of(WITNESS)}),
}


R1_CENTER = F(1)  # check_r1.cpp: c = 1 > 0, as Theorem 1 requires
# check_r1.cpp's row just below the threshold 2^d − 1, and the inputs its bias is taken over
# (c + r·k/64, k = −64 … 64).
R1_BELOW_BY, R1_BELOW_STEPS = F(1, 1000), 64


def recheck_just_below(report, below, d):
    """Just below the threshold (e^ε = 2^d − 1 − 1/1000) the reference code is CorBinQ: its exact
    PLDP supremum, and the largest |P(Q1 = +) − q(w)| with both inputs at w over 129 inputs."""
    path = "data/just_below_threshold"
    x = rat(below["exp_eps"])
    report.equal(f"{path}/exp_eps", x, 2 ** d - 1 - R1_BELOW_BY, below["exp_eps"])
    alpha = alpha_of(x)
    ratio = pldp_sup(alpha, d, "reference-code")
    report.equal(f"{path}/ratio", below["ratio"] if below["ratio"] == UNBOUNDED else rat(below["ratio"]), ratio,
                 below["ratio"])
    bias = max(abs(marginals(checked_joint_law(alpha, R1_CENTER, RADIUS, w, w, d, "reference-code"))[0]
                   - ldpq_q(alpha, R1_CENTER, RADIUS, w))
               for w in (R1_CENTER + RADIUS * F(k, R1_BELOW_STEPS) for k in range(-R1_BELOW_STEPS, R1_BELOW_STEPS + 1)))
    report.equal(f"{path}/largest_marginal_bias", rat(below["largest_marginal_bias"]), bias,
                 below["largest_marginal_bias"])


def recheck_r1(cert, report):
    """R1 (the reference code, check_r1.cpp). Per row: e^ε = ⌈e^eps·10^6⌉/10^6 (common.cpp
    exp_eps_near, in doubles as there); the exact PLDP supremum of the reference-code reading at
    the certificate's d (see own_sign_envelopes: e^ε unless the top cell 2^d − 1 is reachable,
    then unbounded). Its largest marginal bias over the input grid: 0 when no input reaches the
    top cell; otherwise 1 − q(w) for the grid inputs w there (g = 2^d on the top cell), at least
    1 − q(c + r) (c + r is on every grid) and at most 2^−d. Verdict: fails iff some row is
    unbounded, above e^ε, or biased."""
    data = cert["data"]
    d, breaks = data["bits"], False
    n = 2 ** d
    for i, row in enumerate(data["rows"]):
        path = f"data/rows/{i}"
        x = rat(row["exp_eps"])
        report.equal(f"{path}/exp_eps", x, exp_eps_of(row["eps"]), row["exp_eps"])
        alpha = alpha_of(x)
        ratio = pldp_sup(alpha, d, "reference-code")
        claimed = row["ratio"] if row["ratio"] == UNBOUNDED else rat(row["ratio"])
        report.equal(f"{path}/ratio", claimed, ratio, row["ratio"])
        bias = rat(row["largest_marginal_bias"])
        _, hi = threshold_range(alpha, n)
        if math.floor(hi) < n - 1:
            report.equal(f"{path}/largest_marginal_bias", bias, F(0), row["largest_marginal_bias"])
        else:
            least = 1 - ldpq_q(alpha, CENTER, RADIUS, CENTER + RADIUS)
            report.expect(least <= bias <= F(1, n), f"{path}/largest_marginal_bias",
                          f"{row['largest_marginal_bias']} is outside [1 − q(c + r), 2^−d] = [{least}, 1/{n}]")
        # Exactly, over the certificate's input grid: Q1's bias with both inputs at w, the largest
        # in absolute value (the first of equal ones, as check_r1.cpp scans).
        worst = F(0)
        for w in grid_inputs(cert["grid"], R1_CENTER, RADIUS):
            b = marginals(checked_joint_law(alpha, R1_CENTER, RADIUS, w, w, d, "reference-code"))[0] - \
                ldpq_q(alpha, R1_CENTER, RADIUS, w)
            if abs(b) > abs(worst):
                worst = b
        report.equal(f"{path}/largest_marginal_bias", bias, worst, row["largest_marginal_bias"])
        breaks = breaks or ratio == UNBOUNDED or ratio > x or bias != 0
    recheck_just_below(report, data["just_below_threshold"], d)
    check_verdict(report, cert, "fails" if breaks else "holds")


RECHECKS = {"R1": recheck_r1, "X1": recheck_witnessed}
