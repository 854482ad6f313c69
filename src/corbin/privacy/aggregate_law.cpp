#include "corbin/privacy/aggregate_law.hpp"

#include <algorithm>
#include <optional>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/quantizer/ldpq.hpp"

namespace corbin {
namespace {

Interval enclose(const Rational& x) { return interval_from(x); }
Interval enclose(const Interval& x) { return x; }

/// The parts of the two worlds' laws, as enclosures.
struct Parts {
  Interval q_other;                      ///< P(+) of another LDPQ client (at c − r)
  Interval a0, a1, a2;                   ///< another pair's count law
  std::vector<Interval> with, neighbour;  ///< client 1's term in each world (count law)
  bool neighbour_present = true;          ///< false: remove-one of an LDPQ client 1
};

template <class T>
Parts parts_of(const AccountSetting& s, const T& alpha) {
  const Rational lo = s.center - s.radius, hi = s.center + s.radius;
  Parts out;
  out.q_other = enclose(ldpq_q(alpha, s.center, s.radius, lo));
  const JointLaw<T> pair = corbinq_joint_law(alpha, s.center, s.radius, lo, hi, s.bits, s.variant);
  out.a0 = enclose(pair.mm);
  out.a1 = enclose(T(pair.pm + pair.mp));
  out.a2 = enclose(pair.pp);
  auto bernoulli = [](const T& plus) { return std::vector<Interval>{enclose(T(1 - plus)), enclose(plus)}; };
  auto count = [](const JointLaw<T>& law) {
    return std::vector<Interval>{enclose(law.mm), enclose(T(law.pm + law.mp)), enclose(law.pp)};
  };
  if (s.role == TargetClient::Role::ldpq) {
    out.with = bernoulli(ldpq_q(alpha, s.center, s.radius, hi));
    if (s.relation == Neighbour::replace_one) out.neighbour = bernoulli(ldpq_q(alpha, s.center, s.radius, lo));
    else out.neighbour_present = false;
  } else {  // client 1 leads a pair at c + r with its partner at c − r (the proof's configuration)
    const JointLaw<T> with = corbinq_joint_law(alpha, s.center, s.radius, hi, lo, s.bits, s.variant);
    out.with = count(with);
    if (s.relation == Neighbour::replace_one)
      out.neighbour = count(corbinq_joint_law(alpha, s.center, s.radius, lo, lo, s.bits, s.variant));
    else
      out.neighbour = bernoulli(with.q2_plus());  // Eq. (1): the partner's output stays
  }
  return out;
}

/// Binomial(P, p1) + Binomial(P, p2) for P pairs with count law (a0, a1, a2).
WindowPmf pairs_pmf(std::uint64_t pairs, const Interval& a1, const Interval& a2) {
  if (pairs == 0) return few_point_pmf({interval_from(Rational(1))});
  const Interval mu = Interval(a1 + 2 * a2);
  if (upper_of(a2) == 0) return binomial_pmf(pairs, mu);  // a2 = 0: one factor is the constant 1
  const Interval disc = Interval(mu * mu - 4 * a2);
  if (lower_of(disc) < 0)
    throw undecidable("the pair's count law a0 + a1 z + a2 z² has roots not certified real "
                      "(a1² − 4 a0 a2 is not certified >= 0 at " +
                      std::to_string(working_precision_bits()) + " bits)");
  const Interval root = sqrt(disc);
  return convolve(binomial_pmf(pairs, Interval((mu - root) / 2), kWindowTail / 2),
                  binomial_pmf(pairs, Interval((mu + root) / 2), kWindowTail / 2));
}

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
      out.tail = std::min(1.0, directed::add_up(out.tail, w.hi[i]));  // (the window is a union: unused)
      continue;
    }
    out.lo[static_cast<std::size_t>(at)] = w.lo[i];
    out.hi[static_cast<std::size_t>(at)] = w.hi[i];
  }
  return out;
}

}  // namespace

void check_account_setting(const AccountSetting& s) {
  if (s.n < 2) throw invalid_argument("n", std::to_string(s.n), "at least 2");
  if (s.n > kMaxAccountClients)
    throw invalid_argument("n", std::to_string(s.n), "at most " + std::to_string(kMaxAccountClients));
  if (s.gamma < 0 || s.gamma > 1) throw invalid_argument("gamma", to_string(s.gamma), "in [0, 1]");
  check_radius(s.radius);
  if (s.counts) {
    const std::uint64_t clients = s.counts->ldpq + 2 * std::uint64_t(s.counts->pairs);
    if (clients < 1 || clients > kMaxAccountClients)
      throw invalid_argument("counts", std::to_string(s.counts->ldpq) + " LDPQ clients and " +
                                           std::to_string(s.counts->pairs) + " pairs",
                             "between 1 and " + std::to_string(kMaxAccountClients) + " clients");
  }
  check_role_present(counts_of(s), s.role, s.gamma);
}

PopulationCounts counts_of(const AccountSetting& s) {
  return s.counts ? *s.counts : population_counts(s.n, s.gamma);
}

NeighbouringPmfs aggregate_laws(const AccountSetting& s) {
  check_account_setting(s);
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  const PopulationCounts counts = counts_of(s);
  const bool paired = s.role != TargetClient::Role::ldpq;
  const Parts parts = s.budget.exact() ? parts_of(s, s.budget.alpha_exact())
                                       : parts_of(s, s.budget.alpha_interval());
  const std::uint64_t other_ldpq = counts.ldpq - (paired ? 0 : 1);
  const std::uint64_t other_pairs = counts.pairs - (paired ? 1 : 0);
  const WindowPmf others = convolve(binomial_pmf(other_ldpq, parts.q_other, kWindowTail / 2),
                                    pairs_pmf(other_pairs, parts.a1, parts.a2));
  NeighbouringPmfs out;
  out.ldpq_clients = counts.ldpq;
  out.pairs = counts.pairs;
  const WindowPmf with = convolve(others, few_point_pmf(parts.with));
  const WindowPmf neighbour =
      parts.neighbour_present ? convolve(others, few_point_pmf(parts.neighbour)) : others;
  // q's count j' sits at p's count j = j' − shift.
  std::int64_t shift = 0;
  if (s.relation == Neighbour::remove_one) {
    std::optional<std::int64_t> meet;
    if (s.budget.exact()) {  // 2 shift = c/(rα) − 1 must be an even integer
      const Rational half = Rational((s.center / (s.radius * s.budget.alpha_exact()) - 1) / 2);
      if (denominator(half) == 1) meet = half.convert_to<std::int64_t>();
    }  // α transcendental: c/(rα) is irrational or 0, never odd
    if (!meet) {
      out.p = with;
      out.q = neighbour;
      out.disjoint = true;
      return out;
    }
    shift = *meet;
  }
  const std::int64_t first = std::min(with.first, neighbour.first - shift);
  const std::int64_t last = std::max(with.first + static_cast<std::int64_t>(with.size()),
                                     neighbour.first - shift + static_cast<std::int64_t>(neighbour.size()));
  const auto size = static_cast<std::size_t>(last - first);
  out.p = place(with, first, size, 0);
  out.q = place(neighbour, first, size, shift);
  return out;
}

}  // namespace corbin
