#pragma once
// Theorem 3 checked exactly for one coordinate (m = 1): the AugCorBin-FL population of the
// reference code (the first ⌊γn⌋ clients on LDPQ, one more if the rest is odd, the rest in
// CorBin pairs), client 1 in a chosen role, and the exact law of the released sum with and
// without client 1 (remove one, Eq. (1)) or with its weight at c + r and at c − r (replace
// one). The result is the exact e^ε at the target δ, hence ε = ln of a rational.
//
// Replacing client 1's weight, the law of the sum is affine in client 1's probability q1 (or,
// paired, in its cell position), and δ(ε) is convex along affine families, so the extreme
// weights c ± r are the worst pair of inputs for client 1; the other clients' weights are
// searched over a family of configurations (worst_case_search), which is evidence, not proof.

#include <string>
#include <vector>

#include "corbin/number/interval.hpp"
#include "corbin/privacy/sum_law.hpp"

namespace corbin {

/// Largest n the exact law of the aggregate is computed for (10 s at 5 000 here).
constexpr unsigned long kMaxExactClients = 5000;

enum class Neighbour { remove_one, replace_one };
Neighbour parse_neighbour(const std::string& text);  ///< "remove" | "replace", else invalid_argument(relation)
const char* to_string(Neighbour n);

/// LDPQ clients and CorBin pairs of the population, client 1 included: the first ⌊γn⌋ clients
/// on LDPQ, one more if the rest is odd (an unpaired client quantizes alone), the rest in pairs.
struct PopulationCounts {
  std::size_t ldpq, pairs;
};
PopulationCounts population_counts(unsigned long n, const Rational& gamma);
/// Raises invalid_argument("role") when no client of the population has client 1's role.
void check_role_present(const PopulationCounts& counts, TargetClient::Role role, const Rational& gamma);

/// The other clients' weights: every other LDPQ client at `ldpq` (or half of them at c − r and
/// half at c + r when `split`), every other pair at (leader, follower), and client 1's partner.
struct Configuration {
  std::string name;
  Rational ldpq;
  bool split = false;
  Rational leader, follower, partner;
};

/// The configuration of the proof of Theorem 3: every LDPQ probability at its extreme
/// 1/2 − 1/(2α) (weights c − r), pairs at (c − r, c + r) whose sum is the least noisy.
Configuration proof_configuration(const Rational& center, const Rational& radius);

struct ExactUcdpSetting {
  unsigned long n = 0;
  Rational gamma, delta;
  SumGeometry geometry;
  TargetClient::Role role = TargetClient::Role::ldpq;
};

/// Validates n (>= 2), γ in [0, 1], δ in (0, 1), and that the role exists in the population.
void check_exact_setting(const ExactUcdpSetting& s);

struct ExactUcdpResult {
  Neighbour relation;
  std::string configuration;
  std::size_t ldpq_clients = 0, pairs = 0;  ///< in the population, client 1 included
  bool infinite = false;  ///< δ(ε) > δ for every ε: the two laws are distinguishable
  Rational exp_eps;       ///< the smallest e^ε with δ(ε) <= δ (exact)
  Interval eps;           ///< ln(exp_eps)
  Rational disjoint_mass; ///< mass of one law where the other has none (the δ at ε = ∞)
  std::size_t support = 0;  ///< points in the law with client 1
};

/// The two neighbouring laws of the released sum (client 1 at c + r; without it, or at c − r).
std::pair<SumLaw, SumLaw> neighbouring_laws(const ExactUcdpSetting& s, const Configuration& config,
                                            Neighbour relation);

ExactUcdpResult exact_ucdp(const ExactUcdpSetting& s, const Configuration& config,
                           Neighbour relation);

/// Every configuration of the family (others' LDPQ weights at c − r, c − r/2, c, c + r/2, c + r
/// or split; pairs at (c − r, c + r), (c, c), (c + r, c + r); partner at c − r, c, c + r for a
/// paired client 1), worst first. `progress` is called after each configuration.
std::vector<ExactUcdpResult> worst_case_search(const ExactUcdpSetting& s, Neighbour relation,
                                               void (*progress)(std::size_t done, std::size_t total) = nullptr);

}  // namespace corbin
