"""Theorem 3 (check_t3.cpp, check_t3m.cpp): T3 (the (ε_u, δ)-UCDP of Eq. (th:3:1): its
counterexample and the curve against n here, the paper's model sizes and scale in t3_scale.py) and T3m
(the MSE bound, from its witnesses)."""
import math
import re
from decimal import localcontext
from fractions import Fraction as F

from .algorithm2 import ldpq_q
from .common import check_verdict
from .exact import dec, inside, rat
from .limits import kCertDigits, kMaxExactClients, kWorkDigits
from .readings import recheck_witnessed
from .report import Malformed, short
from .schema import (ALPHA, BITS, DELTA, EXACT_CLIENTS, GAMMA, MODEL_SIZE, PROBABILITY, RADIUS_POSITIVE, WITNESS,
                     all_rules, at_most_field, boolean, check_input, inputs_in_range, integer_where, interval, list_of,
                     nat, nat_between, number, obj, one_of, put, put_interval, rational, rational_where, sub, text,
                     typed)
from .t3_scale import model_row_rule, recheck_accounts, recheck_t3_paper_scale, scale_row_rule
from .ucdp import (ldpq_replace_exp_eps, ldpq_replace_worst, population_ldpq, smallest_exp_eps, theorem3_cpsgd,
                   theorem3_printed)


# The counterexample's exact replace-one law is computed for its n clients (ldpq_replace_exp_eps).
T3_SETTING = {"n": EXACT_CLIENTS, **put("gamma", "delta", "radius", "alpha"), "m": nat}


def thm3_domain_rule(value, path):
    """Thm 3's domain (ucdp.hpp check_ucdp_setting) for those of its parameters the object has:
    γ in (0, 1] with nγ >= 2, δ in (0, 1), r > 0, α > 1 (e^ε > 1), m >= 1; Eq. (th:3:1) and cpSGD
    take logarithms and square roots of these and divide by nγ − 1."""
    n = value["n"]
    tests = {"gamma": (lambda g: 0 < g <= 1 and n * g >= 2, f"γ in (0, 1] and nγ >= 2, here n = {short(n)}"),
             "delta": (lambda d: 0 < d < 1, "δ in (0, 1)"), "radius": (lambda r: r > 0, "r > 0"),
             "alpha": (lambda a: a > 1, "α > 1"), "exp_eps": (lambda x: x > 1, "e^ε > 1")}
    for key, (test, rule) in tests.items():
        if key in value and not test(F(value[key])):
            raise Malformed(sub(path, key), f"{short(value[key])} is outside Thm 3's domain ({rule})")
    if "m" in value and value["m"] < 1:
        raise Malformed(sub(path, "m"), f"{short(value['m'])} is outside Thm 3's domain (m >= 1)")


t3_setting_rule = all_rules(thm3_domain_rule, at_most_field("others_at_c_plus_r", "n", 1, ": the other clients"))
# The curve against n: the exact law of other_ldpq other LDPQ clients, others_at_c_plus_r of them at c + r.
t3_curve_rule = all_rules(at_most_field("other_ldpq", "n", 1, ": the other clients"),
                          at_most_field("others_at_c_plus_r", "other_ldpq"))


def t3_size_rule(value, path):
    """The model sizes use γ = 1/2, the curve the counterexample's γ <= 1: n >= 4 keeps nγ >= 2 at
    either; m >= 1."""
    if value["n"] < 4 or value.get("m", 1) < 1:
        raise Malformed(path, "n >= 4 and m >= 1 (Thm 3 at γ >= 1/2)")


def certified_bound(value, path):
    """A certified bound on ε as the accountant writes it: a non-negative double or "infinite"."""
    if value == "infinite":
        return
    number(value, path)
    if value < 0:
        raise Malformed(path, f"a bound on ε, not {short(value)}")


CERTIFIED_BOUND = certified_bound
# One part of the configuration attaining an accountant's lower bound (witness.cpp attained_json),
# in the accountant's words; t3_scale.named_member reads them.
USES = typed(lambda v: type(v) is str and re.fullmatch("[1-9][0-9]{0,18}", v) is not None,
             "a count of uses, a decimal string")
ATTAINED_PART = obj({"role": one_of("ldpq", "paired"), "client_1": text, "neighbour": text, "other_ldpq": text,
                     "other_pairs": text, "uses": USES}, {"order": text, "partner": text})


def t3_population_rule(value, path):
    """The population of T3's witnesses: every input in [c − r, c + r], and at most
    kMaxExactClients − 1 others in all (their law is convolved exactly, one client at a time)."""
    total = sum(group["count"] for group in value["others"])
    if total > kMaxExactClients - 1:
        raise Malformed(sub(path, "others"), f"{total} other clients in all, outside the domain (at most "
                                             f"kMaxExactClients − 1 = {kMaxExactClients - 1}, exact_ucdp.hpp)")
    for i, group in enumerate(value["others"]):
        check_input(group["w"], sub(path, f"others/{i}/w"), value)


T3_POPULATION = {"n": EXACT_CLIENTS, "gamma": GAMMA, **put("delta", spec=DELTA), "radius": RADIUS_POSITIVE,
                 "alpha": ALPHA, "m": MODEL_SIZE, "center": rational,
                 "others": list_of(obj({"count": nat_between(0, kMaxExactClients, "count", "exact_ucdp.hpp "
                                                                                      "kMaxExactClients"),
                                        "role": one_of("ldpq"), "w": rational}), nonempty=False),
                 "client_1": rational}
T3_POPULATION_RULE = all_rules(thm3_domain_rule, t3_population_rule, inputs_in_range("client_1"))


WITNESS_SCHEMAS = {
    "aug_mse_rule": obj({"n": nat_between(2, math.inf, "n", "Thm 3 needs nγ >= 2 with γ <= 1"),
                         **put("gamma", spec=GAMMA), **put("alpha", spec=ALPHA), **put("radius", spec=RADIUS_POSITIVE),
                         "m": MODEL_SIZE,
                         "minus_ln_delta": integer_where(lambda v: v > 0, "−ln δ > 0, δ in (0, 1)"),
                         "ldpq_clients": nat, "pairs": nat,
                         **put("exact_mse", "printed_bound", "precondition_lhs", "precondition_rhs")},
                        put("center"), rule=thm3_domain_rule),
    "t3_replace_one": obj({**T3_POPULATION, "client_1_replaced_by": rational, **put_interval("printed_eps_u"),
                           **put("exact_exp_eps", spec=rational_where(lambda x: x >= 1, "e^ε >= 1"))},
                          rule=all_rules(T3_POPULATION_RULE, inputs_in_range("client_1_replaced_by"))),
    "t3_remove_one": obj({**T3_POPULATION, "disjoint_supports": boolean}, rule=T3_POPULATION_RULE),
}


DATA = {
    "T3": obj({"counterexample": obj({
                   **T3_SETTING, "printed_precondition": boolean, "cpsgd_precondition_consistent_units": boolean,
                   **put_interval("printed_eps_u", "cpsgd_eps_u_proof_units", "cpsgd_eps_u_consistent_units",
                                  "exact_eps_replace_one"),
                   **put("exact_exp_eps_replace_one", spec=rational_where(lambda x: x >= 1, "e^ε >= 1")),
                   "others_at_c_plus_r": nat,
                   **put("remove_one_disjoint_mass", spec=PROBABILITY)}, rule=t3_setting_rule),
               "eps_u_against_n": list_of(obj({
                   "n": EXACT_CLIENTS, **put_interval("printed", "cpsgd_proof_units", "cpsgd_consistent_units",
                                                      "exact_replace_one"), "printed_precondition": boolean,
                   **put("exact_exp_eps_replace_one", spec=rational_where(lambda x: x >= 1, "e^ε >= 1")),
                   "others_at_c_plus_r": nat, "other_ldpq": nat},
                                       rule=all_rules(t3_size_rule, t3_curve_rule))),
               "printed_precondition_from_n": nat_between(3, kMaxExactClients, "n", "the curve's clients"),
               "paper_model_sizes": list_of(obj({"m": nat, "n": nat, **put_interval("printed_eps_u"),
                                                 "printed_precondition": boolean,
                                                 "eps_lower": CERTIFIED_BOUND, "eps_upper": CERTIFIED_BOUND,
                                                 "eps_lower_attained_by": list_of(ATTAINED_PART)},
                                                {"bits": BITS}, rule=all_rules(t3_size_rule, model_row_rule))),
               "paper_scale": list_of(obj({
                   "m": nat, "n": nat, "rounds": nat, "role": one_of("ldpq", "paired (leader)"),
                   "smallest_n_meeting_precondition": boolean, **put("gamma", "delta", "exp_eps", "radius"),
                   "printed_precondition": boolean, **put_interval("printed_eps_u"),
                   "eps_lower": CERTIFIED_BOUND, "eps_upper": CERTIFIED_BOUND,
                   "eps_lower_attained_by": list_of(ATTAINED_PART),
                   "formula_at_instance": one_of("fails", "holds at this instance", "undecided",
                                                 "not claimed (the theorem covers one round)")},
                   {"relative_width": number, "bits": BITS}, rule=all_rules(thm3_domain_rule, scale_row_rule)),
                   nonempty=False)}),
    "T3m": obj({"witnesses": list_of(WITNESS)}),
}


def witness_aug_mse(report, w, path):
    """Thm 3's MSE with ⌊γn⌋ clients on LDPQ (one more if the rest is odd), every input at c: each
    LDPQ client's MSE is (rα)², a pair's at (c, c) is 0 (M = 2rα|s| − s², s = 0)."""
    n, gamma, alpha, r = w["n"], rat(w["gamma"]), rat(w["alpha"]), rat(w["radius"])
    k0 = math.floor(gamma * n)
    k = k0 + (n - k0) % 2
    report.equal(f"{path}/ldpq_clients", w["ldpq_clients"], k)
    report.equal(f"{path}/pairs", w["pairs"], (n - k) // 2)
    mse = k * (r * alpha) ** 2 / F(n * n)
    bound = gamma * r * r * alpha * alpha / n + (1 - gamma) / (2 * n) * r * r * (alpha * alpha + 2 * alpha - 1)
    report.expect(w["m"] == 1, f"{path}/m", "the witness's log(m/δ) is exact only for m = 1")
    lhs = (n * gamma - 1) * (F(1, 4) - 1 / (4 * alpha * alpha))
    rhs = max(F(23 * w["minus_ln_delta"]), 2 * r * alpha)
    for key, value in (("exact_mse", mse), ("printed_bound", bound), ("precondition_lhs", lhs), ("precondition_rhs", rhs)):
        report.equal(f"{path}/{key}", rat(w[key]), value, w[key])
    return lhs >= rhs and mse > bound


def _ldpq_count_laws(w):
    """The laws of the number of outputs c + rα: the other clients (all LDPQ) convolved with client
    1 at its input, and at its replacement. Integers over the common denominator."""
    c, r, alpha = rat(w["center"]), rat(w["radius"]), rat(w["alpha"])
    law = [F(1)]
    for group in w["others"]:
        q = ldpq_q(alpha, c, r, rat(group["w"]))
        count = group["count"]
        binom = [math.comb(count, k) * q ** k * (1 - q) ** (count - k) for k in range(count + 1)]
        law = [sum(law[i] * binom[k - i] for i in range(max(0, k - count), min(k, len(law) - 1) + 1))
               for k in range(len(law) + count)]
    def with_client(v):
        q = ldpq_q(alpha, c, r, v)
        return [(q * law[k - 1] if k >= 1 else 0) + ((1 - q) * law[k] if k < len(law) else 0) for k in range(len(law) + 1)]
    return with_client(rat(w["client_1"])), with_client(rat(w["client_1_replaced_by"]))


def witness_t3_replace(report, w, path):
    """Replace one (client 1 moved): the exact ε at δ of the count of c + rα outputs (the released
    average is an injective function of it), against Eq. (th:3:1) at the witness's parameters."""
    delta, n, alpha, radius = rat(w["delta"]), w["n"], rat(w["alpha"]), rat(w["radius"])
    report.equal(f"{path}/n", n, 1 + sum(g["count"] for g in w["others"]))
    p, q = _ldpq_count_laws(w)
    exact = max(smallest_exp_eps(p, q, delta) or F(0), smallest_exp_eps(q, p, delta) or F(0))
    report.equal(f"{path}/exact_exp_eps", rat(w["exact_exp_eps"]), exact, w["exact_exp_eps"])
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        eps_u, pre = theorem3_printed(n, rat(w["gamma"]), delta, radius, alpha, w["m"])
        report.expect(inside(eps_u, w["printed_eps_u"]), f"{path}/printed_eps_u",
                      f"Eq. (th:3:1) gives {eps_u:.12g}, outside the enclosure")
        return pre and eps_u < dec(exact).ln()


def witness_t3_remove(report, w, path):
    """Remove one (Eq. (UCDP)): n·W̄_g = nc + rα(2k − n), n·W̄′_g = (n − 1)c + rα(2k′ − n + 1); they
    meet iff c = rα(2(k′ − k) + 1) for some 0 <= k <= n, 0 <= k′ <= n − 1: c/(rα) an odd integer."""
    n, c, radius, alpha = w["n"], rat(w["center"]), rat(w["radius"]), rat(w["alpha"])
    # The population is stated as for replace one; only its size enters here (client 1 and the
    # others' inputs do not: the supports are disjoint or not whatever they are).
    report.equal(f"{path}/n", n, 1 + sum(g["count"] for g in w["others"]))
    t = c / (radius * alpha)
    meet = t.denominator == 1 and t.numerator % 2 != 0 and abs(t.numerator) <= 2 * n - 1
    report.equal(f"{path}/disjoint_supports", w["disjoint_supports"], not meet)
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        _, pre = theorem3_printed(n, rat(w["gamma"]), rat(w["delta"]), radius, alpha, w["m"])
    return (not meet) and pre


WITNESS_RECHECKS = {"aug_mse_rule": witness_aug_mse, "t3_replace_one": witness_t3_replace,
                    "t3_remove_one": witness_t3_remove}


# check_t3.cpp's fixed settings for the model sizes (r, γ); α, δ and m are the counterexample's.
# The curve against n is drawn at the counterexample's setting, only n moving (the figure shows
# the witness).
T3_CURVE_GAMMA, T3_CURVE_RADIUS = F(1, 2), F(1)


def recheck_t3(cert, report):
    """T3 (Thm 3, check_t3.cpp). Recomputed at kWorkDigits: for the counterexample, Eq. (th:3:1)
    and its printed precondition from (n, γ, δ, r, α, m); cpSGD Thm 1 with the proof's
    substitutions and with consistent units, and the latter's precondition; the exact ε as
    ln(exact_exp_eps_replace_one). The same formulas for every point of the curve against n (at
    the counterexample's γ, r, α, δ and m) and every model size (γ = 1/2, r = 1 as the check sets
    them); the certified bounds on the
    composed loss at the model sizes against this script's own (t3_scale.recheck_accounts).
    Verdict: fails iff the printed precondition holds and the printed ε_u is below the exact ε,
    or the remove-one laws have disjoint mass above δ (no finite ε); else undecided."""
    data = cert["data"]
    cx, path = data["counterexample"], "data/counterexample"
    n, m = cx["n"], cx["m"]
    gamma, delta, radius, alpha = rat(cx["gamma"]), rat(cx["delta"]), rat(cx["radius"]), rat(cx["alpha"])
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        printed, precondition = theorem3_printed(n, gamma, delta, radius, alpha, m)
        proof, _ = theorem3_cpsgd(n, gamma, delta, radius, alpha, m, False)
        units, units_precondition = theorem3_cpsgd(n, gamma, delta, radius, alpha, m, True)
        exact = dec(rat(cx["exact_exp_eps_replace_one"])).ln()
        for key, value in (("printed_eps_u", printed), ("cpsgd_eps_u_proof_units", proof),
                           ("cpsgd_eps_u_consistent_units", units), ("exact_eps_replace_one", exact)):
            report.expect(inside(value, cx[key]), f"{path}/{key}", f"{short(cx[key])} does not enclose recomputed "
                                                                   f"{value:.{kCertDigits}g}")
        report.equal(f"{path}/printed_precondition", cx["printed_precondition"], precondition)
        report.equal(f"{path}/cpsgd_precondition_consistent_units", cx["cpsgd_precondition_consistent_units"],
                     units_precondition)
        for i, point in enumerate(data["eps_u_against_n"]):
            if point["n"] * gamma < 2:  # the counterexample's γ at this n: outside Thm 3's domain
                raise Malformed(f"data/eps_u_against_n/{i}/n", f"{point['n']} with the counterexample's γ = "
                                                               f"{short(cx['gamma'])} is outside Thm 3's domain (nγ >= 2)")
            args = (point["n"], gamma, delta, radius, alpha, m)
            value, pre = theorem3_printed(*args)
            for key, recomputed in (("printed", value), ("cpsgd_proof_units", theorem3_cpsgd(*args, False)[0]),
                                    ("cpsgd_consistent_units", theorem3_cpsgd(*args, True)[0])):
                report.expect(inside(recomputed, point[key]), f"data/eps_u_against_n/{i}/{key}",
                              f"{short(point[key])} does not enclose recomputed {recomputed:.{kCertDigits}g}")
            report.equal(f"data/eps_u_against_n/{i}/printed_precondition", point["printed_precondition"], pre)
        # The least n at the counterexample's setting meeting the printed precondition (the figure's
        # line): met there, not one client fewer.
        n0 = data["printed_precondition_from_n"]
        if (n0 - 1) * gamma < 2:
            raise Malformed("data/printed_precondition_from_n", f"{n0} with the counterexample's γ = "
                                                                f"{short(cx['gamma'])} is outside Thm 3's domain")
        report.equal("data/printed_precondition_from_n",
                     (theorem3_printed(n0, gamma, delta, radius, alpha, m)[1],
                      theorem3_printed(n0 - 1, gamma, delta, radius, alpha, m)[1]), (True, False),
                     "the precondition at n0 and n0 − 1")
        for i, row in enumerate(data["paper_model_sizes"]):
            value, pre = theorem3_printed(row["n"], T3_CURVE_GAMMA, delta, T3_CURVE_RADIUS, alpha, row["m"])
            report.expect(inside(value, row["printed_eps_u"]), f"data/paper_model_sizes/{i}/printed_eps_u",
                          f"{short(row['printed_eps_u'])} does not enclose recomputed {value:.{kCertDigits}g}")
            report.equal(f"data/paper_model_sizes/{i}/printed_precondition", row["printed_precondition"], pre)
        understates = precondition and printed < exact
        recheck_t3_paper_scale(data.get("paper_scale", []), report)
        for i, row in enumerate(data["paper_model_sizes"]):
            lower, upper = (math.inf if row[k] == "infinite" else row[k] for k in ("eps_lower", "eps_upper"))
            report.expect(lower <= upper, f"data/paper_model_sizes/{i}/eps_lower", "above eps_upper")
    # The exact worst case: e^ε at the named configuration (the others at one end but the named
    # number), and no other configuration of the reduction above it.
    # The curve is drawn at the counterexample's setting, so its point at the counterexample's n is
    # the same computation (the costliest): each distinct one is done once.
    exact_of, worse_of = {}, {}

    def exact_at(others, top):
        if (others, top) not in exact_of:
            exact_of[(others, top)] = ldpq_replace_exp_eps(others, top, alpha, delta)
        return exact_of[(others, top)]

    def worse_at(others, claimed):
        if (others, claimed) not in worse_of:
            worse_of[(others, claimed)] = ldpq_replace_worst(others, alpha, delta, claimed)
        return worse_of[(others, claimed)]

    exact_exp = rat(cx["exact_exp_eps_replace_one"])
    report.equal(f"{path}/exact_exp_eps_replace_one", exact_exp, exact_at(n - 1, cx["others_at_c_plus_r"]))
    report.equal(f"{path}/worse_configurations", worse_at(n - 1, exact_exp), [])
    for i, point in enumerate(data["eps_u_against_n"]):
        others, e = point["other_ldpq"], rat(point["exact_exp_eps_replace_one"])
        report.equal(f"data/eps_u_against_n/{i}/other_ldpq", others,
                     population_ldpq(point["n"], gamma) - 1)
        report.equal(f"data/eps_u_against_n/{i}/exact_exp_eps_replace_one", e, exact_at(others, point["others_at_c_plus_r"]))
        report.equal(f"data/eps_u_against_n/{i}/worse_configurations", worse_at(others, e), [])
        with localcontext() as ctx:
            ctx.prec = kWorkDigits
            report.expect(inside(dec(e).ln(), point["exact_replace_one"]), f"data/eps_u_against_n/{i}/exact_replace_one",
                          "does not enclose ln of the exact e^ε")
    # δ(ε) decreases to the disjoint mass as ε → ∞: no finite ε reaches δ iff that mass exceeds δ.
    infinite = rat(cx["remove_one_disjoint_mass"]) > delta
    # Remove-one compares the sum of n LDPQ outputs c ± rα (check_t3.cpp: c = 0, γ = 1) with the sum
    # of n − 1: their supports are {nc + rα(2k − n)} and {(n − 1)c + rα(2k − n + 1)}, each atom of
    # positive mass (0 < q(w) < 1 for α > 1). Disjoint supports make the disjoint mass 1; supports
    # that meet would need the laws themselves.
    n, level = cx["n"], rat(cx["radius"]) * rat(cx["alpha"])
    whole = {level * (2 * k - n) for k in range(n + 1)}
    removed = {level * (2 * k - n + 1) for k in range(n)}
    if cx["gamma"] == "1" and not whole & removed:
        report.equal(f"{path}/remove_one_disjoint_mass", rat(cx["remove_one_disjoint_mass"]), F(1),
                     cx["remove_one_disjoint_mass"])
    else:
        report.not_recomputable(f"{path}/remove_one_disjoint_mass", "the supports of the remove-one sums meet: the "
                                "disjoint mass needs the laws")
    recheck_accounts(data, report, T3_CURVE_GAMMA)
    check_verdict(report, cert, "fails" if understates or infinite else "undecided")


RECHECKS = {"T3": recheck_t3, "T3m": recheck_witnessed}
