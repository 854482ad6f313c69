#include "corbin/privacy/worst_case/survivors.hpp"

#include <map>
#include <string>
#include <tuple>

#include "corbin/number/error.hpp"

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

std::vector<SurvivorPopulation> survivor_populations(const PopulationCounts& all, Role position,
                                                     const Rational& p, std::size_t max_populations) {
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  const bool alone = position == Role::ldpq;
  if (alone ? all.ldpq == 0 : all.pairs == 0)
    throw invalid_argument("role", alone ? "ldpq" : "paired", "a position the population has");
  const std::uint64_t count = survivor_population_count(all, alone, !alone);
  if (count > max_populations)
    throw invalid_argument("populations", std::to_string(count), "at most " + std::to_string(max_populations));
  const std::size_t a = alone ? all.ldpq - 1 : all.ldpq, b = alone ? all.pairs : all.pairs - 1;
  const Rational alive = Rational(1) - p;
  std::map<std::tuple<int, std::size_t, std::size_t>, Rational> merged;
  const auto add = [&](Role role, PopulationCounts c, const Rational& w) {
    if (w == 0) return;
    auto [it, fresh] = merged.try_emplace({static_cast<int>(role), c.ldpq, c.pairs}, w);
    if (!fresh) it->second += w;
  };
  const std::vector<std::vector<Rational>> law = others_law(a, b, p);
  for (std::size_t c = 0; c < law.size(); ++c)
    for (std::size_t lone = 0; lone < law[c].size(); ++lone) {
      const Rational w = alive * law[c][lone];
      if (alone) {
        add(Role::ldpq, {lone + 1, c}, w);
      } else {
        add(Role::leader, {lone, c + 1}, w * alive);  // its partner survived
        add(Role::ldpq, {lone + 1, c}, w * p);        // its partner dropped
      }
    }
  std::vector<SurvivorPopulation> out;
  for (const auto& [key, w] : merged)
    out.push_back({{std::get<1>(key), std::get<2>(key)}, static_cast<Role>(std::get<0>(key)), w});
  return out;
}

}  // namespace corbin
