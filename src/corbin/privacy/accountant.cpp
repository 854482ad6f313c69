#include "corbin/privacy/accountant.hpp"

#include <algorithm>
#include <string>

#include "corbin/number/error.hpp"

namespace corbin {

Accountant::Accountant(const WindowPmf& p, const WindowPmf& q, bool disjoint, const PldLimits& limits)
    : limits_(limits) {
  if (limits.max_cells < 16) throw invalid_argument("max_cells", std::to_string(limits.max_cells), "at least 16");
  upper_[0] = upper_pld(p, q, disjoint, limits);
  upper_[1] = upper_pld(q, p, disjoint, limits);
  lower_[0] = lower_pld(p, q, disjoint, limits);
  lower_[1] = lower_pld(q, p, disjoint, limits);
}

namespace {
Accountant from_setting(const AccountSetting& s, const PldLimits& limits) {
  const NeighbouringPmfs laws = aggregate_laws(s);
  return Accountant(laws.p, laws.q, laws.disjoint, limits);
}
}  // namespace

Accountant::Accountant(const AccountSetting& s, const PldLimits& limits) : Accountant(from_setting(s, limits)) {}

Accountant Accountant::compose(std::uint64_t k) const {
  if (k < 1 || k > kMaxCompositions)
    throw invalid_argument("compositions", std::to_string(k),
                           "in [1, " + std::to_string(kMaxCompositions) + "]");
  if (k_ > kMaxCompositions / k)
    throw invalid_argument("compositions", std::to_string(k_) + "·" + std::to_string(k),
                           "at most " + std::to_string(kMaxCompositions) + " in all");
  Accountant out;
  out.limits_ = limits_;
  out.k_ = k_ * k;
  for (int d = 0; d < 2; ++d) {
    out.upper_[d] = power(upper_[d], k, limits_);
    out.lower_[d] = power(lower_[d], k, limits_);
  }
  return out;
}

Accountant Accountant::then(const Accountant& next) const {
  if (k_ > kMaxCompositions - next.k_)
    throw invalid_argument("compositions", std::to_string(k_) + " + " + std::to_string(next.k_),
                           "at most " + std::to_string(kMaxCompositions) + " in all");
  Accountant out;
  out.limits_ = limits_;
  out.k_ = k_ + next.k_;
  for (int d = 0; d < 2; ++d) {
    out.upper_[d] = corbin::compose(upper_[d], next.upper_[d], limits_);
    out.lower_[d] = corbin::compose(lower_[d], next.lower_[d], limits_);
  }
  return out;
}

TwoSided Accountant::epsilon(const Rational& delta) const {
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  return {std::max(eps_lower(lower_[0], delta), eps_lower(lower_[1], delta)),
          std::max(eps_upper(upper_[0], delta), eps_upper(upper_[1], delta))};
}

TwoSided Accountant::delta(const Rational& eps) const {
  if (eps < 0) throw invalid_argument("eps", to_string(eps), "at least 0");
  return {std::max(delta_lower(lower_[0], eps), delta_lower(lower_[1], eps)),
          std::max(corbin::delta_upper(upper_[0], eps), corbin::delta_upper(upper_[1], eps))};
}

}  // namespace corbin

namespace corbin {

double Accountant::epsilon_upper(const Rational& delta) const {
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  return std::max(eps_upper(upper_[0], delta), eps_upper(upper_[1], delta));
}

double Accountant::delta_upper(const Rational& eps) const {
  if (eps < 0) throw invalid_argument("eps", to_string(eps), "at least 0");
  return std::max(corbin::delta_upper(upper_[0], eps), corbin::delta_upper(upper_[1], eps));
}

}  // namespace corbin
