#include <catch2/catch.hpp>
#include <vector>

#include "corbin/quantizer/budget.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/quantizer/enumerator.hpp"
#include "corbin/quantizer/ldpq.hpp"

using namespace corbin;

namespace {

const Rational kZero = 0, kOne = 1;

std::vector<Rational> weight_grid() {
  std::vector<Rational> w;
  for (int k = -8; k <= 8; k += 2) w.emplace_back(k, 8);
  w.emplace_back(1, 7);
  w.emplace_back(-5, 11);
  return w;
}

void check_equal(const JointLaw<Rational>& a, const JointLaw<Rational>& b) {
  CHECK(a.pp == b.pp);
  CHECK(a.pm == b.pm);
  CHECK(a.mp == b.mp);
  CHECK(a.mm == b.mm);
}

}  // namespace

TEST_CASE("budgets give α exactly or as a certified enclosure", "[quantizer][unit]") {
  CHECK(Budget::make(Budget::Kind::exp_eps, 3).alpha_exact() == 2);
  CHECK(Budget::make(Budget::Kind::alpha, Rational(17, 16)).exp_eps_exact() == 33);
  CHECK_THROWS_AS(Budget::make(Budget::Kind::alpha, 1), invalid_argument);
  CHECK_THROWS_AS(Budget::make(Budget::Kind::exp_eps, Rational(1, 2)), invalid_argument);
  CHECK_THROWS_AS(Budget::make(Budget::Kind::eps, 0), invalid_argument);
  CHECK_THROWS_AS(Budget::make(Budget::Kind::eps, 1).alpha_exact(), invalid_argument);
  PrecisionScope scope(200);
  const Interval a = Budget::make(Budget::Kind::eps, 1).alpha_interval();
  // α(1) = (e + 1)/(e − 1) = coth(1/2) = 2.1639534137386528487700040102180...
  CHECK(lower_of(a) < Real("2.16395341373865284877000401022"));
  CHECK(upper_of(a) > Real("2.16395341373865284877000401021"));
  CHECK(upper_of(a) - lower_of(a) < Real("1e-55"));
}

TEST_CASE("LDPQ probability and MSE, hand-derived", "[quantizer][unit]") {
  // α = 2, c = 0, r = 1, w = 1/4: q = 1/2 + (1/4)/4 = 9/16; Var = 4 − 1/16.
  CHECK(ldpq_q(Rational(2), kZero, kOne, Rational(1, 4)) == Rational(9, 16));
  CHECK(ldpq_mse(Rational(2), kZero, kOne, Rational(1, 4)) == Rational(63, 16));
  CHECK_THROWS_AS(check_weight("--w", Rational(11, 10), kZero, kOne), invalid_argument);
  CHECK_THROWS_AS(check_radius(Rational(-1)), invalid_argument);
}

TEST_CASE("CorBinQ joint law, hand-derived at d = 2", "[quantizer][unit]") {
  // α = 2, w1 = 1/4, w2 = −1/8: q1 = 9/16, q2 = 15/32. u = 4 q1 = 9/4 (a1 = 2, f1 = 1/4),
  // v = 4 (1 − q2) = 17/8 (a2 = 2, f2 = 1/8). Z in {0,1,2,3}: Z < 2 gives (+,−); Z = 2 gives
  // Q1 = + w.p. 1/4 and Q2 = − w.p. 1/8 independently; Z = 3 gives (−,+). Hence
  // P(+,−) = (2 + 1/32)/4 = 65/128, P(+,+) = (1/4)(7/8)/4 = 7/128,
  // P(−,−) = (3/4)(1/8)/4 = 3/128, P(−,+) = (1 + 21/32)/4 = 53/128.
  const auto law = corbinq_joint_law(Rational(2), kZero, kOne, Rational(1, 4), Rational(-1, 8), 2,
                                     Variant::corrected);
  check_equal(law, {Rational(7, 128), Rational(65, 128), Rational(53, 128), Rational(3, 128),
                    Rational(9, 16), Rational(15, 32)});
  CHECK(law.q1_plus() == Rational(9, 16));
  CHECK(law.q2_plus() == Rational(15, 32));
}

TEST_CASE("the printed line 14 biases the follower", "[quantizer][unit]") {
  // α = 2, d = 2, w1 = 1/4 (a1 = 2), w2 = 3/4: q2 = 11/16, v = 5/4 (a2 = 1, f2 = 1/4). As
  // printed, Q2 = − for Z < 1, and for 1 <= Z <= 2 (the ELSE covers T2 ⪯ Z ⪯ T1) w.p. 1/4:
  // P(Q2 = −) = (1 + 2/4)/4 = 3/8, not 1 − q2 = 5/16.
  const auto law = corbinq_joint_law(Rational(2), kZero, kOne, Rational(1, 4), Rational(3, 4), 2,
                                     Variant::as_printed);
  CHECK(law.q2_plus() == Rational(5, 8));
  CHECK(law.q1_plus() == Rational(9, 16));  // lines 4-11 are unaffected
  const auto fixed = corbinq_joint_law(Rational(2), kZero, kOne, Rational(1, 4), Rational(3, 4), 2,
                                       Variant::corrected);
  CHECK(fixed.q2_plus() == Rational(11, 16));
}

TEST_CASE("the reference code's top cell always answers its own sign", "[quantizer][unit]") {
  // e^ε = 33 (α = 17/16), d = 5, w1 = c + r: q1 = 1/2 + 8/17 = 33/34, 32 q1 = 31.06 lands in the
  // top cell 31 = 2^d − 1, whose tie then always resolves to "+": P(Q1 = +) = 1.
  const Rational alpha(17, 16);
  const auto law = corbinq_joint_law(alpha, kZero, kOne, kOne, kZero, 5, Variant::reference_code);
  CHECK(law.q1_plus() == 1);
  const auto fixed = corbinq_joint_law(alpha, kZero, kOne, kOne, kZero, 5, Variant::corrected);
  CHECK(fixed.q1_plus() == Rational(33, 34));
  // With d = 0 there is only the top cell: the reference code is deterministic.
  const auto d0 = corbinq_joint_law(Rational(3), kZero, kOne, Rational(1, 3), Rational(-1, 2), 0,
                                    Variant::reference_code);
  check_equal(d0, {0, 1, 0, 0, 1, 0});
}

TEST_CASE("closed form equals brute-force enumeration (every variant, d <= 8)", "[quantizer][unit]") {
  const std::vector<Rational> alphas{2, Rational(3, 2), Rational(101, 99), Rational(17, 16), 40};
  const auto grid = weight_grid();
  for (Variant variant : {Variant::corrected, Variant::as_printed, Variant::reference_code})
    for (const Rational& alpha : alphas)
      for (unsigned long d = 0; d <= 8; ++d)
        for (const Rational& w1 : grid)
          for (const Rational& w2 : grid) {
            INFO(to_string(variant) << " α=" << alpha << " d=" << d << " w1=" << w1 << " w2=" << w2);
            const Rational c = Rational(1, 3), r = 2;  // shift and scale away from (0, 1)
            const Rational x1 = c + r * w1, x2 = c + r * w2;
            const auto closed = corbinq_joint_law(alpha, c, r, x1, x2, d, variant);
            const auto brute = enumerate_joint_law(alpha, c, r, x1, x2, d, variant);
            REQUIRE(closed.pp == brute.pp);
            REQUIRE(closed.pm == brute.pm);
            REQUIRE(closed.mp == brute.mp);
            REQUIRE(closed.mm == brute.mm);
          }
}

TEST_CASE("corrected CorBinQ has LDPQ marginals for every d up to 4096", "[quantizer][unit]") {
  const Rational alpha(7, 3), c = 0, r = 1;
  for (unsigned long d : {0ul, 1ul, 5ul, 64ul, 1000ul, 4096ul}) {
    for (const Rational& w : {Rational(-1), Rational(1, 3), Rational(99, 100)}) {
      const auto law = corbinq_joint_law(alpha, c, r, w, Rational(-w / 2), d, Variant::corrected);
      CHECK(law.q1_plus() == ldpq_q(alpha, c, r, w));
      CHECK(law.q2_plus() == ldpq_q(alpha, c, r, Rational(-w / 2)));
      CHECK(law.pp + law.pm + law.mp + law.mm == 1);
    }
  }
}

TEST_CASE("the certified path encloses the exact law, and the double path is close", "[quantizer][unit]") {
  const Rational alpha(5, 2), c = 0, r = 1, w1(3, 10), w2(-7, 10);
  for (unsigned long d : {0ul, 3ul, 17ul, 40ul}) {
    const auto exact = corbinq_joint_law(alpha, c, r, w1, w2, d, Variant::corrected);
    PrecisionScope scope(default_precision_bits(d));
    const auto enclosed = corbinq_joint_law(interval_from(alpha), c, r, w1, w2, d, Variant::corrected);
    for (auto [e, i] : {std::pair{exact.pp, enclosed.pp}, {exact.pm, enclosed.pm},
                        {exact.mp, enclosed.mp}, {exact.mm, enclosed.mm}}) {
      CHECK(to_rational(lower_of(i)) <= e);
      CHECK(e <= to_rational(upper_of(i)));
    }
    const auto fast = corbinq_joint_law(to_double(alpha), c, r, w1, w2, d, Variant::corrected);
    // Each probability is a few products of values in [0, 1] with O(1) roundings, except that
    // 2^d q carries d bits of integer part: the fractional part keeps 53 − d bits.
    const double tolerance = 16 * std::ldexp(1.0, static_cast<int>(d) - 52);
    CHECK(std::abs(fast.pp - to_double(exact.pp)) <= tolerance);
    CHECK(std::abs(fast.pm - to_double(exact.pm)) <= tolerance);
    CHECK(std::abs(fast.mm - to_double(exact.mm)) <= tolerance);
  }
  CHECK_THROWS_AS(corbinq_joint_law(2.0, c, r, w1, w2, 41, Variant::corrected), invalid_argument);
}

TEST_CASE("bad quantizer input is rejected with the parameter named", "[quantizer][unit]") {
  const Rational c = 0, r = 1;
  try {
    corbinq_joint_law(Rational(2), c, r, Rational(3, 2), Rational(0), 3, Variant::corrected);
    FAIL("accepted w1 outside [c − r, c + r]");
  } catch (const invalid_argument& e) {
    CHECK(e.parameter() == "w1");  // the CLI reports it as --w
  }
  CHECK_THROWS_AS(corbinq_joint_law(Rational(2), c, Rational(0), c, c, 3, Variant::corrected),
                  invalid_argument);
  CHECK_THROWS_AS(check_bits(-1), invalid_argument);
  CHECK_THROWS_AS(enumerate_joint_law(Rational(2), c, r, c, c, 25, Variant::corrected),
                  invalid_argument);
  CHECK_THROWS_AS(parse_variant("as_printed"), invalid_argument);
  CHECK(parse_variant("reference-code") == Variant::reference_code);
}
