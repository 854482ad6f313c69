#pragma once
// PLDs of a pair of continuous laws from a partition of the outputs into pieces: each piece's
// losses enclosed in [lo, hi] and its P- and Q-masses enclosed (worst_case/gaussian_pld,
// worst_case/laplace_sum). Both discretisations are pld.hpp's:
//
// * pessimistic: a piece is split onto the grid points y_a <= lo and y_b >= hi around its losses,
//   keeping its P-mass and its Q-mass (= E_P[e^(−L)] there). Every output of the piece could be
//   split so, and merging the splits back is a post-processing, so the split dominates the piece.
//   Each part is taken at an upper end; a piece reaching above the grid goes to +∞ whole, one
//   below it is split as if its losses started at the lowest point (moving mass up in loss).
// * optimistic: a piece is merged (a post-processing) into the cell of the grid point at or below
//   its losses (the lowest cell for a piece below the grid), its P-mass rounded down and its
//   Q-mass up.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "corbin/number/interval.hpp"
#include "corbin/privacy/pld/pld.hpp"

namespace corbin {

/// The grid point k·2^scale, exactly.
Rational grid_point(int scale, std::int64_t k);

/// A grid of losses: points k·2^scale, offset <= k <= top.
struct LossSpan {
  int scale;
  std::int64_t offset, top;
  double step() const;
};
/// About max_cells (>= 16) points from at or below lo to at or above hi, the step a power of 2
/// from a span of at least min_span.
LossSpan loss_span(double lo, double hi, double min_span, std::size_t max_cells);

/// A distribution function at a point, kept as a small number: the upper tail P(X > x) at or
/// above the law's centre, the lower tail P(X <= x) below it, so that the mass between two
/// points is a difference of two small numbers, not of two near 1 (which would lose a tail's mass
/// to cancellation).
struct Tail {
  bool upper = true;
  Interval value;
  Interval below() const { return upper ? Interval(1 - value) : value; }
  Interval above() const { return upper ? value : Interval(1 - value); }
};
/// P(a < X <= b) for a < b, from their tails.
Interval mass_between(const Tail& a, const Tail& b);

/// Adds to `upper` a piece whose losses all lie in [y_a, y_b] (grid indices offset <= a <= b),
/// of P-mass p and Q-mass q, split onto y_a and y_b keeping both masses, each part rounded up;
/// e_a and e_b enclose e^(−y_a) and e^(−y_b). a == b puts the whole P-mass at y_a.
void add_split(UpperPld& upper, std::int64_t a, std::int64_t b, const Interval& p, const Interval& q,
               const Interval& e_a, const Interval& e_b);

/// One piece of the outputs: its losses in [lo, hi] (lo <= hi; ±∞ allowed), its masses enclosed.
struct LossPiece {
  Real lo, hi;
  Interval p, q;
};

/// The pessimistic and optimistic PLDs on the grid (offset + i)·2^scale, i <= top − offset, of a
/// pair whose outputs the pieces partition.
struct ContinuousPlds {
  UpperPld upper;
  LowerPld lower;
};
ContinuousPlds continuous_plds(const std::vector<LossPiece>& pieces, int scale, std::int64_t offset,
                               std::int64_t top);

/// A pair's outputs cut into pieces, and the grid its PLDs are made on.
struct PiecesOnGrid {
  std::vector<LossPiece> pieces;
  LossSpan grid;
};
ContinuousPlds continuous_plds(const PiecesOnGrid& cut);

/// Pieces whose losses were mapped, and the image of the old grid's ends.
struct MappedPieces {
  std::vector<LossPiece> pieces;
  double lo, hi;
};
/// The pair of measures (x·P + y·Q, z·Q) (`forward`) or (z·Q, x·P + y·Q) from the pieces of
/// (P, Q) (losses ln p/q, masses P then Q): the same partition, each piece's loss mapped by
/// ℓ ↦ ln((x·e^ℓ + y)/z) (negated backward), which rises, so its ends' images enclose the
/// piece's losses. x, y >= 0 with x + y > 0, z > 0, enclosed (a dropout round told the number of
/// survivors: noise_sum.hpp). Raises invalid_argument(weights) else.
MappedPieces weighted_mixture(const PiecesOnGrid& cut, const Interval& x, const Interval& y, const Interval& z,
                              bool forward);

/// The pair (w·P + (1 − w)·Q, Q) from the pieces of (P, Q) (`forward`: losses ln p/q, masses P
/// then Q), or the pair (Q, w·P + (1 − w)·Q) from those of (Q, P): the same partition, each
/// piece's loss mapped by ℓ ↦ ln(w·e^ℓ + 1 − w) (or λ ↦ −ln(w·e^(−λ) + 1 − w)), which rises, so
/// its ends' images enclose the piece's losses; on a new grid of about max_cells points over the
/// image of the old one. w in (0, 1]: client 1 present with probability w in the world with it
/// (a dropout round given the others' survival: noise_sum.hpp).
PiecesOnGrid mixed_with_second(const PiecesOnGrid& cut, const Rational& w, bool forward, std::size_t max_cells);

}  // namespace corbin
