#pragma once
// Theorem 3 checked exactly for one coordinate (m = 1): the worst case over every pair of
// neighbouring datasets, exactly. The population is the reference code's (the first ⌊γn⌋ clients
// on LDPQ, one more if the rest is odd, the rest in CorBin pairs), client 1 in a chosen role.
// Every configuration of the proved reduction (neighbours.hpp) has an exact rational law of the
// released sum in each world, hence an exact e^ε at the target δ; the worst case is the largest
// of them, ε = ln of a rational, attained by the configuration reported.
//
// Finding the largest without computing every exact law: each configuration's certified window
// (aggregate_law.hpp) bounds its δ at a given e^ε from above, and a configuration with that bound
// at most δ at the current best e^ε cannot beat it. Only the configurations that survive get
// their exact law, in the order of their bound, and the best is updated as they come.

#include <string>
#include <vector>

#include "corbin/number/interval.hpp"
#include "corbin/privacy/worst_case/neighbours.hpp"
#include "corbin/privacy/exact/sum_law.hpp"

namespace corbin {

/// Largest n the exact law of the aggregate is computed for (its cost grows about as n² per
/// configuration that needs it).
constexpr unsigned long kMaxExactClients = 5000;
/// Largest d the exact law is computed at: a pair's probabilities are d-bit rationals, which every
/// product of the law carries (on 2 cores, client 1 paired: n = 100 took 0.7 s at d = 4 096 and 13 s
/// at 2^15; n = 5000 took 17 s at d = 5, 23 s at 256 and 38 s at 1 024). The law at d differs from
/// d → ∞'s by about 2^-d, so 256 bits leave nothing to see.
constexpr unsigned long kMaxExactBits = 256;

struct ExactUcdpSetting {
  unsigned long n = 0;
  Rational gamma, delta;
  SumGeometry geometry;
  TargetClient::Role role = TargetClient::Role::ldpq;
};

/// Validates n (in [2, kMaxExactClients]), d (at most kMaxExactBits), γ in [0, 1], δ in (0, 1),
/// r > 0 and that the role exists in the population.
void check_exact_setting(const ExactUcdpSetting& s);

struct ExactUcdpResult {
  Neighbour relation = Neighbour::replace_one;
  Configuration configuration;                  ///< the worst configuration (attains exp_eps)
  ConfigurationWords words;                     ///< every client's input there
  std::size_t ldpq_clients = 0, pairs = 0;      ///< in the population, client 1 included
  std::size_t other_ldpq = 0, other_pairs = 0;  ///< L and the other pairs (one "+" each)
  bool infinite = false;   ///< δ(ε) > δ for every ε: the two laws are distinguishable
  Rational exp_eps{1};     ///< the smallest e^ε with δ(ε) <= δ (exact)
  Interval eps;            ///< ln(exp_eps)
  Rational disjoint_mass;  ///< at the worst configuration: mass of one law where the other has none
  std::size_t support = 0;         ///< points in its law with client 1
  std::size_t configurations = 0;  ///< configurations of the reduction
  std::size_t exact_laws = 0;      ///< of them, those whose exact law was needed
};

/// The accountant's setting of the same population (its certified windows bound this one's laws).
struct AccountSetting;
AccountSetting account_setting(const ExactUcdpSetting& s, Neighbour relation);

/// The two neighbouring laws of the released sum at one configuration (exact).
std::pair<SumLaw, SumLaw> neighbouring_laws(const ExactUcdpSetting& s, const Configuration& c,
                                            Neighbour relation);

/// The exact ε at one configuration.
ExactUcdpResult exact_ucdp_at(const ExactUcdpSetting& s, const Configuration& c,
                              Neighbour relation);

/// The exact worst case over every configuration (the neighbouring relation's ε at δ).
ExactUcdpResult exact_ucdp(const ExactUcdpSetting& s, Neighbour relation);

/// Every client's input as an exact weight, for witnesses: client 1 in each world, its partner,
/// and the other LDPQ clients' two weights with how many sit at each.
struct ConfigurationWeights {
  Rational client_1, client_1_neighbour;  ///< the neighbour's only under replace one
  std::optional<Rational> partner;
  TargetClient::Role role = TargetClient::Role::ldpq;
  std::size_t others_high = 0, others_low = 0;  ///< other LDPQ clients at c + r and at c − r
  std::size_t other_pairs = 0;                  ///< other pairs, both members at c
};
/// Raises invalid_argument(configuration) where an input is a one-sided limit (no weight).
ConfigurationWeights weights_of(const ExactUcdpSetting& s, const Configuration& c,
                                Neighbour relation);

}  // namespace corbin
