#include "corbin/privacy/worst_case/noise_sum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/privacy/pld/threads.hpp"
#include "corbin/privacy/worst_case/counted_remove.hpp"
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
  return Accountant::from_plds(upper, upper, lower, lower, by, Neighbour::replace_one, limits);
}

Extreme far_extreme(const Rational& center, const Rational& radius) {
  return center >= 0 ? Extreme{center + radius, "c + r"} : Extreme{center - radius, "c - r"};
}

RemovePlds remove_plds(const RemovePieces& pieces) {
  return {continuous_plds(pieces.forward), continuous_plds(pieces.backward)};
}

RemovePieces both_orders(const std::function<PiecesOnGrid(bool forward)>& order, const PldLimits& limits) {
  RemovePieces out;
  const unsigned threads = thread_count(2, limits.threads);
  run_on_threads(threads, [&](unsigned t) {
    if (t == 0) out.forward = order(true);
    if (t == 1 || threads == 1) out.backward = order(false);
  });
  return out;
}

Accountant remove_pair_accountant(const RemovePlds& plds, unsigned long n, const std::string& input,
                                  const std::string& noise, const PldLimits& limits) {
  AttainedBy by;
  ConfigurationWords w;
  w.client_1 = "client 1 at " + input;
  w.replaced_by = "client 1 removed";
  w.inputs = input + " | removed";
  w.others_ldpq = "the other " + std::to_string(n - 1) + " clients anywhere (both sums move alike)";
  w.others_pairs = noise + " noise on each client's input; the release is their sum";
  by.parts.push_back(w);
  by.repeats.push_back(1);
  by.reversed.push_back(false);
  return Accountant::from_plds(plds.forward.upper, plds.backward.upper, plds.forward.lower, plds.backward.lower,
                               by, Neighbour::remove_one, limits);
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

namespace {

/// Binomial terms left out of the binned lower end (their mass added to the enclosures).
constexpr double kNegligibleTerm = 1e-30;
/// The binned lower end is computed where its laws' tails (in NoiseLaw::cost's units) times its
/// bins are at most this; past it the round has its upper end alone.
constexpr double kMaxBinnedWork = double(std::size_t(1) << 20);

/// One law of the sum given who survived: `clients` clients' noise about `mean`, with its weight.
struct Component {
  Interval weight, mean;
  unsigned long clients;
};

/// The binned release of the sum alone (the header), both orders' optimistic PLDs, seen as
/// `view` says (one coordinate, or the round's coordinates added).
std::optional<AttainedPlds> binned_remove_lower(const BinnedView& view, const Rational& x1, const Rational& v,
                                               unsigned long n, const Rational& p, const std::string& v_words,
                                               const std::string& x1_words, const std::string& noise,
                                               const PldLimits& limits) {
  const NoiseLaw& law = view.law;
  const Interval pi(interval_from(p)), survive(interval_from(Rational(1 - p)));
  const Interval a1(interval_from(x1) * view.scale), av(interval_from(v) * view.scale);
  const std::size_t bins = std::min<std::size_t>(1024, limits.max_cells);
  // b_k, those kept.
  std::vector<std::pair<unsigned long, Interval>> terms;
  Interval left_out(interval_from(Rational(0)));
  const std::vector<Interval> others = others_surviving(n, p);
  double work = 0;
  for (unsigned long k = 0; k < n; ++k) {
    const Interval& b = others[k];
    if (upper_of(b) < kNegligibleTerm) {
      left_out = Interval(left_out + b);
      continue;
    }
    terms.emplace_back(k, b);
    work += (law.cost(k + 1) + (k > 0 ? law.cost(k) : 0)) * static_cast<double>(bins);
    if (work > kMaxBinnedWork) return std::nullopt;
  }
  // With client 1 (k others surviving): k + 1 clients' noise about x1 + kv; without client 1,
  // or client 1 dropped: k clients' about kv, k >= 1; k = 0 the atom at 0.
  std::vector<Component> with, without;
  Interval atom_without(interval_from(Rational(0)));
  for (const auto& [k, weight] : terms) {
    const Interval kk(interval_from(Rational(BigInt(k))));
    with.push_back({weight, Interval(a1 + kk * av), k + 1});
    if (k == 0)
      atom_without = weight;
    else
      without.push_back({weight, Interval(kk * av), k});
  }
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto* list : {&with, &without})
    for (const Component& c : *list) {
      const double mean = midpoint_of(c.mean).convert_to<double>(), reach = law.reach(c.clients);
      lo = std::min(lo, mean - reach);
      hi = std::max(hi, mean + reach);
    }
  // The bins' edges, ∞ at both ends.
  std::vector<std::optional<Rational>> edges{std::nullopt};
  for (std::size_t i = 0; i <= bins; ++i)
    edges.emplace_back(to_rational(lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(bins)));
  edges.emplace_back(std::nullopt);
  const auto tails = [&](const std::vector<Component>& list, std::size_t e) {
    std::vector<Tail> out;
    for (const Component& c : list)
      out.push_back(edges[e] ? law.tail(c.clients, Interval(interval_from(*edges[e]) - c.mean))
                             : Tail{e + 1 == edges.size(), interval_from(Rational(0))});
    return out;
  };
  // Each bin's masses in the world with client 1 (P) and without (Q): P = (1 − p)·Σ b_k
  // (x1 + kv + k + 1 clients' noise) + p·(Σ_(k>=1) b_k (kv + k clients' noise) + b_0·atom),
  // Q = Σ_(k>=1) b_k (kv + k clients' noise) + b_0·atom.
  const Interval slack(interval_hull(Real(0), upper_of(left_out)));  // the terms left out
  std::vector<std::pair<Interval, Interval>> masses;                 // P, Q
  std::vector<Tail> with_before = tails(with, 0), without_before = tails(without, 0);
  for (std::size_t e = 1; e < edges.size(); ++e) {
    const std::vector<Tail> with_now = tails(with, e), without_now = tails(without, e);
    Interval m_with(interval_from(Rational(0))), m_without(interval_from(Rational(0)));
    for (std::size_t i = 0; i < with.size(); ++i)
      m_with = Interval(m_with + with[i].weight * mass_between(with_before[i], with_now[i]));
    for (std::size_t i = 0; i < without.size(); ++i)
      m_without = Interval(m_without + without[i].weight * mass_between(without_before[i], without_now[i]));
    masses.emplace_back(Interval(survive * m_with + pi * m_without + slack), Interval(m_without + slack));
    with_before = with_now;
    without_before = without_now;
  }
  // The atom at 0: p·b_0 against b_0, exactly in ratio p.
  masses.emplace_back(Interval(pi * atom_without + slack), Interval(atom_without + slack));

  const auto plds = [&](bool forward) {
    std::vector<LossPiece> pieces;
    double low = std::numeric_limits<double>::infinity(), high = -low;
    const Real infinity(std::numeric_limits<double>::infinity());
    for (const auto& [mp, mq] : masses) {
      const Interval& a = forward ? mp : mq;
      const Interval& c = forward ? mq : mp;
      const Real a_lo = std::max(Real(0), Real(lower_of(a))), c_lo = std::max(Real(0), Real(lower_of(c)));
      if (!(upper_of(a) > 0)) continue;
      // The bin's loss enclosed (only its lower end places it: the optimistic PLD alone is kept).
      const Real l_lo = a_lo > 0 ? lower_of(Interval(log(interval_hull(a_lo, a_lo)) - log(Interval(upper_of(c)))))
                                 : Real(-infinity);
      const Real l_hi = c_lo > 0 ? upper_of(Interval(log(Interval(upper_of(a))) - log(interval_hull(c_lo, c_lo))))
                                 : infinity;
      pieces.push_back({l_lo, l_hi, a, c});
      if (isfinite(l_lo) && a_lo > 1e-300) {
        low = std::min(low, l_lo.convert_to<double>());
        high = std::max(high, l_lo.convert_to<double>());
      }
    }
    if (!(low <= high)) low = high = 0;
    const LossSpan grid = loss_span(low, high, 1e-12, limits.max_cells);
    return continuous_plds(pieces, grid.scale, grid.offset, grid.top).lower;
  };
  ConfigurationWords w;
  w.client_1 = "client 1 at " + x1_words;
  w.replaced_by = "client 1 removed";
  w.inputs = x1_words + " | removed";
  w.others_ldpq = "the other " + std::to_string(n - 1) + " clients at " + v_words;
  w.others_pairs = noise + " noise on each survivor's input; the sum seen through " + std::to_string(bins) +
                   " bins of its value" +
                   (view.summed == 1 ? std::string(" (one coordinate)")
                                     : ", added over the round's " + std::to_string(view.summed) + " coordinates");
  w.dropout = dropout_said(p, Neighbour::remove_one);
  return AttainedPlds{plds(true), plds(false), w};
}

}  // namespace

RemovePieces counted_remove_pieces(const std::function<PiecesOnGrid(unsigned long)>& shift, unsigned long n,
                                   const Rational& p, const PldLimits& limits) {
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  if (n < 2) throw invalid_argument("n", std::to_string(n), "at least 2");
  // b_k, k others surviving, q = 1 − p; the labels 1 <= k <= n − 1 (counted_remove.hpp), the
  // shift pair cut for those not light.
  const Interval pi(interval_from(p)), qi(interval_from(Rational(1 - p)));
  const std::vector<Interval> b = others_surviving(n, p);
  const std::vector<CountedLabel> labels = counted_labels(b, p);
  std::vector<std::optional<PiecesOnGrid>> cut(labels.size());
  const unsigned threads = thread_count(labels.size(), limits.threads);
  run_on_threads(threads, [&](unsigned t) {
    for (std::size_t i = t; i < labels.size(); i += threads)
      if (!labels[i].light) cut[i] = shift(labels[i].k);
  });
  const Real infinity(std::numeric_limits<double>::infinity());
  const auto order = [&](bool forward) {
    std::vector<LossPiece> pieces;
    const Interval none(interval_from(Rational(0)));
    // No survivor: the empty sum in both worlds, p·b_0 against b_0, a loss of ln p.
    const Interval log_p(log(pi));
    double lo = forward ? to_double_down(lower_of(log_p)) : to_double_down(lower_of(Interval(-log_p)));
    double hi = lo;
    if (forward)
      pieces.push_back({lower_of(log_p), upper_of(log_p), Interval(pi * b[0]), b[0]});
    else
      pieces.push_back({lower_of(Interval(-log_p)), upper_of(Interval(-log_p)), b[0], Interval(pi * b[0])});
    // Everyone survived: with client 1 only (q·b_(n − 1)), +∞ one way, no mass the other.
    if (forward) pieces.push_back({infinity, infinity, Interval(qi * b[n - 1]), none});
    // The light labels: their whole weight at +∞ in the first law (only raises δ).
    for (std::size_t i = 0; i < labels.size(); ++i) {
      const CountedLabel& l = labels[i];
      if (cut[i]) {
        const MappedPieces mapped = weighted_mixture(*cut[i], l.a, l.c, l.b, forward);
        pieces.insert(pieces.end(), mapped.pieces.begin(), mapped.pieces.end());
        if (std::isfinite(mapped.lo)) lo = std::min(lo, mapped.lo);
        if (std::isfinite(mapped.hi)) hi = std::max(hi, mapped.hi);
        continue;
      }
      const Interval with(l.a + l.c);
      pieces.push_back({Real(-infinity), infinity, forward ? with : l.b, forward ? l.b : with});
    }
    return PiecesOnGrid{std::move(pieces), loss_span(lo, hi, 1e-12, limits.max_cells)};
  };
  return {order(true), order(false)};
}

Accountant noise_remove_dropout_accountant(const std::function<RemovePieces(unsigned long)>& pieces,
                                           const std::function<PiecesOnGrid(unsigned long)>& shift,
                                           const std::vector<BinnedView>& views, const Rational& center,
                                           const Rational& radius, unsigned long n, const Rational& p,
                                           std::uint64_t m, const std::string& noise, const PldLimits& limits) {
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  if (n < 2) throw invalid_argument("n", std::to_string(n), "at least 2");
  if (m < 1) throw invalid_argument("m", "0", "at least 1");
  if (radius <= 0) throw invalid_argument("radius", to_string(radius), "positive");
  const auto [x1, x1_words] = far_extreme(center, radius);
  // Above: a mixture over who survived (the header), each population's pieces built on threads
  // of their own.
  const std::vector<SurvivorPopulation> parts = lone_survivor_populations(n, p);
  std::vector<unsigned long> sizes;  // the survivors, client 1 among them
  for (const SurvivorPopulation& s : parts)
    if (s.counts.ldpq >= 2) sizes.push_back(s.counts.ldpq);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  std::vector<RemovePieces> cut(sizes.size());
  const unsigned threads = thread_count(sizes.size(), limits.threads);
  run_on_threads(threads, [&](unsigned t) {
    for (std::size_t i = t; i < sizes.size(); i += threads) cut[i] = pieces(sizes[i]);
  });
  // One coordinate: the others' survival told, client 1's own coin not: given k others, client 1
  // is in the sum with probability w = 1 − p, so the pair is (w·P + (1 − w)·Q, Q) of the remove
  // pair (P, Q) at k + 1 clients, its pieces' losses mapped (continuous.hpp: mixed_with_second);
  // no other survivor: client 1's noisy input (w) or 0 against 0, +∞ one way and ln(1/p) the
  // other. With m >= 2 coordinates the coin is shared by all m, so client 1's coin is told too:
  // the pair at k + 1 clients m times, or its noisy inputs against 0 (+∞ both ways).
  const Rational w = 1 - p;
  std::map<unsigned long, Accountant> built;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const RemovePieces mixed =
        m == 1 ? RemovePieces{mixed_with_second(cut[i].forward, w, true, limits.max_cells),
                              mixed_with_second(cut[i].backward, w, false, limits.max_cells)}
               : cut[i];
    const Accountant one = remove_pair_accountant(remove_plds(mixed), sizes[i], x1_words, noise, limits).upper_only();
    built.emplace(sizes[i], m == 1 ? one : one.coordinates(m));
  }
  const Accountant alone =
      m == 1 ? Accountant::from_laws({w, p}, {Rational(0), Rational(1)}, limits).upper_only()
             : Accountant::from_laws({Rational(1), Rational(0)}, {Rational(0), Rational(1)}, limits)
                   .upper_only()
                   .coordinates(m);
  built.emplace(1, alone);
  // The others' survival weighs 1 in all (client 1's coin inside each part), or 1 − p beside
  // client 1 dropped (silent).
  std::vector<SurvivorPopulation> told = parts;
  if (m == 1)
    for (SurvivorPopulation& s : told) s.weight /= w;
  const Accountant told_upper = mixed_over_survivors(
      m == 1 ? Rational(0) : p, told, [&](const SurvivorPopulation& s) { return built.at(s.counts.ldpq); }, m,
      limits);
  // Also above: an adversary told how many clients survived, not who (counted_remove_pieces);
  // the two pairs' meet is dominated by both (pld/meet.hpp).
  Accountant upper = told_upper;
  if (shift) {
    const RemovePlds counted = remove_plds(counted_remove_pieces(shift, n, p, limits));
    upper = told_upper.upper_only().tighter(Accountant::from_plds(counted.forward.upper, counted.backward.upper,
                                                                  counted.forward.lower, counted.backward.lower,
                                                                  AttainedBy{}, Neighbour::remove_one, limits, m)
                                                .upper_only());
  }
  // Below: the sum alone, through bins, the others at each input in turn, in each view.
  std::vector<std::pair<Rational, std::string>> others{{Rational(center - radius), "c - r"},
                                                       {Rational(center + radius), "c + r"}};
  if (center - radius < 0 && center + radius > 0) others.emplace_back(Rational(0), "0");
  const std::size_t tries = others.size() * views.size();
  std::vector<std::optional<AttainedPlds>> found(tries);
  const unsigned workers = thread_count(tries, limits.threads);
  run_on_threads(workers, [&](unsigned t) {
    for (std::size_t i = t; i < tries; i += workers) {
      const auto& [v, words] = others[i % others.size()];
      found[i] = binned_remove_lower(views[i / others.size()], x1, v, n, p, words, x1_words, noise, limits);
    }
  });
  std::vector<AttainedPlds> lowers;
  for (const auto& lower : found)
    if (lower) lowers.push_back(*lower);
  return lowers.empty() ? upper : upper.with_attained_plds(lowers);
}

}  // namespace corbin
