#include "corbin/privacy/sum_law.hpp"

#include <algorithm>

#include "corbin/number/error.hpp"
#include "corbin/quantizer/ldpq.hpp"

namespace corbin {
namespace {

/// P(J = j) = coef[j] / denom.
struct CountPolynomial {
  std::vector<BigInt> coef{BigInt(1)};
  BigInt denom{1};

  /// Multiplies by an independent count with P(count = t) = probs[t].
  void times(const std::vector<Rational>& probs) {
    BigInt common(1);
    for (const Rational& p : probs) common = lcm(common, denominator(p));
    std::vector<BigInt> num;
    for (const Rational& p : probs) num.push_back(numerator(p) * (common / denominator(p)));
    std::vector<BigInt> next(coef.size() + probs.size() - 1, BigInt(0));
    for (std::size_t j = 0; j < coef.size(); ++j) {
      if (coef[j] == 0) continue;
      for (std::size_t t = 0; t < num.size(); ++t)
        if (num[t] != 0) next[j + t] += coef[j] * num[t];
    }
    coef = std::move(next);
    denom *= common;
  }
};

std::vector<Rational> bernoulli(const Rational& plus) { return {Rational(1 - plus), plus}; }

std::vector<Rational> pair_count(const JointLaw<Rational>& law) {
  return {law.mm, Rational(law.pm + law.mp), law.pp};
}

JointLaw<Rational> pair_law(const SumGeometry& g, const Rational& leader, const Rational& follower) {
  return corbinq_joint_law(g.alpha, g.center, g.radius, leader, follower, g.bits, g.variant);
}

}  // namespace

SumLaw sum_law(const SumGeometry& g, const Population& others, const TargetClient& target,
               bool with_target) {
  check_radius(g.radius);
  CountPolynomial poly;
  std::size_t clients = 0;
  for (const Rational& w : others.ldpq) {
    check_weight("weights", w, g.center, g.radius);
    poly.times(bernoulli(ldpq_q(g.alpha, g.center, g.radius, w)));
    ++clients;
  }
  for (const auto& [a, b] : others.pairs) {
    poly.times(pair_count(pair_law(g, a, b)));
    clients += 2;
  }
  check_weight("w1", target.weight, g.center, g.radius);
  if (target.role == TargetClient::Role::ldpq) {
    if (with_target) {
      poly.times(bernoulli(ldpq_q(g.alpha, g.center, g.radius, target.weight)));
      ++clients;
    }
  } else {
    const bool lead = target.role == TargetClient::Role::leader;
    const JointLaw<Rational> law = lead ? pair_law(g, target.weight, target.partner)
                                        : pair_law(g, target.partner, target.weight);
    if (with_target) {
      poly.times(pair_count(law));
      clients += 2;
    } else {  // Eq. (1): the partner's output is the same random variable, client 1's is gone
      poly.times(bernoulli(lead ? law.q2_plus() : law.q1_plus()));
      ++clients;
    }
  }
  SumLaw law;
  const Rational level = g.radius * g.alpha;
  const Rational k{BigInt(clients)};
  for (std::size_t j = 0; j < poly.coef.size(); ++j) {
    if (poly.coef[j] == 0) continue;
    const Rational value = k * g.center + level * (2 * Rational(BigInt(j)) - k);
    law[value] += Rational(poly.coef[j], poly.denom);
  }
  return law;
}

}  // namespace corbin
