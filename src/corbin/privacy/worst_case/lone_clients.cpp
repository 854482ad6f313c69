#include "corbin/privacy/worst_case/lone_clients.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "corbin/number/error.hpp"
#include "corbin/privacy/worst_case/counted_remove.hpp"
#include "corbin/privacy/worst_case/dropout_mixture.hpp"
#include "corbin/privacy/worst_case/survivors.hpp"

namespace corbin {
namespace {

BigInt gcd_of(BigInt a, BigInt b) {
  a = abs(a);
  b = abs(b);
  while (b != 0) {
    BigInt r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/// The largest h with both x and y integer multiples of it (0 where both are 0).
Rational common_step(const Rational& x, const Rational& y) {
  // gcd(a/b, p/q) = gcd(a·q, p·b)/(b·q), kept reduced.
  BigInt num = gcd_of(numerator(x) * denominator(y), numerator(y) * denominator(x)),
         den = denominator(x) * denominator(y);
  const BigInt g = gcd_of(num, den);
  num /= g;
  den /= g;
  return Rational(num, den);
}

/// The largest step h such that every (value − c) is an integer multiple of it (0 if all are 0).
Rational lattice_step(const std::vector<ExtremeLaw>& extremes, const Rational& center) {
  Rational step(0);
  for (const ExtremeLaw& e : extremes)
    for (const Atom<Rational>& a : e.atoms) step = common_step(step, a.value - center);
  return step;
}

/// A law as a window on the lattice: P(index = (value − c)/h).
WindowPmf on_lattice(const ExtremeLaw& e, const Rational& center, const Rational& step) {
  std::map<std::int64_t, Rational> mass;
  for (const Atom<Rational>& a : e.atoms) {
    if (a.prob == 0) continue;
    const Rational i = step == 0 ? Rational(0) : Rational((a.value - center) / step);
    mass[i.convert_to<std::int64_t>()] += a.prob;
  }
  WindowPmf w;
  w.first = mass.begin()->first;
  const auto size = static_cast<std::size_t>(mass.rbegin()->first - w.first + 1);
  std::vector<Interval> probs(size, Interval(0));
  for (const auto& [i, p] : mass) probs[static_cast<std::size_t>(i - w.first)] = interval_from(p);
  WindowPmf few = few_point_pmf(probs);
  few.first = w.first;
  return few;
}

WindowPmf point_mass() {
  WindowPmf w;
  w.lo = w.hi = {1.0};
  return w;
}

/// Every way of placing `clients` clients on `kinds` extremes (counts per extreme).
void placements(std::size_t kinds, std::size_t clients, std::vector<std::size_t>& at,
                std::vector<std::vector<std::size_t>>& out) {
  if (at.size() + 1 == kinds) {
    at.push_back(clients);
    out.push_back(at);
    at.pop_back();
    return;
  }
  for (std::size_t k = 0; k <= clients; ++k) {
    at.push_back(k);
    placements(kinds, clients - k, at, out);
    at.pop_back();
  }
}

/// Under replace one, a dropout round of m >= 2 coordinates as run with the inputs fixed before
/// the draw: client 1 at extreme x against y in every coordinate, every other client at x too.
/// The server sees who survived; given client 1 and k others survived, the coordinates' sums are
/// independent and the survivors interchangeable. So the labelled mixture over (client 1's
/// survival, k), with the populations' exact weights (n <= kMaxSurvivorPopulations), of each
/// label's pair composed m times is the release coarsened to that label: a lower bound the
/// mechanism attains. Client 1 at the first and last attained extremes, both orders (with e^ε = 3,
/// n = 10, m = 100, dropout 1/10 the others at client 1's first input were the best of the four
/// placements at either end; half the work).
std::vector<AttainedPlds> shared_draw_lowers(const std::vector<ExtremeLaw>& extremes, unsigned long n,
                                             const Rational& center, const Rational& dropout, std::uint64_t m,
                                             const PldLimits& limits) {
  std::vector<std::size_t> ends;
  for (std::size_t e = 0; e < extremes.size(); ++e)
    if (extremes[e].attained) ends.push_back(e);
  if (ends.size() < 2) return {};
  ends = {ends.front(), ends.back()};
  const Rational step = lattice_step(extremes, center);
  std::vector<WindowPmf> laws;
  for (const ExtremeLaw& e : extremes) laws.push_back(on_lattice(e, center, step));
  const std::vector<SurvivorPopulation> parts = lone_survivor_populations(n, dropout);
  const WindowPmf point = few_point_pmf({Interval(1)});
  const LowerPld silent = lower_pld(point, point, false, limits);
  std::vector<AttainedPlds> out;
  for (std::size_t x : ends)
    for (std::size_t y : ends) {
      if (x == y) continue;
      // The others' sums at x, by how many of them survived.
      std::vector<WindowPmf> others{point_mass()};
      for (unsigned long k = 1; k < n; ++k) others.push_back(convolve(others.back(), laws[x]));
      AttainedPlds whole{silent, silent, {}};
      Rational mass = dropout;  // client 1 dropped: silent in both worlds
      for (const SurvivorPopulation& part : parts) {
        const Rational w = part.weight / (mass + part.weight);
        mass += part.weight;
        // A label this rare is left silent (its outputs replaced by one symbol: a post-processing
        // of the release, so the bound stays attained), sparing its m-fold composition.
        if (part.weight < Rational(1, 1000000000000000)) {
          whole.forward = mixture(silent, whole.forward, w, limits);
          whole.backward = mixture(silent, whole.backward, w, limits);
          continue;
        }
        const WindowPmf& rest = others[part.counts.ldpq - 1];
        AttainedLaws label;
        append_aligned(convolve(rest, laws[x]), convolve(rest, laws[y]), label.laws);
        const AttainedPlds one = attained_plds(label, limits);
        whole.forward = mixture(power(one.forward, m, limits), whole.forward, w, limits);
        whole.backward = mixture(power(one.backward, m, limits), whole.backward, w, limits);
      }
      whole.words.client_1 = "client 1 alone at " + extremes[x].input;
      whole.words.replaced_by = "client 1 at " + extremes[y].input;
      whole.words.others_ldpq = "the other " + std::to_string(n - 1) + " clients all at " + extremes[x].input;
      whole.words.others_pairs = "no pairs";
      whole.words.dropout = dropout_said(dropout, Neighbour::replace_one) + "; the round's " + std::to_string(m) +
                            " coordinates sharing the draw, every input fixed before it";
      out.push_back(std::move(whole));
    }
  return out;
}

/// One client's m outputs added (every coordinate at the extreme's input, each drawn
/// independently), exactly: its law convolved m times, by squaring.
ExtremeLaw summed_coordinates(const ExtremeLaw& e, std::uint64_t m) {
  using Law = std::map<Rational, Rational>;
  const auto convolve = [](const Law& a, const Law& b) {
    Law out;
    for (const auto& [u, x] : a)
      for (const auto& [v, y] : b) out[Rational(u + v)] += x * y;
    return out;
  };
  Law power, sum{{Rational(0), Rational(1)}};
  for (const Atom<Rational>& a : e.atoms)
    if (a.prob != 0) power[a.value] += a.prob;
  for (; m > 0; m >>= 1) {
    if (m & 1) sum = convolve(sum, power);
    if (m > 1) power = convolve(power, power);
  }
  ExtremeLaw out{{}, e.input, e.attained};
  for (const auto& [v, w] : sum) out.atoms.push_back({v, w});
  return out;
}

}  // namespace

std::vector<AttainedLaws> lone_clients_family(const std::vector<ExtremeLaw>& extremes, unsigned long n,
                                              const Rational& center, Neighbour relation) {
  if (extremes.size() < 2) throw invalid_argument("extremes", std::to_string(extremes.size()), "at least 2");
  if (n < 1) throw invalid_argument("n", std::to_string(n), "at least 1");
  const bool removed = relation == Neighbour::remove_one;
  // (n − 1 + k − 1 choose k − 1) placements of the others, times k(k − 1) pairs for client 1
  // (remove one: its k extremes).
  const std::size_t kinds = extremes.size();
  double count = 1;
  for (std::size_t i = 1; i < kinds; ++i) count = count * static_cast<double>(n - 1 + i) / static_cast<double>(i);
  count *= static_cast<double>(removed ? kinds : kinds * (kinds - 1));
  if (count > static_cast<double>(kMaxLoneConfigurations))
    throw invalid_argument("n", std::to_string(n),
                           "small enough for at most " + std::to_string(kMaxLoneConfigurations) +
                               " configurations (" + std::to_string(kinds) + " extreme inputs)");
  Rational step = lattice_step(extremes, center);
  // Remove one: the two worlds' sums differ by one client's c, a whole number of steps.
  if (removed) step = common_step(step, center);
  const Rational steps_to_c = removed && step != 0 ? Rational(center / step) : Rational(0);
  if (abs(steps_to_c) > Rational(1L << 40))
    throw invalid_argument("center", to_string(center), "within 2^40 steps of the outputs' lattice from 0");
  const auto shift = steps_to_c.convert_to<std::int64_t>();
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  std::vector<WindowPmf> laws;
  std::int64_t spread = 0;
  for (const ExtremeLaw& e : extremes) {
    for (const Atom<Rational>& a : e.atoms)
      if (step != 0) {
        const Rational i = abs(Rational((a.value - center) / step));
        if (i > Rational(kMaxLoneLattice))
          throw invalid_argument("n", std::to_string(n), "outputs on a lattice of at most 2^20 points");
        spread = std::max(spread, i.convert_to<std::int64_t>());
      }
    laws.push_back(on_lattice(e, center, step));
  }
  if (static_cast<double>(spread) * 2 * static_cast<double>(n) > static_cast<double>(kMaxLoneLattice))
    throw invalid_argument("n", std::to_string(n), "with the sum on a lattice of at most 2^20 points");
  // Powers of each extreme's law, 0 to n − 1 clients.
  std::vector<std::vector<WindowPmf>> powers(kinds);
  for (std::size_t e = 0; e < kinds; ++e) {
    powers[e].push_back(point_mass());
    for (unsigned long k = 1; k < n; ++k) powers[e].push_back(convolve(powers[e].back(), laws[e]));
  }
  std::vector<std::vector<std::size_t>> ways;
  std::vector<std::size_t> at;
  placements(kinds, n - 1, at, ways);
  // Every loss of a configuration's pair is at most client 1's own largest log-ratio between its
  // two extremes' laws (the sum is its output plus an independent rest, the same function in both
  // worlds: data processing); +∞ where one law has an output the other has not.
  std::vector<std::vector<double>> max_loss(kinds, std::vector<double>(kinds, 0.0));
  for (std::size_t x = 0; x < kinds; ++x)
    for (std::size_t y = 0; y < kinds; ++y) {
      if (x == y) continue;
      double worst = -std::numeric_limits<double>::infinity();
      for (const Atom<Rational>& a : extremes[x].atoms) {
        if (a.prob == 0) continue;
        Rational other(0);
        for (const Atom<Rational>& b : extremes[y].atoms)
          if (b.value == a.value) other += b.prob;
        if (other == 0) {
          worst = std::numeric_limits<double>::infinity();
          break;
        }
        const Interval loss = log(interval_from(Rational(a.prob / other)));
        worst = std::max(worst, std::nextafter(upper_of(loss).convert_to<double>(),
                                               std::numeric_limits<double>::infinity()));
      }
      max_loss[x][y] = worst;
    }
  // The others' sums first (one per way), then the members order by order of client 1's inputs
  // and way by way within an order: members next to each other are alike, which the adaptive
  // program's clusters of consecutive members rely on (adaptive_program.hpp: ProgramLimits::kernels).
  std::vector<WindowPmf> others(ways.size(), point_mass());
  std::vector<std::string> words(ways.size());
  for (std::size_t w = 0; w < ways.size(); ++w)
    for (std::size_t e = 0; e < kinds; ++e) {
      if (ways[w][e] > 0) others[w] = convolve(others[w], powers[e][ways[w][e]]);
      if (ways[w][e] > 0 || extremes[e].attained)  // an unused vertex no input gives goes unsaid
        words[w] += (words[w].empty() ? "" : ", ") + std::to_string(ways[w][e]) + " at " + extremes[e].input;
    }
  std::vector<AttainedLaws> out;
  if (removed) {
    for (std::size_t x = 0; x < kinds; ++x)
      for (std::size_t w = 0; w < ways.size(); ++w) {
        // The sum of n outputs at value v has index (v − n c)/step, of n − 1 outputs (v − (n − 1) c)/step.
        WindowPmf without = others[w];
        without.first -= shift;
        AttainedLaws m;
        append_aligned(convolve(others[w], laws[x]), without, m.laws);
        m.words.client_1 = "client 1 alone at " + extremes[x].input;
        m.words.replaced_by = "client 1 removed";
        m.words.inputs = extremes[x].input + " | removed";
        m.words.others_ldpq = "of the other " + std::to_string(n - 1) + " clients " + words[w];
        m.words.others_pairs = "no pairs";
        m.attained = extremes[x].attained;
        for (std::size_t e = 0; e < kinds; ++e) m.attained = m.attained && (extremes[e].attained || ways[w][e] == 0);
        out.push_back(std::move(m));
      }
    return out;
  }
  for (std::size_t x = 0; x < kinds; ++x)
    for (std::size_t y = 0; y < kinds; ++y) {
      if (x == y) continue;
      for (std::size_t w = 0; w < ways.size(); ++w) {
        AttainedLaws m;
        append_aligned(convolve(others[w], laws[x]), convolve(others[w], laws[y]), m.laws);
        m.words.client_1 = "client 1 alone at " + extremes[x].input;
        m.words.replaced_by = "client 1 at " + extremes[y].input;
        m.words.others_ldpq = "of the other " + std::to_string(n - 1) + " clients " + words[w];
        m.words.others_pairs = "no pairs";
        m.max_loss = std::max(max_loss[x][y], max_loss[y][x]);
        m.attained = extremes[x].attained && extremes[y].attained;
        for (std::size_t e = 0; e < kinds; ++e) m.attained = m.attained && (extremes[e].attained || ways[w][e] == 0);
        out.push_back(std::move(m));
      }
    }
  return out;
}

std::vector<ExtremeLaw> sent_laws(const std::vector<ExtremeLaw>& extremes, const Rational& dropout) {
  std::vector<ExtremeLaw> out = extremes;
  if (dropout > 0)
    for (ExtremeLaw& e : out) {
      for (Atom<Rational>& a : e.atoms) a.prob *= 1 - dropout;
      e.atoms.push_back({Rational(0), dropout});  // nothing sent: 0 added to the sum
    }
  return out;
}

std::optional<std::vector<WindowPmf>> lattice_laws(const std::vector<ExtremeLaw>& extremes, unsigned long n,
                                                   const Rational& dropout) {
  const Rational step = lattice_step(extremes, Rational(0));
  if (step == 0) return std::nullopt;
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  std::vector<WindowPmf> out;
  for (const ExtremeLaw& sent : sent_laws(extremes, dropout)) {
    for (const Atom<Rational>& a : sent.atoms)
      if (abs(Rational(a.value / step)) * Rational(BigInt(n)) > Rational(kMaxLoneLattice)) return std::nullopt;
    out.push_back(on_lattice(sent, Rational(0), step));
  }
  return out;
}

Accountant lone_clients_round(const std::vector<ExtremeLaw>& extremes, unsigned long n, const Rational& center,
                              Neighbour relation, const Rational& dropout, std::uint64_t m, const PldLimits& limits) {
  if (dropout < 0 || dropout >= 1) throw invalid_argument("dropout", to_string(dropout), "in [0, 1)");
  if (n < 2) throw invalid_argument("n", std::to_string(n), "at least 2");
  if (m < 1) throw invalid_argument("m", "0", "at least 1");
  const bool both_orders = relation == Neighbour::replace_one;
  if (dropout == 0) return Accountant::from_family(lone_clients_family(extremes, n, center, relation), both_orders, limits);
  std::optional<Accountant> summed;
  if (relation == Neighbour::remove_one && m == 1) {
    // The server sees the sum alone: each client's law with its dropout folded in is again affine
    // in its input between the extremes, so Lemma 1's reduction holds as without dropout and the
    // family is the round's exact worst case over the adversary's choices. Not for m >= 2: the
    // coordinates share the draw, which no one coordinate's law holds. Past the family's limits
    // (n, the lattice) and for m >= 2, the labelled mixture below, met with the count told.
    try {
      summed = Accountant::from_family(lone_clients_family(sent_laws(extremes, dropout), n, center, relation), false,
                                       limits);
    } catch (const invalid_argument&) {
    }
  }
  // The round's m coordinates share the draw: each population's m coordinates composed, then the
  // labelled mixture, the whole round one use.
  const auto population = [&](const SurvivorPopulation& s) {
    const Accountant one =
        Accountant::from_family(lone_clients_family(extremes, s.counts.ldpq, center, relation), both_orders, limits)
            .bounding();
    return m == 1 ? one : one.coordinates(m);
  };
  Accountant out =
      summed ? *summed : mixed_over_survivors(dropout, lone_survivor_populations(n, dropout), population, m, limits);
  // Under remove one the labelled mixture is +∞ wherever client 1's output alone may show (no
  // other survivor); also above it, an adversary told only how many survived (counted_remove.hpp),
  // from the replace-one family at each population of survivors, the two met.
  if (relation == Neighbour::remove_one && !summed) {
    std::map<unsigned long, UpperPair> replaced;
    for (unsigned long k : counted_populations(n, dropout)) {
      try {
        const Accountant pair =
            Accountant::from_family(lone_clients_family(extremes, k, center, Neighbour::replace_one), true, limits)
                .upper_only()
                .coordinates(m);
        replaced.emplace(k, UpperPair{pair.pessimistic(true), pair.pessimistic(false)});
      } catch (const invalid_argument&) {  // past the family's limits: a smaller population's pair
        break;
      }
    }
    if (!replaced.empty()) out = out.tighter(counted_remove_accountant(replaced, n, dropout, m, limits));
  }
  // Below: one coordinate of each round as run (for m >= 2 the others dropped: a post-processing
  // of the round's release, so still a lower bound the mechanism attains), and for m >= 2 under
  // replace one the whole round with the inputs fixed before the draw.
  const std::vector<AttainedLaws> as_run = lone_dropout_mixtures(extremes, n, relation, dropout, limits);
  if (as_run.empty()) return out;
  std::vector<AttainedPlds> lowers;
  for (const AttainedLaws& l : as_run) lowers.push_back(attained_plds(l, limits));
  if (m == 1) return out.with_attained_plds(lowers).with_adaptive_lower(as_run);
  // Not the adaptive search: it would take the round's m uses as m draws, and m independent draws
  // can release more than the shared one (an output only client 1's survival allows shows with
  // probability 1 − p^m over m draws, 1 − p over one).
  for (AttainedPlds& l : lowers)
    l.words.dropout += "; one coordinate of the round's " + std::to_string(m) + " (the rest dropped)";
  // The whole round as run where the draw is seen and its populations are few.
  const bool seen_whole = relation == Neighbour::replace_one && n <= kMaxSurvivorPopulations;
  if (seen_whole) {
    const std::vector<AttainedPlds> whole = shared_draw_lowers(extremes, n, center, dropout, m, limits);
    lowers.insert(lowers.end(), whole.begin(), whole.end());
  }
  // Else, up to kMaxSummedWork, the whole round as run with every input the same in all m
  // coordinates, seen through the sum over its coordinates (a post-processing): the sum over the
  // survivors of each one's m outputs added, whose law is its extreme's law convolved m times, the
  // draw shared. Under remove one the only lower end that sees the round whole (one coordinate's
  // drops the rest: at n = 6, m = 2, dropout 9/10, e^ε = 3, δ(2) was 1.8·10^−7 against the exact
  // 6.4·10^−6). Also m − 1 of them (the last dropped), where m >= 3: the sum of an even number of
  // ±a outputs hides the count's parity, which each coordinate's sum shows (e^ε = 3, n = 100,
  // sampling 1/10, δ = 10^−5: 10.1 at m = 64 through all of them, 17.3 at m = 63).
  for (const std::uint64_t summed_over : {m, m - 1}) {
    if (seen_whole || summed_over < 2 || summed_over > kMaxSummedCoordinates ||
        summed_over * n > kMaxSummedWork)
      continue;
    std::vector<ExtremeLaw> added;
    for (const ExtremeLaw& e : extremes) added.push_back(summed_coordinates(e, summed_over));
    for (const AttainedLaws& l : lone_dropout_mixtures(added, n, relation, dropout, limits)) {
      AttainedPlds whole = attained_plds(l, limits);
      whole.words.dropout += "; every input the same in the round's " + std::to_string(m) +
                             " coordinates, the release seen through the sum of " +
                             (summed_over == m ? std::string("all of them") : std::to_string(summed_over));
      lowers.push_back(std::move(whole));
    }
  }
  return out.with_attained_plds(lowers);
}

}  // namespace corbin
