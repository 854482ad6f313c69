#pragma once
// Piecewise-constant functions on the integers {0, ..., 2^d − 1}, the shared-vector values of
// CorBinQ read as d-bit numbers (lexicographic order on bit vectors is integer order).
//
// A quantizer's conditional law z -> P(output | Z = z) is a step function with at most three
// pieces (below the threshold, at it, above it). Sums and inner products of such functions give
// marginals and the joint law in O(pieces), independent of d: this is the closed form. Piece
// bounds are big integers, so d = 4096 costs the same handful of operations as d = 5.

#include <utility>
#include <vector>

#include "corbin/number/traits.hpp"

namespace corbin {

template <class T>
class StepFunction {
 public:
  struct Piece {
    BigInt begin, end;  ///< the integers in [begin, end)
    T value;
  };

  /// Appends value on [begin, end); pieces must be added left to right without overlap.
  /// Empty ranges are dropped; uncovered integers have value 0.
  void add(const BigInt& begin, const BigInt& end, const T& value) {
    if (begin < end) pieces_.push_back(Piece{begin, end, value});
  }

  const std::vector<Piece>& pieces() const { return pieces_; }

  /// Σ_z f(z).
  T sum() const {
    T total = 0;
    for (const auto& p : pieces_) total += NumTraits<T>::from(BigInt(p.end - p.begin)) * p.value;
    return total;
  }

  /// Σ_z f(z) g(z), by merging the breakpoints of both.
  friend T inner(const StepFunction& f, const StepFunction& g) {
    T total = 0;
    std::size_t i = 0, j = 0;
    while (i < f.pieces_.size() && j < g.pieces_.size()) {
      const auto& a = f.pieces_[i];
      const auto& b = g.pieces_[j];
      const BigInt lo = a.begin < b.begin ? b.begin : a.begin;
      const BigInt hi = a.end < b.end ? a.end : b.end;
      if (lo < hi) total += NumTraits<T>::from(BigInt(hi - lo)) * a.value * b.value;
      if (a.end < b.end)
        ++i;
      else
        ++j;
    }
    return total;
  }

 private:
  std::vector<Piece> pieces_;
};

}  // namespace corbin
