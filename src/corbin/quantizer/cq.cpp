#include "corbin/quantizer/cq.hpp"

#include <algorithm>
#include <string>

#include "corbin/number/error.hpp"

namespace corbin {

std::vector<std::size_t> cq_shifts(const Key& key, std::uint32_t stream, std::size_t count, std::size_t k) {
  if (k == 0 || k > (std::uint64_t{1} << 32)) throw invalid_argument("k", std::to_string(k), "in [1, 2^32]");
  const std::uint64_t limit = (std::uint64_t{1} << 32) / k * k;  // accept words below a multiple of k
  std::vector<std::size_t> out(count);
  std::vector<std::uint32_t> words(count + 64);
  std::uint64_t chunk = 0;
  std::size_t filled = 0;
  while (filled < count) {
    keystream(key, stream, chunk++, reinterpret_cast<std::uint8_t*>(words.data()), words.size() * 4);
    for (std::size_t w = 0; w < words.size() && filled < count; ++w)
      if (words[w] < limit) out[filled++] = words[w] % k;
  }
  return out;
}

CqMoments cq_error_moments(const std::vector<double>& y) {
  const std::size_t k = y.size();
  if (k == 0) return {};
  double y_sum = 0;
  for (double v : y) y_sum += v;
  double d2 = 0, d4 = 0;
  for (std::size_t s = 0; s < k; ++s) {
    double mean = 0, k2 = 0, k3 = 0, k4 = 0;
    for (std::size_t r = 0; r < k; ++r) {
      const double p = std::clamp(static_cast<double>(k) * y[r] - static_cast<double>((s + r) % k), 0.0, 1.0);
      const double v = p * (1 - p);
      mean += p;
      k2 += v;
      k3 += v * (1 - 2 * p);
      k4 += v * (1 - 6 * v);
    }
    const double a = mean - y_sum;
    d2 += k2 + a * a;
    d4 += k4 + 3 * k2 * k2 + 4 * a * k3 + 6 * a * a * k2 + a * a * a * a;
  }
  return {d2 / static_cast<double>(k), d4 / static_cast<double>(k)};
}

Rational cq_random_order_m2(const std::vector<Rational>& y) {
  const std::size_t k = y.size();
  if (k == 0) throw invalid_argument("y", "empty", "at least one client's position");
  for (const Rational& v : y)
    if (v < 0 || v > 1) throw invalid_argument("y", to_string(v), "in [0, 1]");
  if (k == 1) return Rational(y[0] * (1 - y[0]));
  const Rational kk{BigInt(k)};
  // Per slot s: how many f_i are 1 there (⌊k y_i⌋ > s), and the fractional parts sitting at s.
  std::vector<std::size_t> whole_at(k + 1, 0);  // clients with ⌊k y_i⌋ = m
  std::vector<Rational> part(k, Rational(0)), part_squares(k, Rational(0));
  Rational y_sum(0), y_squares(0);
  for (const Rational& v : y) {
    y_sum += v;
    y_squares += v * v;
    const Rational scaled = kk * v;
    const std::size_t m = floor_of(scaled).convert_to<std::size_t>();
    ++whole_at[m];
    if (m < k) {
      const Rational fraction = scaled - Rational(BigInt(m));
      part[m] += fraction;
      part_squares[m] += fraction * fraction;
    }
  }
  Rational f_squares(0), g_sum(0);
  std::size_t above = 0;  // clients with ⌊k y_i⌋ > s, counted down from s = k − 1
  for (std::size_t s = k; s-- > 0;) {
    above += whole_at[s + 1];
    const Rational ones{BigInt(above)};
    const Rational f = ones + part[s];
    f_squares += f * f;
    g_sum += ones + part_squares[s];
  }
  return Rational(y_sum - y_sum * y_sum +
                  (kk * kk * (y_sum * y_sum - y_squares) - f_squares + g_sum) / (kk * (kk - 1)));
}

}  // namespace corbin
