#pragma once
// A federated run's privacy accounting: the certified ε_upper(δ) round after round
// (privacy/run/run_accountant.hpp) for the mechanism's population, where the mechanism has an
// accountant (its room's accountant_gamma).
//
// Neighbours are replace-one: the server counts the clients it averages, so the participant set
// is public (under remove-one the two sums have different numbers of terms and disjoint supports,
// aggregate_law.hpp: an infinite ε that says nothing about the mechanism).
//
// With dropout the survivors of a round are random: δ is split in halves, one for the mechanism
// at the survivors every round is guaranteed except with probability β, and one for those
// failures, β = δ / (2 · rounds) a round (a union bound over the rounds; privacy/worst_case/dropout_floor.hpp).

#include <cstdint>
#include <optional>
#include <string>

#include "corbin/fl/mechanism.hpp"
#include "corbin/privacy/worst_case/dropout_floor.hpp"
#include "corbin/privacy/run/run_accountant.hpp"

namespace corbin::fl {

/// With dropout: how δ is split, and the survivors' floors.
struct DropoutAccounting {
  Rational delta_mechanism;  ///< δ/2, the mechanism's share at the floors
  double failure_budget_per_round = 0;  ///< β = δ / (2 · rounds), rounded down
  DropoutFloor floor;
};

struct RunAccounting {
  std::optional<RunAccountant> accountant;  ///< none where the mechanism has no certified accountant
  std::string why_not;                       ///< then, why (the room's reason)
  std::optional<DropoutAccounting> dropout;  ///< with dropout
};

/// The accounting of `rounds` rounds of `mechanism` with n clients and a model of `coordinates`
/// parameters. Raises invalid_argument("rounds") when coordinates · rounds passes
/// kMaxCompositions, and what dropout_floor raises.
RunAccounting account_run(const MechanismConfig& mechanism, std::size_t n, std::uint64_t coordinates,
                          unsigned long rounds);

}  // namespace corbin::fl
