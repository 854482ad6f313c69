#pragma once
// The worst case over an adaptive adversary's actual choices: a dynamic program over the
// accumulated privacy loss, certified both ways. Beside the dominating pair (envelope.hpp), which
// behaves as if the adversary could pick each use's configuration after seeing that use's output,
// this is exact up to discretisation for an adversary who picks each use's configuration from a
// finite family after seeing the earlier uses' outputs.
//
// The reduction (its core is proved in Coq for finite laws: proofs-check/coq/Adaptive.v, pinned
// as holds__ACC__adaptive_program). Let each use t = 1..k run one member c of a finite family, chosen by the
// adversary as any function of the earlier outputs o_1..o_(t−1) (a random choice is a mixture of
// deterministic ones, and the hockey-stick divergence is jointly convex, so it never does better).
// Both worlds run the same strategy on the same outputs, so the transcript has the laws
//     P(o) = Π_t P_(c_t)(o_t),   Q(o) = Π_t Q_(c_t)(o_t),   ln P(o)/Q(o) = ℓ_k = Σ_t L_(c_t)(o_t),
// the joint likelihood ratio being the product of the per-use ratios. With γ = e^ε,
//     H_γ(P‖Q) = Σ_o (P(o) − γ Q(o))₊ = E_P[(1 − e^(ε − ℓ_k))₊]   (ℓ_k = +∞ where Q(o) = 0),
// a reward that depends on the transcript through ℓ_k alone, and the law of ℓ_(t+1) given the past
// and the choice c is that of ℓ_t + L_c under P_c: a finite-horizon Markov decision problem with
// state ℓ_t, whose optimum over history-dependent strategies is V_0(0) (Bellman), with
//     V_k(ℓ) = (1 − e^(ε − ℓ))₊,   V_t(ℓ) = max_c E_(o ~ P_c)[V_(t+1)(ℓ + L_c(o))],   V_t(+∞) = 1.
// Two properties make it certifiable. (1) V_t is non-decreasing in ℓ (V_k is, and the recursion
// keeps it). (2) V_t(ℓ) = f_t(e^(−ℓ)) with f_t convex: V_t(ℓ) is the supremum over strategies of
// the remaining uses' hockey-stick H_(e^(ε−ℓ)), convex in its γ. Translation: the program for ε
// is the one for 0 shifted, V_t^ε(ℓ) = V_t^0(ℓ − ε), so one program answers every ε nearby.
//
// Drawn groups. Where each round's group (client 1's role) is drawn independently of the data,
// with chances w_g, and revealed before the adversary chooses, the transcript carries the draws,
// whose law is the same in both worlds, so ℓ is unchanged and the program's state still suffices:
// at a round's first use V_t(ℓ) = Σ_g w_g V^g_t(ℓ), where V^g follows the group's members alone
// through the round (V^g_t = max over g's members of E[V^g_(t+1)(ℓ + L_c)], V^g at the round's end
// the next round's V). Each V^g is a supremum of hockey sticks, so (1) and (2) hold for V too.
//
// Where the family comes from a reduction (neighbours.hpp, lone_clients.hpp), each use's worst
// case over every configuration is over the family's members: the functional
// (P, Q) ↦ E_P[V(ℓ + ln P/Q)] = Σ_o P(o) f(e^(−ℓ) Q(o)/P(o)) is a perspective of a convex f, so
// jointly convex (the reductions' Lemma 1) and non-increasing under post-processing (Lemma 3);
// a supremum that no input attains (a one-sided limit) bounds it by continuity.
//
// Upper bound. On a grid of step h = 2^scale, U_t >= V_t at every point, from t = k down:
//  * each member's atoms are split onto the grid keeping their P- and Q-mass (GridSplitter, with
//    masses rounded up and mass moved up where a split is uncertain): by (2) and Jensen,
//    V(ℓ + y) <= β V(ℓ + y_1) + (1 − β) V(ℓ + y_0) for the split's weights, and by (1) moving
//    mass up only raises; a larger mass only raises a non-negative V;
//  * past the window kept at step t, a point above takes 1 (V <= 1) and a point below takes the
//    window's lowest value (by (1)); mass at +∞ (a disjoint atom, a window's tail) takes 1;
//  * every sum is widened upward (directed.hpp), and U_t is capped at 1;
//  * a cluster of members may be replaced by one pair whose profile is at least each member's at
//    every e^ε (envelope.hpp): E_P[V(ℓ + L)] = Σ_o P(o) f(e^(−ℓ) Q(o)/P(o)) with f convex and
//    non-increasing is a non-decreasing functional of the profile (envelope.hpp's argument), so
//    the cluster's step bounds each member's.
// At t = 0, V_0^0 between two grid points is at most the chord in e^(−ℓ) of U_0 (by (2)), so
// δ(ε) = V_0^0(−ε) is bounded at any ε. The windows follow the loss's spread (Bernstein's
// inequality with each member's mean and variance): they decide tightness only, never validity.
//
// Lower bound. The program's own strategy, evaluated: at the first use of each round the strategy
// reads a state s_t (a function of the outputs so far: the cell of the accumulated loss) and plays
// the member that maximises the upper program's value there, among one group's attained members
// (a role client 1 keeps through the run; or among every group's, where the adversary picks the
// role too), in every use of that round (a round's coordinates are
// configured together: adapting within a round would not be attained). The transcript's laws are followed cell by cell, each cell
// holding every transcript with the same state: its P-mass bounded below and its Q-mass times
// e^(s h) above, exactly as an optimistic PLD (pld.hpp): merging transcripts into cells is a
// post-processing, so Σ_cells (P − γ Q)₊ <= H_γ of the strategy's transcript <= the adaptive worst
// case. Dropping a cell, or an atom, only leaves transcripts out of the sum. The result is a
// LowerPld whose δ and ε bounds (pld.hpp) are attained by that strategy.

#include <cstdint>
#include <vector>

#include "corbin/number/rational.hpp"
#include "corbin/privacy/pld/pld.hpp"
#include "corbin/privacy/pld/window_pmf.hpp"

namespace corbin {

/// One configuration a use may run: its pair of laws, P against Q, on one window.
struct ChoiceMember {
  const WindowPmf* p = nullptr;
  const WindowPmf* q = nullptr;
  bool disjoint = false;  ///< P(ln P/Q = +∞) = 1
  /// Some pair of datasets has it (else a supremum no input attains: upper bounds only).
  bool attained = true;
  /// A lower bound's strategy plays one group's attained members throughout (a role that
  /// client 1 keeps), or, where the query says the adversary picks the group too
  /// (`groups_chosen`), any group's; the upper bound ranges over every group's members in every use.
  std::size_t group = 0;
  /// Client 1's inputs (its data): where the group is drawn (ProgramQuery::group_weights), they
  /// are fixed before the draw, so a round's strategy plays members of one input in every group.
  std::size_t input = 0;
  /// The menu it is on (ProgramSegment::menu; its group is numbered within the menu).
  std::size_t menu = 0;
};

/// A stretch of consecutive uses with a menu of its own (a phase of a run: another mechanism, or
/// rounds with dropout after rounds without): its uses, its round's size, its menu's groups (as
/// ProgramQuery's `round`, `groups_chosen` and `group_weights` say for a run of one segment) and
/// the menu, the members that name it (ChoiceMember::menu): segments that repeat a phase name one
/// menu, with the same groups, and its members are listed once.
struct ProgramSegment {
  std::uint64_t uses = 1;
  std::uint64_t round = 1;
  bool groups_chosen = false;
  std::vector<Rational> group_weights;
  std::size_t menu = 0;
};

/// The program's size. Its grid is the coarsest the members allow (a quarter of their largest
/// standard deviation), refined while the backward pass's multiply-adds (each use's window of the
/// loss times the members' split atoms) stay within `refine_work` and its windows within
/// `max_cells`; where even the coarsest takes more than `max_work`, the program does not run.
struct ProgramLimits {
  std::size_t max_cells = std::size_t(1) << 16;
  double refine_work = 2.5e8;
  double max_work = 3e9;
  /// Kernels per group where every member its own would pass max_work even on the coarsest grid:
  /// a group is then bounded in this many clusters of consecutive members (the caller lists
  /// similar members together), each by the pair that dominates its members (envelope.hpp), which
  /// only raises the upper bound; the lower bound's strategy plays a cluster's attained member
  /// largest near loss 0.
  std::size_t kernels = 16;
  unsigned threads = 0;  ///< 0: the hardware's, at most 8
};

/// The question: ε(δ) with `at` = δ (`by_delta`), or δ(ε) with `at` = ε. For ε(δ), ε is known to
/// lie in [eps_low, eps_high] (bounds already computed; the program looks nowhere else, and
/// eps_high finite); for δ(ε), `delta_hint` is a lower bound on δ(ε) already known (0 if none),
/// which sets how far out the windows reach.
struct ProgramQuery {
  bool by_delta = true;
  Rational at;
  /// Uses per round: the lower bound's strategy chooses at each round's first use and keeps that
  /// member through the round (a round's coordinates are configured together, before its
  /// outputs); 0: unknown, no strategy (the upper bound, which lets every use adapt, still holds).
  std::uint64_t round = 1;
  /// Whether the adversary also picks each round's group (client 1's role, where every sequence of
  /// roles is the statement: RoundKind::any_role_sequence): one more strategy then plays any group's attained
  /// members, each round's from the state (ProgramAnswer::kAnyGroup).
  bool groups_chosen = false;
  /// Or the group drawn at each round's first use, independently of everything before and
  /// revealed (client 1's role as the server draws it): one probability per group, adding up to 1
  /// (empty: the adversary picks among every group's members in every use for the upper bound).
  /// The adversary then picks a member of the drawn group, knowing it: the upper bound's value is
  /// Σ_g w_g U^g at a round's first use, U^g the best of g's members through the round; the one
  /// strategy chooses client 1's input from the state, then on each draw that group's best member
  /// of that input. Needs `round` >= 1 (the draws are per round).
  std::vector<Rational> group_weights;
  double eps_low = 0, eps_high = 0;
  double delta_hint = 0;
  /// Where the menu changes along the run: its segments in order, their uses adding up to the
  /// run's, each naming its menu (ChoiceMember::menu). The adversary picks each use's
  /// member among its segment's menu, from the outputs so far: the Bellman value is the one above
  /// with the segment's menu at each use (Adaptive.v's menus may depend on the history, so on the
  /// time). Empty: one segment of every use, as `round`, `groups_chosen` and `group_weights` say
  /// (which keep their defaults where segments are given). With more than one segment there is
  /// one strategy (kAnyGroup): in each segment its drawn groups' policies on their draws, its
  /// any-group policy where the adversary picks the group, else its one group's.
  std::vector<ProgramSegment> segments;
};

struct ProgramAnswer {
  bool run = false;  ///< false: past the limits, nothing below is set
  /// ε(δ) bounded above (+∞ where the program finds no ε in the bracket), or δ(ε) (at most 1).
  double upper = 0;
  /// Per group with attained members (and, where groups are chosen, one over all of them): the
  /// optimistic PLD of its strategy's transcript, and per member the number of uses in which the
  /// strategy plays it at some state it reaches.
  /// A strategy's group where it plays every group's members (ProgramQuery::groups_chosen).
  static constexpr std::size_t kAnyGroup = ~std::size_t(0);
  struct Strategy {
    std::size_t group = 0;  ///< or kAnyGroup
    LowerPld lower;
    std::vector<std::uint64_t> uses;
  };
  std::vector<Strategy> strategies;
  int scale = 0;           ///< the grid's step 2^scale
  std::size_t cells = 0;   ///< the widest window
  double work = 0;         ///< multiply-adds of the upper program
  /// Whether members were bounded in clusters (ProgramLimits::kernels): a finer grid does not
  /// narrow what a cluster's dominating pair adds.
  bool clustered = false;
};

/// The worst case over `uses` adaptive choices among `members` (at least one), as above. Raises
/// invalid_argument naming `members` (none, a member without laws, or none on a menu), `uses`
/// (0, or not the segments' sum), `segments` (a member's menu no segment names, a menu named with
/// other groups, several groups of a menu neither drawn nor picked where there are several
/// segments) or `group_weights`.
ProgramAnswer adaptive_worst_case(const std::vector<ChoiceMember>& members, std::uint64_t uses,
                                  const ProgramQuery& query, const ProgramLimits& limits = {},
                                  const PldLimits& pld_limits = {});

}  // namespace corbin
