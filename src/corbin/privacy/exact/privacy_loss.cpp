#include "corbin/privacy/exact/privacy_loss.hpp"

#include <iterator>
#include <string>

#include "corbin/number/error.hpp"

namespace corbin {

PrivacyLoss PrivacyLoss::of(const SumLaw& p, const SumLaw& q) {
  PrivacyLoss loss;
  for (const auto& [x, px] : p) {
    if (px == 0) continue;
    const auto it = q.find(x);
    if (it == q.end() || it->second == 0) {
      loss.infinite_mass += px;
      continue;
    }
    auto& [sp, sq] = loss.atoms[Rational(px / it->second)];
    sp += px;
    sq += it->second;
  }
  return loss;
}

Rational PrivacyLoss::delta_at(const Rational& exp_eps) const {
  Rational total = infinite_mass;
  for (auto it = atoms.upper_bound(exp_eps); it != atoms.end(); ++it)
    total += it->second.first - exp_eps * it->second.second;
  return total;
}

Interval PrivacyLoss::delta_at(const Interval& exp_eps) const {
  Interval total = interval_from(infinite_mass);
  for (const auto& [ratio, masses] : atoms)
    if (certified_less(exp_eps, interval_from(ratio), "a term of the hockey-stick divergence"))
      total = Interval(total + interval_from(masses.first) - exp_eps * interval_from(masses.second));
  return total;
}

PrivacyLoss::AtDelta PrivacyLoss::exp_eps_for(const Rational& delta) const {
  if (infinite_mass > delta) return {true, Rational(0)};
  // Walk the ratios from the largest: on E in [max(next ratio, 1), L] the sum runs over the
  // atoms seen so far, δ(E) = a − E b. δ at the segment's right end is <= delta (checked on the
  // previous segment, or mass_∞ for the first), so a crossing inside is (a − delta)/b.
  Rational a = infinite_mass, b(0);
  for (auto it = atoms.rbegin(); it != atoms.rend() && it->first > 1; ++it) {
    a += it->second.first;
    b += it->second.second;
    const auto next = std::next(it);
    const Rational lower = (next == atoms.rend() || next->first < 1) ? Rational(1) : next->first;
    if (a - lower * b > delta) return {false, Rational((a - delta) / b)};
  }
  return {false, Rational(1)};
}

PrivacyLoss PrivacyLoss::compose(const PrivacyLoss& a, const PrivacyLoss& b) {
  PrivacyLoss out;
  // P-mass of pairs with a finite ratio in both parts is (1 − ∞_a)(1 − ∞_b).
  out.infinite_mass = 1 - (1 - a.infinite_mass) * (1 - b.infinite_mass);
  for (const auto& [la, ma] : a.atoms)
    for (const auto& [lb, mb] : b.atoms) {
      auto& [sp, sq] = out.atoms[Rational(la * lb)];
      sp += ma.first * mb.first;
      sq += ma.second * mb.second;
    }
  return out;
}

PrivacyLoss PrivacyLoss::power(unsigned k) const {
  if (k < 1) throw invalid_argument("compositions", std::to_string(k), "at least 1");
  PrivacyLoss out = *this;
  for (unsigned i = 1; i < k; ++i) out = compose(out, *this);
  return out;
}

PrivacyLoss::AtDelta exp_eps_for_delta(const SumLaw& p, const SumLaw& q, const Rational& delta,
                                       unsigned compositions) {
  const auto forward = PrivacyLoss::of(p, q).power(compositions).exp_eps_for(delta);
  const auto backward = PrivacyLoss::of(q, p).power(compositions).exp_eps_for(delta);
  if (forward.infinite) return forward;
  if (backward.infinite) return backward;
  return forward.exp_eps >= backward.exp_eps ? forward : backward;
}

Rational delta_for_exp_eps(const SumLaw& p, const SumLaw& q, const Rational& exp_eps) {
  const Rational forward = PrivacyLoss::of(p, q).delta_at(exp_eps);
  const Rational backward = PrivacyLoss::of(q, p).delta_at(exp_eps);
  return forward >= backward ? forward : backward;
}

}  // namespace corbin
