"""D1 (a survivor's quantization is LDPQ's, check_d1.cpp)."""
from fractions import Fraction as F

from .algorithm2 import alpha_of, joint_law, ldpq_q, marginals
from .common import check_verdict
from .grids import GRIDS, exp_eps_of, grid_inputs
from .schema import WITNESS, list_of, nat, obj


DATA = {
    "D1": obj({"points": nat, "marginal_differs_from_ldpq": nat, "witnesses": list_of(WITNESS)}),
}


def recheck_d1(cert, report):
    """D1 (a survivor's quantization is LDPQ's, check_d1.cpp): over the certificate's grid (c = r =
    1; every e^ε, d and input w, the partner at c − r, c, c + r), each client's marginal of
    Algorithm 2 as intended, as leader and as follower, against LDPQ's q(w): the points and those
    that differ, exactly. Verdict: holds iff none differs."""
    data, grid = cert["data"], GRIDS[cert["grid"]]
    c = r = F(1)
    points = differ = 0
    for eps in grid["eps"]:
        alpha = alpha_of(exp_eps_of(eps))
        for d in grid["bits"]:
            for w in grid_inputs(cert["grid"], c, r):
                q = ldpq_q(alpha, c, r, w)
                for partner in (c - r, c, c + r):
                    leader = marginals(joint_law(alpha, c, r, w, partner, d, "corrected"))[0]
                    follower = marginals(joint_law(alpha, c, r, partner, w, d, "corrected"))[1]
                    points += 1
                    differ += leader != q or follower != q
    report.equal("data/points", data["points"], points)
    report.equal("data/marginal_differs_from_ldpq", data["marginal_differs_from_ldpq"], differ)
    check_verdict(report, cert, "holds" if differ == 0 else "fails")
