#include "corbin/privacy/worst_case/noise_sum.hpp"

#include <map>

#include "corbin/number/error.hpp"
#include "corbin/privacy/worst_case/dropout_mixture.hpp"
#include "corbin/privacy/worst_case/survivors.hpp"

namespace corbin {
namespace {

ConfigurationWords shift_words(unsigned long n, const std::string& noise) {
  ConfigurationWords w;
  w.client_1 = "client 1 at c + r";
  w.replaced_by = "client 1 at c - r";
  w.others_ldpq = "the other " + std::to_string(n - 1) + " clients anywhere (a shift: no effect)";
  w.others_pairs = noise + " noise on each of the n clients' inputs; the release is their sum";
  return w;
}

}  // namespace

Accountant shift_pair_accountant(const UpperPld& upper, const LowerPld& lower, unsigned long n,
                                 const std::string& noise, const PldLimits& limits) {
  AttainedBy by;
  const ConfigurationWords w = shift_words(n, noise);
  by.parts.push_back(w);
  by.repeats.push_back(1);
  by.reversed.push_back(false);
  return Accountant::from_plds(upper, upper, lower, lower, by, limits);
}

Accountant noise_dropout_accountant(const std::function<ContinuousPlds(unsigned long)>& plds, unsigned long n,
                                    const Rational& p, std::uint64_t m, const std::string& noise,
                                    const PldLimits& limits) {
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  if (n < 2) throw invalid_argument("n", std::to_string(n), "at least 2");
  if (m < 1) throw invalid_argument("m", "0", "at least 1");
  std::map<unsigned long, ContinuousPlds> built;  // by the number of survivors, client 1 among them
  const auto of = [&](unsigned long survivors) -> const ContinuousPlds& {
    auto it = built.find(survivors);
    if (it == built.end()) it = built.emplace(survivors, plds(survivors)).first;
    return it->second;
  };
  // Above: the populations client 1 survives into (every client alone), or the ladder's.
  const bool exact = n <= kMaxSurvivorPopulations;
  const std::vector<SurvivorPopulation> parts = lone_survivor_populations(n, p);
  const Accountant upper = mixed_over_survivors(
      p, parts,
      [&](const SurvivorPopulation& s) {
        const ContinuousPlds& x = of(s.counts.ldpq);
        // The round's m coordinates given the draw: independent, each the same shift.
        const Accountant one = shift_pair_accountant(x.upper, x.lower, s.counts.ldpq, noise, limits).upper_only();
        return m == 1 ? one : one.coordinates(m);
      },
      m, limits);
  // Below: the same populations, or rungs at or above the others' survivors (more noise).
  std::vector<std::pair<Rational, unsigned long>> rungs;  // weight, survivors with client 1
  if (exact) {
    for (const SurvivorPopulation& s : parts) rungs.emplace_back(s.weight, s.counts.ldpq);
  } else {
    for (const SurvivorCeiling& c : survivor_ceilings(n - 1, 0, p))
      rungs.emplace_back((1 - p) * c.weight, static_cast<unsigned long>(c.lone) + 1);
  }
  const WindowPmf point = few_point_pmf({Interval(1)});
  LowerPld lower = lower_pld(point, point, false, limits);  // client 1 dropped: no loss
  Rational mass = p;
  for (const auto& [weight, survivors] : rungs) {
    if (weight == 0) continue;
    const LowerPld& one = of(survivors).lower;
    lower = mixture(m == 1 ? one : power(one, m, limits), lower, weight / (mass + weight), limits);
    mass += weight;
  }
  ConfigurationWords words = shift_words(n, noise);
  words.dropout = dropout_said(p, Neighbour::replace_one) +
                  (exact ? "" : "; bounded below by a ladder of survivor counts at or above the true ones");
  return upper.with_attained_plds({AttainedPlds{lower, lower, words}});
}

}  // namespace corbin
