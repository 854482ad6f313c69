#include "corbin/privacy/run/run_accountant.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "corbin/number/error.hpp"

namespace corbin {

RunAccountant::RunAccountant(const RoundKind& kind, const Rational& delta, const PldLimits& limits)
    : m_(kind.coordinates), delta_(delta) {
  check_delta(delta);
  check_round_kind(kind);
  // With lower bounds, as the ledger builds it: some upper ends (choice_plan.hpp) are found
  // together with the attained ones, and the two answers must be the same doubles.
  const RoundAccountants r = round_accountants(kind, true, limits);
  coordinate_ = r.coordinate;
  drawn_ = r.drawn;
  round_ = r;
}

RunAccountant::RunAccountant(const Accountant& round, std::uint64_t coordinates, const Rational& delta)
    : m_(coordinates), delta_(delta) {
  check_delta(delta);
  if (coordinates < 1 || coordinates > kMaxCompositions)
    throw invalid_argument("m", std::to_string(coordinates),
                           "in [1, " + std::to_string(kMaxCompositions) + "]");
  if (round.compositions() != 1) throw invalid_argument("round", std::to_string(round.compositions()), "one use");
  // Kept whole, as run_ledger.cpp's step_rounds keeps it: the upper end's search of the
  // adversary's choices (choice_plan.hpp) needs the family, and the two answers must be the same.
  coordinate_ = round;
}

RunAccountant::RunAccountant(const Accountant& coordinate, const Accountant& whole_round, std::uint64_t coordinates,
                             const Rational& delta)
    : RunAccountant(coordinate, coordinates, delta) {
  if (whole_round.compositions() != coordinates)
    throw invalid_argument("round", std::to_string(whole_round.compositions()),
                           std::to_string(coordinates) + " uses (the round's coordinates)");
  whole_ = whole_round;
}

RunAccountant::Bounds RunAccountant::after(std::uint64_t rounds) {
  if (rounds < 1 || rounds > kMaxCompositions / m_)
    throw invalid_argument("rounds", std::to_string(rounds),
                           "in [1, " + std::to_string(kMaxCompositions / m_) +
                               "] (m·rounds <= " + std::to_string(kMaxCompositions) + ")");
  if (rounds < last_) coordinate_infinite_ = model_infinite_ = false;  // fewer rounds: anew
  last_ = rounds;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const Rational& delta = delta_;
  Bounds out{kInf, kInf};
  // As run_ledger.cpp composes a phase (phase_of).
  if (!coordinate_infinite_) out.coordinate = coordinate_->coordinates(1, rounds).epsilon_upper(delta);
  if (!model_infinite_)
    out.model = round_   ? phase_of(*round_, m_, rounds).epsilon_upper(delta)  // Theorem 3's
                : whole_ ? whole_->coordinates(1, rounds).epsilon_upper(delta)   // a room's, with dropout
                         : coordinate_->coordinates(m_, rounds).epsilon_upper(delta);
  coordinate_infinite_ = std::isinf(out.coordinate);
  model_infinite_ = std::isinf(out.model);
  return out;
}

}  // namespace corbin
