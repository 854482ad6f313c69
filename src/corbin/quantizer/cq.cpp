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

template <class T>
CqMomentsOf<T> cq_error_moments(const std::vector<T>& y) {
  const std::size_t k = y.size();
  if (k == 0) return {};
  const T kk = static_cast<long>(k), zero = 0, one = 1;
  T y_sum = 0;
  for (const T& v : y) y_sum += v;
  T d2 = 0, d4 = 0;
  for (std::size_t s = 0; s < k; ++s) {
    T mean = 0, k2 = 0, k3 = 0, k4 = 0;
    for (std::size_t r = 0; r < k; ++r) {
      const T p = std::clamp(T(kk * y[r] - T(static_cast<long>((s + r) % k))), zero, one);
      const T v = p * (1 - p);
      mean += p;
      k2 += v;
      k3 += v * (1 - 2 * p);
      k4 += v * (1 - 6 * v);
    }
    const T a = mean - y_sum;
    d2 += k2 + a * a;
    d4 += k4 + 3 * k2 * k2 + 4 * a * k3 + 6 * a * a * k2 + a * a * a * a;
  }
  return {T(d2 / kk), T(d4 / kk)};
}
template CqMomentsOf<double> cq_error_moments(const std::vector<double>&);
template CqMomentsOf<Rational> cq_error_moments(const std::vector<Rational>&);

}  // namespace corbin
