#include "corbin/privacy/run/run_accountant.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "corbin/number/error.hpp"

namespace corbin {

namespace {

/// The population's setting for each role it has.
std::optional<AccountSetting> with_role(const AccountSetting& population, bool alone) {
  const PopulationCounts counts = counts_of(population);
  if ((alone ? counts.ldpq : counts.pairs) == 0) return std::nullopt;
  return population;
}

}  // namespace

RunAccountant::RunAccountant(const AccountSetting& population, std::uint64_t coordinates,
                             const Rational& delta, const PldLimits& limits)
    : RunAccountant(with_role(population, true), with_role(population, false), coordinates, delta,
                    limits) {}

RunAccountant::RunAccountant(const std::optional<AccountSetting>& alone,
                             const std::optional<AccountSetting>& paired, std::uint64_t coordinates,
                             const Rational& delta, const PldLimits& limits)
    : m_(coordinates), delta_(delta) {
  if (coordinates < 1 || coordinates > kMaxCompositions)
    throw invalid_argument("m", std::to_string(coordinates),
                           "in [1, " + std::to_string(kMaxCompositions) + "]");
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  if (!alone && !paired) throw invalid_argument("role", "none", "at least one role for client 1");
  const auto build = [&limits](AccountSetting s, TargetClient::Role role) {
    s.relation = Neighbour::replace_one;
    s.role = role;
    check_account_setting(s);
    return Accountant(s, limits).upper_only();  // the run reports upper bounds only
  };
  if (alone) ldpq_.emplace(build(*alone, TargetClient::Role::ldpq));
  if (paired) paired_.emplace(build(*paired, TargetClient::Role::leader));
  if (ldpq_) ldpq_m_ = ldpq_->compose(m_);
  if (paired_) paired_m_ = paired_->compose(m_);
}

RunAccountant::RunAccountant(const Accountant& round, std::uint64_t coordinates, const Rational& delta)
    : m_(coordinates), delta_(delta) {
  if (coordinates < 1 || coordinates > kMaxCompositions)
    throw invalid_argument("m", std::to_string(coordinates),
                           "in [1, " + std::to_string(kMaxCompositions) + "]");
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  if (round.compositions() != 1) throw invalid_argument("round", std::to_string(round.compositions()), "one use");
  ldpq_.emplace(round.upper_only());  // one role; the run reports upper bounds only
  ldpq_m_ = ldpq_->compose(m_);
}

void RunAccountant::reset() {
  coordinate_.clear();
  model_.clear();
  rounds_ = 0;
  coordinate_infinite_ = model_infinite_ = false;
  coordinate_worst_ = model_worst_ = 0;
}

namespace {

/// The frontier after one more round: [a] gains a paired round, and a new [R + 1] an LDPQ one.
void extend_frontier(std::vector<Accountant>& f, const Accountant& alone,
                     const Accountant& paired) {
  if (f.empty()) {
    f = {paired, alone};
    return;
  }
  std::vector<Accountant> next;
  next.reserve(f.size() + 1);
  for (const Accountant& x : f) next.push_back(x.then(paired));
  next.push_back(f.back().then(alone));
  f = std::move(next);
}

/// The largest ε_upper(δ) over the frontier. One ε_upper is a search over δ_upper, so it is
/// computed only where needed: E is kept while δ_upper(E) <= δ for an element (its ε(δ) is then
/// at most E), and replaced by the element's ε_upper otherwise. Starts from the all-paired end,
/// the worse role where the two differ most (a paired client is the more exposed one).
double worst(const std::vector<Accountant>& f, const Rational& delta) {
  double out = f.front().epsilon_upper(delta);
  for (std::size_t a = 1; a < f.size() && !std::isinf(out); ++a)
    if (Rational(f[a].delta_upper(Rational(out))) > delta)
      out = std::max(out, f[a].epsilon_upper(delta));
  return out;
}
}  // namespace

void RunAccountant::extend() {
  if (!coordinate_infinite_) {
    extend_frontier(coordinate_, *ldpq_, *paired_);
    coordinate_worst_ = worst(coordinate_, delta_);
    if (std::isinf(coordinate_worst_)) {
      coordinate_infinite_ = true;
      coordinate_.clear();
    }
  }
  if (!model_infinite_) {
    extend_frontier(model_, *ldpq_m_, *paired_m_);
    model_worst_ = worst(model_, delta_);
    if (std::isinf(model_worst_)) {
      model_infinite_ = true;
      model_.clear();
    }
  }
  ++rounds_;
}

RunAccountant::Bounds RunAccountant::after(std::uint64_t rounds) {
  if (rounds < 1 || rounds > kMaxCompositions / m_)
    throw invalid_argument("rounds", std::to_string(rounds),
                           "in [1, " + std::to_string(kMaxCompositions / m_) +
                               "] (m·rounds <= " + std::to_string(kMaxCompositions) + ")");
  if (!both_roles()) {
    // One round's m coordinates composed R times: log2 R products a call instead of log2(m·R).
    const Accountant& one = ldpq_ ? *ldpq_ : *paired_;
    const Accountant& round = ldpq_ ? *ldpq_m_ : *paired_m_;
    return {one.compose(rounds).epsilon(delta_).upper, round.compose(rounds).epsilon(delta_).upper};
  }
  if (rounds < rounds_) reset();
  while (rounds_ < rounds) extend();
  return {coordinate_worst_, model_worst_};
}

}  // namespace corbin
