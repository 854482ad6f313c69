// Privacy accounting (issue 3): Theorem 3 as printed and re-derived, the exact law of the
// aggregate, δ(ε) and ε(δ), composition, Theorem 4, leakage, and the calibrated baselines.
// Hand-derived values first, then cross-checks against brute force.

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/privacy/formulas/baselines.hpp"
#include "corbin/privacy/pld/composition.hpp"
#include "corbin/privacy/formulas/dropout.hpp"
#include "corbin/privacy/exact/exact_ucdp.hpp"
#include "corbin/privacy/exact/leakage.hpp"
#include "corbin/privacy/exact/privacy_loss.hpp"
#include "corbin/privacy/formulas/ucdp.hpp"
#include "corbin/quantizer/ldpq.hpp"

using namespace corbin;

namespace {

Rational pow(const Rational& x, unsigned k) {
  Rational out(1);
  for (unsigned i = 0; i < k; ++i) out *= x;
  return out;
}

double mid(const Interval& x) {
  return midpoint_of(x).convert_to<double>();
}
double value_of(const std::vector<NamedValue>& values, const std::string& name) {
  for (const NamedValue& v : values)
    if (v.name == name) return mid(v.value);
  FAIL("no value named " << name);
  return 0;
}

UcdpSetting paper_setting() {
  UcdpSetting s;
  s.m = 100;
  s.n = 50;
  s.gamma = Rational(1, 2);
  s.delta = Rational(1, 100000);
  s.radius = Rational(1);
  s.budget = Budget::make(Budget::Kind::exp_eps, 3);  // α = 2
  return s;
}

const SumGeometry kGeometry{Rational(2), Rational(0), Rational(1), 5, Variant::corrected};

}  // namespace

TEST_CASE("Theorem 3 as printed: e_p, b_p and each term by hand", "[ucdp][unit]") {
  PrecisionScope scope(128);
  const UcdpSetting s = paper_setting();
  const UcdpFormula f = theorem3_printed(s);
  CHECK(value_of(f.parameters, "e_p") == Approx(1.25).epsilon(1e-15));       // 1 + 1/α²
  CHECK(value_of(f.parameters, "b_p") == Approx(11.0 / 12).epsilon(1e-15));  // e_p/3 + 1/α
  // rα = 2, N = nγ − 1 = 24, m = 100, δ = 1e-5 (natural logarithms).
  const double l125 = std::log(1.25e5), l10 = std::log(1e6), l20m = std::log(2e8), N = 24;
  CHECK(value_of(f.terms, "sqrt_term") == Approx(2 * std::sqrt(8 * 100 * l125 / (N * 1.25))));
  CHECK(value_of(f.terms, "log_term") == Approx(2 * 8 * (l125 + l20m * l10) / (3 * N)));
  CHECK(value_of(f.terms, "b_p_term") ==
        Approx(2 * 4 * (11.0 / 12) * std::sqrt(200.0) * (1.75 + 3.75 / 4) * std::sqrt(l10) /
               (N * (1 - 1e-6) * 1.25)));
  CHECK(mid(f.eps_u) == Approx(value_of(f.terms, "sqrt_term") + value_of(f.terms, "log_term") +
                               value_of(f.terms, "b_p_term")));
  // Precondition: 24·(1/4 − 1/16) = 4.5 against 23 ln(m/δ) = 23 ln(1e7): fails.
  CHECK(mid(f.precondition_lhs) == Approx(4.5));
  CHECK_FALSE(f.precondition);
}

TEST_CASE("cpSGD re-derivation: b_p, c_p, d_p by hand, and the unit error is a factor rα",
          "[ucdp][unit]") {
  PrecisionScope scope(128);
  UcdpSetting s = paper_setting();
  const UcdpFormula proof = theorem3_cpsgd(s, false), units = theorem3_cpsgd(s, true);
  // p = 1/4: b_p = (2/3)(10/16) + 1/2 = 11/12, c_p = √2·(84/64 + 20/16), d_p = 5/6.
  CHECK(value_of(proof.parameters, "b_p") == Approx(11.0 / 12));
  CHECK(value_of(proof.parameters, "c_p") == Approx(std::sqrt(2.0) * 2.5625));
  CHECK(value_of(proof.parameters, "d_p") == Approx(5.0 / 6));
  CHECK(value_of(proof.parameters, "Np(1-p)") == Approx(4.5));  // not 24·(1 + 1/α²)/4
  // Every term is linear in Δ/s: the proof's mixed units give exactly rα times the consistent ε.
  CHECK(mid(proof.eps_u) / mid(units.eps_u) == Approx(2.0).epsilon(1e-12));
  // Consistent units: ε does not depend on r (scale invariance); the proof's version does.
  s.radius = Rational(1, 10);
  CHECK(mid(theorem3_cpsgd(s, true).eps_u) == Approx(mid(units.eps_u)).epsilon(1e-12));
  CHECK(mid(theorem3_cpsgd(s, false).eps_u) == Approx(mid(proof.eps_u) / 10).epsilon(1e-12));
}

TEST_CASE("UCDP settings are validated by name", "[ucdp][unit]") {
  const auto names = [](UcdpSetting s) {
    try {
      check_ucdp_setting(s);
    } catch (const invalid_argument& e) {
      return e.parameter();
    }
    return std::string("accepted");
  };
  UcdpSetting s = paper_setting();
  CHECK(names(s) == "accepted");
  s.delta = Rational(1);
  CHECK(names(s) == "delta");
  s = paper_setting();
  s.gamma = Rational(0);
  CHECK(names(s) == "gamma");
  s.gamma = Rational(1, 50);  // nγ = 1 < 2
  CHECK(names(s) == "gamma");
  s = paper_setting();
  s.m = 0;
  CHECK(names(s) == "m");
}

TEST_CASE("exact aggregate law: two LDPQ clients by hand", "[ucdp][unit]") {
  // α = 2, c = 0, r = 1: q(1) = 3/4, q(−1) = 1/4; the other client sits at −1.
  const Population others{{Rational(-1)}, {}};
  const SumLaw with = sum_law(kGeometry, others, {TargetClient::Role::ldpq, Rational(1), {}}, true);
  const SumLaw alt = sum_law(kGeometry, others, {TargetClient::Role::ldpq, Rational(-1), {}}, true);
  // Outputs ±2, so the sum is −4, 0, 4.
  CHECK(with.at(Rational(-4)) == Rational(3, 16));
  CHECK(with.at(Rational(0)) == Rational(10, 16));
  CHECK(with.at(Rational(4)) == Rational(3, 16));
  CHECK(alt.at(Rational(-4)) == Rational(9, 16));
  CHECK(alt.at(Rational(4)) == Rational(1, 16));
  // Ratios 1/3, 5/3, 3: δ(e^ε = 2) = 3/16 − 2/16 forward; backward 9/16 − 2·3/16 = 3/16.
  CHECK(PrivacyLoss::of(with, alt).delta_at(Rational(2)) == Rational(1, 16));
  CHECK(delta_for_exp_eps(with, alt, Rational(2)) == Rational(3, 16));
  CHECK(delta_for_exp_eps(with, alt, Rational(3)) == 0);
  // ε(δ): the inverse, exactly.
  CHECK(PrivacyLoss::of(with, alt).exp_eps_for(Rational(1, 16)).exp_eps == 2);
  CHECK(exp_eps_for_delta(with, alt, Rational(0)).exp_eps == 3);
  CHECK(exp_eps_for_delta(with, alt, Rational(1, 2)).exp_eps == 1);
  // Removing client 1 shifts the lattice (two outputs against one): disjoint supports.
  const SumLaw without =
      sum_law(kGeometry, others, {TargetClient::Role::ldpq, Rational(1), {}}, false);
  CHECK(PrivacyLoss::of(with, without).infinite_mass == 1);
  CHECK(exp_eps_for_delta(with, without, Rational(1, 2)).infinite);
}

TEST_CASE("exact aggregate law equals brute-force enumeration of every output", "[ucdp][unit]") {
  // 3 LDPQ clients with distinct q and one pair: enumerate the 2^3 LDPQ outputs and the pair's
  // four joint outcomes, and compare the laws of the sum point by point.
  const std::vector<Rational> ws{Rational(-1, 3), Rational(1, 2), Rational(9, 10)};
  const Rational lead(1, 5), follow(-7, 10), w1(3, 4);
  const Population others{{ws[0], ws[1]}, {{lead, follow}}};
  const SumLaw law = sum_law(kGeometry, others, {TargetClient::Role::ldpq, w1, {}}, true);
  SumLaw brute;
  const std::vector<Rational> all{ws[0], ws[1], w1};
  const auto pair =
      corbinq_joint_law(Rational(2), Rational(0), Rational(1), lead, follow, 5, Variant::corrected);
  const std::pair<Rational, Rational> pair_outcomes[] = {{Rational(4), pair.pp},
                                                         {Rational(0), pair.pm},
                                                         {Rational(0), pair.mp},
                                                         {Rational(-4), pair.mm}};
  for (unsigned mask = 0; mask < 8; ++mask)
    for (const auto& [pair_sum, pair_p] : pair_outcomes) {
      Rational p = pair_p, sum = pair_sum;
      for (unsigned i = 0; i < 3; ++i) {
        const Rational q = ldpq_q(Rational(2), Rational(0), Rational(1), all[i]);
        const bool plus = mask >> i & 1u;
        p *= plus ? q : Rational(1 - q);
        sum += plus ? 2 : -2;
      }
      brute[sum] += p;
    }
  for (auto it = brute.begin(); it != brute.end();)  // drop zero-probability points
    it = it->second == 0 ? brute.erase(it) : std::next(it);
  CHECK(law == brute);
  // Unbiased (T2a): the mean of the sum is the sum of the weights, exactly.
  Rational mean(0), total(0);
  for (const auto& [x, p] : law) mean += x * p, total += p;
  CHECK(total == 1);
  CHECK(mean == ws[0] + ws[1] + w1 + lead + follow);
}

TEST_CASE("δ(ε) is non-increasing and ε(δ) inverts it", "[ucdp][unit]") {
  ExactUcdpSetting s{30, Rational(1, 2), Rational(1, 1000), kGeometry, TargetClient::Role::ldpq};
  const auto [p, q] = neighbouring_laws(s, Configuration{}, Neighbour::replace_one);
  Rational previous(2);
  for (int k = 0; k <= 40; ++k) {
    const Rational e = 1 + Rational(k, 10);
    const Rational d = delta_for_exp_eps(p, q, e);
    CHECK(d <= previous);
    CHECK(d >= 0);
    previous = d;
  }
  const auto at = exp_eps_for_delta(p, q, s.delta);
  REQUIRE_FALSE(at.infinite);
  CHECK(delta_for_exp_eps(p, q, at.exp_eps) == s.delta);  // the crossing is exact
  CHECK(delta_for_exp_eps(p, q, Rational(at.exp_eps * Rational(999, 1000))) > s.delta);
  // A paired client 1, replaced, at its worst configuration: the sum of one world has mass where
  // the other has none (client 1 at a threshold's grid point sends its pair's sure "+", at an end
  // it may not, and the 16 other LDPQ clients all say "−" with probability at least (3/4)^16).
  s.role = TargetClient::Role::leader;
  const ExactUcdpResult paired = exact_ucdp(s, Neighbour::replace_one);
  CHECK(paired.ldpq_clients == 16);
  CHECK(paired.disjoint_mass >= Rational(1, 2) * pow(Rational(3, 4), 16));
  CHECK(paired.infinite);
  // A paired client 1 removed: its partner's output stays, the lattice shifts: δ = 1.
  const ExactUcdpResult removed = exact_ucdp(s, Neighbour::remove_one);
  CHECK(removed.infinite);
  CHECK(removed.disjoint_mass == 1);
}

TEST_CASE("the RDP composition bound is never below the exact composition (k = 1, 2, 3)",
          "[ucdp][unit]") {
  PrecisionScope scope(128);
  ExactUcdpSetting s{12, Rational(1, 2), Rational(1, 100), kGeometry, TargetClient::Role::ldpq};
  for (const Rational& delta : {Rational(1, 100), Rational(1, 10000)}) {
    const auto [p, q] = neighbouring_laws(s, Configuration{}, Neighbour::replace_one);
    for (unsigned k = 1; k <= 3; ++k) {
      const auto at = exp_eps_for_delta(p, q, delta, k);
      REQUIRE_FALSE(at.infinite);
      const Rational& exact = at.exp_eps;
      const RenyiBound bound = rdp_epsilon(p, q, BigInt(k), delta);
      REQUIRE_FALSE(bound.infinite);
      const double exact_eps = std::log(to_double(exact));
      INFO("k=" << k << " delta=" << to_double(delta) << " exact=" << exact_eps);
      CHECK(bound.eps.convert_to<double>() >= exact_eps);
      CHECK(bound.eps.convert_to<double>() < exact_eps + 3);  // and not absurdly loose
    }
  }
}

TEST_CASE("analytic Gaussian: σ meets the exact condition with equality, down to ε = 0.001",
          "[baselines][unit]") {
  for (const auto& [eps, delta] : {std::pair{Rational(1), Rational(1, 100000)},
                                   std::pair{Rational(1, 1000), Rational(1, 1000000000000)},
                                   std::pair{Rational(7), Rational(1, 100000)}}) {
    PrecisionScope scope(256);
    const Real sigma = agm_sigma(eps, delta, Rational(2));
    const Real at = agm_delta(sigma, eps, Rational(2));
    INFO("eps=" << to_double(eps) << " delta=" << to_double(delta));
    CHECK(at <= Real(delta));
    CHECK(abs(Real(at / Real(delta) - 1)) < Real(1e-12));
    // Minimal: a slightly smaller σ breaks the condition.
    CHECK(agm_delta(Real(sigma * Real(1 - 1e-9)), eps, Rational(2)) > Real(delta));
  }
  // Certified: the whole enclosure of δ(σ) is at most δ at the returned σ, it is narrow, and a σ
  // smaller by 1e-25 has its whole enclosure above δ (the σ is minimal to the tolerance asked).
  {
    PrecisionScope scope(256);
    const Rational eps(1, 2), delta(1, 100000);
    const Real sigma = agm_sigma(eps, delta, Rational(2));
    const Interval at = agm_delta_enclosure(sigma, eps, Rational(2));
    CHECK(upper_of(at) <= Real(delta));
    CHECK(Real(upper_of(at) - lower_of(at)) < Real(Real(delta) * Real(1e-60)));
    CHECK(lower_of(agm_delta_enclosure(Real(sigma * Real(Real(1) - Real(1e-25))), eps,
                                       Rational(2))) > Real(delta));
    // The double used by the federated run is σ rounded up.
    CHECK(Real(agm_sigma_double(eps, delta, Rational(2))) >= sigma);
    CHECK(agm_sigma_double(eps, delta, Rational(2)) ==
          Approx(sigma.convert_to<double>()).epsilon(1e-15));
  }
  // Known value: ε = 1, δ = 1e-5, Δ = 1 gives σ ≈ 3.73 (Balle & Wang, Fig. 1 regime).
  PrecisionScope scope(256);
  CHECK(agm_sigma(Rational(1), Rational(1, 100000), Rational(1)).convert_to<double>() ==
        Approx(3.7306).epsilon(1e-4));
  const ClassicSigma classic =
      classic_gaussian_sigma(Rational(1, 2), Rational(1, 100000), Rational(1));
  CHECK(classic.valid);
  CHECK(classic.sigma.convert_to<double>() == Approx(std::sqrt(2 * std::log(1.25e5)) / 0.5));
  CHECK_FALSE(classic_gaussian_sigma(Rational(1), Rational(1, 100000), Rational(1)).valid);
  CHECK(laplace_scale(Rational(1, 2), Rational(2)) == 4);
  CHECK_THROWS_AS(agm_sigma(Rational(0), Rational(1, 10), Rational(1)), invalid_argument);
  CHECK_THROWS_AS(agm_sigma(Rational(1), Rational(1), Rational(1)), invalid_argument);
}

TEST_CASE("Theorem 4: γ, θ by hand and an exact counterexample to its Chebyshev step",
          "[dropout][unit]") {
  PrecisionScope scope(128);
  DropoutSetting s;
  s.n = 2000;
  s.p = Rational(1, 10);
  s.delta = Rational(1, 10);
  s.delta1 = Rational(1, 100);
  s.radius = Rational(1);
  s.budget = Budget::make(Budget::Kind::exp_eps, 3);
  const DropoutResult r = theorem4(s);
  // p(1−p) = 0.09; γ = 0.09 − √(0.09·0.82/(4·0.09·2000)); θ = 0.09 − √(0.09/(0.09·2000)).
  CHECK(mid(r.gamma) == Approx(0.09 - std::sqrt(0.09 * 0.82 / (4 * 0.09 * 2000))));
  CHECK(mid(r.theta) == Approx(0.09 - std::sqrt(1.0 / 2000)));
  REQUIRE(r.singles_outside.exact);
  // The printed γ halves Chebyshev's width (the 4 in the denominator): the event's exact
  // probability exceeds the δ − δ1 = 0.09 the proof assigns it.
  CHECK(*r.singles_outside.exact > r.claimed);
  CHECK(to_double(*r.singles_outside.exact) == Approx(0.0913714).epsilon(1e-5));
  // θ is centred at p(1 − p), but a fraction 1 − p of clients survives.
  CHECK(*r.survivors_outside.exact > Rational(99, 100));
  // Brute force of the exact tail for a small case.
  s.n = 20;
  s.delta = Rational(1, 2);
  s.delta1 = Rational(1, 4);
  const DropoutResult small = theorem4(s);
  const double lo = mid(small.gamma) * 20, hi = mid(small.gamma_prime) * 20, b = 0.18;
  double outside = 0;
  for (int k = 0; k <= 10; ++k)
    if (k < std::ceil(lo) || k > std::floor(hi))
      outside += std::tgamma(11) / (std::tgamma(k + 1) * std::tgamma(11 - k)) * std::pow(b, k) *
                 std::pow(1 - b, 10 - k);
  CHECK(to_double(*small.singles_outside.exact) == Approx(outside).epsilon(1e-12));
  s.n = 21;
  CHECK_THROWS_AS(theorem4(s), invalid_argument);
}

TEST_CASE("leakage: bounded at d = 0, unbounded for an eavesdropper or a Z holder at d >= 1",
          "[leakage][unit]") {
  const Rational a(2), c(0), r(1);
  const LeakageResult pair0 = pair_eavesdropper_leakage(a, c, r, 0, Variant::corrected);
  CHECK_FALSE(pair0.unbounded);
  CHECK(pair0.ratio == 3);  // independent LDPQs: e^ε
  CHECK(z_holder_leakage(a, c, r, 0, Variant::corrected).ratio == 3);
  for (unsigned long d : {1ul, 5ul}) {
    const LeakageResult pair = pair_eavesdropper_leakage(a, c, r, d, Variant::corrected);
    CHECK(pair.unbounded);
    // The witness: the output has probability 0 at w_low and > 0 at w_high.
    const auto high =
        corbinq_joint_law(a, c, r, pair.w_high, pair.w_partner, d, Variant::corrected);
    const auto low = corbinq_joint_law(a, c, r, pair.w_low, pair.w_partner, d, Variant::corrected);
    const auto pick = [&](const JointLaw<Rational>& l) {
      return pair.output == "++"   ? l.pp
             : pair.output == "+-" ? l.pm
             : pair.output == "-+" ? l.mp
                                   : l.mm;
    };
    CHECK(pick(low) == 0);
    CHECK(pick(high) > 0);
    CHECK(z_holder_leakage(a, c, r, d, Variant::corrected).unbounded);
  }
  CHECK_THROWS_AS(pair_eavesdropper_leakage(a, c, r, 11, Variant::corrected), invalid_argument);
}

TEST_CASE(
    "with its precondition met, cpSGD (consistent units) bounds the exact ε, and the printed "
    "Theorem 3 does not once r is small",
    "[ucdp][unit]") {
  PrecisionScope scope(128);
  // n = 1800, all clients on LDPQ (γ = 1), m = 1, δ = 1e-5, α = 2: N p(1 − p) = 1799·3/16 = 337.3
  // exceeds 23 ln(10/δ) = 317.8, so both preconditions hold.
  UcdpSetting s;
  s.m = 1;
  s.n = 1800;
  s.gamma = Rational(1);
  s.delta = Rational(1, 100000);
  s.radius = Rational(1, 100);
  s.budget = Budget::make(Budget::Kind::alpha, 2);
  const UcdpFormula printed = theorem3_printed(s), units = theorem3_cpsgd(s, true);
  REQUIRE(printed.precondition);
  REQUIRE(units.precondition);
  ExactUcdpSetting e{s.n, s.gamma, s.delta,
                     SumGeometry{Rational(2), Rational(0), s.radius, 5, Variant::corrected},
                     TargetClient::Role::ldpq};
  const ExactUcdpResult exact = exact_ucdp(e, Neighbour::replace_one);
  REQUIRE_FALSE(exact.infinite);
  const double exact_eps = mid(exact.eps);
  // The worst case: 1798 of the other 1799 clients at c + r (every one at c + r or every one at
  // c − r gives 0.0848065697); independent of r (scale invariance).
  CHECK(exact_eps == Approx(0.0848229055).epsilon(1e-8));
  CHECK(exact.configuration.top == 1798);
  CHECK(mid(units.eps_u) >= exact_eps);   // a valid bound
  CHECK(mid(printed.eps_u) < exact_eps);  // Eq. (th:3:1) understates: 0.0108
  CHECK(mid(printed.eps_u) == Approx(0.0108376493).epsilon(1e-8));
}
