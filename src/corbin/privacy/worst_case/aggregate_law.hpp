#pragma once
// The neighbouring laws of one coordinate's released sum, for every configuration of the worst
// case (neighbours.hpp: client 1's candidates, j of the other LDPQ clients at c + r, every other
// pair at (c, c)), for any n up to kMaxAccountClients, as certified windows (window_pmf.hpp).
//
// Structure used: every output is c ± rα, so the sum is a function of the count J of "+"
// outputs. The other LDPQ clients at c − r add Binomial(L − j, q−), those at c + r add
// Binomial(j, q+); every other pair adds exactly one "+" (Lemma 3), and client 1 (with its
// partner) adds its candidate's two- or three-point law. The exact rational law (exact_ucdp.hpp)
// stays the reference; the tests compare the two for small n.
//
// Neighbours: replace one keeps the number of outputs; remove one drops one output (Eq. (1)), so
// the sums have n and n − 1 terms and meet only where
//     n c + rα(2j − n) = (n − 1)c + rα(2j' − n + 1),  i.e. when c/(rα) is an odd integer;
// otherwise the two laws have disjoint supports (`disjoint`) whatever the configuration.
//
// Many clients: past PldLimits::exhaustive_tops values of j, the end_tops values at each end are
// taken one by one and the middle in `blocks` blocks, each bounded by a relaxation that holds for
// every j in it (`relaxed_others`): of the block's m clients, the adversary's choice of which sit
// at c + r is hidden in an LDPQ output's decomposition
//     Bernoulli(q±) = λ·Bernoulli(1/2) + (1 − λ)·(the input's end, 0 or 1),  λ = 1 − 1/α,
// so revealing which of them drew the fair coin (M of them, M ~ Binomial(m, λ)) leaves a sum whose
// randomness is the block's outside clients plus Binomial(M, 1/2) whatever j: a richer release
// (post-processing gives back the sum), and more fair coins only add noise, so M >= M0 is no worse
// than M0, and P(M < M0) <= τ bounds the rest. A block's profile is thus at most that of
// Binomial(M0, 1/2) in place of its clients, plus τ. It is loose by the variance the
// decomposition gives away (m(α − 1)/(4α²) of the block's m(α² − 1)/(4α²)), which is why blocks are
// kept small against L.

#include <cstdint>
#include <optional>

#include "corbin/privacy/worst_case/neighbours.hpp"
#include "corbin/privacy/pld/pld.hpp"
#include "corbin/privacy/pld/window_pmf.hpp"
#include "corbin/quantizer/budget.hpp"

namespace corbin {

/// What a block's windows may leave out, in all (the profile's mass at +∞ from each block member).
constexpr double kBlockTail = 1e-40;

/// Client 1's law (`p`) and its neighbour's (`q`) on one window of J (the count of "+" in p's
/// world; q is shifted onto it); `disjoint` when the supports never meet.
struct NeighbouringPmfs {
  WindowPmf p, q;
  bool disjoint = false;
};

/// Appends a and b (one block of outcomes of each world, indexed alike) to out's p and q, on the
/// union of their windows: a block's outcomes are apart from every earlier block's, and the tails
/// add up. On an empty `out`, the two laws on one window (the outcomes then indexed from 0).
void append_aligned(const WindowPmf& a, const WindowPmf& b, NeighbouringPmfs& out);

/// A set of values of j taken together: one value (attained), or a block bounded by relaxation.
struct TopRange {
  std::size_t first = 0, last = 0;  ///< j in [first, last]
  bool single() const { return first == last; }
};

/// The clients beside client 1 as its family counts them: the other LDPQ clients (L) and the
/// other pairs, with d = 0's pairs counted as two LDPQ clients each (Lemma 3). The setting is
/// checked first (check_account_setting).
PopulationCounts others_counted(const AccountSetting& s);

/// Every configuration of a setting's worst case (neighbours.hpp), and their laws.
class AggregateFamily {
 public:
  /// Validates the setting (check_account_setting) and lists client 1's candidates. The caller
  /// holds a working precision of at least 128 bits (PrecisionScope) for every call: the methods
  /// set none, so that threads may share it.
  explicit AggregateFamily(const AccountSetting& s);

  const AccountSetting& setting() const { return s_; }
  std::size_t candidates() const { return candidates_.size(); }
  const ClientCandidate<Interval>& candidate(std::size_t i) const { return candidates_[i]; }
  std::size_t other_ldpq() const { return other_ldpq_; }  ///< L
  std::size_t other_pairs() const { return other_pairs_; }
  OtherPairs how_pairs() const { return how_; }
  /// Remove one with supports that never meet: every configuration has δ(ε) = 1.
  bool disjoint() const { return disjoint_; }

  /// The values of j to visit: each one (up to limits.exhaustive_tops), or the ends and blocks;
  /// only j <= ⌈L/2⌉ where the family is its own mirror image (`mirrored`).
  std::vector<TopRange> tops(const PldLimits& limits) const;
  /// Whether j and L − j give the same profiles with client 1's two inputs swapped.
  bool mirrored() const;
  /// The other clients' count law with j of the other LDPQ clients at c + r.
  WindowPmf others(std::size_t top) const;
  /// A law whose pairs bound those of every j in the block, and the mass τ to add to their
  /// profiles (the relaxation above).
  WindowPmf relaxed_others(const TopRange& block, double& slack) const;
  /// The neighbouring laws of candidate `c` given the others' law.
  NeighbouringPmfs laws(const WindowPmf& others, std::size_t c) const;
  NeighbouringPmfs laws(const Configuration& c) const { return laws(others(c.top), c.candidate); }
  /// Every client's input in words.
  ConfigurationWords describe(const Configuration& c) const;
  /// An upper bound on every privacy loss ln(P/Q) of candidate c's laws, whatever the others
  /// (data processing: the sum is a function of client 1's part and an independent rest, the
  /// same function in both worlds under replace one); +∞ where a count has P > 0 = Q, and under
  /// remove one (the two sums count different numbers of outputs).
  double max_loss(std::size_t c) const;

 private:
  AccountSetting s_;
  std::vector<ClientCandidate<Interval>> candidates_;
  std::size_t other_ldpq_ = 0, other_pairs_ = 0;
  OtherPairs how_ = OtherPairs::one_plus;
  Interval q_low_, q_high_;
  bool disjoint_ = false;
  std::int64_t shift_ = 0;  ///< remove one: q's count j' sits at p's count j' − shift
};

}  // namespace corbin
