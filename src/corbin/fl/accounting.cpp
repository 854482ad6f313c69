#include "corbin/fl/accounting.hpp"

#include <algorithm>

#include "corbin/fl/registry.hpp"
#include "corbin/number/error.hpp"

namespace corbin::fl {

RunAccounting account_run(const MechanismConfig& mech, std::size_t n, std::uint64_t coordinates,
                          unsigned long rounds) {
  RunAccounting out;
  // One round is m compositions, one per parameter.
  const auto check_rounds = [&] {
    if (rounds > 0 && coordinates > kMaxCompositions / rounds)
      throw invalid_argument("rounds", std::to_string(rounds),
                             "at most " + std::to_string(kMaxCompositions / coordinates) +
                                 " for the accountant (m·rounds <= " + std::to_string(kMaxCompositions) +
                                 ", m = " + std::to_string(coordinates) + ")");
  };
  const std::optional<Rational> gamma = mech.mechanism->accountant_gamma(mech, out.why_not);
  if (!gamma) {
    // Any other room with a builder of its own, all clients alone (privacy is scale-free in c and
    // r: every room's law depends on (w − c)/r, so one coordinate at c = 0, r = 1 stands for all).
    if (mech.mechanism->pairing() != Pairing::alone) return out;
    CoordinateSetting s;
    s.budget = mech.budget;
    s.delta = mech.delta;
    s.dropout = mech.dropout;  // the mixture over who survived, where the room has one
    std::string why_not;
    const std::optional<Accountant> round = mech.mechanism->round_accountant(s, n, PldLimits{}, why_not);
    if (!round) {
      out.why_not = "used with a mechanism that has a certified accountant (" + mech.mechanism->name() + ": " +
                    why_not + ")";
      return out;
    }
    check_rounds();
    out.why_not.clear();
    if (mech.dropout > 0 && coordinates > 1) {
      // The m coordinates share the draw: the model's bound is of the whole round.
      s.coordinates = coordinates;
      const std::optional<Accountant> whole = mech.mechanism->round_accountant(s, n, PldLimits{}, why_not);
      if (!whole) throw invalid_argument("m", std::to_string(coordinates), "a round its room accounts: " + why_not);
      out.accountant.emplace(*round, *whole, coordinates, mech.delta);
    } else {
      out.accountant.emplace(*round, coordinates, mech.delta);
    }
    return out;
  }
  check_rounds();
  RoundKind kind;
  kind.setting.n = n;
  kind.setting.gamma = *gamma;
  kind.setting.budget = mech.budget;
  kind.setting.bits = mech.bits;
  kind.setting.variant = Variant::corrected;  // the one the rounds run (round_kernel_steps.hpp)
  kind.dropout = mech.dropout;
  kind.coordinates = coordinates;
  out.accountant.emplace(kind, mech.delta);
  out.kind = kind;
  return out;
}

std::optional<RunAccountant> ldpq_role_accountant(const RunAccounting& accounting, const Rational& delta) {
  if (!accounting.kind) return std::nullopt;
  RoundKind alone = *accounting.kind;
  alone.role = TargetClient::Role::ldpq;
  try {
    check_round_kind(alone);
  } catch (const invalid_argument&) {
    return std::nullopt;  // no LDPQ position in this population
  }
  return RunAccountant(alone, delta);
}

}  // namespace corbin::fl
