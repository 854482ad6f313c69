// RapidCheck properties over random budgets, radii, weights and d. CI fixes the seed through
// RC_PARAMS (tests/CMakeLists.txt); a failure prints the seed and the shrunk counterexample.

#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include "corbin/privacy/formulas/pldp.hpp"
#include "corbin/quantizer/enumerator.hpp"
#include "corbin/utility/pair_mse.hpp"

using namespace corbin;

namespace {

struct Case {
  Rational alpha, center, radius, w1, w2;
  unsigned long bits;
  Variant variant;
};

/// α = 1 + p/q in (1, 101], c and r small rationals, w on a grid of [c − r, c + r].
rc::Gen<Case> gen_case(unsigned long max_bits) {
  return rc::gen::apply(
      [](int p, int q, int c, int r, int k1, int k2, int m, int d, int v) {
        const Rational radius(r, 7), center(c, 5);
        return Case{Rational(1) + Rational(p, q), center, radius,
                    center + radius * Rational(k1, m), center + radius * Rational(k2, m),
                    static_cast<unsigned long>(d), static_cast<Variant>(v)};
      },
      rc::gen::inRange(1, 1000), rc::gen::inRange(1, 100), rc::gen::inRange(-10, 11),
      rc::gen::inRange(1, 30), rc::gen::inRange(-60, 61), rc::gen::inRange(-60, 61),
      rc::gen::just(60), rc::gen::inRange(0, static_cast<int>(max_bits) + 1),
      rc::gen::inRange(0, 3));
}

void assert_same_law(const JointLaw<Rational>& a, const JointLaw<Rational>& b) {
  RC_ASSERT(a.pp == b.pp);
  RC_ASSERT(a.pm == b.pm);
  RC_ASSERT(a.mp == b.mp);
  RC_ASSERT(a.mm == b.mm);
}

}  // namespace

TEST_CASE("closed form = enumeration", "[property]") {
  rc::prop("every variant, d <= 10", [] {
    const Case x = *gen_case(10);
    const auto a = corbinq_joint_law(x.alpha, x.center, x.radius, x.w1, x.w2, x.bits, x.variant);
    assert_same_law(a, enumerate_joint_law(x.alpha, x.center, x.radius, x.w1, x.w2, x.bits,
                                           x.variant));
  }, /*verbose=*/true);
}

TEST_CASE("C4: corrected CorBinQ is unbiased", "[property]") {
  rc::prop("E[Q_i] = w_i for every d up to 512", [] {
    const Case x = *gen_case(512);
    const auto law = corbinq_joint_law(x.alpha, x.center, x.radius, x.w1, x.w2, x.bits,
                                       Variant::corrected);
    const auto g = pair_geometry(x.alpha, x.center, x.radius, x.w1, x.w2);
    RC_ASSERT(law.q1_plus() == g.q1);
    RC_ASSERT(law.q2_plus() == g.q2);
    RC_ASSERT(pair_bias(law, g) == 0);
    for (const Rational& p : {law.pp, law.pm, law.mp, law.mm}) RC_ASSERT(p >= 0);
  }, /*verbose=*/true);
}

TEST_CASE("C5: likelihood ratios of corrected CorBinQ stay within e^ε", "[property]") {
  rc::prop("P(Q1 = o | w) / P(Q1 = o | w') <= e^ε", [] {
    const Case x = *gen_case(64);
    const Case y = *gen_case(0);
    const Rational w_other = x.center + x.radius * ((y.w1 - y.center) / y.radius);
    const auto a = corbinq_joint_law(x.alpha, x.center, x.radius, x.w1, x.w2, x.bits, Variant::corrected);
    const auto b = corbinq_joint_law(x.alpha, x.center, x.radius, w_other, x.w1, x.bits, Variant::corrected);
    const Rational e = exp_eps_of(x.alpha);
    RC_ASSERT(a.q1_plus() <= e * b.q1_plus());
    RC_ASSERT(1 - a.q1_plus() <= e * (1 - b.q1_plus()));
    RC_ASSERT(a.q2_plus() <= e * b.q2_plus());
    RC_ASSERT(1 - a.q2_plus() <= e * (1 - b.q2_plus()));
  }, /*verbose=*/true);
}

TEST_CASE("MSE is at least the optimum and the gap at most its supremum", "[property]") {
  rc::prop("optimum <= mse <= optimum + sup_gap <= optimum + paper bound", [] {
    const Case x = *gen_case(40);
    const auto u = pair_utility(x.alpha, x.center, x.radius, x.w1, x.w2, x.bits, Variant::corrected);
    RC_ASSERT(u.mse >= u.mse_optimal);
    const auto s = sup_gap(x.alpha, x.center, x.radius, x.bits);
    RC_ASSERT(u.gap <= s.value);
    RC_ASSERT(s.value <= u.paper_gap_bound);
    RC_ASSERT(u.mse <= u.mse_ldp);
  }, /*verbose=*/true);
}

TEST_CASE("d = 0 is two independent LDPQs", "[property]") {
  rc::prop("corrected and as-printed", [] {
    Case x = *gen_case(0);
    const auto g = pair_geometry(x.alpha, x.center, x.radius, x.w1, x.w2);
    const auto ind = independent_law(g);
    for (Variant v : {Variant::corrected, Variant::as_printed}) {
      assert_same_law(corbinq_joint_law(x.alpha, x.center, x.radius, x.w1, x.w2, 0, v), ind);
    }
  }, /*verbose=*/true);
}

TEST_CASE("certified evaluation encloses the exact value", "[property]") {
  rc::prop("Interval(α) path contains the Rational path", [] {
    const Case x = *gen_case(300);
    const auto exact = pair_utility(x.alpha, x.center, x.radius, x.w1, x.w2, x.bits, x.variant);
    PrecisionScope scope(default_precision_bits(x.bits));
    PairUtility<Interval> enclosed;
    try {
      enclosed = pair_utility(interval_from(x.alpha), x.center, x.radius, x.w1, x.w2, x.bits,
                              x.variant);
    } catch (const undecidable&) {
      // 2^d q is exactly an integer and the rounded α straddles it: the certified path must
      // refuse rather than guess (with a transcendental α this happens only at w = c).
      RC_ASSERT(denominator(Rational(ldpq_q(x.alpha, x.center, x.radius, x.w1) * pow2(x.bits))) == 1 ||
                denominator(Rational((1 - ldpq_q(x.alpha, x.center, x.radius, x.w2)) * pow2(x.bits))) == 1);
      RC_TAG("refused at an exact cell boundary");
      return;
    }
    for (auto [e, i] : {std::pair{exact.mse, enclosed.mse}, {exact.law.pm, enclosed.law.pm},
                        {exact.mse_optimal, enclosed.mse_optimal}}) {
      RC_ASSERT(to_rational(lower_of(i)) <= e);
      RC_ASSERT(e <= to_rational(upper_of(i)));
    }
  }, /*verbose=*/true);
}
