#pragma once
// The loss grid shared by pessimistic privacy-loss distributions, and the split of a pair's atoms
// onto it (pld.hpp explains why splitting is pessimistic). Every member of a family is split onto
// one grid (envelope.hpp), so the grid is chosen once from samples of the family, and the
// enclosures of e^(grid point) are computed once per grid in MPFR; an atom's cell and split
// weights then need only directed double arithmetic, not a logarithm per atom.

#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "corbin/privacy/pld/pld.hpp"

namespace corbin {

/// A loss grid: points (offset + i)·2^scale for i in [0, top − offset].
struct LossGrid {
  int scale = 0;
  std::int64_t offset = 0, top = 0;
  std::size_t points() const { return static_cast<std::size_t>(top - offset + 1); }
};

/// A grid covering the losses of the sampled pairs (atoms of P-mass above 1e-40), with about
/// `limits.max_cells` points, one point beyond each end, and `margin` times the span added on
/// each side (for a family's members that the samples stand for).
LossGrid grid_for(const std::vector<std::pair<const WindowPmf*, const WindowPmf*>>& samples,
                  const PldLimits& limits, double margin = 0);

/// The pessimistic PLD of one pair on a given grid (as upper_pld, without MPFR per atom: each
/// atom's cell is found against enclosures of e^(grid point) computed once per grid).
class GridSplitter {
 public:
  explicit GridSplitter(const LossGrid& grid);
  /// Masses on the grid points and at +∞ (a window's tail goes to +∞); `disjoint`: all at +∞.
  UpperPld split(const WindowPmf& p, const WindowPmf& q, bool disjoint) const;
  const LossGrid& grid() const { return grid_; }
  /// Upper bounds on the profile H(e^(y_k)) of grid masses at every grid point, from the top
  /// down by a recurrence of positive terms (no cancellation).
  std::vector<double> profile_up(const UpperPld& a) const;
  /// Upper bounds on the moments Σ_k m_k e^((λ−1) y_k) + m_∞ · tail[o] at every order of
  /// moment_orders() (moments.hpp), `tail[o]` bounding e^((λ−1) L) for the largest loss L any
  /// atom can have; `tail` null: no such bound (+∞ wherever m_∞ > 0).
  std::vector<double> moments_up(const UpperPld& a, const std::vector<double>* tail) const;
  /// e^((λ−1) L) bounded above at every order, for a loss bound L (+∞ stays).
  static std::vector<double> tail_factors(double max_loss);

 private:
  LossGrid grid_;
  std::vector<double> exp_lo_, exp_hi_;  ///< enclosures of e^(y_k)
  mutable std::once_flag moments_once_;
  mutable std::vector<std::vector<double>> exp_order_;  ///< [order][k]: e^((λ−1) y_k) bounded above
  double decay_hi_ = 0;                                 ///< e^(−h) bounded above
  double rise_hi_ = 0;                                  ///< 1 − e^(−h) bounded above
  double rise_lo_ = 0;                                  ///< 1 − e^(−h) bounded below
};

}  // namespace corbin
