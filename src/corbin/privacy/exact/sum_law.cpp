#include "corbin/privacy/exact/sum_law.hpp"

#include <algorithm>

#include "corbin/number/error.hpp"
#include "corbin/quantizer/ldpq.hpp"

namespace corbin {
namespace {

std::vector<Rational> bernoulli(const Rational& plus) {
  return {Rational(1 - plus), plus};
}

std::vector<Rational> pair_count(const JointLaw<Rational>& law) {
  return {law.mm, Rational(law.pm + law.mp), law.pp};
}

JointLaw<Rational> pair_law(const SumGeometry& g, const Rational& leader,
                            const Rational& follower) {
  return corbinq_joint_law(g.alpha, g.center, g.radius, leader, follower, g.bits, g.variant);
}

}  // namespace

void CountPolynomial::times(const std::vector<Rational>& probs) {
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

void CountPolynomial::times_binomial(std::size_t trials, const Rational& plus) {
  if (trials == 0) return;
  // P(count = k) = C(N, k) a^k (b − a)^(N − k) / b^N for plus = a/b: one pass of exact integers.
  const BigInt a = numerator(plus), b = denominator(plus), rest = b - a;
  std::vector<BigInt> low(trials + 1), high(trials + 1);  // a^k, (b − a)^k
  low[0] = high[0] = 1;
  for (std::size_t k = 1; k <= trials; ++k) {
    low[k] = low[k - 1] * a;
    high[k] = high[k - 1] * rest;
  }
  std::vector<BigInt> term(trials + 1);
  BigInt choose(1);
  for (std::size_t k = 0; k <= trials; ++k) {
    term[k] = choose * low[k] * high[trials - k];
    choose = choose * BigInt(trials - k) / BigInt(k + 1);
  }
  std::vector<BigInt> next(coef.size() + trials, BigInt(0));
  for (std::size_t j = 0; j < coef.size(); ++j) {
    if (coef[j] == 0) continue;
    for (std::size_t k = 0; k <= trials; ++k)
      if (term[k] != 0) next[j + k] += coef[j] * term[k];
  }
  coef = std::move(next);
  denom *= pow(b, static_cast<unsigned>(trials));
}

SumLaw CountPolynomial::law(std::size_t outputs, std::size_t shift, const Rational& center,
                            const Rational& level) const {
  SumLaw out;
  const Rational k{BigInt(outputs)};
  for (std::size_t j = 0; j < coef.size(); ++j) {
    if (coef[j] == 0) continue;
    const Rational value = k * center + level * (2 * Rational(BigInt(j + shift)) - k);
    out[value] += Rational(coef[j], denom);
  }
  return out;
}

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
  return poly.law(clients, 0, g.center, Rational(g.radius * g.alpha));
}

}  // namespace corbin
