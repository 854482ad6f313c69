"""L1 (leakage beyond the paper's claim, corrected reading, check_l1.cpp): the likelihood ratios
seen by an eavesdropper on both uplinks of a pair and by a holder of Z."""
import math
from fractions import Fraction as F

from .algorithm2 import alpha_of, joint_from_cells, threshold_range
from .common import check_joint_item_is, check_verdict
from .exact import floor_frac, rat
from .limits import JOINT_KEYS, kMaxLeakageCells
from .pldp import UNBOUNDED, ratio_max
from .schema import BITS, EXP_EPS, JOINT_ITEM, WITNESS, boolean, list_of, obj, one_of, put, rational_or


DATA = {
    "L1": obj({"rows": list_of(obj({**put("exp_eps", spec=EXP_EPS), "bits": BITS,
                                    "pair_eavesdropper": rational_or("unbounded"),
                                    "z_holder": rational_or("unbounded")},
                                   {"recheck": list_of(JOINT_ITEM, lengths=(2,)), "output": one_of(*JOINT_KEYS)})),
               "claimed_by_paper": boolean, "witnesses": list_of(WITNESS)}),
}


def pair_eavesdropper(alpha, d):
    """sup over the follower's position v and the pair's outputs o of
    max_u P(o | u, v) / min_u P(o | u, v), u the leader's position (the target's input).

    Given Z = z, P(Q1 = + | z) = clamp(u − z, 0, 1) and P(Q2 = − | z) = clamp(v − z, 0, 1): the
    joint law is continuous and piecewise linear in u and in v with breaks at the integers. So
    max_u and min_u are attained at lo, hi or an integer between; on each piece in v the max is
    convex and the min concave, their ratio quasi-convex, so the sup over v is at the same
    points (and a zero min shows at them). Returns UNBOUNDED or the ratio, or None when the
    search would exceed kMaxLeakageCells."""
    n = 2 ** d
    lo, hi = threshold_range(alpha, n)
    if hi - lo > kMaxLeakageCells:
        return None
    points = [hi] + [F(k) for k in range(math.floor(lo) + 1, math.ceil(hi)) if lo < k < hi] + [lo]
    result = None
    for v in points:
        laws = [joint_from_cells(floor_frac(u), floor_frac(v), n, "corrected") for u in points]
        for key in JOINT_KEYS:
            probs = [law[key] for law in laws]
            if max(probs) == 0:
                continue
            result = ratio_max(result, UNBOUNDED if min(probs) == 0 else max(probs) / min(probs))
            if result == UNBOUNDED:
                return result
    return result


def z_holder(alpha, d):
    """A holder of Z sees Q1 given Z = z: P(+ | z, u) = clamp(u − z, 0, 1), increasing in u, so
    its extremes over the leader's inputs are at lo and hi. sup over z and both outputs."""
    n = 2 ** d
    lo, hi = threshold_range(alpha, n)
    if n > kMaxLeakageCells:
        return None
    result = None
    for z in range(n):
        p_lo, p_hi = min(max(lo - z, F(0)), F(1)), min(max(hi - z, F(0)), F(1))
        for top, bottom in ((p_hi, p_lo), (1 - p_lo, 1 - p_hi)):
            if top == 0:
                continue
            result = ratio_max(result, UNBOUNDED if bottom == 0 else top / bottom)
    return result


def recheck_l1(cert, report):
    """L1 (leakage, not claimed by the paper; check_l1.cpp). Per row, recomputed exactly: the
    pair eavesdropper's and the Z holder's supremum likelihood ratio (pair_eavesdropper,
    z_holder). An unbounded pair row must carry its witness: the laws at (w_high, partner) and
    (w_low, partner), its output impossible at the second and possible at the first. Verdict:
    fails iff some row is unbounded for either observer."""
    data = cert["data"]
    report.equal("data/claimed_by_paper", data["claimed_by_paper"], False)
    any_unbounded = False
    for i, row in enumerate(data["rows"]):
        path = f"data/rows/{i}"
        alpha, d = alpha_of(rat(row["exp_eps"])), row["bits"]
        for key, compute in (("pair_eavesdropper", pair_eavesdropper), ("z_holder", z_holder)):
            claimed = row[key] if row[key] == UNBOUNDED else rat(row[key])
            value = compute(alpha, d)
            if value is None:
                report.not_recomputable(f"{path}/{key}", f"d = {d} is beyond this script's exhaustive search")
            else:
                report.equal(f"{path}/{key}", claimed, value, row[key])
            any_unbounded = any_unbounded or claimed == UNBOUNDED
        if row["pair_eavesdropper"] == UNBOUNDED:
            if not report.expect("recheck" in row and "output" in row, f"{path}/recheck",
                                 "missing: an unbounded ratio needs its witness"):
                continue
            first, second = row["recheck"]
            for j, item in enumerate(row["recheck"]):
                check_joint_item_is(report, item, f"{path}/recheck/{j}", alpha, d, None, None, "corrected")
            report.expect(first["w2"] == second["w2"], f"{path}/recheck/1/w2", "the partner's input differs")
            output = row["output"]
            report.expect(rat(first["joint"][output]) > 0 and rat(second["joint"][output]) == 0, f"{path}/output",
                          f"P({output}) is not > 0 at w_high and 0 at w_low")
    check_verdict(report, cert, "fails" if any_unbounded else "holds")
