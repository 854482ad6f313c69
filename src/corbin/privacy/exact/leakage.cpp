#include "corbin/privacy/exact/leakage.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/quantizer/ldpq.hpp"

namespace corbin {
namespace {

void check_leakage_bits(unsigned long bits) {
  if (bits > kMaxLeakageBits)
    throw invalid_argument("bits", std::to_string(bits),
                           "at most " + std::to_string(kMaxLeakageBits) +
                               " for the leakage search (it visits every threshold cell)");
}

/// Inputs in [c − r, c + r] at every cell end of the leader (2^d q(w) integer) and of the
/// follower (2^d (1 − q(w)) integer), the range ends, and midpoints between neighbours.
std::vector<Rational> candidate_inputs(const Rational& alpha, const Rational& c,
                                       const Rational& r, unsigned long bits) {
  const Rational two_d(pow2(bits)), lo = c - r, hi = c + r;
  std::vector<Rational> points{lo, hi};
  // q(w) = k/2^d  <=>  w = c + 2rα(k/2^d − 1/2); the follower's ends are the same set
  // (1 − q = k/2^d <=> q = (2^d − k)/2^d).
  for (BigInt k = 0; k <= pow2(bits); ++k) {
    const Rational w = c + 2 * r * alpha * (Rational(k) / two_d - Rational(1, 2));
    if (w >= lo && w <= hi) points.push_back(w);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  const std::size_t ends = points.size();
  for (std::size_t i = 0; i + 1 < ends; ++i) points.push_back((points[i] + points[i + 1]) / 2);
  return points;
}

/// Tracks, per output, the inputs with the largest and smallest probability.
struct Extremes {
  Rational max, min;
  Rational w_max, w_min;
  bool seen = false;
  void add(const Rational& p, const Rational& w) {
    if (!seen || p > max) max = p, w_max = w;
    if (!seen || p < min) min = p, w_min = w;
    seen = true;
  }
};

/// Folds one output's extremes into the running worst case.
void consider(LeakageResult& worst, bool& any, const Extremes& e, const std::string& output,
              const Rational& partner, std::optional<BigInt> z) {
  if (!e.seen || e.max == 0) return;
  const bool unbounded = e.min == 0;
  const Rational ratio = unbounded ? Rational(0) : Rational(e.max / e.min);
  const bool better = !any || (unbounded && !worst.unbounded) ||
                      (!unbounded && !worst.unbounded && ratio > worst.ratio);
  if (!better) return;
  worst = {unbounded, ratio, output, e.w_max, e.w_min, partner, std::move(z)};
  any = true;
}

}  // namespace

LeakageResult pair_eavesdropper_leakage(const Rational& alpha, const Rational& center,
                                        const Rational& radius, unsigned long bits,
                                        Variant variant) {
  check_radius(radius);
  check_leakage_bits(bits);
  const auto inputs = candidate_inputs(alpha, center, radius, bits);
  LeakageResult worst;
  bool any = false;
  for (const Rational& partner : inputs) {
    std::array<Extremes, 4> outputs;
    for (const Rational& w : inputs) {
      const auto law = corbinq_joint_law(alpha, center, radius, w, partner, bits, variant);
      outputs[0].add(law.pp, w);
      outputs[1].add(law.pm, w);
      outputs[2].add(law.mp, w);
      outputs[3].add(law.mm, w);
    }
    const char* names[] = {"++", "+-", "-+", "--"};
    for (int o = 0; o < 4; ++o) consider(worst, any, outputs[o], names[o], partner, std::nullopt);
    if (worst.unbounded) break;
  }
  return worst;
}

LeakageResult z_holder_leakage(const Rational& alpha, const Rational& center,
                               const Rational& radius, unsigned long bits, Variant variant) {
  check_radius(radius);
  check_leakage_bits(bits);
  const auto inputs = candidate_inputs(alpha, center, radius, bits);
  const BigInt two_d = pow2(bits);
  // The leader's cell for each candidate input: Q1 = + iff Z < a, or Z = a and its coin wins.
  std::vector<Cell<Rational>> cells;
  for (const Rational& w : inputs)
    cells.push_back(split(Rational(Rational(two_d) * ldpq_q(alpha, center, radius, w)), "2^d q1"));
  LeakageResult worst;
  bool any = false;
  for (BigInt z = 0; z < two_d; ++z) {
    Extremes plus, minus;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const Cell<Rational>& u = cells[i];
      const Rational p = z < u.index ? Rational(1)
                         : z == u.index ? tie_probability(u, two_d, variant)
                                        : Rational(0);
      plus.add(p, inputs[i]);
      minus.add(Rational(1 - p), inputs[i]);
    }
    consider(worst, any, plus, "+", Rational(0), z);
    consider(worst, any, minus, "-", Rational(0), z);
    if (worst.unbounded) break;
  }
  return worst;
}

}  // namespace corbin
