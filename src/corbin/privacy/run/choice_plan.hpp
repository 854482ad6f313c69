#pragma once
// The worst case over the adversary's actual choices, beside the accountant's dominating pair
// (accountant.hpp). The pair dominates every configuration of a use at every e^ε, so composing it
// bounds any sequence of configurations, but it behaves as if the adversary could pick each use's
// configuration after seeing that use's output; where the family's members differ in shape it is
// loose (5 % at n = 50, k = 10^3). An accountant built from a family keeps the family here and,
// asked at δ or ε, also computes:
//  * for uses chosen together (the m coordinates of one round, all configured before anything is
//    released), the exact worst case over multisets of members (multiset_worst_case.hpp), where
//    there are at most kMaxMultisets of them;
//  * otherwise (rounds, where the adversary sees the earlier outputs), the worst case over adaptive
//    choices by the dynamic program over the accumulated privacy loss (adaptive_program.hpp),
//    within its limits; where the configurations differ from phase to phase (then() of different
//    families: another mechanism, budget or γ, rounds with dropout after rounds without), one
//    program whose menu changes from segment to segment.
// Both are certified two-sided. The accountant reports the smaller upper end and the larger lower
// end; a lower end from here is attained by the multiset or by the program's strategy that it
// names. The relation decides the directions: replace one lists both orders of client 1's inputs
// in one family (each use may take either), remove one keeps client 1 in the same dataset
// throughout, each direction its own worst case. Where a round's role is either of two, as the
// adversary picks (the pair of Accountant::either), the upper end takes any member of either role
// in each use; the program's lower ends keep one role throughout, and one more strategy picks each
// round's role too, from the privacy loss so far (at n = 5, γ = 1/2, d = 2, e^ε = 2, two rounds,
// δ = 1/10, a role fixed for the run gives 0.4915 where picking gives 1.0984).

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "corbin/privacy/pld/adaptive_program.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/worst_case/aggregate_law.hpp"

namespace corbin {

/// Most multisets of members composed one by one for uses chosen together.
constexpr std::uint64_t kMaxMultisets = 2048;
/// The program runs where the family has at most this many members (its menus' together, each
/// once), and members times uses at most kMaxMemberUses (before any law is built); its own limits
/// (ProgramLimits) then bound its grid and its work.
constexpr std::size_t kMaxProgramMembers = 4096;
constexpr double kMaxMemberUses = 4e6;
/// A builder's members are kept (copied) where their windows hold at most this many points in all.
constexpr std::size_t kMaxKeptPoints = std::size_t(1) << 20;
/// Most menus in turn that one plan keeps (ChoicePlan::then): the program's backward pass walks
/// them in order, each a segment.
constexpr std::size_t kMaxPlanParts = 1024;

/// One use's configurations, member by member, in one direction: a reduction's family
/// (neighbours.hpp for Theorem 3's mechanism, a builder's list such as lone_clients.hpp's).
class UseFamily {
 public:
  /// Theorem 3's family at these configurations (every value of j one by one); `backward`: each
  /// member's pair the other way round (Q against P).
  UseFamily(std::shared_ptr<const AggregateFamily> family, std::vector<Configuration> members,
            bool backward);
  /// A builder's members, each attained.
  UseFamily(std::shared_ptr<const std::vector<AttainedLaws>> members, bool backward);

  std::size_t size() const;
  NeighbouringPmfs laws(std::size_t i) const;  ///< in this family's direction
  ConfigurationWords words(std::size_t i) const;
  bool attained(std::size_t i) const;
  bool backward() const { return backward_; }
  /// The same members for the upper end only: none attained (ChoicePlan::bounding).
  UseFamily bounding() const;
  /// The same members in the same direction: one builder's list, or Theorem 3's family of the
  /// same setting and role at the same configurations.
  bool same_as(const UseFamily& other) const;

 private:
  std::shared_ptr<const AggregateFamily> aggregate_;
  std::vector<Configuration> configurations_;
  std::shared_ptr<const std::vector<AttainedLaws>> list_;
  bool backward_ = false;
  bool bounds_only_ = false;
};

class ChoicePlan {
 public:
  /// One use: per direction the adversary may take for the whole run, the family of each role
  /// (one role here; Accountant::either adds the other).
  ChoicePlan(std::vector<UseFamily> directions, const PldLimits& limits);

  /// k times as many uses (k >= 1). Whether they are coordinates of one round or rounds is not
  /// said: the upper end lets every use adapt to the outputs before it (which covers both), and
  /// no strategy is attained (its lower end would adapt within a round).
  std::shared_ptr<const ChoicePlan> composed(std::uint64_t k) const;
  /// This one use as m coordinates (configured together) in each of `rounds` rounds (the adversary
  /// sees each round's outputs before the next): one round is the worst case over multisets
  /// where there are few; the strategy's lower end chooses once a round. Of a plan of more than
  /// one use, as composed(m·rounds), except that a plan of whole rounds stays one of rounds of
  /// the same size for m = 1 (a round's plan repeated over `rounds` rounds).
  std::shared_ptr<const ChoicePlan> rounds_of(std::uint64_t m, std::uint64_t rounds) const;
  /// In each use, a member of this plan's family or of `other`'s, whichever the adversary picks
  /// (as many uses, the same directions): none where they differ.
  std::shared_ptr<const ChoicePlan> either(const ChoicePlan& other) const;
  /// In each round, this plan's family with probability w, else `other`'s, drawn independently of
  /// the data and revealed before the adversary chooses (client 1's role as the server draws it:
  /// Accountant::mixture), `when_this` and `when_other` naming the draws in a strategy's words.
  /// Each plan one round of as many uses (Accountant::mixture draws once for all of an
  /// accountant's uses), the same directions, and one role or roles drawn already (a mixture:
  /// its draws then nest in this one's, each weighted by the product); else none.
  std::shared_ptr<const ChoicePlan> mixture(const Rational& w, const ChoicePlan& other, const std::string& when_this,
                                            const std::string& when_other) const;
  /// This plan's uses, then `next`'s: where both choose from the same families, as one family's
  /// uses composed (chosen after the outputs before); otherwise a plan whose menu changes from
  /// part to part (the program's segments: a phase of another mechanism, or of rounds with
  /// dropout), where both take each direction the same way round and the parts are at most
  /// kMaxPlanParts; none otherwise.
  std::shared_ptr<const ChoicePlan> then(const ChoicePlan& next) const;
  /// The same plan with no member attained: its search bounds from above only (a family that
  /// covers an adversary stronger than the mechanism as run, as where the other clients' inputs
  /// are chosen after a dropout draw: run/round.cpp), and no strategy over it is a lower end.
  std::shared_ptr<const ChoicePlan> bounding() const;

  struct Answer {
    bool computed = false;  ///< false: beyond the limits, or nothing to gain; nothing below holds
    double upper = 0;       ///< ε(δ) or δ(ε) bounded above
    double lower = 0;       ///< bounded below, attained by `by`
    std::optional<AttainedBy> by;
    bool multisets = false;  ///< from multisets (else from the program)
  };
  /// ε(δ) (`by_delta`, at = δ) or δ(ε) (at = ε). `fixed_lower` and `pair_upper` are the bounds
  /// the accountant has without this plan: the answer is sought between them, and not computed
  /// where they already meet. Computed once per question (later calls return the same answer).
  Answer answer(bool by_delta, const Rational& at, double fixed_lower, double pair_upper) const;

  std::uint64_t uses() const { return uses_; }
  /// The menus in turn: 1, or the parts of a plan joined by then().
  std::size_t menus() const { return parts_.empty() ? 1 : parts_.size(); }

 private:
  /// One menu's families in one direction, as the program reads a segment.
  struct Part {
    const ChoicePlan* plan;
    const std::vector<UseFamily>* roles;
  };
  /// Whether `next` chooses from the same families (then() joins them into one menu).
  bool joins(const ChoicePlan& next) const;
  /// A copy of everything but the answers, to change.
  std::shared_ptr<ChoicePlan> copy() const;
  std::shared_ptr<const ChoicePlan> with_uses(std::uint64_t uses, std::uint64_t round) const;
  /// The parts repeated `times` times, each with uses per round `round` (0: unknown) or its own
  /// (`keep_rounds`); none past kMaxPlanParts.
  std::shared_ptr<const ChoicePlan> repeated(std::uint64_t times, bool keep_rounds) const;
  std::size_t directions() const { return parts_.empty() ? directions_.size() : parts_.front()->directions_.size(); }
  Answer compute(bool by_delta, const Rational& at, double fixed_lower, double pair_upper) const;
  Answer by_multisets(const UseFamily& f, bool by_delta, const Rational& at) const;
  /// One use: the best attained member's lower end (the upper end stays the pair's, which is
  /// the members' envelope already).
  Answer by_members(bool by_delta, const Rational& at, double pair_upper) const;
  Answer by_program(const std::vector<Part>& parts, bool by_delta, const Rational& at, double fixed_lower,
                    double pair_upper) const;

  std::vector<std::vector<UseFamily>> directions_;  ///< [direction][role]
  /// Where the role is drawn each round (mixture): each role's probability and the words naming
  /// its draw (without the probability); empty where the adversary picks it (either) or there is
  /// one role.
  std::vector<Rational> weights_;
  std::vector<std::string> when_;
  PldLimits limits_;
  std::uint64_t uses_ = 1;
  /// Uses per round (the coordinates configured together): 0 unknown; uses_ itself: one round.
  std::uint64_t round_ = 1;
  /// A plan of menus in turn (then() of different families): each part a plan of one menu, as
  /// many directions in each; empty for one menu (the fields above).
  std::vector<std::shared_ptr<const ChoicePlan>> parts_;
  mutable std::mutex mutex_;
  mutable std::map<std::pair<bool, Rational>, Answer> answers_;
};

}  // namespace corbin
