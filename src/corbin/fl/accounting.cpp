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
    if (mech.dropout > 0) {
      out.why_not = "used without dropout (a lone room's dropout is not accounted yet)";
      return out;
    }
    CoordinateSetting s;
    s.budget = mech.budget;
    s.delta = mech.delta;
    std::string why_not;
    const std::optional<Accountant> round = mech.mechanism->round_accountant(s, n, PldLimits{}, why_not);
    if (!round) {
      out.why_not = "used with a mechanism that has a certified accountant (" + mech.mechanism->name() + ": " +
                    why_not + ")";
      return out;
    }
    check_rounds();
    out.why_not.clear();
    out.accountant.emplace(*round, coordinates, mech.delta);
    return out;
  }
  check_rounds();
  AccountSetting population;
  population.n = n;
  population.gamma = *gamma;
  population.budget = mech.budget;
  population.bits = mech.bits;
  population.variant = Variant::corrected;  // the one the rounds run (round_kernel_steps.hpp)
  if (mech.dropout == 0) {
    out.accountant.emplace(population, coordinates, mech.delta);
    return out;
  }
  DropoutAccounting d;
  d.delta_mechanism = Rational(mech.delta / 2);
  // β rounded down: the floors' certified failure must fit the half of δ set aside for them.
  d.failure_budget_per_round = failure_budget_per_round(d.delta_mechanism, rounds);
  d.floor = dropout_floor(n, population.gamma, mech.dropout, d.failure_budget_per_round);
  std::optional<AccountSetting> alone = population, paired;
  alone->counts = d.floor.alone;
  if (d.floor.paired) {
    paired = population;
    paired->counts = *d.floor.paired;
  }
  out.accountant.emplace(alone, paired, coordinates, d.delta_mechanism);
  out.dropout = std::move(d);
  return out;
}

}  // namespace corbin::fl
