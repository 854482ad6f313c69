#pragma once
// A run's privacy ledger: rounds of different kinds, one after another, as accountants keep them
// (dp_accounting's events, Opacus' steps). From round to round the population (n, γ), the budget
// and the geometry, the model's m coordinates, dropout, the neighbouring relation and client 1's
// role may change. Asked at δ (or ε), the ledger composes every round's mechanism
// (accountant.hpp: Theorem 3's, the worst case over the other clients' inputs) and answers with
// certified two-sided bounds.
//
// The role. In a round whose population has both roles, client 1 quantizes alone (LDPQ) or in a
// pair, as the server's draw falls, independently of the data. The bound holds for a client
// whatever its draws: each round composes one pair dominating both roles (Accountant::either),
// which bounds every sequence of roles, even one chosen adaptively. A kind may also fix the role.
// The lower bound is attained by a client with the role its configuration names, in every round
// of each part.
//
// Dropout. A round with dropout p is covered, except with probability β, by the population of its
// guaranteed survivors (dropout_floor.hpp); over the run's R_d dropout rounds the failures add
// R_d·β to δ (a union bound). For ε(δ), half of δ goes to the mechanism and half to the floors, as
// `corbin fl`'s accountant splits it (β = δ/(2 R_d)); for δ(ε), the smallest bound over a few
// total failure budgets (kFailureLadder) is taken. The floors bound from above only: a dropout
// round's lower bound is the mechanism as run, the full population with every client dropping
// independently, at a few of its configurations (dropout_mixture.hpp), at the whole δ. Past that
// module's population limits a dropout round has none; leaving its output out is
// post-processing, so the other rounds' lower bound is still the run's.
//
// References printed beside the bracket: the Rényi moments' bound of the same composition, and
// basic composition (each of the K uses at ε_1(δ_m / K), summed; for δ(ε): each at ε / K).

#include <cstdint>
#include <optional>
#include <vector>

#include "corbin/privacy/run/accountant.hpp"

namespace corbin {

/// One kind of round.
struct RoundKind {
  AccountSetting setting;  ///< n, γ, the budget, c, r, d, variant, relation (its role: `role`)
  std::optional<TargetClient::Role> role;  ///< client 1's role in every round; none: the worst
  Rational dropout{0};                     ///< each client's dropout probability, in [0, 1)
  std::uint64_t coordinates = 1;           ///< the model's m
};

/// Raises invalid_argument naming the parameter: what check_account_setting checks, m in [1,
/// kMaxCompositions] (m), dropout in [0, 1) (dropout), a fixed role the population has (role).
void check_round_kind(const RoundKind& kind);

/// The role client 1 has in a configuration's words: "paired" where it has a partner.
const char* role_name(const ConfigurationWords& w);

class RunLedger {
 public:
  /// The totals failures of all dropout rounds that a δ(ε) query tries.
  static constexpr double kFailureLadder[] = {1e-6, 1e-9, 1e-12};

  explicit RunLedger(const PldLimits& limits = {});

  /// `rounds` more rounds of `kind` (validated), or `uses` more uses of a given mechanism (a pair
  /// of laws, say: no dropout, its own compositions each). 0 adds nothing.
  void step(const RoundKind& kind, std::uint64_t rounds = 1);
  void step(const Accountant& use, std::uint64_t uses = 1);
  /// `next`'s rounds after these.
  void then(const RunLedger& next);
  /// Every round so far, k times over (k >= 1): each phase k times as long (compositions commute).
  void repeat(std::uint64_t k);

  struct Phase {
    std::optional<RoundKind> kind;  ///< a kind of round, or
    std::optional<Accountant> use;  ///< a given mechanism
    std::uint64_t rounds = 0;
  };
  const std::vector<Phase>& phases() const { return phases_; }
  /// The same rounds with `budget` in every kind (invalid_argument(budget) where a phase is a
  /// given mechanism).
  RunLedger with_budget(const Budget& budget) const;
  std::uint64_t rounds() const;
  /// Coordinate-rounds: m per round of a kind, a use's own compositions per use (K above).
  std::uint64_t compositions() const;
  std::uint64_t dropout_rounds() const;
  /// Whether every dropout round has lower bounds of its own (within dropout_mixture.hpp's
  /// limits); a round without them adds nothing to the lower bound.
  bool dropout_rounds_bounded_below() const;

  struct Answer {
    TwoSided bounds{0, 0};               ///< ε(δ) or δ(ε), certified
    std::optional<AttainedBy> attained;  ///< the configurations attaining the lower bound
    double moments = 0;                  ///< reference: the Rényi moments' bound
    double basic = 0;                    ///< reference: basic composition's bound
    Rational delta_mechanism;            ///< ε(δ): the mechanism's share of δ
    double failure_per_round = 0;        ///< β (0 without dropout)
    double failure = 0;                  ///< R_d·β, part of δ
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

 private:
  struct Built {
    std::optional<Accountant> run;
    std::vector<std::pair<Accountant, std::uint64_t>> uses;  ///< one use of each kind, and how many
  };
  /// The run's accountant with β per dropout round (unused without dropout).
  Built build(double failure_per_round) const;

  PldLimits limits_;
  std::vector<Phase> phases_;
};

/// The inverse question (Opacus' get_noise_multiplier): the largest ε_p, as every round's budget,
/// whose certified ε_upper(δ) is at most `target`. Bisection on dyadic ε_p in [2^−20, 64] to a
/// relative 2^−20; each trial a whole ledger. What holds at `largest` is certified (its ε_upper
/// was computed); "largest" is up to the step and to the bracket's width, since ε_upper need not
/// be exactly monotone in ε_p.
struct LargestBudget {
  std::optional<Rational> largest;  ///< none: even ε_p = 2^−20 gives more than the target
  std::optional<Rational> refuted;  ///< the smallest ε_p tried whose ε_upper is above the target
                                    ///< (none: 64 still meets it)
  double eps_upper = 0;             ///< ε_upper(δ) at `largest` (or at 2^−20 when there is none)
};
LargestBudget largest_eps(const RunLedger& ledger, const Rational& target, const Rational& delta);

}  // namespace corbin
