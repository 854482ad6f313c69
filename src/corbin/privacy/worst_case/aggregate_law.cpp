#include "corbin/privacy/worst_case/aggregate_law.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"

namespace corbin {
namespace {

/// Places `w` (indexed by its own count) on [first, first + size) shifted by `shift`.
WindowPmf place(const WindowPmf& w, std::int64_t first, std::size_t size, std::int64_t shift) {
  WindowPmf out;
  out.first = first;
  out.lo.assign(size, 0.0);
  out.hi.assign(size, 0.0);
  out.tail = w.tail;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::int64_t at = w.first + static_cast<std::int64_t>(i) - shift - first;
    if (at < 0 || at >= static_cast<std::int64_t>(size)) {
      out.tail =
          std::min(1.0, directed::add_up(out.tail, w.hi[i]));  // (the window is a union: unused)
      continue;
    }
    out.lo[static_cast<std::size_t>(at)] = w.lo[i];
    out.hi[static_cast<std::size_t>(at)] = w.hi[i];
  }
  return out;
}

ClientCandidate<Interval> enclose(const ClientCandidate<Rational>& c) {
  ClientCandidate<Interval> out;
  out.role = c.role;
  out.x = c.x;
  out.x2 = c.x2;
  out.partner = c.partner;
  out.terms_with = c.terms_with;
  out.terms_neighbour = c.terms_neighbour;
  for (const Rational& p : c.with) out.with.push_back(interval_from(p));
  for (const Rational& p : c.neighbour) out.neighbour.push_back(interval_from(p));
  return out;
}

}  // namespace

PopulationCounts others_counted(const AccountSetting& s) {
  check_account_setting(s);
  const PopulationCounts counts = counts_of(s);
  const bool paired = s.role != TargetClient::Role::ldpq;
  PopulationCounts others{counts.ldpq - (paired ? 0 : 1), counts.pairs - (paired ? 1 : 0)};
  if (other_pairs(s.bits, s.variant) == OtherPairs::two_ldpq) {  // d = 0: two LDPQ clients each
    others.ldpq += 2 * others.pairs;
    others.pairs = 0;
  }
  return others;
}

AggregateFamily::AggregateFamily(const AccountSetting& s) : s_(s) {
  const PopulationCounts others = others_counted(s);
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  other_ldpq_ = others.ldpq;
  other_pairs_ = others.pairs;
  how_ = corbin::other_pairs(s.bits, s.variant);
  if (s.budget.exact()) {
    // Exact laws: identical candidates are listed once.
    for (const ClientCandidate<Rational>& c :
         client_candidates(s.budget.alpha_exact(), s.bits, s.variant, s.role, s.relation))
      candidates_.push_back(enclose(c));
  } else {
    candidates_ =
        client_candidates(s.budget.alpha_interval(), s.bits, s.variant, s.role, s.relation);
  }
  const Interval alpha = s.budget.alpha_interval();
  q_low_ = q_low(alpha);
  q_high_ = Interval(1 - q_low_);
  // The windows hold probabilities as doubles: an LDPQ output's smaller probability below 1e-280
  // (e^ε above about 10^280) would underflow in their products. For one use, ε(δ) <= ε_p then
  // anyway (client 1's own likelihood ratio).
  if (upper_of(q_low_) < Real(1e-280))
    throw undecidable(
        "at ε_p = " + to_decimal(midpoint_of(s.budget.eps_interval()), 6) +
        " an LDPQ client says the unlikely sign with probability " +
        to_decimal(midpoint_of(q_low_), 3) +
        ", below what the accountant's windows hold (1e-280); the budget itself bounds the "
        "loss: ε(δ) <= ε_p for one use, k·ε_p for k");
  if (s.relation == Neighbour::remove_one) {
    disjoint_ = true;
    if (s.budget.exact()) {  // 2·shift = c/(rα) − 1 must be an even integer
      const Rational half = Rational((s.center / (s.radius * s.budget.alpha_exact()) - 1) / 2);
      if (denominator(half) == 1) {
        disjoint_ = false;
        shift_ = half.convert_to<std::int64_t>();
      }
    }  // α transcendental: c/(rα) is irrational or 0, never odd
  }
}

void append_aligned(const WindowPmf& a, const WindowPmf& b, NeighbouringPmfs& out) {
  const std::int64_t first = std::min(a.first, b.first);
  const std::int64_t last = std::max(a.first + static_cast<std::int64_t>(a.size()),
                                     b.first + static_cast<std::int64_t>(b.size()));
  const std::size_t at = out.p.size(), size = static_cast<std::size_t>(last - first);
  for (auto [from, to] : {std::pair{&a, &out.p}, std::pair{&b, &out.q}}) {
    to->lo.resize(at + size, 0.0);
    to->hi.resize(at + size, 0.0);
    to->tail = std::min(1.0, directed::add_up(to->tail, from->tail));
    for (std::size_t i = 0; i < from->size(); ++i) {
      to->lo[at + static_cast<std::size_t>(from->first - first) + i] = from->lo[i];
      to->hi[at + static_cast<std::size_t>(from->first - first) + i] = from->hi[i];
    }
  }
}

bool AggregateFamily::mirrored() const {
  // Reflecting every output (J -> outputs − J) maps client 1 on LDPQ at c ± r to c ∓ r, the other
  // LDPQ clients' j at c + r to L − j, and a pair's sure "+" to itself; under replace one both
  // worlds have the same outputs, so candidate (x, x2) at j has the profile of (x2, x) at L − j.
  return s_.role == TargetClient::Role::ldpq && s_.relation == Neighbour::replace_one;
}

std::vector<TopRange> AggregateFamily::tops(const PldLimits& limits) const {
  const std::size_t last =
      mirrored() ? other_ldpq_ / 2 + other_ldpq_ % 2 : other_ldpq_;  // j beyond: mirrors
  std::vector<TopRange> out;
  const std::size_t ends = std::max<std::size_t>(1, limits.end_tops),
                    blocks = std::max<std::size_t>(1, limits.blocks);
  if (last + 1 <= std::max(limits.exhaustive_tops, 2 * ends + 1)) {
    for (std::size_t j = 0; j <= last; ++j) out.push_back({j, j});
    return out;
  }
  for (std::size_t j = 0; j < ends; ++j) out.push_back({j, j});
  const std::size_t begin = ends, end = mirrored() ? last : last - ends;  // the middle [begin, end]
  const std::size_t width = (end - begin + 1 + blocks - 1) / blocks;
  for (std::size_t j = begin; j <= end; j += width)
    out.push_back({j, std::min(end, j + width - 1)});
  for (std::size_t j = end + 1; j <= last; ++j) out.push_back({j, j});
  return out;
}

namespace {
void check_precision() {
  if (working_precision_bits() < 128)
    throw std::logic_error(
        "AggregateFamily: the caller holds a working precision of at least 128 bits");
}
}  // namespace

WindowPmf AggregateFamily::others(std::size_t top) const {
  check_precision();
  WindowPmf w = convolve(binomial_pmf(other_ldpq_ - top, q_low_, kWindowTail / 2),
                         binomial_pmf(top, q_high_, kWindowTail / 2));
  w.first += static_cast<std::int64_t>(other_pairs_);
  return w;
}

WindowPmf AggregateFamily::relaxed_others(const TopRange& block, double& slack) const {
  check_precision();
  const std::size_t m = block.last - block.first;
  // λ = 1 − 1/α = 2 q−: the fair-coin weight of every LDPQ output's decomposition.
  const auto [fair, tau] = binomial_lower_quantile(m, Interval(2 * q_low_), kBlockTail / 4);
  slack = tau;
  WindowPmf w = convolve(convolve(binomial_pmf(other_ldpq_ - block.last, q_low_, kBlockTail / 4),
                                  binomial_pmf(block.first, q_high_, kBlockTail / 4)),
                         binomial_pmf(fair, interval_from(Rational(1, 2)), kBlockTail / 4));
  w.first += static_cast<std::int64_t>(other_pairs_);
  return w;
}

NeighbouringPmfs AggregateFamily::laws(const WindowPmf& others, std::size_t c) const {
  const ClientCandidate<Interval>& cand = candidates_.at(c);
  check_precision();
  const WindowPmf with = convolve(others, few_point_pmf(cand.with));
  const WindowPmf neighbour = convolve(others, few_point_pmf(cand.neighbour));
  NeighbouringPmfs out;
  if (disjoint_) {
    out.p = with;
    out.q = neighbour;
    out.disjoint = true;
    return out;
  }
  const std::int64_t shift = s_.relation == Neighbour::remove_one ? shift_ : 0;
  const std::int64_t first = std::min(with.first, neighbour.first - shift);
  const std::int64_t last =
      std::max(with.first + static_cast<std::int64_t>(with.size()),
               neighbour.first - shift + static_cast<std::int64_t>(neighbour.size()));
  const auto size = static_cast<std::size_t>(last - first);
  out.p = place(with, first, size, 0);
  out.q = place(neighbour, first, size, shift);
  return out;
}

double AggregateFamily::max_loss(std::size_t c) const {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (s_.relation != Neighbour::replace_one) return kInf;
  const ClientCandidate<Interval>& cand = candidates_.at(c);
  double out = -kInf;
  for (std::size_t i = 0; i < cand.with.size(); ++i) {
    if (upper_of(cand.with[i]) <= 0) continue;
    if (i >= cand.neighbour.size() || lower_of(cand.neighbour[i]) <= 0) return kInf;
    const Interval loss = log(Interval(cand.with[i] / cand.neighbour[i]));
    out = std::max(out, upper_of(loss).convert_to<double>());
  }
  return std::nextafter(out, kInf);  // the conversion to double rounds to nearest: one step up
}

ConfigurationWords AggregateFamily::describe(const Configuration& c) const {
  return corbin::describe(candidates_.at(c.candidate), c.top, other_ldpq_, other_pairs_, how_,
                          s_.bits, s_.relation);
}

}  // namespace corbin
