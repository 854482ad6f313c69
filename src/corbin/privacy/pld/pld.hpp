#pragma once
// Certified two-sided bounds on the privacy-loss distribution (PLD) of a k-fold composition.
//
// For a pair (P, Q) and Y = ln(P/Q)(X), X ~ P, the privacy profile is
//     δ(ε) = P(Y = ∞) + E_P[(1 − e^(ε − Y))₊],
// and composing independent mechanisms adds their Y. Two discretisations bracket it, each
// justified by data processing, so that both bounds hold exactly (not up to an estimate):
//
// * Pessimistic (UpperPld): losses on the grid (offset + i)·2^scale. An atom at loss y between
//   grid points Y0 < y < Y1 is split into atoms at Y0 and Y1 keeping its P- and Q-mass; merging
//   them back is a post-processing, so the split pair dominates (δ never smaller). This is
//   second order in the step (the split keeps E_P[e^(−Y)]), so a k-fold composition does not
//   pay k·step. On top of it only moves that raise δ are made: every mass rounded upward, mass
//   moved up in loss (a tail to +∞, the lowest tail to the lowest point), and the tail function
//   capped at 1 (a true law's is at most 1).
// * Optimistic (LowerPld): one atom per cell, the merge of the atoms whose loss falls in it.
//   Merging outputs is a post-processing, so the merged pair is dominated (δ never larger).
//   Each atom keeps its P-mass p (rounded down) and its Q-mass q as t = q·e^(cell's grid point)
//   (rounded up, and in range where q itself would underflow); δ = Σ (p − e^ε q)₊ only falls
//   when p falls or q grows, through products, sums and merges alike. Atoms may be dropped
//   (p to 0, kept apart: they never contribute again).
//
// Composition is exponentiation by squaring over such grids, each product a direct convolution
// in `double` with directed rounding (number/directed.hpp), or past `fft_cells` an FFT whose every
// rounding is bounded (fft.hpp: each cell's bound added, or subtracted from a lower bound); the
// grid coarsens by powers of two whenever the distribution needs more than `max_cells` points, so
// k = 10^9 costs about 60 convolutions. Profiles are evaluated in MPFR with directed rounding.

#include <cstdint>
#include <limits>
#include <vector>

#include "corbin/number/interval.hpp"
#include "corbin/privacy/pld/window_pmf.hpp"

namespace corbin {

struct PldLimits {
  std::size_t max_cells =
      2048;  ///< grid points kept per distribution (cost ~ max_cells² per direct product)
  double tail = 1e-80;   ///< P-mass moved to +∞ (pessimistic) or dropped per trim
  unsigned threads = 0;  ///< threads for a family's members (0: the hardware's, at most 8)
  /// A family's values of j (aggregate_law.hpp): all of them one by one up to this many; past it,
  /// this many at each end one by one and the rest in this many blocks.
  std::size_t exhaustive_tops = 2048, end_tops = 64, blocks = 32;
  /// A product whose direct sum takes more than fft_cells² pairs (the positive cells of one factor
  /// times the cells of the other) goes by FFT (fft.hpp), a smaller one directly; SIZE_MAX: always
  /// directly. The default keeps the default grid's products direct (pld.cpp: by_fft); the FFT is
  /// faster from about 1 200 cells (500 for optimistic products).
  std::size_t fft_cells = 2048;
};

struct UpperPld {
  int scale = 0;            ///< step h = 2^scale
  std::int64_t offset = 0;  ///< mass[i] sits at loss (offset + i)·h
  std::vector<double> mass;
  double infinite = 0;  ///< P-mass at loss +∞
};

struct LowerPld {
  int scale = 0;
  std::int64_t offset = 0;
  std::vector<double> p;  ///< lower bounds on the cells' P-mass
  std::vector<double> t;  ///< upper bounds on the cells' Q-mass times e^((offset + i)·h)
  std::vector<double> y;  ///< approximate loss of each cell's atom (decides grouping only)
  double infinite = 0;    ///< lower bound on the P-mass at loss +∞
};

/// The pessimistic and optimistic PLD of P against Q from their certified windows (a window's
/// tail goes to +∞ in the pessimistic one); `disjoint`: P(Y = ∞) = 1.
UpperPld upper_pld(const WindowPmf& p, const WindowPmf& q, bool disjoint, const PldLimits& limits);
LowerPld lower_pld(const WindowPmf& p, const WindowPmf& q, bool disjoint, const PldLimits& limits);

/// The PLD of the composition of the two mechanisms.
UpperPld compose(const UpperPld& a, const UpperPld& b, const PldLimits& limits);
LowerPld compose(const LowerPld& a, const LowerPld& b, const PldLimits& limits);

/// The PLD of a labelled mixture: with probability w the first mechanism runs, else the second,
/// and the release says which (a client's role, drawn by the server independently of the data:
/// run/round.hpp). The label has the same law in both worlds, so it adds no loss, and the losses'
/// law is w·a + (1 − w)·b. Every mass is scaled by w or 1 − w rounded the safe way (up for the
/// pessimistic PLD; down for the optimistic one's P-masses, up for its Q-masses), so the bounds
/// stay bounds. w in [0, 1].
UpperPld mixture(const UpperPld& a, const UpperPld& b, const Rational& w, const PldLimits& limits);
LowerPld mixture(const LowerPld& a, const LowerPld& b, const Rational& w, const PldLimits& limits);

/// `a` with its negligible tails moved pessimistically (to +∞ at the top, up to the lowest point
/// kept at the bottom) and coarsened to at most `limits.max_cells` points.
UpperPld trimmed(UpperPld a, const PldLimits& limits);

/// The k-fold composition (k >= 1), by squaring.
UpperPld power(const UpperPld& a, std::uint64_t k, const PldLimits& limits);
LowerPld power(const LowerPld& a, std::uint64_t k, const PldLimits& limits);
/// The same, and in `shorter` the powers a^(2^i), 2^i < k, that the squaring passes through (no
/// extra work): optimistic PLDs of fewer uses of the same mechanism.
LowerPld power(const LowerPld& a, std::uint64_t k, const PldLimits& limits, std::vector<LowerPld>& shorter);

/// δ(ε) bounded above (pessimistic PLD) and below (optimistic PLD); ε >= 0 in nats.
double delta_upper(const UpperPld& a, const Rational& eps);
double delta_lower(const LowerPld& a, const Rational& eps);

/// ε(δ) = inf{ε >= 0 : δ(ε) <= δ} bounded above and below; +∞ when no ε reaches δ (certainly so
/// for the lower bound).
double eps_upper(const UpperPld& a, const Rational& delta);
double eps_lower(const LowerPld& a, const Rational& delta);

}  // namespace corbin
