#include "corbin/privacy/worst_case/survivors.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/number/interval.hpp"
#include "corbin/privacy/worst_case/dropout_floor.hpp"

namespace corbin {
namespace {

using Role = TargetClient::Role;

/// The (lone, complete) pairs the others may leave, A LDPQ positions and B pairs: for each C in
/// [0, B] every lone count in [0, A + B − C].
std::uint64_t pair_count(std::uint64_t a, std::uint64_t b) { return (b + 1) * (a + b + 1) - b * (b + 1) / 2; }

std::vector<Rational> powers(const Rational& x, std::size_t top) {
  std::vector<Rational> out{Rational(1)};
  for (std::size_t i = 0; i < top; ++i) out.push_back(out.back() * x);
  return out;
}

/// C(n, k) for k = 0..n, exactly.
std::vector<Rational> choose_row(std::size_t n) {
  std::vector<Rational> out{Rational(1)};
  for (std::size_t k = 0; k < n; ++k)
    out.push_back(out.back() * Rational(static_cast<long>(n - k)) / Rational(static_cast<long>(k + 1)));
  return out;
}

/// P(lone = l, complete = c) among the others: out[c][l].
std::vector<std::vector<Rational>> others_law(std::size_t a, std::size_t b, const Rational& p) {
  const Rational alive = Rational(1) - p;
  const std::vector<Rational> up = powers(alive, a + b), down = powers(p, a), ca = choose_row(a);
  const std::vector<Rational> broken = powers(2 * p * alive, b), whole = powers(alive * alive, b),
                              gone = powers(p * p, b), cb = choose_row(b);
  std::vector<std::vector<Rational>> out(b + 1, std::vector<Rational>(a + b + 1, Rational(0)));
  for (std::size_t s = 0; s <= b; ++s) {
    const std::vector<Rational> cs = choose_row(b - s);
    for (std::size_t c = 0; s + c <= b; ++c) {
      const Rational pairs = cb[s] * cs[c] * broken[s] * whole[c] * gone[b - s - c];
      for (std::size_t x = 0; x <= a; ++x) out[c][x + s] += pairs * ca[x] * up[x] * down[a - x];
    }
  }
  return out;
}

}  // namespace

std::uint64_t survivor_population_count(const PopulationCounts& all, bool ldpq, bool paired) {
  std::uint64_t out = 0;
  ldpq = ldpq && all.ldpq > 0;
  paired = paired && all.pairs > 0;
  if (ldpq) out += pair_count(all.ldpq - 1, all.pairs);
  // From a pair: paired (C + 1 pairs), or alone as its partner dropped, populations the LDPQ
  // position also gives (the same lone counts, fewer complete pairs).
  if (paired) out += pair_count(all.ldpq, all.pairs - 1) * (ldpq ? 1 : 2);
  return out;
}

namespace {

/// Populations merged by (role, counts), their weights summed; ordered by role then counts.
class Merged {
 public:
  void add(Role role, PopulationCounts c, const Rational& w) {
    if (w == 0) return;
    auto [it, fresh] = weights_.try_emplace({static_cast<int>(role), c.ldpq, c.pairs}, w);
    if (!fresh) it->second += w;
  }
  std::vector<SurvivorPopulation> populations() const {
    std::vector<SurvivorPopulation> out;
    for (const auto& [key, w] : weights_)
      out.push_back({{std::get<1>(key), std::get<2>(key)}, static_cast<Role>(std::get<0>(key)), w});
    return out;
  }

 private:
  std::map<std::tuple<int, std::size_t, std::size_t>, Rational> weights_;
};

/// The rungs of a ladder of nested events E_1 ⊆ E_2 ⊆ … with certified failures P(not E_j) <=
/// failures[j]: consecutive rungs for which close(first, next) holds form one group, and
/// emit(last, w) receives each group's last rung with the weight u_(j−1) − u_j, where u_j is the
/// smallest certified failure so far (the events are nested, so each bounds the later) and u_0 = 1.
/// Returns the weight left for the rung beyond the last, u_J.
template <class Close, class Emit>
Rational nested_rungs(const std::vector<double>& failures, Close close, Emit emit) {
  Rational above(1);
  for (std::size_t j = 0; j < failures.size();) {
    Rational u = above;
    std::size_t last = j;
    for (;; ++last) {
      const Rational failure = to_rational(failures[last]);
      if (failure < u) u = failure;
      if (last + 1 == failures.size() || !close(j, last + 1)) break;
    }
    emit(last, Rational(above - u));
    above = u;
    j = last + 1;
  }
  return above;
}

void check_position(const PopulationCounts& all, Role position, const Rational& p) {
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  const bool alone = position == Role::ldpq;
  if (alone ? all.ldpq == 0 : all.pairs == 0)
    throw invalid_argument("role", alone ? "ldpq" : "paired", "a position the population has");
}

}  // namespace

std::vector<SurvivorPopulation> survivor_ladder(unsigned long n, const Rational& gamma, Role position,
                                                const Rational& p) {
  const PopulationCounts all = population_counts(n, gamma);
  check_position(all, position, p);
  const bool alone = position == Role::ldpq;
  const Rational alive = Rational(1) - p;
  Merged merged;
  // A rung of weight w (of the others' law) at floors f: client 1 survives (1 − p); from a pair
  // its partner survives with it (1 − p) or not (p).
  const auto rung = [&](const PopulationCounts& lone_floor, const std::optional<PopulationCounts>& paired_floor,
                        const Rational& w) {
    if (alone) {
      merged.add(Role::ldpq, lone_floor, alive * w);
    } else {
      merged.add(Role::leader, *paired_floor, alive * w * alive);
      merged.add(Role::ldpq, lone_floor, alive * w * p);
    }
  };
  const std::vector<DropoutFloor> floors =
      dropout_floors(n, gamma, p, std::vector<double>(std::begin(kLadderBudgets), std::end(kLadderBudgets)), position);
  // Whether floors `low` (fewer survivors) are within 1/256 of `high`, in lone clients and
  // in complete pairs: 256·low >= 255·high.
  const auto close = [](const DropoutFloor& low, const DropoutFloor& high) {
    const auto near = [](std::uint64_t a, std::uint64_t b) { return 256 * a >= 255 * b; };
    return near(low.ldpq + low.broken, high.ldpq + high.broken) && near(low.complete, high.complete);
  };
  std::vector<double> failures;
  for (const DropoutFloor& f : floors) failures.push_back(f.failure);
  // A group of rungs close to its first sits at its last (fewest survivors): mass moves down.
  const Rational above = nested_rungs(
      failures, [&](std::size_t first, std::size_t next) { return close(floors[next], floors[first]); },
      [&](std::size_t last, const Rational& w) { rung(floors[last].alone, floors[last].paired, w); });
  rung({1, 0}, all.pairs > 0 ? std::optional<PopulationCounts>(PopulationCounts{0, 1}) : std::nullopt, above);
  return merged.populations();
}

std::vector<SurvivorPopulation> survivor_populations(const PopulationCounts& all, Role position,
                                                     const Rational& p, std::size_t max_populations) {
  check_position(all, position, p);
  const bool alone = position == Role::ldpq;
  const std::uint64_t count = survivor_population_count(all, alone, !alone);
  if (count > max_populations)
    throw invalid_argument("populations", std::to_string(count), "at most " + std::to_string(max_populations));
  const PopulationCounts others = others_beside(all, position);
  const std::size_t a = others.ldpq, b = others.pairs;
  const Rational alive = Rational(1) - p;
  Merged merged;
  const std::vector<std::vector<Rational>> law = others_law(a, b, p);
  for (std::size_t c = 0; c < law.size(); ++c)
    for (std::size_t lone = 0; lone < law[c].size(); ++lone) {
      const Rational w = alive * law[c][lone];
      if (alone) {
        merged.add(Role::ldpq, {lone + 1, c}, w);
      } else {
        merged.add(Role::leader, {lone, c + 1}, w * alive);  // its partner survived
        merged.add(Role::ldpq, {lone + 1, c}, w * p);        // its partner dropped
      }
    }
  return merged.populations();
}

std::vector<SurvivorCeiling> survivor_ceilings(std::uint64_t lone, std::uint64_t pairs, const Rational& p) {
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  const std::vector<double> budgets(std::begin(kLadderBudgets), std::end(kLadderBudgets));
  // Each budget in equal shares between the two counts that have trials.
  const int tails = (lone > 0 ? 1 : 0) + (pairs > 0 ? 1 : 0);
  std::vector<double> shares;
  for (double budget : budgets) shares.push_back(directed::div_down(budget, static_cast<double>(std::max(tails, 1))));
  // X <= lone − k except when fewer than k dropped: P(Bin(lone, p) < k); S <= pairs − k except when
  // fewer than k pairs are whole or gone: P(Bin(pairs, 1 − 2p(1 − p)) < k).
  const auto dropped = survivor_quantiles(lone, p, shares);
  const auto unbroken = survivor_quantiles(pairs, Rational(1 - 2 * p * (1 - p)), shares);
  std::vector<SurvivorCeiling> rungs;
  std::vector<double> failures;
  for (std::size_t j = 0; j < budgets.size(); ++j) {
    rungs.push_back({lone - dropped[j].first, pairs - unbroken[j].first, Rational(0)});
    failures.push_back(directed::add_up(dropped[j].second, unbroken[j].second));
  }
  // Whether ceilings `low` (fewer survivors) are within 1/256 of `high` in both counts.
  const auto close = [](const SurvivorCeiling& low, const SurvivorCeiling& high) {
    const auto near = [](std::uint64_t a, std::uint64_t b) { return 256 * a >= 255 * b; };
    return near(low.lone, high.lone) && near(low.broken, high.broken);
  };
  std::vector<SurvivorCeiling> out;
  // A group of rungs close to its first sits at its last (most survivors): mass moves up.
  const Rational above = nested_rungs(
      failures, [&](std::size_t first, std::size_t next) { return close(rungs[first], rungs[next]); },
      [&](std::size_t last, const Rational& w) {
        if (w > 0) out.push_back({rungs[last].lone, rungs[last].broken, w});
      });
  if (above > 0) out.push_back({lone, pairs, above});  // everybody survives
  return out;
}

std::vector<SurvivorPopulation> lone_survivor_populations(unsigned long n, const Rational& p) {
  return n <= kMaxSurvivorPopulations
             ? survivor_populations(PopulationCounts{n, 0}, TargetClient::Role::ldpq, p, kMaxSurvivorPopulations)
             : survivor_ladder(n, Rational(1), TargetClient::Role::ldpq, p);
}

Accountant mixed_over_survivors(const Rational& dropped, const std::vector<SurvivorPopulation>& parts,
                                const std::function<Accountant(const SurvivorPopulation&)>& of,
                                std::uint64_t uses, const PldLimits& limits) {
  Accountant out = Accountant::silent(limits).bounding().coordinates(uses);
  Rational mass = dropped;
  for (const SurvivorPopulation& s : parts) {
    out = of(s).mixture(s.weight / (mass + s.weight), out, "", "");
    mass += s.weight;
  }
  return out;
}

std::vector<Interval> others_surviving(unsigned long n, const Rational& p) {
  const Interval pi(interval_from(p)), ratio(Interval(interval_from(Rational(1 - p)) / pi));
  std::vector<Interval> b{pow(pi, static_cast<long>(n - 1))};
  for (unsigned long k = 1; k < n; ++k)
    b.push_back(Interval(b.back() * ratio * interval_from(Rational(BigInt(n - k), BigInt(k)))));
  return b;
}

}  // namespace corbin
