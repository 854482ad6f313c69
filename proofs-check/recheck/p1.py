"""P1 (Prop. 1, check_p1.cpp): LDPQ's levels are forced and every other admissible pair has a
larger MSE."""
from fractions import Fraction as F

from .common import check_exp_eps_and_alpha, check_verdict
from .exact import rat
from .schema import ALPHA, EXP_EPS, RADIUS_POSITIVE, list_of, obj, put, rational_where


DATA = {
    "P1": obj({"levels": list_of(obj({**put("exp_eps", spec=EXP_EPS), **put("alpha", spec=ALPHA),
                                      **put("ratio_at_c_plus_r_alpha", "ratio_just_below")})),
               **put("smallest_excess_mse_of_other_levels"),
               **put("lowered_by", spec=rational_where(lambda x: x > 0, "> 0")),
               "level_offsets": list_of(rational_where(lambda x: x >= 0, ">= 0")),
               **put("center"), **put("radius", spec=RADIUS_POSITIVE)}),
}


def recheck_p1(cert, report):
    """P1 (Prop. 1, check_p1.cpp). Per level row: α from e^ε; the PLDP ratio with γ1 = c + rα,
    (rα + r)/(rα − r), equals e^ε; with γ1 lowered by 1/1000 it exceeds e^ε. The smallest excess
    MSE of any other admissible pair γ1 = c + rα + a, γ2 = c − rα − b (a, b in {0, 1/8, 1/2, 1},
    not both 0) over the input grid: the excess (γ1 − w)(w − γ2) − ((rα)² − (w − c)²) =
    a(w − c + rα + b) + b(rα − w + c) is affine in w, so its minimum over any grid containing
    c ± r is at c ± r, and is recomputed exactly. Verdict: holds iff every ratio is as stated and
    every excess is > 0."""
    data = cert["data"]
    ok, excesses = True, []
    # What the certificate says it used: the offsets a, b, how far γ1 is lowered, c and r.
    steps = [rat(a) for a in data["level_offsets"]]
    lowered, center, radius = rat(data["lowered_by"]), rat(data["center"]), rat(data["radius"])
    report.expect(F(0) in steps, "data/level_offsets", "no 0: LDPQ's own levels are not among them")
    for i, row in enumerate(data["levels"]):
        path = f"data/levels/{i}"
        x = rat(row["exp_eps"])
        alpha = check_exp_eps_and_alpha(report, row, path)
        level = radius * alpha
        at_level = (level + radius) / (level - radius)
        report.equal(f"{path}/ratio_at_c_plus_r_alpha", rat(row["ratio_at_c_plus_r_alpha"]), at_level)
        if report.expect(level - lowered > radius, f"{path}/ratio_just_below",
                         f"undefined: rα − {data['lowered_by']} <= r (the check lowers γ1 by that)"):
            below = (level - lowered + radius) / (level - lowered - radius)
            report.equal(f"{path}/ratio_just_below", rat(row["ratio_just_below"]), below)
            ok = ok and below > x
        ok = ok and at_level == x
        for a in steps:
            for b in steps:
                if a == 0 and b == 0:
                    continue
                for w in (center - radius, center + radius):
                    excess = a * (w - center + level + b) + b * (level - w + center)
                    excesses.append(excess)
                    ok = ok and excess > 0
    report.equal("data/smallest_excess_mse_of_other_levels", rat(data["smallest_excess_mse_of_other_levels"]),
                 min(excesses))
    check_verdict(report, cert, "holds" if ok else "fails")
