#pragma once
// A run's privacy ledger: rounds of different kinds, one after another, as accountants keep them
// (dp_accounting's events, Opacus' steps). From round to round the population (n, γ), the budget
// and the geometry, the model's m coordinates, dropout and client 1's role may change; the
// neighbouring relation may not (one pair of datasets for the whole run). Asked at δ (or ε), the ledger composes every round's mechanism (accountant.hpp:
// Theorem 3's, the worst case over the other clients' inputs) and answers with certified two-sided
// bounds.
//
// Each kind's round is round.hpp's: client 1's role as the server draws it (a labelled mixture over
// the roles, or a fixed role), and with dropout the mixture over who survived above and the
// mechanism as run below. Past
// dropout_mixture.hpp's exact mixtures a replace-one round is bounded below by its ladder of
// survivor ceilings; a remove-one round there has no lower bound (leaving its output out is
// post-processing, so the other rounds' lower bound is still the run's).
//
// References printed beside the bracket: the Rényi moments' bound of the same composition, and
// basic composition (each of the K uses at ε_1(δ_m / K), summed; for δ(ε): each at ε / K).

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/run/round.hpp"

namespace corbin {

/// The role client 1 has in a configuration's words: "paired" where it has a partner.
const char* role_name(const ConfigurationWords& w);
/// The role of client 1 in an attained sequence: "drawn" where it mixes the server's draws
/// (its parts say `when`), else its first part's.
const char* role_name(const AttainedBy& by);

class RunLedger {
 public:
  explicit RunLedger(const PldLimits& limits = {});

  /// `rounds` more rounds of `kind` (validated), or `uses` more uses of a given mechanism (a pair
  /// of laws, say: no dropout, its own compositions each). 0 adds nothing.
  void step(const RoundKind& kind, std::uint64_t rounds = 1);
  void step(const Accountant& use, std::uint64_t uses = 1);
  /// `rounds` rounds of a given mechanism used once per coordinate, m coordinates a round (a
  /// room's: Mechanism::round_accountant): m·rounds uses, a round's m configured together before
  /// its outputs, the rounds following each other's outputs (Accountant::coordinates), so that the
  /// adversary's best strategy is searched as the mechanism lets it choose and its lower end is
  /// attained; `relation` the pair of datasets it accounts, the run's (else invalid_argument
  /// naming relation); `survivors_mixed` where its rounds drop clients, each the mixture over who
  /// survived (lone_clients.hpp: lone_clients_round). 0 rounds adds nothing.
  void step_rounds(const Accountant& coordinate, std::uint64_t m, std::uint64_t rounds, Neighbour relation,
                   bool survivors_mixed = false);
  /// `next`'s rounds after these (invalid_argument naming relation where its pair of datasets is
  /// not this run's).
  void then(const RunLedger& next);
  /// Every round so far, k times over (k >= 1), in order: the phases again (one phase: k times
  /// as long). Past kMaxPlanParts phases in all each phase is k times as long instead, which the
  /// composed pairs allow (compositions commute) but the adversary's program over phases in turn
  /// does not (its value depends on the order): the run's accountant then searches each phase
  /// alone (Accountant::any_order).
  void repeat(std::uint64_t k);

  /// What a phase keeps between queries (run_ledger.cpp).
  struct PhaseMemo;
  struct Phase {
    std::optional<RoundKind> kind;  ///< a kind of round, or
    std::optional<Accountant> use;  ///< a given mechanism
    std::uint64_t rounds = 0;       ///< a use's: its uses where `coordinates` is 0
    /// Its round's accountants and their upper bounds' powers, kept from query to query (shared
    /// by copies: they hold the same kind or use; more rounds only reach further powers).
    std::shared_ptr<PhaseMemo> memo;
    /// A use's coordinates per round (step_rounds), 0 where not said (step: each use may follow
    /// the outputs of those before it, and `rounds` counts uses).
    std::uint64_t coordinates = 0;
    /// A given mechanism's relation (step_rounds); none for a pair of laws (step: the pair is the
    /// question), and a kind's is its setting's.
    std::optional<Neighbour> relation;
    /// A use's rounds drop clients, each the mixture over who survived (step_rounds); a kind's say
    /// so by their dropout.
    bool survivors_mixed = false;
  };
  const std::vector<Phase>& phases() const { return phases_; }
  const PldLimits& limits() const { return limits_; }
  /// The same rounds with `budget` in every kind (invalid_argument(budget) where a phase is a
  /// given mechanism).
  RunLedger with_budget(const Budget& budget) const;
  std::uint64_t rounds() const;
  /// Coordinate-rounds: m per round of a kind or of step_rounds' uses, a use's own compositions
  /// per use (K above).
  std::uint64_t compositions() const;
  /// The dropout rounds, each the mixture over who survived (round.hpp), with no share of δ.
  std::uint64_t survivors_mixed_rounds() const;
  /// Whether every dropout round has lower bounds of its own (under replace one always, the exact
  /// mixture or the ladder; under remove one within dropout_mixture.hpp's limits); a round without
  /// them adds nothing to the lower bound.
  bool dropout_rounds_bounded_below() const;

  struct Answer {
    TwoSided bounds{0, 0};               ///< ε(δ) or δ(ε), certified
    std::optional<AttainedBy> attained;  ///< the configurations attaining the lower bound
    double moments = 0;                  ///< reference: the Rényi moments' bound
    double basic = 0;                    ///< reference: basic composition's bound
    /// The worst case's coverage, over every kind and role (Accountant's counts, summed).
    std::size_t family_size = 0, configurations = 0, blocks = 0;
    void cover(const Accountant& run) {
      family_size = run.family_size();
      configurations = run.configurations();
      blocks = run.blocks();
    }
  };
  /// ε(δ), δ in (0, 1); δ(ε), ε >= 0. An empty ledger releases nothing: 0.
  Answer epsilon(const Rational& delta) const;
  Answer delta(const Rational& eps) const;
  /// A certified upper end computed for speed: epsilon(δ)'s (delta(ε)'s) upper end without the
  /// lower bounds and without the worst case over the adversary's actual choices that those also
  /// search (choice_plan.hpp): the composed dominating pair's bound, the Rényi moments' and basic
  /// composition's, the smallest. Never below epsilon(δ).bounds.upper, equal where that search
  /// adds nothing. Each phase keeps its round's accountant and the powers of its pessimistic PLDs
  /// (Accountant::keeping_powers), so after step() adds a round to the last phase the next query
  /// costs a product per direction (and one per earlier phase): a training loop asking for ε
  /// after every round stays cheap.
  double epsilon_upper(const Rational& delta) const;
  double delta_upper(const Rational& eps) const;

 private:
  /// Raises invalid_argument(relation) where `relation` is not the run's so far: one pair of
  /// datasets for every round.
  void one_relation(Neighbour relation) const;
  struct Built {
    std::optional<Accountant> run;
    std::vector<std::pair<Accountant, std::uint64_t>> uses;  ///< one use of each kind, and how many
  };
  /// The run's accountant.
  Built build() const;
  /// The composed pair without lower bounds or searches, from the phases' kept powers.
  Built build_upper() const;
  /// Basic composition's bounds of a build: each of the K uses at ε_1(δ/K), summed; at ε/K each,
  /// summed (at most 1).
  double basic_epsilon(const Built& b, const Rational& delta) const;
  double basic_delta(const Built& b, const Rational& eps) const;

  PldLimits limits_;
  std::vector<Phase> phases_;
  /// The phases' rounds stand for the run's in another order (repeat past kMaxPlanParts phases).
  bool reordered_ = false;
};

/// The largest budget largest_eps tries.
constexpr long kLargestBudgetCap = 64;
/// The inverse question (Opacus' get_noise_multiplier): the largest ε_p, as every round's budget,
/// whose certified ε_upper(δ) is at most `target`. A search on dyadic ε_p in [2^−20, 64] (secant
/// steps on the logarithms, Illinois' and Brent's safeguards) to a relative 2^−20; each trial a
/// whole ledger (epsilon()'s upper end, as printed). What holds at `largest` is certified (its
/// ε_upper was computed); "largest" is up to the step and to the bracket's width, since ε_upper
/// need not be exactly monotone in ε_p.
struct LargestBudget {
  std::optional<Rational> largest;  ///< none: even ε_p = 2^−20 gives more than the target
  std::optional<Rational> refuted;  ///< the smallest ε_p tried whose ε_upper is above the target
                                    ///< (none: the cap, 64, still meets it: the target is not
                                    ///< reached within the search)
  double eps_upper = 0;             ///< ε_upper(δ) at `largest` (or at `refuted` when there is none)
  unsigned trials = 0;              ///< the ledgers computed
};
LargestBudget largest_eps(const RunLedger& ledger, const Rational& target, const Rational& delta);

}  // namespace corbin
