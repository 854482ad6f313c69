#include "corbin/privacy/setting.hpp"

#include "corbin/number/error.hpp"
#include "corbin/quantizer/ldpq.hpp"

namespace corbin {

Neighbour parse_neighbour(const std::string& text) {
  if (text == "remove") return Neighbour::remove_one;
  if (text == "replace") return Neighbour::replace_one;
  throw invalid_argument("relation", quote(text), "remove or replace");
}

const char* to_string(Neighbour n) {
  return n == Neighbour::remove_one ? "remove" : "replace";
}

void check_role_present(const PopulationCounts& counts, TargetClient::Role role,
                        const Rational& gamma) {
  if (role == TargetClient::Role::ldpq && counts.ldpq == 0)
    throw invalid_argument(
        "role", "ldpq",
        "a role some client has (γ = " + to_string(gamma) + " leaves no LDPQ client)");
  if (role != TargetClient::Role::ldpq && counts.pairs == 0)
    throw invalid_argument("role", "paired",
                           "a role some client has (no pairs at γ = " + to_string(gamma) + ")");
}

PopulationCounts population_counts(unsigned long n, const Rational& gamma) {
  std::size_t ldpq = floor_of(Rational(Rational(BigInt(n)) * gamma)).convert_to<std::size_t>();
  if ((n - ldpq) % 2 != 0) ++ldpq;  // an unpaired client quantizes alone (LDPQ)
  return {ldpq, (n - ldpq) / 2};
}

void check_account_budget(const Budget& b) {
  const std::string why =
      " for the certified accountant (an LDPQ client's unlikely output, probability 1/(e^ε + 1), must "
      "stay above the 10^-280 its windows hold; beyond, the budget alone bounds ε(δ): ε_p a use)";
  if (b.kind == Budget::Kind::eps) {
    if (b.value > kMaxAccountEps)
      throw invalid_argument("eps", b.shown_value(),
                             "at most " + std::to_string(kMaxAccountEps) + " (e^ε at most 10^" +
                                 std::to_string(kMaxAccountExpEpsDigits) + ")" + why);
    return;
  }
  static const Rational most(boost::multiprecision::pow(BigInt(10), kMaxAccountExpEpsDigits));
  if (b.exp_eps_exact() > most)
    throw invalid_argument(b.parameter(), b.shown_value(),
                           std::string(b.kind == Budget::Kind::alpha ? "such that e^ε = (α + 1)/(α − 1) is " : "") +
                               "at most 10^" + std::to_string(kMaxAccountExpEpsDigits) + why);
}

void check_account_setting(const AccountSetting& s) {
  check_account_budget(s.budget);
  if (s.n < 2) throw invalid_argument("n", std::to_string(s.n), "at least 2");
  if (s.n > kMaxAccountClients)
    throw invalid_argument("n", std::to_string(s.n),
                           "at most " + std::to_string(kMaxAccountClients));
  if (s.gamma < 0 || s.gamma > 1) throw invalid_argument("gamma", to_string(s.gamma), "in [0, 1]");
  check_radius(s.radius);
  if (s.counts) {
    const std::uint64_t clients = s.counts->ldpq + 2 * std::uint64_t(s.counts->pairs);
    if (clients < 1 || clients > kMaxAccountClients)
      throw invalid_argument("counts",
                             std::to_string(s.counts->ldpq) + " LDPQ clients and " +
                                 std::to_string(s.counts->pairs) + " pairs",
                             "between 1 and " + std::to_string(kMaxAccountClients) + " clients");
  }
  check_role_present(counts_of(s), s.role, s.gamma);
}

PopulationCounts counts_of(const AccountSetting& s) {
  return s.counts ? *s.counts : population_counts(s.n, s.gamma);
}

bool same_setting(const AccountSetting& a, const AccountSetting& b) {
  const bool same_counts = a.counts.has_value() == b.counts.has_value() &&
                           (!a.counts || (a.counts->ldpq == b.counts->ldpq && a.counts->pairs == b.counts->pairs));
  return a.n == b.n && a.gamma == b.gamma && a.budget.kind == b.budget.kind && a.budget.value == b.budget.value &&
         a.center == b.center && a.radius == b.radius && a.bits == b.bits && a.variant == b.variant &&
         a.relation == b.relation && same_counts;
}

}  // namespace corbin
