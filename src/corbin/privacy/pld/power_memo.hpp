#pragma once
// The powers of one privacy-loss distribution, kept between calls: what a run's ledger asks for
// when its rounds come one at a time (a training loop calling step() and then asking for ε).
//
// power(a, k) (pld.hpp) squares from the lowest bit up: with base_0 = a and base_(j+1) =
// compose(base_j, base_j), it starts from the base of k's lowest set bit and composes each higher
// set bit's base onto what it has (compose(acc, base)). What it has after bit j is power(a, k mod
// 2^(j+1)) by the same products, so with t the top bit of k
//     power(a, k) = base_t                             (k = 2^t),
//     power(a, k) = compose(power(a, k − 2^t), base_t)  (otherwise),
// the same products in the same order: the same doubles. Kept here are the bases and the powers
// asked for so far (up to `keep` of them): after power(a, 1), ..., power(a, k − 1), power(a, k)
// costs one product (k − 2^t < k was asked before), and any k at most popcount(k) − 1 products
// beyond the bases it needs.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/privacy/pld/pld.hpp"

namespace corbin {

template <class Pld>
class PowerMemo {
 public:
  /// The powers of `a` on `limits`' grids; up to `keep` powers besides the bases are kept (each
  /// at most limits.max_cells doubles).
  PowerMemo(Pld a, const PldLimits& limits, std::size_t keep = 1024)
      : limits_(limits), keep_(keep), bases_{std::move(a)} {}

  /// power(a, k, limits) (pld.hpp), the same doubles; k >= 1.
  Pld power(std::uint64_t k) {
    if (k < 1) throw invalid_argument("compositions", std::to_string(k), "at least 1");
    int top = 63;
    while (!(k >> top & 1)) --top;
    while (static_cast<int>(bases_.size()) <= top)
      bases_.push_back(compose(bases_.back(), bases_.back(), limits_));
    const std::uint64_t rest = k - (std::uint64_t(1) << top);
    if (rest == 0) return bases_[top];
    if (const auto it = kept_.find(k); it != kept_.end()) return it->second;
    Pld out = compose(power(rest), bases_[top], limits_);
    if (kept_.size() < keep_) kept_.emplace(k, out);
    return out;
  }

 private:
  PldLimits limits_;
  std::size_t keep_;
  std::vector<Pld> bases_;                      ///< base_j = a^(2^j)
  std::unordered_map<std::uint64_t, Pld> kept_;  ///< power(a, k) for k not a power of two
};

}  // namespace corbin
