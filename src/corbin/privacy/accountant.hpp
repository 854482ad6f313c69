#pragma once
// The certified two-sided accountant: Theorem 3's mechanism (one coordinate of the released sum,
// aggregate_law.hpp) composed k = m·T times (m coordinates, T rounds, each at the proof's
// worst-case configuration), with ε(δ) and δ(ε) bounded on both sides (pld.hpp):
//     eps.lower <= ε(δ) <= eps.upper,   delta.lower <= δ(ε) <= delta.upper,
// where the profile is the worse of the two directions (P against Q and Q against P), as the
// neighbouring relation is symmetric. A bound of +∞ means no finite ε reaches δ (for the lower
// bound: certainly none does).

#include <cstdint>

#include "corbin/privacy/aggregate_law.hpp"
#include "corbin/privacy/pld.hpp"

namespace corbin {

/// Largest number of compositions accepted (the cost grows as log2 k).
constexpr std::uint64_t kMaxCompositions = std::uint64_t(1) << 40;

struct TwoSided {
  double lower, upper;  ///< +∞ allowed; lower <= upper
};

class Accountant {
 public:
  /// One coordinate, one round, of the setting (its law computed and certified here).
  explicit Accountant(const AccountSetting& s, const PldLimits& limits = {});
  /// The mechanism whose neighbouring laws are p and q on one window (tests, other mechanisms).
  Accountant(const WindowPmf& p, const WindowPmf& q, bool disjoint, const PldLimits& limits = {});

  /// This mechanism composed k times with itself (1 <= k <= kMaxCompositions).
  Accountant compose(std::uint64_t k) const;
  std::uint64_t compositions() const { return k_; }
  /// This mechanism followed by `next` (both on the same pair of neighbouring datasets, each
  /// direction composed with the same direction of the other); the grid limits are this one's.
  Accountant then(const Accountant& next) const;

  /// Bounds on ε(δ) for δ in (0, 1).
  TwoSided epsilon(const Rational& delta) const;
  /// Bounds on δ(ε) for ε >= 0.
  TwoSided delta(const Rational& eps) const;
  /// The upper bounds alone (half the work, where the lower ones are not needed).
  double epsilon_upper(const Rational& delta) const;
  double delta_upper(const Rational& eps) const;

 private:
  Accountant() = default;
  PldLimits limits_;
  std::uint64_t k_ = 1;
  UpperPld upper_[2];  ///< [0]: P against Q, [1]: Q against P
  LowerPld lower_[2];
};

}  // namespace corbin
