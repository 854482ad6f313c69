#pragma once
// A federated run's privacy accounting: the certified ε_upper(δ) round after round
// (privacy/run/run_accountant.hpp) for the mechanism's population, where the mechanism has an
// accountant (its room's accountant_gamma).
//
// Neighbours are replace-one: the server counts the clients it averages, so the participant set
// is public (under remove-one the two sums have different numbers of terms and disjoint supports,
// aggregate_law.hpp: an infinite ε that says nothing about the mechanism).
//
// The round, the role rule and, with dropout, the mixture over who survived are
// privacy/run/round.hpp's, so that the ε printed after R rounds is `corbin account`'s for the same
// run.

#include <cstdint>
#include <optional>
#include <string>

#include "corbin/fl/mechanism.hpp"
#include "corbin/privacy/run/run_accountant.hpp"

namespace corbin::fl {

struct RunAccounting {
  std::optional<RunAccountant> accountant;  ///< none where the mechanism has no certified accountant
  std::string why_not;                       ///< then, why (the room's reason)
  std::optional<RoundKind> kind;             ///< Theorem 3's rounds as accounted (none: another room's)
};

/// The accounting of `rounds` rounds of `mechanism` with n clients and a model of `coordinates`
/// parameters. Raises invalid_argument("rounds") when coordinates · rounds passes
/// kMaxCompositions.
RunAccounting account_run(const MechanismConfig& mechanism, std::size_t n, std::uint64_t coordinates,
                          unsigned long rounds);

/// The same rounds for client 1 on LDPQ in every round, shown beside an infinite bound (the worst
/// role is then a pair's member: privacy/run/infinite_eps.hpp); none where the rounds have no LDPQ
/// position, or are another room's (its clients have one role, the bound's own).
std::optional<RunAccountant> ldpq_role_accountant(const RunAccounting& accounting, const Rational& delta);

}  // namespace corbin::fl
