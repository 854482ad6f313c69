#include "corbin/privacy/pld/multiset_worst_case.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "corbin/number/error.hpp"
#include "corbin/privacy/pld/threads.hpp"

namespace corbin {

std::uint64_t multiset_count(std::size_t members, std::uint64_t k, std::uint64_t cap) {
  // C(n + k, k) with n = F − 1, as Π_(i=1..r) (n + k − r + i)/i over r = min(k, n): each partial
  // product is a binomial, so every division is exact, and they never decrease, so the walk stops
  // once past cap. With cap below 2^20 and n + k below 2^43 no product leaves 64 bits.
  if (members <= 1) return members;
  const std::uint64_t n = members - 1;
  if (cap >= (std::uint64_t(1) << 20) || n > (std::uint64_t(1) << 42) || k > (std::uint64_t(1) << 42))
    throw std::logic_error("multiset_count: cap below 2^20, members and k below 2^42");
  const std::uint64_t r = std::min<std::uint64_t>(k, n);
  std::uint64_t c = 1;
  for (std::uint64_t i = 1; i <= r; ++i) {
    c = c * (n + k - r + i) / i;
    if (c > cap) return cap + 1;
  }
  return c;
}

namespace {

struct Best {
  double upper = 0, lower = 0;
  std::vector<std::uint64_t> counts;
  bool have_lower = false;
  std::uint64_t multisets = 0;
};

/// Every multiset whose members are non-decreasing from `first`, below a prefix already composed.
class Walk {
 public:
  Walk(const std::vector<MultisetMember>& members, std::uint64_t k, bool by_delta, const Rational& at,
       const PldLimits& limits)
      : members_(members), k_(k), by_delta_(by_delta), at_(at), limits_(limits), counts_(members.size(), 0) {}

  void from(std::size_t first, Best& best) {
    counts_.assign(members_.size(), 0);
    counts_[first] = 1;
    const MultisetMember& m = members_[first];
    visit(first, 1, m.upper, m.attained ? std::optional<LowerPld>(m.lower) : std::nullopt, best);
  }

 private:
  void visit(std::size_t last, std::uint64_t depth, const UpperPld& upper,
             const std::optional<LowerPld>& lower, Best& best) {
    if (depth == k_) {
      ++best.multisets;
      const double u = by_delta_ ? eps_upper(upper, at_) : delta_upper(upper, at_);
      best.upper = std::max(best.upper, u);
      if (lower) {
        const double l = by_delta_ ? eps_lower(*lower, at_) : delta_lower(*lower, at_);
        if (!best.have_lower || l > best.lower) {
          best.lower = l;
          best.counts = counts_;
          best.have_lower = true;
        }
      }
      return;
    }
    for (std::size_t c = last; c < members_.size(); ++c) {
      const MultisetMember& m = members_[c];
      ++counts_[c];
      const std::optional<LowerPld> next_lower =
          lower && m.attained ? std::optional<LowerPld>(compose(*lower, m.lower, limits_)) : std::nullopt;
      visit(c, depth + 1, compose(upper, m.upper, limits_), next_lower, best);
      --counts_[c];
    }
  }

  const std::vector<MultisetMember>& members_;
  std::uint64_t k_;
  bool by_delta_;
  Rational at_;
  PldLimits limits_;
  std::vector<std::uint64_t> counts_;
};

}  // namespace

MultisetAnswer multiset_worst_case(const std::vector<MultisetMember>& members, std::uint64_t k,
                                   bool by_delta, const Rational& at, std::uint64_t max_multisets,
                                   const PldLimits& limits) {
  if (members.empty()) throw invalid_argument("members", "none", "at least one configuration");
  if (k == 0) throw invalid_argument("k", "0", "at least 1");
  const std::uint64_t count = multiset_count(members.size(), k, max_multisets);
  if (count > max_multisets)
    throw invalid_argument("multisets", "C(" + std::to_string(members.size()) + " + " + std::to_string(k) +
                                            " − 1, " + std::to_string(k) + ")",
                           "at most " + std::to_string(max_multisets));
  if (by_delta && (at <= 0 || at >= 1)) throw invalid_argument("delta", to_string(at), "in (0, 1)");
  if (!by_delta && at < 0) throw invalid_argument("eps", to_string(at), "at least 0");
  // Each first member's subtree on its own thread (the results merged in member order, so the
  // multiset named is the same whatever the threads).
  const std::size_t n = members.size();
  std::vector<Best> best(n);
  const unsigned threads = thread_count(n, limits.threads);
  run_on_threads(threads, [&](unsigned t) {
    Walk walk(members, k, by_delta, at, limits);
    for (std::size_t first = t; first < n; first += threads) walk.from(first, best[first]);
  });
  MultisetAnswer out;
  bool have = false;
  for (const Best& b : best) {
    out.multisets += b.multisets;
    out.upper = std::max(out.upper, b.upper);
    if (b.have_lower && (!have || b.lower > out.lower)) {
      out.lower = b.lower;
      out.counts = b.counts;
      have = true;
    }
  }
  return out;
}

}  // namespace corbin
