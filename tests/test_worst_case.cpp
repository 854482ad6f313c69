// The worst case over neighbouring datasets (privacy/worst_case/neighbours.hpp): the reduction against brute
// force over every input on a grid, the certified bracket against the brute-force worst case for
// k = 1 and 2 with a different configuration in each coordinate, the exact worst case against
// every configuration, the two witnesses, and the probe's impossible numbers.

#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/exact/exact_ucdp.hpp"
#include "corbin/privacy/exact/privacy_loss.hpp"
#include "corbin/quantizer/ldpq.hpp"

using namespace corbin;

namespace {

/// One configuration of the brute force: the two laws of the released sum (exact).
struct Pair {
  SumLaw p, q;
};

/// Every multiset of `count` items from `values` (the others are interchangeable in a sum).
template <class T>
void multisets(const std::vector<T>& values, std::size_t count, std::vector<T>& current,
               std::size_t from, const std::function<void(const std::vector<T>&)>& visit) {
  if (current.size() == count) {
    visit(current);
    return;
  }
  for (std::size_t i = from; i < values.size(); ++i) {
    current.push_back(values[i]);
    multisets(values, count, current, i, visit);
    current.pop_back();
  }
}

/// Every pair of neighbouring laws with every client's input on the grid `weights`: the other
/// LDPQ clients, the other pairs (both members), client 1 and its replacement (or its removal),
/// and its partner. By sum_law directly, sharing nothing with the reduction.
std::vector<Pair> brute_force(const ExactUcdpSetting& s, Neighbour relation,
                              const std::vector<Rational>& weights) {
  const PopulationCounts counts = population_counts(s.n, s.gamma);
  const bool paired = s.role != TargetClient::Role::ldpq;
  const std::size_t others = counts.ldpq - (paired ? 0 : 1),
                    pairs = counts.pairs - (paired ? 1 : 0);
  std::vector<std::pair<Rational, Rational>> pair_inputs;
  for (const Rational& a : weights)
    for (const Rational& b : weights) pair_inputs.emplace_back(a, b);
  std::vector<Pair> out;
  std::vector<Rational> ldpq;
  multisets<Rational>(weights, others, ldpq, 0, [&](const std::vector<Rational>& l) {
    std::vector<std::pair<Rational, Rational>> chosen;
    multisets<std::pair<Rational, Rational>>(
        pair_inputs, pairs, chosen, 0, [&](const std::vector<std::pair<Rational, Rational>>& ps) {
          const Population population{l, ps};
          for (const Rational& x : weights)
            for (const Rational& partner :
                 paired ? weights : std::vector<Rational>{s.geometry.center}) {
              const TargetClient first{s.role, x, partner};
              const SumLaw with = sum_law(s.geometry, population, first, true);
              if (relation == Neighbour::remove_one) {
                out.push_back({with, sum_law(s.geometry, population, first, false)});
                continue;
              }
              for (const Rational& x2 : weights) {
                if (x2 == x) continue;
                TargetClient second = first;
                second.weight = x2;
                out.push_back({with, sum_law(s.geometry, population, second, true)});
              }
            }
        });
  });
  return out;
}

double mid(const Interval& x) {
  return midpoint_of(x).convert_to<double>();
}

/// δ(ε) of P against Q, bounded above, at a transcendental e^ε.
double delta_up(const PrivacyLoss& loss, const Interval& e) {
  return upper_of(loss.delta_at(e)).convert_to<double>();
}
double delta_down(const PrivacyLoss& loss, const Interval& e) {
  return lower_of(loss.delta_at(e)).convert_to<double>();
}

ExactUcdpSetting exact(unsigned long n, const Rational& gamma, const Rational& exp_eps,
                       unsigned long bits, TargetClient::Role role,
                       const Rational& center = Rational(0)) {
  return ExactUcdpSetting{n, gamma, Rational(1, 1000),
                          SumGeometry{Rational((exp_eps + 1) / (exp_eps - 1)), center, Rational(1),
                                      bits, Variant::corrected},
                          role};
}

AccountSetting account(const ExactUcdpSetting& e, Neighbour relation) { return account_setting(e, relation); }

/// The grid of inputs: the ends, the centre and the quarter points (for d = 2, the grid points
/// of the corrected reduction at e^ε = 2 and 3 are among them).
std::vector<Rational> grid_inputs(const Rational& c) {
  return {Rational(c - 1), Rational(c - Rational(1, 2)), c, Rational(c + Rational(1, 2)),
          Rational(c + 1)};
}

}  // namespace

TEST_CASE("Lemma 3: the pair at (c, c) sends exactly one + in every variant for d >= 1",
          "[worst_case][unit]") {
  for (const Variant v : {Variant::corrected, Variant::as_printed, Variant::reference_code})
    for (unsigned long d = 1; d <= 12; ++d) CHECK(other_pairs(d, v) == OtherPairs::one_plus);
  CHECK(other_pairs(0, Variant::corrected) == OtherPairs::two_ldpq);
  CHECK(other_pairs(0, Variant::as_printed) == OtherPairs::two_ldpq);
  CHECK(other_pairs(0, Variant::reference_code) ==
        OtherPairs::one_plus);  // its tie rule at 2^d − 1 = 0
}

TEST_CASE("Lemma 5: the corrected variant's four inputs are as bad as every vertex of the grid",
          "[worst_case][unit]") {
  // The exact worst e^ε over the others' j, from the reduction's candidates and from the general
  // enumeration (leader and follower, one-sided limits included): equal.
  PrecisionScope scope(128);
  for (const Rational& exp_eps : {Rational(2), Rational(3), Rational(5, 2)})
    for (unsigned long d : {0ul, 1ul, 2ul, 3ul, 4ul})
      for (const Neighbour rel : {Neighbour::replace_one, Neighbour::remove_one}) {
        const Rational alpha = (exp_eps + 1) / (exp_eps - 1);
        const auto four =
            client_candidates(alpha, d, Variant::corrected, TargetClient::Role::leader, rel);
        const auto all =
            enumerated_candidates(alpha, d, Variant::corrected, TargetClient::Role::leader, rel);
        INFO("e^ε = " << to_string(exp_eps) << ", d = " << d << ", " << to_string(rel));
        CHECK(four.size() <= all.size());
        // The worst over candidates, with 3 other LDPQ clients (j of them at c + r), exactly, at
        // three values of e^ε.
        auto worst = [&](const std::vector<ClientCandidate<Rational>>& cands) {
          std::vector<Rational> out(3, Rational(0));
          const Rational q_low = Rational(Rational(1, 2) - 1 / (2 * alpha));
          for (std::size_t j = 0; j <= 3; ++j)
            for (const auto& c : cands) {
              CountPolynomial others;
              others.times_binomial(3 - j, q_low);
              others.times_binomial(j, Rational(1 - q_low));
              CountPolynomial with = others, neighbour = others;
              with.times(c.with);
              neighbour.times(c.neighbour);
              const SumLaw p = with.law(3 + c.terms_with, 0, Rational(2), alpha);
              const SumLaw q = neighbour.law(3 + c.terms_neighbour, 0, Rational(2), alpha);
              const std::vector<Rational> at{Rational(1), Rational(11, 10), Rational(3, 2)};
              for (std::size_t i = 0; i < at.size(); ++i)
                out[i] = std::max(out[i], delta_for_exp_eps(p, q, at[i]));
            }
          return out;
        };
        CHECK(worst(four) == worst(all));
      }
}

TEST_CASE(
    "the certified bracket contains the brute-force worst case over every input on a grid, k = 1",
    "[worst_case][unit]") {
  struct Case {
    unsigned long n;
    Rational gamma, exp_eps;
    TargetClient::Role role;
    Neighbour rel;
    Rational center;
  };
  // c = 3 at e^ε = 2 (rα = 3): the remove-one sums meet.
  const std::vector<Case> cases = {
      {3, Rational(1), Rational(3), TargetClient::Role::ldpq, Neighbour::replace_one, Rational(0)},
      {4, Rational(1), Rational(2), TargetClient::Role::ldpq, Neighbour::replace_one, Rational(0)},
      {5, Rational(2, 5), Rational(3), TargetClient::Role::ldpq, Neighbour::replace_one,
       Rational(0)},
      {4, Rational(1, 2), Rational(3), TargetClient::Role::leader, Neighbour::replace_one,
       Rational(0)},
      {5, Rational(1, 5), Rational(2), TargetClient::Role::leader, Neighbour::replace_one,
       Rational(0)},
      {4, Rational(1), Rational(2), TargetClient::Role::ldpq, Neighbour::remove_one, Rational(3)},
      {4, Rational(1, 2), Rational(2), TargetClient::Role::leader, Neighbour::remove_one,
       Rational(3)}};
  for (const Case& c : cases) {
    const ExactUcdpSetting e = exact(c.n, c.gamma, c.exp_eps, 2, c.role, c.center);
    const std::vector<Pair> pairs = brute_force(e, c.rel, grid_inputs(c.center));
    const Accountant a(account(e, c.rel));
    PrecisionScope scope(128);
    for (const Rational& eps : {Rational(0), Rational(1, 10), Rational(1, 3), Rational(3, 5)}) {
      const Interval x = Interval(exp(interval_from(eps)));
      double worst_lo = 0, worst_hi = 0;
      for (const Pair& pq : pairs)
        for (const PrivacyLoss& loss : {PrivacyLoss::of(pq.p, pq.q), PrivacyLoss::of(pq.q, pq.p)}) {
          worst_lo = std::max(worst_lo, delta_down(loss, x));
          worst_hi = std::max(worst_hi, delta_up(loss, x));
        }
      const TwoSided d = a.delta(eps);
      INFO("n = " << c.n << ", γ = " << to_string(c.gamma) << ", e^ε = " << to_string(c.exp_eps)
                  << ", " << to_string(c.rel) << ", ε = " << to_string(eps) << ": brute "
                  << worst_hi << " in [" << d.lower << ", " << d.upper << "]");
      CHECK(worst_lo <= d.upper);
      // The lower bound is attained by inputs on this grid (c ± r and, paired, q = 1/2 at d = 2).
      CHECK(d.lower <= worst_hi * (1 + 1e-12));
      CHECK(d.upper - worst_hi <= 1e-3 * std::max(worst_hi, 1e-3));  // and the bracket is tight
    }
  }
}

TEST_CASE(
    "the certified bracket contains the brute-force worst case of two coordinates configured "
    "apart, k = 2",
    "[worst_case][unit]") {
  // Every pair of configurations (different inputs, and under replace one different directions,
  // in the two coordinates): the composed exact δ never exceeds the composed certified bound.
  for (const auto& [rel, center] : std::vector<std::pair<Neighbour, Rational>>{
           {Neighbour::replace_one, Rational(0)}, {Neighbour::remove_one, Rational(3)}}) {
    const ExactUcdpSetting e =
        exact(3, Rational(1), Rational(2), 2, TargetClient::Role::ldpq, center);
    const std::vector<Rational> weights{Rational(center - 1), center, Rational(center + 1)};
    const std::vector<Pair> pairs = brute_force(e, rel, weights);
    std::vector<PrivacyLoss> forward, backward;
    for (const Pair& pq : pairs) {
      forward.push_back(PrivacyLoss::of(pq.p, pq.q));
      backward.push_back(PrivacyLoss::of(pq.q, pq.p));
    }
    const Accountant two = Accountant(account(e, rel)).compose(2);
    PrecisionScope scope(128);
    for (const Rational& eps : {Rational(0), Rational(1, 4), Rational(3, 4)}) {
      const Interval x = Interval(exp(interval_from(eps)));
      double worst = 0;
      for (std::size_t i = 0; i < pairs.size(); ++i)
        for (std::size_t j = 0; j < pairs.size(); ++j) {
          // Remove one: client 1 is in D in both coordinates (the same direction throughout).
          worst = std::max(worst, delta_down(PrivacyLoss::compose(forward[i], forward[j]), x));
          worst = std::max(worst, delta_down(PrivacyLoss::compose(backward[i], backward[j]), x));
          if (rel == Neighbour::replace_one)  // replace one: the directions may differ
            worst = std::max(worst, delta_down(PrivacyLoss::compose(forward[i], backward[j]), x));
        }
      const TwoSided d = two.delta(eps);
      INFO(to_string(rel) << ", ε = " << to_string(eps) << ": brute " << worst << " in [" << d.lower
                          << ", " << d.upper << "]");
      CHECK(worst <= d.upper);
      CHECK(d.lower <= worst * (1 + 1e-12));
    }
  }
}

TEST_CASE("the exact worst case is the largest exact ε over every configuration of the reduction",
          "[worst_case][unit]") {
  for (const auto& [n, gamma, role] :
       std::vector<std::tuple<unsigned long, Rational, TargetClient::Role>>{
           {9, Rational(1), TargetClient::Role::ldpq},
           {14, Rational(1, 2), TargetClient::Role::ldpq},
           {12, Rational(1, 2), TargetClient::Role::leader}}) {
    ExactUcdpSetting e = exact(n, gamma, Rational(3), 5, role);
    e.delta = Rational(1, 10);
    const ExactUcdpResult worst = exact_ucdp(e, Neighbour::replace_one);
    PrecisionScope scope(128);
    const AggregateFamily family(account(e, Neighbour::replace_one));
    Rational largest(0);
    bool infinite = false;
    for (std::size_t top = 0; top <= family.other_ldpq(); ++top)
      for (std::size_t c = 0; c < family.candidates(); ++c) {
        const ExactUcdpResult r = exact_ucdp_at(e, Configuration{c, top}, Neighbour::replace_one);
        infinite = infinite || r.infinite;
        if (!r.infinite) largest = std::max(largest, r.exp_eps);
      }
    INFO("n = " << n << ", role " << static_cast<int>(role));
    CHECK(worst.infinite == infinite);
    if (!infinite) CHECK(worst.exp_eps == largest);
    // Attained: the reported configuration gives the value.
    const ExactUcdpResult again = exact_ucdp_at(e, worst.configuration, Neighbour::replace_one);
    CHECK(again.infinite == worst.infinite);
    CHECK(again.exp_eps == worst.exp_eps);
  }
}

TEST_CASE("the issue's witnesses: mixed configurations are worse than every client at one end",
          "[worst_case][unit]") {
  {  // n = 5, e^ε = 2, δ = 0.05: others (c + r, c + r, c + r, c − r), δ at e^ε = 1997/1600 is
     // 671/10800.
    ExactUcdpSetting e = exact(5, Rational(1), Rational(2), 5, TargetClient::Role::ldpq);
    e.delta = Rational(1, 20);
    const ExactUcdpResult w = exact_ucdp(e, Neighbour::replace_one);
    const auto [p, q] = neighbouring_laws(e, w.configuration, Neighbour::replace_one);
    CHECK(delta_for_exp_eps(p, q, Rational(1997, 1600)) == Rational(671, 10800));
    CHECK(std::min(w.configuration.top, 4 - w.configuration.top) == 1);
    CHECK(mid(w.eps) >= 0.26605);
    const TwoSided b = Accountant(account(e, Neighbour::replace_one)).epsilon(e.delta);
    CHECK(b.lower <= mid(w.eps) * (1 + 1e-12));
    CHECK(b.upper >= 0.26606 - 1e-5);
    CHECK(b.lower >= 0.26605);
  }
  {  // n = 50, e^ε = 3, δ = 1e-5: 48 others at one end and one at the other.
    ExactUcdpSetting e = exact(50, Rational(1), Rational(3), 5, TargetClient::Role::ldpq);
    e.delta = Rational(1, 100000);
    const ExactUcdpResult w = exact_ucdp(e, Neighbour::replace_one);
    CHECK(std::min(w.configuration.top, 49 - w.configuration.top) == 1);
    CHECK(mid(w.eps) >= 0.716433);
    const TwoSided b = Accountant(account(e, Neighbour::replace_one)).epsilon(e.delta);
    CHECK(b.upper >= 0.716433);
    CHECK(b.lower <= mid(w.eps) * (1 + 1e-12));
  }
}

TEST_CASE(
    "blocks of configurations bound the middle: the bracket still contains the exact worst case",
    "[worst_case][unit]") {
  // n = 300 with blocks forced (16 values of j at each end, the rest in 8 blocks): the exact worst
  // case lies inside the bracket, which is wider than the exhaustive one but not by much.
  ExactUcdpSetting e = exact(300, Rational(1), Rational(3), 5, TargetClient::Role::ldpq);
  e.delta = Rational(1, 100000);
  const ExactUcdpResult w = exact_ucdp(e, Neighbour::replace_one);
  PldLimits blocks;
  blocks.exhaustive_tops = 16;
  blocks.end_tops = 8;
  blocks.blocks = 8;
  const Accountant relaxed(account(e, Neighbour::replace_one), blocks),
      all(account(e, Neighbour::replace_one));
  CHECK(relaxed.blocks() > 0);
  CHECK(all.blocks() == 0);
  const TwoSided r = relaxed.epsilon(e.delta), x = all.epsilon(e.delta);
  const double exact_eps = mid(w.eps);
  CHECK(r.lower <= exact_eps * (1 + 1e-12));
  CHECK(exact_eps <= r.upper);
  CHECK(x.lower <= exact_eps * (1 + 1e-12));
  CHECK(exact_eps <= x.upper);
  CHECK(r.upper >= x.upper * (1 - 1e-12));
  CHECK(r.upper <= exact_eps * 1.05);
}

TEST_CASE("no impossible numbers: δ in [0, 1], ε in [0, ∞], at huge e^ε and huge ε",
          "[worst_case][unit]") {
  AccountSetting s;
  s.n = 50;
  s.gamma = Rational(1, 2);
  s.budget = Budget::make(Budget::Kind::exp_eps, parse_rational("1e30", "exp_eps"));
  const Accountant a(s);
  const TwoSided eps = a.epsilon(Rational(1, 100000));
  // ε(δ) of randomized response at odds 10^30 is ln((q+ − δ)/q−), just below ln 10^30: with pairs
  // adding one "+" each, the 25 LDPQ clients are all that blur client 1, and they hardly do.
  CHECK(eps.lower >= std::log(1e30) - 2e-5);
  CHECK(eps.upper >= eps.lower);
  const TwoSided d = a.delta(Rational(1));
  CHECK(d.lower >= 0);
  CHECK(d.upper <= 1);
  CHECK(d.lower <= d.upper);
  // A loss past every composed grid point: δ_lower is 0 or more, never a negative subnormal.
  AccountSetting t;
  t.n = 100;
  t.gamma = Rational(1, 2);
  const Accountant many = Accountant(t).compose(200'000'000);
  const TwoSided far = many.delta(Rational(2'200'000));
  CHECK(far.lower >= 0);
  CHECK(far.upper <= 1);
  CHECK(far.lower <= far.upper);
}

TEST_CASE("property: the bracket holds the exact worst case, and ε_upper grows with k",
          "[worst_case][property]") {
  rc::prop("random n, e^ε, δ, γ", [] {
    const auto n = static_cast<unsigned long>(*rc::gen::inRange(2, 9));
    const Rational gamma(*rc::gen::inRange(0, 5), 4);
    const Rational exp_eps = 1 + Rational(*rc::gen::inRange(1, 60), *rc::gen::inRange(1, 10));
    const Rational delta(1, *rc::gen::inRange(3, 100000));
    const bool paired = *rc::gen::arbitrary<bool>();
    const TargetClient::Role role = paired ? TargetClient::Role::leader : TargetClient::Role::ldpq;
    const PopulationCounts counts = population_counts(n, gamma);
    RC_PRE(static_cast<bool>(paired ? counts.pairs > 0 : counts.ldpq > 0));
    ExactUcdpSetting e = exact(n, gamma, exp_eps, 3, role);
    e.delta = delta;
    const ExactUcdpResult w = exact_ucdp(e, Neighbour::replace_one);
    const Accountant one(account(e, Neighbour::replace_one));
    const TwoSided b = one.epsilon(delta);
    RC_ASSERT(b.lower <= b.upper);
    if (w.infinite) {
      RC_ASSERT(std::isinf(b.upper));
    } else {
      const double x = mid(w.eps);
      RC_ASSERT(b.lower <= x * (1 + 1e-9) + 1e-12);
      RC_ASSERT(x <= b.upper * (1 + 1e-9) + 1e-12);
    }
    double before = b.upper;
    for (std::uint64_t k : {2u, 5u, 40u}) {
      const double up = one.compose(k).epsilon(delta).upper;
      RC_ASSERT(up >= before * (1 - 1e-9));
      before = up;
    }
  });
}
