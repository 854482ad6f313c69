"""B1 (the authors' other baselines, PBM and RQM as their repository configures them, against
LDPQ, check_b1.cpp): every baseline's exact law at the inputs compared."""
import math
from fractions import Fraction as F

from .algorithm2 import alpha_of, ldpq_q
from .exact import rat, rational_sqrt
from .readings import recheck_witnessed
from .report import Malformed, short
from .schema import (ALPHA, EXP_EPS, PROBABILITY, RADIUS_POSITIVE, WITNESS, boolean, check_input, list_of, nat, obj,
                     one_of, put, rational, sub)


def baseline_rule(value, path):
    """B1's calibrations: PBM with m = 1 or 2 and its θ, RQM with m = 2 or 3 levels, its D and (m = 3)
    the probability q in [0, 1) of keeping c."""
    mech, m = value["mechanism"], value.get("m")
    if mech == "pbm" and m not in (1, 2):
        raise Malformed(sub(path, "m"), f"{short(m)} is outside its domain (PBM runs with m = 1 or 2)")
    if mech == "rqm" and m not in (2, 3):
        raise Malformed(sub(path, "m"), f"{short(m)} is outside its domain (RQM has m = 2 or 3 levels)")
    stated = {"pbm": ("theta",), "rqm": ("delta_ratio", "q") if m == 3 else ("delta_ratio",)}.get(mech, ())
    for key in stated:
        if key not in value:
            raise Malformed(sub(path, key), f"missing ({mech} with m = {m} states it)")
    if mech == "rqm" and m == 3 and not 0 <= F(value["q"]) < 1:
        raise Malformed(sub(path, "q"), f"{short(value['q'])} is outside its domain (q in [0, 1), a probability "
                                        f"with 1 − q > 0 in D = 2/((1 − q)(e^ε − 1)))")
    for i, item in enumerate(value["compared"]):
        check_input(item["w"], sub(path, f"compared/{i}/w"), value)


def b1_atom(value, path):
    """An atom of a law: [value, probability]."""
    list_of(rational, lengths=(2,))(value, path)
    PROBABILITY(value[1], f"{path}/1")


# B1: a baseline's law and LDPQ's, as atoms (value, probability) in the mechanism's output order.
B1_ATOMS = list_of(b1_atom)
BASELINE_LAW = obj({"mechanism": one_of("pbm", "rqm", "signsgd"), **put("exp_eps", spec=EXP_EPS),
                    "center": rational, "radius": RADIUS_POSITIVE, **put("alpha", spec=ALPHA), "same_as_ldpq": boolean,
                    "compared": list_of(obj({"w": rational, "baseline": B1_ATOMS, "ldpq": B1_ATOMS}))},
                   {"m": one_of(1, 2, 3), "q": rational, **put("theta"), **put("delta_ratio")}, rule=baseline_rule)


DATA = {
    "B1": obj({"rqm_q": rational, "cases": nat, "witnesses": list_of(WITNESS)}),
}


def b1_ldpq_law(alpha, c, r, w):
    """Alg. 1: c − rα with 1 − q, c + rα with q."""
    q = ldpq_q(alpha, c, r, w)
    return [(c - r * alpha, 1 - q), (c + r * alpha, q)]


def b1_pbm_law(theta, m, c, r, w):
    """PBM_PLDP.py: p = 1/2 + (θ/r)(w − c), Z ~ Binomial(m, p), decoded c + (r/θ)(Z/m − 1/2)."""
    p = F(1, 2) + theta / r * (w - c)
    return [(c + r / theta * (F(k, m) - F(1, 2)), math.comb(m, k) * p ** k * (1 - p) ** (m - k)) for k in range(m + 1)]


def b1_rqm_law(delta, m, q, c, r, w):
    """RQM_FL.py: X = r(1 + D), x = w − c; m = 2 rounds between c ± X; m = 3 keeps c with probability
    q and then rounds between c and the outer level on x's side."""
    big, x = r * (1 + delta), w - c
    if m == 2:
        return [(c - big, (big - x) / (2 * big)), (c + big, (big + x) / (2 * big))]
    out_lo, out_hi = (1 - q) * (big - x) / (2 * big), (1 - q) * (big + x) / (2 * big)
    if x >= 0:
        return [(c - big, out_lo), (c, q * (big - x) / big), (c + big, out_hi + q * x / big)]
    return [(c - big, out_lo + q * (-x) / big), (c, q * (big + x) / big), (c + big, out_hi)]


def b1_signsgd_law(v):
    """signsgd.py: sign(v) with probability 1 (torch.sign: −1, 0, +1)."""
    return [(F(-1), F(int(v < 0))), (F(0), F(int(v == 0))), (F(1), F(int(v > 0)))]


def measure(law):
    """The law as a measure: equal values merged, zero atoms dropped."""
    total = {}
    for value, p in law:
        total[value] = total.get(value, 0) + p
    return {value: p for value, p in total.items() if p != 0}


def witness_baseline_law(report, w, path):
    """B1: a baseline calibrated as the authors' code does, against LDPQ at the same e^ε and range.
    The laws are recomputed at every input listed; "same as LDPQ" needs equal measures at each and
    inputs that decide every w: on each open piece between the breakpoints (RQM m = 3: c; SignSGD:
    0) the probabilities are polynomials in w of degree <= D (PBM: m; RQM and LDPQ: 1; SignSGD: 0),
    so D' + 1 points per piece (D' = max(D, 1), LDPQ's degree 1 included), the ends and the
    breakpoints decide it. Refutes the reading "distinct" iff the laws are the same."""
    BASELINE_LAW(w, path)
    mech, x, c, r = w["mechanism"], rat(w["exp_eps"]), rat(w["center"]), rat(w["radius"])
    m = w.get("m", 0)
    report.expect(r > 0, f"{path}/radius", "r must be positive")
    report.equal(f"{path}/reading", w["reading"], mech + (str(m) if mech != "signsgd" else ""))
    alpha = alpha_of(x)
    report.equal(f"{path}/alpha", rat(w["alpha"]), alpha, w["alpha"])
    if mech == "pbm":
        report.expect(m in (1, 2), f"{path}/m", f"PBM runs with m = 1 or 2, not {m}")
        s = x if m == 1 else rational_sqrt(x)
        if not report.expect(s is not None, f"{path}/exp_eps", f"e^(ε/2) is irrational at e^ε = {x}"):
            return w["refutes"]
        theta = (s - 1) / (2 * (s + 1))
        report.equal(f"{path}/theta", rat(w["theta"]), theta, w["theta"])
        law, degree, breaks = (lambda v: b1_pbm_law(theta, m, c, r, v)), m, []
    elif mech == "rqm":
        report.expect(m in (2, 3), f"{path}/m", f"RQM has m = 2 or 3 levels, not {m}")
        q = rat(w["q"]) if m == 3 else F(0)
        report.expect(0 <= q < 1, f"{path}/q", f"q = {q} is outside [0, 1)")
        delta = 2 / ((1 - q) * (x - 1))
        report.equal(f"{path}/delta_ratio", rat(w["delta_ratio"]), delta, w["delta_ratio"])
        law, degree, breaks = (lambda v: b1_rqm_law(delta, m, q, c, r, v)), 1, ([c] if m == 3 else [])
    else:
        law, degree, breaks = b1_signsgd_law, 0, [F(0)]
    lo, hi = c - r, c + r
    equal_at, points = [], set()
    for i, item in enumerate(w["compared"]):
        v = rat(item["w"])
        report.expect(lo <= v <= hi, f"{path}/compared/{i}/w", f"{v} is outside [c − r, c + r]")
        mine, ldpq = law(v), b1_ldpq_law(alpha, c, r, v)
        for key, recomputed in (("baseline", mine), ("ldpq", ldpq)):
            listed = [tuple(rat(a) for a in atom) for atom in item[key]]
            report.equal(f"{path}/compared/{i}/{key}", listed, recomputed, item[key])
        equal_at.append(measure(mine) == measure(ldpq))
        points.add(v)
    ends = sorted({lo, hi} | {b for b in breaks if lo < b < hi})
    need = max(degree, 1) + 1
    decides = all(e in points for e in ends) and all(
        len([v for v in points if a < v < b]) >= need for a, b in zip(ends, ends[1:]))
    same = all(equal_at) and decides
    if w["same_as_ldpq"]:
        report.expect(same, f"{path}/same_as_ldpq", "the laws differ at an input listed, or the inputs listed do "
                                                    "not decide every w")
    else:
        report.expect(not all(equal_at), f"{path}/same_as_ldpq", "the laws agree at every input listed")
    return same


B1_READINGS = ("pbm1", "pbm2", "rqm2", "rqm3", "signsgd")


def recheck_b1(cert, report):
    """B1: every (e^ε, range) case has one witness per baseline, RQM m = 3 at the certificate's q;
    each reading's outcome is its witnesses' (recheck_readings) and some reading carries the check's."""
    data = cert["data"]
    cases = {}
    for i, w in enumerate(data["witnesses"]):
        cases.setdefault(tuple(str(w.get(k)) for k in ("exp_eps", "center", "radius")), []).append(w["reading"])
        if w["reading"] == "rqm3":
            report.equal(f"data/witnesses/{i}/q", w.get("q"), data["rqm_q"])
    report.equal("data/cases", data["cases"], len(cases))
    for key, readings in cases.items():
        report.expect(sorted(readings) == sorted(B1_READINGS), "data/witnesses",
                      f"the case e^ε = {key[0]}, c = {key[1]}, r = {key[2]} has witnesses for {readings}")
    recheck_witnessed(cert, report)
