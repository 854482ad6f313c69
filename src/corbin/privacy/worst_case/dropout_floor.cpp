#include "corbin/privacy/worst_case/dropout_floor.hpp"

#include <algorithm>
#include <string>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/number/interval.hpp"
#include "corbin/privacy/worst_case/aggregate_law.hpp"
#include "corbin/privacy/pld/window_pmf.hpp"

namespace corbin {
namespace {

/// A precision at which q's enclosure stays inside (0, 1) (q in (0, 1)): 64 bits beyond −log2 of
/// the smaller of q and 1 − q, so that a dropout probability of 10^-300 is a probability, not an
/// enclosure touching 0 or 1.
unsigned separating_bits(const Rational& q) {
  const Rational r = q < Rational(1, 2) ? q : Rational(1 - q);
  const auto scale = static_cast<long>(msb(denominator(r))) - static_cast<long>(msb(numerator(r))) + 2;
  return std::max(working_precision_bits(), static_cast<unsigned>(std::max(0L, scale) + 64));
}

}  // namespace

std::vector<DropoutFloor> dropout_floors(unsigned long n, const Rational& gamma, const Rational& p,
                                         const std::vector<double>& budgets,
                                         std::optional<TargetClient::Role> position) {
  if (n < 2 || n > kMaxAccountClients)
    throw invalid_argument("n", std::to_string(n),
                           "in [2, " + std::to_string(kMaxAccountClients) + "]");
  if (gamma < 0 || gamma > 1) throw invalid_argument("gamma", to_string(gamma), "in [0, 1]");
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  for (double budget : budgets)
    if (!(budget > 0 && budget < 1))
      throw invalid_argument("failure budget", std::to_string(budget), "in (0, 1)");
  const PopulationCounts all = population_counts(n, gamma);
  const PopulationCounts others = others_beside(all, position);
  const std::uint64_t positions = others.ldpq, pairs = others.pairs;
  // Each budget in equal shares among the binomials that have trials (a third each with pairs and
  // LDPQ positions beside client 1; all of it to the positions where there are no pairs).
  const int tails = (positions > 0 ? 1 : 0) + (pairs > 0 ? 2 : 0);
  std::vector<double> shares;
  for (double budget : budgets)
    shares.push_back(directed::div_down(budget, static_cast<double>(std::max(tails, 1))));
  std::vector<DropoutFloor> out(budgets.size());
  const auto take = [&](std::uint64_t trials, const Rational& q, std::uint64_t DropoutFloor::*floor) {
    const auto quantiles = survivor_quantiles(trials, q, shares);
    for (std::size_t i = 0; i < out.size(); ++i) {
      out[i].*floor = quantiles[i].first;
      out[i].failure = directed::add_up(out[i].failure, quantiles[i].second);
    }
  };
  take(positions, Rational(1 - p), &DropoutFloor::ldpq);
  take(pairs, Rational(2 * p * (1 - p)), &DropoutFloor::broken);
  take(pairs, Rational((1 - p) * (1 - p)), &DropoutFloor::complete);
  for (DropoutFloor& f : out) {
    const std::size_t lone = f.ldpq + f.broken;
    f.alone = {lone + 1, f.complete};
    if (all.pairs > 0) f.paired = PopulationCounts{lone, f.complete + 1};
  }
  return out;
}

PopulationCounts others_beside(const PopulationCounts& all, std::optional<TargetClient::Role> position) {
  const bool alone = position == TargetClient::Role::ldpq, paired = position && !alone;
  const auto less_one = [](std::size_t x) { return x > 0 ? x - 1 : x; };
  return {paired ? all.ldpq : less_one(all.ldpq), alone ? all.pairs : less_one(all.pairs)};
}

std::vector<std::pair<std::uint64_t, double>> survivor_quantiles(std::uint64_t trials, const Rational& q,
                                                                 const std::vector<double>& shares) {
  const PrecisionScope precision(separating_bits(q));
  return binomial_lower_quantiles(trials, interval_from(q), shares);
}

DropoutFloor dropout_floor(unsigned long n, const Rational& gamma, const Rational& p, double budget) {
  return dropout_floors(n, gamma, p, {budget}).front();
}

}  // namespace corbin
