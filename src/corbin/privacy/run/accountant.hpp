#pragma once
// The certified two-sided accountant: Theorem 3's mechanism (one coordinate of the released sum)
// composed k = m·T times (m coordinates, T rounds), with ε(δ) and δ(ε) bounded on both sides:
//     eps.lower <= ε(δ) <= eps.upper,   delta.lower <= δ(ε) <= delta.upper,
// where ε(δ) is the worst case over every pair of neighbouring datasets.
//
// What the bounds cover. The neighbouring relation is the setting's (replace one: client 1's
// inputs differ; remove one: client 1 is absent, Eq. (1)), in both orders (D against D' and D'
// against D). Every other client's input is the adversary's, anywhere in [c − r, c + r], chosen
// separately in each coordinate and round, even after seeing earlier outputs; client 1's inputs
// (and its partner's) likewise. The upper bound composes one pessimistic distribution that
// dominates every configuration at once (envelope.hpp), after the proved reduction to finitely
// many configurations (neighbours.hpp); blocks of many clients enter through a relaxation that
// only raises it (aggregate_law.hpp). Where every loss is bounded, the largest moments of the
// family give a second upper bound, tighter for long compositions (moments.hpp); the smaller of
// the two is reported. The lower bound is attained: it is the exact composition
// (optimistically discretised) of one configuration used in every coordinate and round, named by
// `attained_by`, so anyone can recompute it. A bound of +∞ means no finite ε reaches δ (for the
// lower bound: certainly none does).

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "corbin/privacy/exact/privacy_loss.hpp"
#include "corbin/privacy/worst_case/aggregate_law.hpp"
#include "corbin/privacy/pld/loss_grid.hpp"
#include "corbin/privacy/pld/moments.hpp"
#include "corbin/privacy/pld/pld.hpp"

namespace corbin {

/// Largest number of compositions accepted (the cost grows as log2 k).
constexpr std::uint64_t kMaxCompositions = std::uint64_t(1) << 40;

struct TwoSided {
  double lower, upper;  ///< +∞ allowed; 0 <= lower <= upper
};

/// A configuration that attains a lower bound: every client's input, in words, and the same in
/// every coordinate and round (a `then` composition names each part).
struct AttainedBy {
  std::vector<ConfigurationWords> parts;  ///< one per mechanism composed with `then`, or per mixture
  std::vector<std::uint64_t> repeats;     ///< how many times each part is used
  /// Per part: whether its pair of datasets is used the other way round, the neighbour's input in
  /// the first dataset and client 1's in the second (a lower bound may take either order, and a
  /// mixture of directions takes both).
  std::vector<bool> reversed;
  /// The parts are the configurations an adaptive strategy plays (choice_plan.hpp): each use's
  /// chosen by the privacy loss of the outputs before it, and `repeats` the uses in which it may
  /// play each part (so they may add up to more than the uses).
  bool adaptive = false;
};

/// A pair of neighbouring laws of a mechanism's release (or of a coarsening of it) and the
/// configuration that gives them: a lower bound anyone can recompute.
struct AttainedLaws {
  NeighbouringPmfs laws;
  ConfigurationWords words;
  /// An upper bound on every privacy loss of the pair, either way round (+∞: none known); where
  /// every member has one, the family's Rényi moments give a second upper bound (moments.hpp).
  double max_loss = std::numeric_limits<double>::infinity();
  /// Whether some configuration of inputs gives this pair. A builder whose reduction relaxes the
  /// family (a vertex of a hull that no input reaches) lists such members for the upper bounds
  /// only: no lower bound is taken from them, and the adversary's strategies play attained ones.
  bool attained = true;
};

/// A lower bound computed whole: the optimistic PLDs of a pair of laws of the release (or of a
/// coarsening of it), P against Q and Q against P, and the configuration that gives them.
struct AttainedPlds {
  LowerPld forward, backward;
  ConfigurationWords words;
};
/// A pair of laws' optimistic PLDs, both ways, with its words.
AttainedPlds attained_plds(const AttainedLaws& laws, const PldLimits& limits);

class ChoicePlan;  // choice_plan.hpp

class Accountant {
 public:
  /// One coordinate, one round, of the setting: the worst case over its configurations.
  explicit Accountant(const AccountSetting& s, const PldLimits& limits = {});
  /// The mechanism whose neighbouring laws are p and q on one window (tests, other mechanisms).
  Accountant(const WindowPmf& p, const WindowPmf& q, bool disjoint, const PldLimits& limits = {});

  /// The grid a pair of laws is accounted on by default (the CLI's and Python's pair of laws):
  /// one chain of FFT powers and no family's envelope, so four times the mechanisms'
  /// default grid costs about a second at k = 10^4 and brackets ε narrower than Google's
  /// dp_accounting and Microsoft's prv_accountant at their defaults from k = 10 to 10^4
  /// (docs/benchmarks.md, "Accountant peers").
  static constexpr std::size_t kLawsCells = 8192;
  /// The mechanism whose neighbouring laws are p and q on the outputs 0..len − 1, exact values
  /// (the peers' question: one pair of datasets in every use). Raises invalid_argument naming p or
  /// q: lengths that differ, none, more than kMaxLawValues, a negative value, a sum other than 1.
  static Accountant from_laws(const std::vector<Rational>& p, const std::vector<Rational>& q,
                              const PldLimits& limits = {});
  static constexpr std::size_t kMaxLawValues = std::size_t(1) << 16;

  /// One use of a mechanism that releases nothing of client 1 (every privacy loss 0): a label
  /// under which client 1 sits out, such as a round it dropped out of (run/round.hpp).
  static Accountant silent(const PldLimits& limits = {});

  /// One use of a mechanism given as a family of configurations, each a pair of neighbouring
  /// laws with its words: the worst case over the family (every member, chosen freely in each use,
  /// even adaptively). `both_orders`: every member's pair is listed the other way round too, so one
  /// envelope covers both directions, and a use may take either (replace one); otherwise each
  /// direction gets its own, kept for the whole run (remove one: client 1 in one dataset). The builder of a
  /// mechanism's family owes the proof that it holds every configuration's worst case (a
  /// reduction such as neighbours.hpp's). At least one member.
  static Accountant from_family(const std::vector<AttainedLaws>& members, bool both_orders,
                                const PldLimits& limits = {});
  /// One use of a mechanism given by its privacy-loss distributions, P against Q and Q against P:
  /// pessimistic (`upper`) and optimistic (`lower`) as pld.hpp defines them, `by` naming the pair
  /// of datasets the lower ones are (a closed form's), under `relation` (remove one keeps
  /// client 1 in one dataset throughout: no lower end mixes the two orders over uses); `uses`:
  /// how many uses the PLDs are of, together (a round's m coordinates sharing one draw:
  /// worst_case/noise_sum.hpp), at least 1.
  static Accountant from_plds(const UpperPld& upper_forward, const UpperPld& upper_backward,
                              const LowerPld& lower_forward, const LowerPld& lower_backward,
                              const AttainedBy& by, Neighbour relation, const PldLimits& limits = {},
                              std::uint64_t uses = 1);

  /// This mechanism composed k times with itself (1 <= k <= kMaxCompositions).
  Accountant compose(std::uint64_t k) const;
  /// m coordinates per round over `rounds` rounds (m·rounds <= kMaxCompositions): compose(m·rounds),
  /// the same doubles, and what the worst case over the adversary's actual choices
  /// (choice_plan.hpp) needs to know: a round's coordinates are configured together, before its
  /// outputs (one round: the worst case over multisets of configurations), and the rounds follow
  /// each other's outputs.
  Accountant coordinates(std::uint64_t m, std::uint64_t rounds = 1) const;
  std::uint64_t compositions() const { return k_; }
  /// This mechanism followed by `next` (on the same pair of neighbouring datasets); the grid
  /// limits are this one's.
  Accountant then(const Accountant& next) const;
  /// The same uses for parts in any order (a run whose phases were lengthened in place: the
  /// composed pairs commute, while the adversary's program over menus in turn answers for one
  /// order): a search over menus in turn is dropped, the parts' own searches kept.
  Accountant any_order() const;
  /// In each use, this mechanism or `other` (with as many compositions), whichever the adversary
  /// picks, as client 1's role in a round where every sequence of roles is the statement
  /// (run/round.hpp): the upper bounds hold for every sequence of the two, even one chosen from
  /// the outputs before; the lower bounds are each one's used throughout and, searched at the
  /// query (choice_plan.hpp), a strategy picking each round's one from the privacy loss so far.
  /// A role drawn by chance is mixture()'s (whose lower bounds such a strategy would overstate).
  Accountant either(const Accountant& other) const;
  /// In each use, this mechanism with probability w, else `other` (as many compositions), the
  /// choice drawn independently of the data and revealed: client 1's role in a round as the
  /// server draws it (run/round.hpp). Upper and lower bounds alike are the labelled mixture's
  /// (pld.hpp: mixture); a lower bound mixes an attained configuration of each, its words saying
  /// which draw uses it (`when_this`, `when_other`: "client 1 alone", "client 1 paired"). The
  /// adversary's choices given each round's draw are searched at the query where both keep them
  /// (choice_plan.hpp: ChoicePlan::mixture), the strategy fixing client 1's input before the draw;
  /// the members searched one by one at the query (singles) are not carried.
  Accountant mixture(const Rational& w, const Accountant& other, const std::string& when_this,
                     const std::string& when_other) const;
  /// This mechanism bounded by a second pair of the same mechanism (an adversary told something
  /// else: worst_case/noise_sum.hpp), as many compositions: each direction's pessimistic PLD the
  /// meet of the two (pld/meet.hpp), dominated by both at every e^ε, and the lower bounds of
  /// both kept. This one keeps its searches of the adversary's choices, its moments and its
  /// exact laws (each bounds the same mechanism; the query takes the smaller upper end); `other`
  /// may have none of them (a pair of PLDs), as many compositions and the same relation; raises
  /// invalid_argument("other") else.
  Accountant tighter(const Accountant& other) const;
  /// The same accountant, keeping the powers of its pessimistic PLDs that compose() computes, for
  /// the next compose() (pld/power_memo.hpp: the same products in the same order, so the same
  /// doubles): asked for k = 1, 2, 3, ... (a run's rounds one at a time), each compose(k) then
  /// costs one product per direction for its upper bounds. Copies share what is kept.
  Accountant keeping_powers() const;
  /// The same without its lower bounds (half the work where only upper bounds are asked for). In
  /// a `then`, a part without lower bounds adds nothing to the whole's lower bound (dropping its
  /// output is post-processing, so the rest's lower bound still holds).
  Accountant upper_only() const;
  /// upper_only, but keeping the family member by member for the upper end's search of the
  /// adversary's choices (choice_plan.hpp), none of them attained: a family that covers a
  /// stronger adversary than the mechanism as run (a dropout round's populations, each with the
  /// other clients' inputs chosen after the draw: run/round.cpp).
  Accountant bounding() const;
  /// These lower bounds added to this one's, each of all this accountant's uses together (a
  /// dropout round's m coordinates with their shared draw: dropout_mixture.hpp).
  Accountant with_attained_plds(const std::vector<AttainedPlds>& attained) const;
  /// The same accountant, one use of which is one round of a mechanism as run, with `members`:
  /// configurations the adversary can choose in any round (a dropout round's mixtures over who
  /// survived, with the inputs fixed before its draw: dropout_mixture.hpp), but not all of them.
  /// At the query, the worst case over adaptive choices among them (the adversary picks each
  /// round's member after seeing the rounds before: choice_plan.hpp) is searched for a lower end
  /// only, attained by the strategy it names; its upper end covers these members alone and is not
  /// used. compose(k) and coordinates(1, k) keep them as k rounds (so an accountant carrying them
  /// is composed over rounds only); then() with the other part's members, or where it has none
  /// its family's attained ones (one menu, or menus in turn: ChoicePlan::then); mixture()
  /// where both have them (searched given each round's draw); coordinates(m, ·) with m > 1 and
  /// either() do not. The members' one-use lower bounds are the caller's to add
  /// (with_attained_plds). At least one member, each attained.
  Accountant with_adaptive_lower(const std::vector<AttainedLaws>& members) const;
  /// The search runs where the members' outcomes, all together, times the rounds are at most
  /// this: its grids grow with both (n = 200 clients, 1 000 rounds ran past 5 minutes, for a
  /// gain under 0.1 %), while its gain is largest over few rounds of few clients (n = 4, two
  /// rounds: 5 %).
  static constexpr double kMaxAdaptiveLowerWork = 131072;

  /// Bounds on ε(δ) for δ in (0, 1).
  TwoSided epsilon(const Rational& delta) const;
  /// Bounds on δ(ε) for ε >= 0.
  TwoSided delta(const Rational& eps) const;
  /// The upper bounds alone, and the lower bounds alone (0 where there are none).
  double epsilon_upper(const Rational& delta) const;
  double delta_upper(const Rational& eps) const;
  double epsilon_lower(const Rational& delta) const;
  double delta_lower(const Rational& eps) const;
  /// The moments' (Rényi) bounds alone: a reference beside the PLD's, +∞ (or 1) where the losses
  /// are unbounded.
  double epsilon_from_moments(const Rational& delta) const;
  double delta_from_moments(const Rational& eps) const;
  /// The configuration attaining epsilon(delta).lower (or delta(eps).lower); none where the
  /// accountant was built from a pair of laws or has no lower bounds.
  std::optional<AttainedBy> attaining_epsilon(const Rational& delta) const;
  std::optional<AttainedBy> attaining_delta(const Rational& eps) const;

  /// The pessimistic PLD of all its uses composed, P against Q (`forward`) or Q against P: one
  /// pair that dominates every configuration in every use (the upper end's searches of the
  /// adversary's choices and its moments aside), for a builder that maps it into another
  /// mechanism's (worst_case/counted_remove.hpp).
  const UpperPld& pessimistic(bool forward) const { return upper_[forward ? 0 : 1]; }

  /// The configurations the worst case is over (the reduction's family); of them, those computed
  /// one by one, and the blocks bounded together (the rest follow by mirror symmetry, where the
  /// family has it); 0 from laws.
  std::size_t family_size() const { return family_size_; }
  std::size_t configurations() const { return configurations_; }
  std::size_t blocks() const { return blocks_; }

 private:
  Accountant() = default;
  /// What either() and mixture() share: `other` with as many compositions (else
  /// invalid_argument("compositions")), the limits, counts and flags of both; no bounds yet.
  Accountant per_use_with(const Accountant& other) const;
  /// One configuration's attained compositions: each element is the optimistic PLD of some pair
  /// of neighbouring datasets (first P against Q, then Q against P, then mixtures of the two
  /// directions, which replace one allows from coordinate to coordinate).
  struct Lower {
    std::vector<LowerPld> pld;
    std::optional<AttainedBy> by;
    /// The same sequence's first k' < k uses (the powers its composition passed through), one
    /// direction as pld[0]: δ(ε) and ε(δ) of a composition never fall as uses are added (the
    /// later outputs dropped are a post-processing), so each is a lower bound for all k too, and
    /// the better one where the long composition's rounding has eaten into its mass (δ_lower fell
    /// from 1 to 0.47 between k = 2^10 and 2^40).
    std::vector<LowerPld> shorter = {};
  };
  /// For one use built from a setting: the family and, at every grid point of each envelope, its
  /// value and the attained configuration largest there, so that a query's lower bound is taken
  /// at the configuration that decides it.
  struct SingleUse {
    struct Envelope {
      LossGrid grid;
      std::vector<double> value;
      std::vector<std::size_t> tag;
    };
    std::shared_ptr<const AggregateFamily> family;
    std::vector<Envelope> envelopes;
  };
  std::vector<Lower> near_query(bool by_delta, const Rational& at) const;
  /// The largest lower bound on ε(δ) (`by_delta`) or δ(ε), and its configuration.
  /// `choices`: with the worst case over the adversary's actual choices (plan_).
  /// `exact`: exact_answer(by_delta, at) where the caller has it (one query computes it once).
  using Exact = std::optional<TwoSided>;
  std::pair<double, std::optional<AttainedBy>> best_lower(bool by_delta, const Rational& at,
                                                          bool choices = true, const Exact* exact = nullptr) const;
  bool has_plan() const;
  bool has_lower_plan() const;  ///< lower_plan_ for exactly this accountant's uses
  /// The plan's upper bound on ε(δ) (`by_delta`) or δ(ε), or `pair` where it has none.
  double choice_upper(bool by_delta, const Rational& at, double pair, const Exact& exact) const;
  /// epsilon_upper and delta_upper with exact_answer given, their inputs checked.
  double eps_upper_with(const Rational& delta, const Exact& exact) const;
  double delta_upper_with(const Rational& eps, const Exact& exact) const;

  PldLimits limits_;
  bool mixes_ = false;      ///< replace one: directions may differ between coordinates
  bool symmetric_ = false;  ///< upper_[1] is upper_[0] (one envelope covers both directions)
  std::uint64_t k_ = 1;
  UpperPld upper_[2];      ///< [0]: P against Q, [1]: Q against P
  LogMoments moments_[2];  ///< the same directions' moment bounds (moments.hpp)
  /// An upper bound on every privacy loss of the k uses, each direction (+∞: none known): k times
  /// a bound on one use's. Where it is finite the composition is (max_loss, 0)-DP, so ε_upper(δ)
  /// never exceeds it, however small δ (the PLD's tails moved to +∞ give +∞ below their mass).
  double max_loss_[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  std::vector<Lower> lower_;
  /// One use's families (one, or each of an `either`'s), for lower bounds chosen at the query.
  std::vector<std::shared_ptr<const SingleUse>> singles_;
  /// The family member by member and the uses, for the worst case over the adversary's actual
  /// choices (choice_plan.hpp); none where the accountant is not one family's uses.
  std::shared_ptr<const ChoicePlan> plan_;
  /// Members of the mechanism as run, searched for an adaptive lower end only (with_adaptive_lower):
  /// each use a round.
  std::shared_ptr<const ChoicePlan> lower_plan_;
  std::size_t lower_points_ = 0;  ///< its members' outcomes, all together
  /// The parts of a `then` whose uses no one plan covers, or covers as menus in turn (whose
  /// program may be past its limits), each with its own plan: a part's lower bound is the whole's
  /// too (the other parts' outputs dropped are a post-processing).
  std::vector<std::shared_ptr<const Accountant>> parts_;
  /// One use of a pair of laws given exactly (from_laws), P against Q and Q against P: a query
  /// of that one use (k = 1: every copy of this accountant with k = 1 is the same mechanism, the
  /// others are fresh or composed) is answered exactly besides the grid's bounds.
  std::shared_ptr<const std::array<PrivacyLoss, 2>> exact_;
  /// ε(δ) or δ(ε) of exact_'s one use, enclosed (the larger order); none without exact_, with
  /// k > 1, or where a comparison with a transcendental e^ε cannot be decided.
  std::optional<TwoSided> exact_answer(bool by_delta, const Rational& at) const;
  /// The powers of upper_ kept for compose() (keeping_powers); none by default.
  struct KeptPowers;
  std::shared_ptr<KeptPowers> kept_;
  std::size_t family_size_ = 0, configurations_ = 0, blocks_ = 0;
};

}  // namespace corbin
