#pragma once
// One pessimistic privacy-loss distribution for a whole family of pairs: the worst case over the
// adversary's configurations (privacy/worst_case/neighbours.hpp), as a single pair that dominates every
// member at every e^ε, so that composing it bounds any sequence of members, chosen freely, even
// adaptively, per coordinate and per round.
//
// Why it composes. Write the profile of a measure m on losses (mass m_i at y_i, m_∞ at +∞) as
//     H_m(γ) = m_∞ + Σ_i m_i (1 − γ e^(−y_i))₊,  γ = e^ε >= 0.
// For a true pair it is the hockey-stick divergence H_γ(P‖Q). Let E(γ) be the supremum of the
// members' profiles (convex, E(0) = 1). If H_m >= E for every γ >= 0, then composing m with any
// dominating m' bounds the composition of members: after the first mechanism's output x, the rest
// contributes at most H_{m'}(γ Q(x)/P(x)), and Σ_x P(x) φ(Q(x)/P(x)) for a convex non-increasing
// φ >= 0 is φ(∞) + ∫ s H_γ'(1/s) dν(s) (φ(t) = φ(∞) + ∫ (s − t)₊ dν(s)), which is largest when
// H is: so the member's sum is at most m's (Zhu, Dong, Wang 2022, dominating pairs). Masses may
// exceed a probability's total; a larger mass only raises every bound.
//
// Construction ("connect the dots", Doroshenko et al. 2022). On the grid y_k = k·h each member's
// pessimistic PLD (pld.hpp's split of every atom onto its cell's two points) has a profile that
// is linear in γ between the points γ_k = e^(y_k). Let V_k be an upper bound on the largest
// member profile at γ_k. The polyline through (0, 1), (γ_k, V_k), constant beyond the top point,
// lies above E: E is convex, so below each chord. Its slope jumps are the masses,
//     m_k = γ_k (s_k − s_(k−1)),  s_k = (V_(k+1) − V_k)/(γ_(k+1) − γ_k),  m_∞ = V_top,
// computed in MPFR, clamped at 0 (rounding may bend V), rounded up, and then *checked*: the
// profile of the stored masses is evaluated at every point with downward rounding, and a point
// that falls short of V_k gets the shortfall as extra mass just above it. So H_m >= V >= E at the
// points, and between them H_m is linear while E is convex.

#include <cstdint>
#include <memory>
#include <vector>

#include "corbin/privacy/pld/loss_grid.hpp"
#include "corbin/privacy/pld/moments.hpp"
#include "corbin/privacy/pld/pld.hpp"

namespace corbin {

/// The largest profile of a family at the grid points, and the configuration attaining it.
class ProfileEnvelope {
 public:
  /// On one grid; envelopes sharing a splitter may be filled by different threads and merged.
  explicit ProfileEnvelope(std::shared_ptr<const GridSplitter> splitter);
  /// Adds a member, P against Q. `slack` is added to its profile (a bound that holds up to it,
  /// such as a relaxation's left-out mass). `tag` names the member (kNoTag: not a configuration
  /// anyone attains, such as a relaxed block). `tail`: e^((λ−1) L) per moment order for the
  /// largest loss L of any of its atoms (GridSplitter::tail_factors), null where unbounded.
  void add(const WindowPmf& p, const WindowPmf& q, bool disjoint, std::size_t tag, double slack = 0,
           const std::vector<double>* tail = nullptr);
  static constexpr std::size_t kNoTag = ~std::size_t(0);

  /// Adds a member given by its pessimistic masses on this grid (no tag; its moments from the
  /// masses alone, +∞ where it has mass at +∞).
  void add(const UpperPld& masses);

  /// Takes in another envelope's members (on the same grid).
  void merge(const ProfileEnvelope& other);

  /// Masses whose profile is at least the envelope at every γ >= 0 (see the header comment).
  UpperPld dominating() const;
  /// The envelope at grid point `k` (index from the grid's offset), and the attained member that
  /// is largest there (kNoTag if none was added).
  double value(std::size_t k) const { return value_[k]; }
  std::size_t attained_by(std::size_t k) const { return best_tag_[k]; }
  const LossGrid& grid() const { return splitter_->grid(); }
  std::size_t members() const { return members_; }
  /// The attained member with the most P-mass certainly outside Q's support (the largest δ at
  /// ε = ∞ that a lower bound can claim), and that mass; kNoTag if none has any.
  std::size_t most_disjoint() const { return disjoint_tag_; }
  /// The largest member moment at each order (moments.hpp), as logarithms.
  LogMoments log_moments() const { return log_of(moments_); }

 private:
  std::shared_ptr<const GridSplitter> splitter_;
  std::vector<double> value_;  ///< upper bound on the largest member profile at each point
  std::vector<double> best_;   ///< the largest attained member's profile there
  std::vector<std::size_t> best_tag_;
  std::vector<double> moments_;  ///< the largest member moment at each order
  double disjoint_ = 0;          ///< the largest certain disjoint mass of an attained member
  std::size_t disjoint_tag_ = kNoTag;
  std::size_t members_ = 0;
};

/// One pair dominating two mechanisms given by their pessimistic masses, for uses in which
/// either may run, chosen freely (adaptively too): both are moved up onto a common grid (exactly
/// where a point is on it; a larger loss only raises a profile), and the envelope of their two
/// profiles is dominated as above. Composing it bounds every sequence of the two.
UpperPld dominating_either(const UpperPld& a, const UpperPld& b, const PldLimits& limits);

}  // namespace corbin
