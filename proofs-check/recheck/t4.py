"""Theorem 4 (dropout, check_t4.cpp, check_t4u.cpp, check_t4m.cpp): T4 (the printed intervals'
probabilities), T4u (the (ε_u, δ)-UCDP conclusion), T4m (the MSE bound)."""
import math
from decimal import Decimal, localcontext
from fractions import Fraction as F

from .common import check_verdict
from .exact import binomial_outside, ceil_sqrt_sum, dec, floor_sqrt_sum, inside, rat
from .limits import kCertDigits, kExactBinomialTrials, kMaxSurvivalTrials, kWorkDigits
from .report import Malformed, short
from .schema import (ALPHA, BINOMIAL_ITEM, MODEL_SIZE, PROBABILITY, RADIUS_POSITIVE, all_rules, boolean,
                     inputs_in_range, list_of, nat, nat_at_most, obj, put, put_interval, rational_where, sub, text)
from .ucdp import theorem3_printed


def t4_setting_rule(value, path):
    """Thm 4's domain (dropout.hpp check_dropout_setting): n even >= 2, p in (0, 1), 0 < δ1 < δ < 1;
    α > 1, r > 0 and m >= 1 are checked by their fields' specs. The γ Eq. (th:3:1) was evaluated at,
    when stated, is in Thm 3's domain: γ in (0, 1], nγ >= 2 (recheck_t4_precondition evaluates it)."""
    n, p, delta, delta1 = value["n"], F(value["p"]), F(value["delta"]), F(value["delta1"])
    if not (n >= 2 and n % 2 == 0 and 0 < p < 1 and 0 < delta1 < delta < 1):
        raise Malformed(path, "a setting outside Thm 4's domain (n even >= 2, p in (0, 1), 0 < δ1 < δ < 1)")
    if "gamma_used" in value:
        used = F(value["gamma_used"])
        if not (0 < used <= 1 and n * used >= 2):
            raise Malformed(sub(path, "gamma_used"), f"{short(value['gamma_used'])} is outside Thm 3's domain "
                                                     f"(γ in (0, 1] and nγ >= 2, here n = {n})")


# Every parameter of Thm 4's settings but n, p, δ and δ1 (t4_setting_rule).
T4_PARAMETERS = {"m": MODEL_SIZE, **put("alpha", spec=ALPHA), **put("radius", spec=RADIUS_POSITIVE)}
# Theorem 4's witnesses (check_t4u.cpp, check_t4m.cpp): every input of Thm4.v's refutations.
# T4u's exact survival sums run over n trials (recheck_t4u_witness): at most kMaxSurvivalTrials.
T4U_WITNESS = obj({"n": nat_at_most(kMaxSurvivalTrials, "kMaxSurvivalTrials, exact binomial sums"),
                   **T4_PARAMETERS, **put("p", "delta", "delta1", "center", "every_input"),
                   "bits": text, "event": text, "event_is_count": boolean, **put_interval("gamma"),
                   "gamma_in_range": boolean, "precondition": boolean,
                   **put("p_event", "p_event_neighbour", spec=PROBABILITY), **put("difference")},
                  {**put("gamma_used"), **put_interval("printed_eps_u", "margin"),
                   "every_admissible_delta1": obj({**put("low", "high", spec=rational_where(lambda x: x > 0, "> 0")),
                                                   "refutes": boolean},
                                                  {**put("gamma_at_high"), **put_interval("eps_u_bound", "margin")})},
                  rule=all_rules(t4_setting_rule, inputs_in_range("every_input")))
T4M_WITNESS = obj({"n": nat, **T4_PARAMETERS, **put("p", "delta", "delta1", "center", "every_input"),
                   **put_interval("gamma", "theta", "printed_bound"), "preconditions_met": boolean},
                  {**put("gamma_used", "mse_lower_bound"), "bound_negative": boolean, "theta_positive": boolean,
                   "mse_identity": text, "tangent_rule": text,
                   **put("tangent_point", "mean_lone_survivors", "mean_lone_times_survivors"),
                   **put("lone_probability", "both_probability", spec=PROBABILITY)},
                  rule=all_rules(t4_setting_rule, inputs_in_range("every_input")))


DATA = {
    "T4": obj({"counterexample": obj({
        "n": nat_at_most(kExactBinomialTrials, "dropout.hpp kExactBinomialTrials"), **T4_PARAMETERS,
        **put("p", "delta", "delta1", "gamma_used"),
        **put_interval("gamma", "gamma_prime", "theta"), "preconditions_met": boolean,
        **put("claimed_each"), **put("singles_outside", "survivors_outside", spec=PROBABILITY),
        "recheck": list_of(BINOMIAL_ITEM, lengths=(1,))}, rule=t4_setting_rule),
        "conclusion_witness": T4U_WITNESS}),
    "T4u": obj({"witness": T4U_WITNESS}),
    "T4m": obj({"printed": T4M_WITNESS, "theta_positive": T4M_WITNESS}),
}


def t4_gamma_theta(n, p, delta, delta1):
    """Thm 4's γ, γ′ and θ as printed, at the current decimal precision."""
    v = dec(p * (1 - p))
    gap = dec(delta - delta1)
    width = (v * (1 - 2 * v) / (4 * gap * n)).sqrt()
    return v - width, v + width, v - (v / (gap * n)).sqrt()


def recheck_t4_precondition(w, path, report, gamma):
    """Theorem 3's precondition with δ1 and ε_u of Eq. (th:3:1) at the γ the check used (the lower
    end of its enclosure of the printed γ, rounded down: a smaller γ only makes ε_u larger).
    Returns (ε_u, precondition holds) recomputed."""
    if "gamma_used" not in w:
        report.expect(not w.get("preconditions_met", w.get("precondition")), f"{path}/gamma_used",
                      "a witness whose preconditions are met states the γ they were evaluated at")
        return None, False
    used = rat(w["gamma_used"])
    report.expect(dec(used) <= gamma and gamma - dec(used) < Decimal(10) ** -30, f"{path}/gamma_used",
                  f"{w['gamma_used']} is not the printed γ = {gamma:.{kCertDigits}g} rounded down")
    eps_u, pre = theorem3_printed(w["n"], used, rat(w["delta1"]), rat(w["radius"]), rat(w["alpha"]), w["m"])
    return eps_u, pre and 0 < gamma <= 1


def survival_at_least(trials, survive, k):
    """P(X >= k) for X ~ Binomial(trials, survive), exactly."""
    a, b = survive.numerator, survive.denominator
    return F(sum(math.comb(trials, j) * a ** j * (b - a) ** (trials - j) for j in range(k, trials + 1)), b ** trials)


def recheck_t4u_witness(w, path, report):
    """Thm4.v's T4u refutation: the exact probabilities that at least n/2 clients reported, with
    and without client 1 (survival 1 − p each). The event is that count exactly when the outputs'
    deviations c ± rα − c cannot add up to 1/2 (n r α < 1/2, every input at c); then
    P(S) − e^ε_u P′(S) − δ > 0 refutes the conclusion. Returns the verdict."""
    n, p, delta = w["n"], rat(w["p"]), rat(w["delta"])
    alpha, r = rat(w["alpha"]), rat(w["radius"])
    report.equal(f"{path}/every_input", rat(w["every_input"]), rat(w["center"]), w["every_input"])
    report.equal(f"{path}/event_is_count", w["event_is_count"], n * r * alpha < F(1, 2))
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        gamma, _, _ = t4_gamma_theta(n, p, delta, rat(w["delta1"]))
        report.expect(inside(gamma, w["gamma"]), f"{path}/gamma", f"does not enclose {gamma:.{kCertDigits}g}")
        report.equal(f"{path}/gamma_in_range", w["gamma_in_range"], 0 < gamma <= 1)
        eps_u, pre = recheck_t4_precondition(w, path, report, gamma)
        report.equal(f"{path}/precondition", w["precondition"], pre)
        if eps_u is not None:
            report.expect(inside(eps_u, w["printed_eps_u"]), f"{path}/printed_eps_u",
                          f"does not enclose recomputed {eps_u:.{kCertDigits}g}")
        with_client = survival_at_least(n, 1 - p, n // 2)
        without_client = survival_at_least(n - 1, 1 - p, n // 2)
        report.equal(f"{path}/p_event", rat(w["p_event"]), with_client, w["p_event"])
        report.equal(f"{path}/p_event_neighbour", rat(w["p_event_neighbour"]), without_client, w["p_event_neighbour"])
        report.equal(f"{path}/difference", rat(w["difference"]), with_client - without_client, w["difference"])
        if not (pre and w["event_is_count"]):
            return "undecided"
        margin = dec(with_client) - eps_u.exp() * dec(without_client) - dec(delta)
        report.expect(inside(margin, w["margin"]), f"{path}/margin", f"does not enclose {margin:.{kCertDigits}g}")
        if "every_admissible_delta1" in w:
            recheck_every_delta1(w, f"{path}/every_admissible_delta1", report, with_client, without_client)
        return "fails" if margin > 0 else "undecided"


def recheck_every_delta1(w, path, report, with_client, without_client):
    """T4u at every δ1 the theorem admits (check_t4u.cpp every_admissible_delta1): low is at most
    m e^{−(nv − 1)(1/4 − 1/(4α²))/23} (v = p(1 − p)), so no δ1 <= low meets Eq. (3); Eq. (3)'s
    left side at high is below 23 ln(m/δ), so no δ1 >= high does (it decreases in δ1); γ(high) is
    at least gamma_at_high > 0; ε_u(γ_at_high, low)·(1 − low/10)/(1 − high/10) is inside
    eps_u_bound (it bounds ε_u at every δ1 between); and P(S) − e^bound P′(S) − δ inside margin,
    refuting iff > 0. The witness's own δ1 lies between low and high."""
    e = w["every_admissible_delta1"]
    n, p, delta, m = w["n"], rat(w["p"]), rat(w["delta"]), w["m"]
    alpha, radius = rat(w["alpha"]), rat(w["radius"])
    low, high = rat(e["low"]), rat(e["high"])
    a, v = dec(alpha), dec(p * (1 - p))
    shape = Decimal(1) / 4 - 1 / (4 * a * a)
    report.expect(dec(low) <= m * (-(n * v - 1) * shape / 23).exp(), f"{path}/low",
                  "above m e^{−(nv − 1)(1/4 − 1/(4α²))/23}: an admissible δ1 could lie below it")
    gamma_high, _, _ = t4_gamma_theta(n, p, delta, high)
    report.expect((n * gamma_high - 1) * shape < 23 * (dec(F(m) / delta)).ln(), f"{path}/high",
                  "Eq. (3) can still hold there: an admissible δ1 could lie above it")
    report.expect(low < rat(w["delta1"]) < high, f"{path}", "the witness's δ1 is not between low and high")
    refutes = False
    if "gamma_at_high" in e:
        g = rat(e["gamma_at_high"])
        report.expect(0 < dec(g) <= gamma_high, f"{path}/gamma_at_high", f"not in (0, γ(high) = {gamma_high:.6g}]")
        bound, _ = theorem3_printed(n, g, low, radius, alpha, m)
        bound = bound * dec(1 - low / 10) / dec(1 - high / 10)
        report.expect(inside(bound, e["eps_u_bound"]), f"{path}/eps_u_bound", f"does not enclose {bound:.{kCertDigits}g}")
        margin = dec(with_client) - bound.exp() * dec(without_client) - dec(delta)
        report.expect(inside(margin, e["margin"]), f"{path}/margin", f"does not enclose {margin:.{kCertDigits}g}")
        refutes = margin > 0
    report.equal(f"{path}/refutes", e["refutes"], refutes)


def recheck_t4u(cert, report):
    """T4u (check_t4u.cpp): the witness of Thm4.v's T4u, recomputed (recheck_t4u_witness)."""
    check_verdict(report, cert, recheck_t4u_witness(cert["data"]["witness"], "data/witness", report))


def recheck_t4m_witness(w, path, report):
    """One of Thm4.v's T4m refutations: γ, θ and the printed bound in decimal, the preconditions,
    and, where given, the exact lower bound r²α²(3M E[S] − 2E[SN])/M³ on the MSE at M = n(1 − p)
    with every input at c (a full pair's error 0, a lone survivor's r²α²; per pair one survivor
    w.p. 2p(1 − p), two w.p. (1 − p)²). Returns (preconditions met, bound < 0, bound < lower, θ > 0)."""
    n, p, delta, delta1 = w["n"], rat(w["p"]), rat(w["delta"]), rat(w["delta1"])
    alpha, r = rat(w["alpha"]), rat(w["radius"])
    report.equal(f"{path}/every_input", rat(w["every_input"]), rat(w["center"]), w["every_input"])
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        gamma, gamma_prime, theta = t4_gamma_theta(n, p, delta, delta1)
        report.expect(inside(gamma, w["gamma"]), f"{path}/gamma", f"does not enclose {gamma:.{kCertDigits}g}")
        report.expect(inside(theta, w["theta"]), f"{path}/theta", f"does not enclose {theta:.{kCertDigits}g}")
        a, level2, root2 = dec(alpha), dec(r * r * alpha * alpha), Decimal(2).sqrt()
        bound = (gamma_prime * level2 / (n * theta) + 8 * level2 * dec(delta1)
                 + (1 - gamma) / (2 * n * theta) * dec(r * r) * ((root2 - 1) * a + 1) * ((root2 + 1) * a - 1))
        report.expect(inside(bound, w["printed_bound"]), f"{path}/printed_bound",
                      f"does not enclose recomputed {bound:.{kCertDigits}g}")
        _, pre = recheck_t4_precondition(w, path, report, gamma)
        report.equal(f"{path}/preconditions_met", w["preconditions_met"], pre)
        if "bound_negative" in w:
            report.equal(f"{path}/bound_negative", w["bound_negative"], bound < 0)
        if "theta_positive" in w:
            report.equal(f"{path}/theta_positive", w["theta_positive"], theta > 0)
        below = False
        if "mse_lower_bound" in w:
            pairs, q1, q2 = n // 2, 2 * p * (1 - p), (1 - p) ** 2
            mean_s, mean_sn = pairs * q1, pairs * q1 + pairs * (pairs - 1) * q1 * (2 * q2 + q1)
            m = n * (1 - p)
            lower = r * r * alpha * alpha * (3 * m * mean_s - 2 * mean_sn) / m ** 3
            report.equal(f"{path}/mse_lower_bound", rat(w["mse_lower_bound"]), lower, w["mse_lower_bound"])
            # The steps as the certificate states them: the tangent point, both pair probabilities
            # and both moments (E[S] = K q1, E[SN] = K q1 + K(K − 1) q1 (2 q2 + q1) over K pairs).
            for key, value in (("tangent_point", m), ("lone_probability", q1), ("both_probability", q2),
                               ("mean_lone_survivors", mean_s), ("mean_lone_times_survivors", mean_sn)):
                report.equal(f"{path}/{key}", rat(w[key]), value, w[key])
            below = bound < dec(lower)
        return pre, bound < 0, below, theta > 0


def recheck_t4m(cert, report):
    """T4m (check_t4m.cpp): as printed, a point meeting every precondition where the bound is
    negative (θ < 0); with θ > 0 too, a point where the exact lower bound on the MSE exceeds it.
    The check's own verdict is the printed reading's."""
    pre, negative, _, _ = recheck_t4m_witness(cert["data"]["printed"], "data/printed", report)
    pre2, _, below, theta_pos = recheck_t4m_witness(cert["data"]["theta_positive"], "data/theta_positive", report)
    report.expect(pre2 and theta_pos and below, "data/theta_positive",
                  "the θ > 0 witness does not meet every precondition or does not exceed the bound")
    check_verdict(report, cert, "fails" if pre and negative else "undecided")


def recheck_t4(cert, report):
    """T4 (Thm 4, check_t4.cpp). Recomputed: γ, γ' and θ as printed, at kWorkDigits; δ − δ1; the
    exact probabilities of S ~ Binomial(n/2, 2p(1 − p)) outside [γn, γ'n] and of N ~ Binomial(n,
    1 − p) outside [θn, θ'n], the interval ends rounded inwards exactly (θ' = p(1 − p) +
    √(p(1 − p)/((δ − δ1)n)) is the check's reading: the paper prints only θ); the recheck item is
    the first of these. Verdict: fails iff either probability exceeds δ − δ1, else undecided."""
    cx, path = cert["data"]["counterexample"], "data/counterexample"
    n, p, delta, delta1 = cx["n"], rat(cx["p"]), rat(cx["delta"]), rat(cx["delta1"])
    pq, slack = p * (1 - p), delta - delta1
    singles_width2 = pq * (1 - 2 * pq) / (4 * slack * n)   # (γ' − γ)²/4, Thm 4
    survivors_width2 = pq / (slack * n)                     # (θ' − θ)²/4
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        for key, value in (("gamma", dec(pq) - dec(singles_width2).sqrt()),
                           ("gamma_prime", dec(pq) + dec(singles_width2).sqrt()),
                           ("theta", dec(pq) - dec(survivors_width2).sqrt())):
            report.expect(inside(value, cx[key]), f"{path}/{key}",
                          f"{short(cx[key])} does not enclose recomputed {value:.{kCertDigits}g}")
    report.equal(f"{path}/claimed_each", rat(cx["claimed_each"]), slack)
    # γn = pq·n − √(pq(1 − 2pq)n/(4(δ − δ1))), θn = pq·n − √(pq·n/(δ − δ1)).
    first, last = (ceil_sqrt_sum(pq * n, singles_width2 * n * n, -1), floor_sqrt_sum(pq * n, singles_width2 * n * n, 1))
    singles = binomial_outside(n // 2, 2 * pq, first, last)
    survivors = binomial_outside(n, 1 - p, ceil_sqrt_sum(pq * n, survivors_width2 * n * n, -1),
                                 floor_sqrt_sum(pq * n, survivors_width2 * n * n, 1))
    report.equal(f"{path}/singles_outside", rat(cx["singles_outside"]), singles, cx["singles_outside"])
    report.equal(f"{path}/survivors_outside", rat(cx["survivors_outside"]), survivors, cx["survivors_outside"])
    item, item_path = cx["recheck"][0], f"{path}/recheck/0"
    report.equal(f"{item_path}/trials", item["trials"], n // 2)
    report.equal(f"{item_path}/p", rat(item["p"]), 2 * pq, item["p"])
    report.equal(f"{item_path}/first_inside", int(item["first_inside"]), first)
    report.equal(f"{item_path}/last_inside", int(item["last_inside"]), last)
    report.equal(f"{item_path}/probability", rat(item["probability"]), singles, item["probability"])
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        _, pre = recheck_t4_precondition(cx, path, report, dec(pq) - dec(singles_width2).sqrt())
    report.equal(f"{path}/preconditions_met", cx["preconditions_met"], pre)
    # The conclusion reading: T4u's witness, recomputed the same way.
    recheck_t4u_witness(cert["data"]["conclusion_witness"], "data/conclusion_witness", report)
    check_verdict(report, cert, "fails" if pre and (singles > slack or survivors > slack) else "undecided")
