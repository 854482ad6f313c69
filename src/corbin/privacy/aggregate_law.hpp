#pragma once
// The two neighbouring laws of the released sum of one coordinate at the proof's configuration
// of Theorem 3 (exact_ucdp.hpp: other LDPQ clients at c − r, other pairs at (c − r, c + r),
// client 1 at c + r, its partner at c − r), for any n up to kMaxAccountClients, as certified
// windows (window_pmf.hpp) instead of exact rationals.
//
// Structure used: every output is c ± rα, so the sum is a function of the count J of "+"
// outputs. The other LDPQ clients are identical, so their count is Binomial(L, q) with
// q = 1/2 − 1/(2α). A CorBin pair contributes T in {0, 1, 2} with generating polynomial
// a0 + a1 z + a2 z²; its roots are real when a1² >= 4 a0 a2 (the pair is not positively
// correlated, as CorBinQ's pairs at (c − r, c + r) are not), and then
//     a0 + a1 z + a2 z² = (1 − p1 + p1 z)(1 − p2 + p2 z),  p1,2 = (μ ∓ √(μ² − 4 a2))/2, μ = a1 + 2 a2,
// so P pairs add Binomial(P, p1) + Binomial(P, p2). Client 1 adds a two- or three-point term.
// The exact rational law (sum_law.hpp) stays the reference; the tests compare the two for small n.
//
// Neighbours: replace-one moves client 1 from c + r to c − r (the same number of outputs);
// remove-one drops its output (Eq. (1)), so the sums have n and n − 1 terms and meet only where
// n c + rα(2j − n) = (n − 1)c + rα(2j' − n + 1), i.e. when c/(rα) is an odd integer; otherwise
// the two laws have disjoint supports (`disjoint`).

#include <cstdint>
#include <optional>

#include "corbin/privacy/exact_ucdp.hpp"
#include "corbin/privacy/window_pmf.hpp"
#include "corbin/quantizer/budget.hpp"

namespace corbin {

/// Largest n the certified law is computed for (its window grows as √n, its set-up as n).
constexpr unsigned long kMaxAccountClients = 100'000'000;

struct AccountSetting {
  unsigned long n = 0;
  Rational gamma{1};
  Budget budget{Budget::Kind::exp_eps, Rational(3)};
  Rational center{0}, radius{1};
  unsigned long bits = 5;
  Variant variant = Variant::corrected;
  TargetClient::Role role = TargetClient::Role::ldpq;
  Neighbour relation = Neighbour::replace_one;
  /// The LDPQ clients and pairs, client 1 included, where they are not n and γ's
  /// (population_counts): a dropout round's guaranteed survivors (dropout_floor.hpp).
  std::optional<PopulationCounts> counts;
};

/// Validates n in [2, kMaxAccountClients], γ in [0, 1], r > 0, the role present in the population;
/// with explicit `counts`, at least 2 clients and at most kMaxAccountClients in them.
void check_account_setting(const AccountSetting& s);
/// The population's LDPQ clients and pairs, client 1 included.
PopulationCounts counts_of(const AccountSetting& s);

/// The law with client 1 (`p`) and its neighbour (`q`) on one window of J (the count of "+" in
/// p's world; q is shifted onto it); `disjoint` when the supports never meet.
struct NeighbouringPmfs {
  WindowPmf p, q;
  bool disjoint = false;
  std::size_t ldpq_clients = 0, pairs = 0;  ///< client 1 included
};
NeighbouringPmfs aggregate_laws(const AccountSetting& s);

}  // namespace corbin
