#pragma once
// The exact worst case over a family for uses chosen together: the coordinates of one round, all
// configured before anything is released, so the adversary's choice is a sequence of members fixed
// in advance. Composition commutes (privacy-loss distributions multiply), so only the multiset of
// members matters: ε(δ) of the uses is the largest over the C(|F| + k − 1, k) multisets of size k
// of the composition's ε(δ). Each member's pessimistic and optimistic PLDs (pld.hpp) are composed
// along every multiset with the certified products of pld.hpp; the upper end of a maximum is the
// largest of the upper ends, and the lower end the largest of the lower ends over multisets of
// attained members, attained by the multiset that gives it. The multisets are visited as a tree
// (each a non-decreasing sequence of members), so a prefix's product is computed once.

#include <cstdint>
#include <vector>

#include "corbin/number/rational.hpp"
#include "corbin/privacy/pld/pld.hpp"

namespace corbin {

/// One member's certified PLDs, P against Q.
struct MultisetMember {
  UpperPld upper;
  LowerPld lower;
  bool attained = true;  ///< some pair of datasets has it (else upper bounds only)
};

/// C(members + k − 1, k), the number of multisets of size k, or `cap` + 1 past `cap` (cap below
/// 2^20; members and k below 2^42).
std::uint64_t multiset_count(std::size_t members, std::uint64_t k, std::uint64_t cap);

struct MultisetAnswer {
  double upper = 0;  ///< ε(δ) or δ(ε) bounded above: the largest over the multisets
  double lower = 0;  ///< bounded below: the largest over the multisets of attained members
  /// The multiset attaining `lower`: how many uses of each member (empty if no attained one).
  std::vector<std::uint64_t> counts;
  std::uint64_t multisets = 0;  ///< how many were composed
};

/// The worst case of k >= 1 uses chosen together among `members` (at least one): ε(δ) at `at` =
/// δ (`by_delta`), or δ(ε) at `at` = ε. Raises invalid_argument naming members (none), k (0) or
/// multisets (more than `max_multisets`).
MultisetAnswer multiset_worst_case(const std::vector<MultisetMember>& members, std::uint64_t k,
                                   bool by_delta, const Rational& at, std::uint64_t max_multisets,
                                   const PldLimits& limits = {});

}  // namespace corbin
