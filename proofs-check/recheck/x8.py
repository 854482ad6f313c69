"""X8 (Experiment 8's gap between CorBinQ and LDPQ pairs as ε_p decreases, check_x8.cpp)."""
from fractions import Fraction as F

from .algorithm2 import alpha_of, joint_law, ldpq_q
from .common import check_verdict
from .grids import GRIDS, exp_eps_of
from .schema import nat, obj
from .utility import independent_law, pair_mse


DATA = {
    "X8": obj({"points": nat, "gap_shrinks_as_eps_decreases": nat}),
}


def recheck_x8(cert, report):
    """X8 (Experiment 8's gap, check_x8.cpp): at c = 0, r = 1/2, d = 5, for every pair of inputs at
    steps of r / (2·input_steps), LDP-FL's pair MSE minus CorBinQ's (as intended) along the e^ε grid
    in increasing order: the points and those where the gap grows as ε grows, exactly. Verdict:
    holds iff it never does."""
    data, grid = cert["data"], GRIDS[cert["grid"]]
    c, r, steps = F(0), F(1, 2), 2 * grid["input_steps"]
    inputs = [c + r * F(k, steps) for k in range(-steps, steps + 1)]
    alphas = [alpha_of(x) for x in sorted(exp_eps_of(eps) for eps in grid["eps"])]
    points = shrinks = 0
    for w1 in inputs:
        for w2 in inputs:
            previous = None
            for alpha in alphas:
                level = r * alpha
                q1, q2 = ldpq_q(alpha, c, r, w1), ldpq_q(alpha, c, r, w2)
                gap = (pair_mse(independent_law(q1, q2), level, w1 - c, w2 - c) -
                       pair_mse(joint_law(alpha, c, r, w1, w2, 5, "corrected"), level, w1 - c, w2 - c))
                points += 1
                shrinks += previous is not None and gap > previous
                previous = gap
    report.equal("data/points", data["points"], points)
    report.equal("data/gap_shrinks_as_eps_decreases", data["gap_shrinks_as_eps_decreases"], shrinks)
    check_verdict(report, cert, "holds" if shrinks == 0 else "fails")
