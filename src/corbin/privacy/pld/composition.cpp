#include "corbin/privacy/pld/composition.hpp"

#include <vector>

#include "corbin/number/error.hpp"

namespace corbin {
namespace {

/// For one direction, the atoms (P(x), P(x)/Q(x)) as enclosures; false if P > 0 = Q somewhere.
struct Direction {
  std::vector<Interval> mass, ratio, power;  // power = ratio^(λ−1), advanced one order at a time
  bool finite = true;

  Direction(const SumLaw& p, const SumLaw& q) {
    for (const auto& [x, px] : p) {
      if (px == 0) continue;
      const auto it = q.find(x);
      if (it == q.end() || it->second == 0) {
        finite = false;
        return;
      }
      mass.push_back(interval_from(px));
      ratio.push_back(interval_from(Rational(px / it->second)));
      power.push_back(interval_from(Rational(1)));
    }
  }
  /// Enclosure of Σ P^λ Q^(1−λ) = Σ P (P/Q)^(λ−1) at the next order.
  Interval next_sum() {
    Interval sum = interval_from(Rational(0));
    for (std::size_t i = 0; i < mass.size(); ++i) {
      power[i] = Interval(power[i] * ratio[i]);
      sum = Interval(sum + mass[i] * power[i]);
    }
    return sum;
  }
};

}  // namespace

RenyiBound rdp_epsilon(const SumLaw& p, const SumLaw& q, const BigInt& compositions,
                       const Rational& delta, unsigned max_order) {
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  if (max_order < 2) throw invalid_argument("max_order", std::to_string(max_order), "at least 2");
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  Direction forward(p, q), backward(q, p);
  RenyiBound best;
  best.infinite = true;
  if (!forward.finite || !backward.finite) return best;
  const Interval k = interval_from(compositions);
  const Interval log_inv_delta = Interval(-log(interval_from(delta)));
  for (unsigned order = 2; order <= max_order; ++order) {
    const Interval f = forward.next_sum(), b = backward.next_sum();
    const Interval worst = upper_of(f) >= upper_of(b) ? f : b;
    const Interval eps = Interval(k * log(worst) / (order - 1) + log_inv_delta / (order - 1));
    const Real upper = upper_of(eps);
    if (best.infinite || upper < best.eps) best = {false, upper, order};
  }
  return best;
}

}  // namespace corbin
