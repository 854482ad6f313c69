#include <catch2/catch.hpp>
#include <algorithm>
#include <vector>

#include "corbin/utility/aggregate.hpp"
#include "corbin/utility/pair_mse.hpp"

using namespace corbin;

namespace {

/// The gap formula derived in pair_mse.hpp: 8 L^2 (min(f1,f2) − f1 f2)/2^d when a1 = a2.
Rational derived_gap(const Rational& alpha, const Rational& c, const Rational& r,
                     const Rational& w1, const Rational& w2, unsigned long d) {
  const BigInt two_d = pow2(d);
  const auto [u, v] = threshold_cells(ldpq_q(alpha, c, r, w1), ldpq_q(alpha, c, r, w2), two_d);
  if (u.index != v.index) return 0;
  const Rational level = alpha * r;
  const Rational m = u.frac < v.frac ? u.frac : v.frac;
  return 8 * level * level * (m - u.frac * v.frac) / Rational(two_d);
}

}  // namespace

TEST_CASE("pair MSE, hand-derived at d = 2", "[utility][unit]") {
  // Law of test_quantizer's hand example; L = 2, x1 + x2 = 1/8:
  // mse = 7/128 (31/8)^2 + 118/128 (1/8)^2 + 3/128 (33/8)^2 = 10112/8192 = 79/64.
  const auto u = pair_utility(Rational(2), Rational(0), Rational(1), Rational(1, 4),
                              Rational(-1, 8), 2, Variant::corrected);
  CHECK(u.mse == Rational(79, 64));
  // Optimal: w1 + w2 > 0, so P(−,−) = 0, P(+,+) = q1 + q2 − 1 = 1/32:
  // 1/32 (31/8)^2 + 31/32 (1/8)^2 = (961 + 31)/2048 = 31/64.
  CHECK(u.mse_optimal == Rational(31, 64));
  // Independent: Var1 + Var2 = (4 − 1/16) + (4 − 1/64) = 507/64.
  CHECK(u.mse_ldp == Rational(507, 64));
  CHECK(u.gap == Rational(3, 4));
  CHECK(u.paper_gap_bound == 64);  // r^2 α^2 / 2^(2−6) = 4 · 16
}

TEST_CASE("the gap follows the derived closed form on a grid", "[utility][unit]") {
  const Rational c(-1, 2), r(3, 2);
  for (const Rational& alpha : {Rational(2), Rational(9, 7), Rational(33)})
    for (unsigned long d = 0; d <= 6; ++d)
      for (int i = -12; i <= 12; ++i)
        for (int j = -12; j <= 12; ++j) {
          const Rational w1 = c + r * Rational(i, 12), w2 = c + r * Rational(j, 12);
          const auto u = pair_utility(alpha, c, r, w1, w2, d, Variant::corrected);
          INFO("α=" << alpha << " d=" << d << " w1=" << w1 << " w2=" << w2);
          REQUIRE(u.gap == derived_gap(alpha, c, r, w1, w2, d));
          REQUIRE(u.gap >= 0);
        }
}

TEST_CASE("the gap supremum is attained and never exceeded", "[utility][unit]") {
  const Rational c(1, 5), r(1, 2);
  for (const Rational& alpha : {Rational(2), Rational(9, 7), Rational(33), Rational(1000)})
    for (unsigned long d = 0; d <= 5; ++d) {
      const auto s = sup_gap(alpha, c, r, d);
      INFO("α=" << alpha << " d=" << d);
      // The witness reproduces the value through the public path.
      CHECK(pair_utility(alpha, c, r, s.w1, s.w2, d, Variant::corrected).gap == s.value);
      // Closed form of the supremum: 8 L^2 t(1 − t)/2^d with t = min(1/2, 2^(d−1)/α) for d >= 1;
      // at d = 0 the single cell is centred on 1/2 itself, so t = 1/2.
      const Rational half_width = Rational(pow2(d)) / (2 * alpha);
      const Rational t = d > 0 && half_width < Rational(1, 2) ? half_width : Rational(1, 2);
      const Rational level = alpha * r;
      CHECK(s.value == 8 * level * level * t * (1 - t) / Rational(pow2(d)));
      // Exhaustive scan over a grid that contains every cell boundary and cell middle of both
      // thresholds (steps of 1/(4·2^d) in q), plus the witness.
      const int steps = 4 * (1 << d);
      Rational worst = 0;
      for (int i = 0; i <= steps; ++i)
        for (int j = 0; j <= steps; ++j) {
          // q ranges over [1/2 − 1/(2α), 1/2 + 1/(2α)]; pick q on a grid of 1/steps then clip.
          auto to_w = [&](int k) {
            Rational q(k, steps);
            const Rational lo = Rational(1, 2) - 1 / (2 * alpha), hi = Rational(1, 2) + 1 / (2 * alpha);
            if (q < lo) q = lo;
            if (q > hi) q = hi;
            return Rational(c + r * alpha * (2 * q - 1));
          };
          const auto g = pair_utility(alpha, c, r, to_w(i), to_w(j), d, Variant::corrected).gap;
          if (g > worst) worst = g;
        }
      CHECK(worst == s.value);  // the grid contains the witness and nothing exceeds it
      // Theorem 1's constant: r^2 α^2 / 2^(d−6) is exactly 32 times the supremum when 2^d >= α.
      if (d == 0 || alpha <= Rational(pow2(d))) CHECK(paper_gap_bound(alpha, r, d) / s.value == 32);
      CHECK(paper_gap_bound(alpha, r, d) >= s.value);
    }
}

TEST_CASE("aggregate MSE adds independent pairs and singles", "[utility][unit]") {
  const Rational alpha(3), c(0), r(1);
  const std::vector<Rational> w{Rational(1, 2), Rational(-1, 3), Rational(1, 4)};
  // n = 3: pair (0, 1) plus client 2 on LDPQ.
  const auto pair = pair_utility(alpha, c, r, w[0], w[1], 4, Variant::corrected);
  const Rational expected = (pair.mse + ldpq_mse(alpha, c, r, w[2])) / 9;
  CHECK(aggregate_mse(alpha, c, r, w, consecutive_pairing(3), 4, Variant::corrected) == expected);
  // No pairing: LDP-FL, the sum of variances over n^2.
  Rational ldp = 0;
  for (const auto& x : w) ldp += ldpq_mse(alpha, c, r, x);
  CHECK(aggregate_mse(alpha, c, r, w, Pairing{}, 4, Variant::corrected) == ldp / 9);
  // A biased variant pays its bias squared: the as-printed follower in the hand example of
  // test_quantizer (α = 2, d = 2, w = (1/4, 3/4)) has E[Q2] − w2 = 2(2·5/8 − 1) − 3/4 = −1/4.
  const std::vector<Rational> biased{Rational(1, 4), Rational(3, 4)};
  const auto law = corbinq_joint_law(Rational(2), c, r, biased[0], biased[1], 2, Variant::as_printed);
  const auto g = pair_geometry(Rational(2), c, r, biased[0], biased[1]);
  CHECK(pair_bias(law, g) == Rational(-1, 4));
  CHECK(aggregate_mse(Rational(2), c, r, biased, consecutive_pairing(2), 2, Variant::as_printed) ==
        pair_mse(law, g) / 4);
}

namespace {

/// aggregate_mse averaged over every order of the clients, the roles laid out as the server does
/// (fl/mechanism.cpp: draw_roles): the first `lone` alone, then (leader, follower) pairs, an odd
/// one out alone.
Rational mean_over_orders(const Rational& alpha, const std::vector<Rational>& w, std::size_t lone, unsigned long bits,
                          Variant variant) {
  std::vector<std::size_t> order(w.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  Rational sum(0);
  long orders = 0;
  do {
    Pairing pairing;
    for (std::size_t k = lone; k + 1 < order.size(); k += 2) pairing.emplace_back(order[k], order[k + 1]);
    sum += aggregate_mse(alpha, Rational(0), Rational(1), w, pairing, bits, variant);
    ++orders;
  } while (std::next_permutation(order.begin(), order.end()));
  return sum / orders;
}

}  // namespace

TEST_CASE("the aggregate MSE over the server's random order is the mean over every order", "[utility][unit]") {
  // Biased variants too, so that the cross terms of the pairs' biases count; repeated inputs, so
  // that the per-value grouping is exercised; every number of lone clients up to n.
  const std::vector<Rational> w{Rational(1, 4), Rational(3, 4), Rational(-1, 2), Rational(1, 4), Rational(-1, 8),
                                Rational(3, 4)};
  for (const Variant variant : {Variant::corrected, Variant::as_printed, Variant::reference_code})
    for (const std::size_t n : {1, 2, 3, 4, 5, 6}) {
      const std::vector<Rational> some(w.begin(), w.begin() + static_cast<long>(n));
      for (std::size_t lone = 0; lone <= n; ++lone) {
        INFO("variant " << to_string(variant) << ", n = " << n << ", lone = " << lone);
        CHECK(random_order_aggregate_mse(Rational(2), Rational(0), Rational(1), some, lone, 2, variant) ==
              mean_over_orders(Rational(2), some, lone, 2, variant));
      }
    }
  // The as-printed pairs are biased here, so the order matters and the mean is not one pairing's.
  const Rational mean = random_order_aggregate_mse(Rational(2), Rational(0), Rational(1), w, 0, 2, Variant::as_printed);
  CHECK(mean != aggregate_mse(Rational(2), Rational(0), Rational(1), w, consecutive_pairing(6), 2, Variant::as_printed));
  // An ε budget's enclosure holds the exact value at an α inside it.
  const Interval alpha = interval_hull(Real(Rational(2)), Real(Rational(2)));
  const Interval enclosed =
      random_order_aggregate_mse(alpha, Rational(0), Rational(1), w, 2, 2, Variant::as_printed);
  const Rational exact = random_order_aggregate_mse(Rational(2), Rational(0), Rational(1), w, 2, 2, Variant::as_printed);
  CHECK(to_rational(lower_of(enclosed)) <= exact);
  CHECK(exact <= to_rational(upper_of(enclosed)));
  CHECK_THROWS_AS(random_order_aggregate_mse(Rational(2), Rational(0), Rational(1), w, 7, 2, Variant::corrected),
                  invalid_argument);
}

TEST_CASE("pairings are parsed and checked", "[utility][unit]") {
  CHECK(parse_pairing("0-1,3-2") == Pairing{{0, 1}, {3, 2}});
  CHECK(consecutive_pairing(5) == Pairing{{0, 1}, {2, 3}});
  CHECK_THROWS_AS(parse_pairing("0-1,2"), invalid_argument);
  CHECK_THROWS_AS(parse_pairing("0--1"), invalid_argument);
  CHECK_THROWS_AS(check_pairing({{0, 1}, {1, 2}}, 3), invalid_argument);
  CHECK_THROWS_AS(check_pairing({{0, 3}}, 3), invalid_argument);
  const std::vector<Rational> w{Rational(0), Rational(2)};
  CHECK_THROWS_AS(aggregate_mse(Rational(2), Rational(0), Rational(1), w, Pairing{}, 1,
                                Variant::corrected),
                  invalid_argument);
}
