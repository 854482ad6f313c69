#pragma once
// Certified ε_upper(δ) of an AugCorBin-FL training run, round after round, for its most exposed
// client: Theorem 3's mechanism (accountant.hpp) composed over the rounds so far, per coordinate
// and over the model's m coordinates.
//
// Each round the server draws, independently of the data, who quantizes alone (LDPQ: the first
// ⌊γn⌋ clients of a shuffled order, and an odd one out) and who is paired. A client's round is
// then one of two mechanisms, per coordinate: A, Theorem 3's with the client in the LDPQ role,
// or B, the client in a CorBin pair. After R rounds a client that was alone in a of them has
// released A^a ∘ B^(R−a) per coordinate (independent compositions commute), and every a in
// [0, R] can happen to some client, so the bound is the largest over a. With one role in the
// population (every client on LDPQ, or none) that is A^R or B^R, computed by squaring exactly as
// Accountant::compose(R) does (over the model, from one round's m coordinates); with both, the R + 1 compositions are kept and each round extends
// them by one product (R + 2 products a round, instead of R + 1 powers), and the largest ε_upper
// is found with one δ_upper evaluation per element where the running maximum already covers it
// (n = 200, m = 421 642: 0.6 s a round at R = 40 on one core).
//
// A paired client is taken as the pair's leader. The corrected CorBinQ is mirror-symmetric
// (the follower with weight w says "−" exactly when a leader with weight 2c − w would say "+"
// on the same Z), so the law of the pair's sum with the follower moved is the leader's with the
// weights swapped, and the two roles give the same mechanism for the released sum.
//
// As for Accountant, the other clients sit at the proof's configuration (aggregate_law.hpp),
// client 1 moves between c + r and c − r (replace-one), and the profile is the worse of the two
// directions of all compositions together. A bound of +∞ means no finite ε is certified: once
// reached it is kept for later rounds (it stays an upper bound, and composing more only loses
// privacy).

#include <cstdint>
#include <optional>
#include <vector>

#include "corbin/privacy/run/accountant.hpp"

namespace corbin {

class RunAccountant {
 public:
  /// `population`: n, γ, the budget, d and the CorBinQ variant of one round (role and relation
  /// are set here); `coordinates`: the model's m >= 1; δ in (0, 1).
  RunAccountant(const AccountSetting& population, std::uint64_t coordinates, const Rational& delta,
                const PldLimits& limits = {});
  /// The client's two roles given as their own populations (`alone`: client 1 on LDPQ;
  /// `paired`: client 1 a pair's leader; at least one), as a dropout round's floors give them
  /// (dropout_floor.hpp); role and relation are set here.
  RunAccountant(const std::optional<AccountSetting>& alone, const std::optional<AccountSetting>& paired,
                std::uint64_t coordinates, const Rational& delta, const PldLimits& limits = {});

  /// Any other mechanism's round, one coordinate (Mechanism::round_accountant): its one role,
  /// composed over the m coordinates and the rounds.
  RunAccountant(const Accountant& round, std::uint64_t coordinates, const Rational& delta);

  struct Bounds {
    double coordinate;  ///< ε_upper(δ) of one coordinate after the rounds (k = R)
    double model;       ///< ε_upper(δ) over the model (k = m·R)
  };
  /// Bounds after `rounds` rounds, 1 <= rounds and m·rounds <= kMaxCompositions. Cheapest when
  /// called for consecutive rounds (the frontier is extended, or rebuilt when asked for fewer).
  Bounds after(std::uint64_t rounds);

  /// Whether the population has both roles (the bound is then the largest over role sequences).
  bool both_roles() const { return ldpq_.has_value() && paired_.has_value(); }
  std::uint64_t coordinates() const { return m_; }

 private:
  void reset();
  void extend();  ///< the frontier from rounds_ to rounds_ + 1

  std::uint64_t m_;
  Rational delta_;
  std::optional<Accountant> ldpq_, paired_;      ///< one coordinate, one round
  std::optional<Accountant> ldpq_m_, paired_m_;  ///< m coordinates, one round
  std::vector<Accountant> coordinate_, model_;   ///< [a]: alone in a of the rounds_ rounds
  std::uint64_t rounds_ = 0;
  bool coordinate_infinite_ = false, model_infinite_ = false;
  double coordinate_worst_ = 0, model_worst_ = 0;  ///< the bounds after rounds_ rounds
};

}  // namespace corbin
