#pragma once
// Certified ε_upper(δ) of a training run round after round, for `corbin fl`: one kind of round
// (round.hpp: the role as the server draws it, dropout's mixture over who survived), composed over
// the rounds so far, per coordinate and over the model's m coordinates. It is run_ledger.hpp's
// answer for a ledger of that many rounds of the kind (the same round, the same composition),
// upper ends only, kept cheap for a question asked every round: each kind's round is
// built once.
//
// A bound of +∞ means no finite ε is certified: once reached it is kept for later rounds (it stays
// an upper bound, and composing more only loses privacy).

#include <cstdint>
#include <optional>

#include "corbin/privacy/run/round.hpp"

namespace corbin {

class RunAccountant {
 public:
  /// Rounds of `kind` (checked: check_round_kind) at δ in (0, 1).
  RunAccountant(const RoundKind& kind, const Rational& delta, const PldLimits& limits = {});
  /// Any other mechanism's round, one coordinate (Mechanism::round_accountant): its one role,
  /// composed over the m coordinates and the rounds.
  RunAccountant(const Accountant& round, std::uint64_t coordinates, const Rational& delta);
  /// Any other mechanism's dropout round (Mechanism::round_accountant with dropout): one
  /// coordinate's round, and the whole round of m coordinates, which share the draw (m uses).
  RunAccountant(const Accountant& coordinate, const Accountant& whole_round, std::uint64_t coordinates,
                const Rational& delta);

  struct Bounds {
    double coordinate;  ///< ε_upper(δ) of one coordinate after the rounds (k = R)
    double model;       ///< ε_upper(δ) over the model (k = m·R)
  };
  /// Bounds after `rounds` rounds, 1 <= rounds and m·rounds <= kMaxCompositions.
  Bounds after(std::uint64_t rounds);

  /// Whether client 1's role is drawn between two positions each round (else one, every round).
  bool drawn() const { return drawn_; }
  std::uint64_t coordinates() const { return m_; }

 private:
  std::uint64_t m_;
  Rational delta_;
  std::optional<Accountant> coordinate_;  ///< one coordinate of a round
  std::optional<RoundAccountants> round_;  ///< Theorem 3's round (phase_of); none: a lone room's
  std::optional<Accountant> whole_;        ///< a room's dropout round, its m coordinates together
  bool drawn_ = false;
  bool coordinate_infinite_ = false, model_infinite_ = false;  ///< at last_ rounds (kept after)
  std::uint64_t last_ = 0;
};

}  // namespace corbin
