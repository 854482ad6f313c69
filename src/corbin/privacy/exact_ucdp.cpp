#include "corbin/privacy/exact_ucdp.hpp"

#include <algorithm>

#include "corbin/number/error.hpp"
#include "corbin/privacy/privacy_loss.hpp"

namespace corbin {
namespace {

using Counts = PopulationCounts;

Population others_of(const ExactUcdpSetting& s, const Configuration& c, const Counts& counts) {
  const bool paired = s.role != TargetClient::Role::ldpq;
  Population others;
  const std::size_t ldpq = counts.ldpq - (paired ? 0 : 1);
  const Rational lo = s.geometry.center - s.geometry.radius, hi = s.geometry.center + s.geometry.radius;
  for (std::size_t i = 0; i < ldpq; ++i)
    others.ldpq.push_back(c.split ? (i % 2 == 0 ? lo : hi) : c.ldpq);
  for (std::size_t i = 0; i < counts.pairs - (paired ? 1 : 0); ++i)
    others.pairs.emplace_back(c.leader, c.follower);
  return others;
}

}  // namespace

void check_role_present(const PopulationCounts& counts, TargetClient::Role role, const Rational& gamma) {
  if (role == TargetClient::Role::ldpq && counts.ldpq == 0)
    throw invalid_argument("role", "ldpq", "a role some client has (γ = " + to_string(gamma) + " leaves no LDPQ client)");
  if (role != TargetClient::Role::ldpq && counts.pairs == 0)
    throw invalid_argument("role", "paired", "a role some client has (no pairs at γ = " + to_string(gamma) + ")");
}

PopulationCounts population_counts(unsigned long n, const Rational& gamma) {
  std::size_t ldpq = floor_of(Rational(Rational(BigInt(n)) * gamma)).convert_to<std::size_t>();
  if ((n - ldpq) % 2 != 0) ++ldpq;  // an unpaired client quantizes alone (LDPQ)
  return {ldpq, (n - ldpq) / 2};
}

Neighbour parse_neighbour(const std::string& text) {
  if (text == "remove") return Neighbour::remove_one;
  if (text == "replace") return Neighbour::replace_one;
  throw invalid_argument("relation", quote(text), "remove or replace");
}

const char* to_string(Neighbour n) { return n == Neighbour::remove_one ? "remove" : "replace"; }

Configuration proof_configuration(const Rational& center, const Rational& radius) {
  return {"proof: LDPQ at c - r, pairs at (c - r, c + r)", Rational(center - radius), false,
          Rational(center - radius), Rational(center + radius), Rational(center - radius)};
}

void check_exact_setting(const ExactUcdpSetting& s) {
  if (s.n < 2) throw invalid_argument("n", std::to_string(s.n), "at least 2");
  // The exact law has O(n) support points of O(n)-digit rationals, built by O(n) convolutions:
  // its cost grows about as n² (1 000 clients: 0.4 s; 3 000: 3.5 s), and 2^40 exhausted memory.
  if (s.n > kMaxExactClients)
    throw invalid_argument("n", std::to_string(s.n),
                           "at most " + std::to_string(kMaxExactClients) +
                               " for the exact law of the aggregate (its cost grows as n²; 3 000 take 3.5 s)");
  if (s.gamma < 0 || s.gamma > 1) throw invalid_argument("gamma", to_string(s.gamma), "in [0, 1]");
  if (s.delta <= 0 || s.delta >= 1) throw invalid_argument("delta", to_string(s.delta), "in (0, 1)");
  const Counts counts = population_counts(s.n, s.gamma);
  check_role_present(counts, s.role, s.gamma);
}

std::pair<SumLaw, SumLaw> neighbouring_laws(const ExactUcdpSetting& s, const Configuration& config,
                                            Neighbour relation) {
  check_exact_setting(s);
  const Population others = others_of(s, config, population_counts(s.n, s.gamma));
  const Rational hi = s.geometry.center + s.geometry.radius, lo = s.geometry.center - s.geometry.radius;
  const TargetClient first{s.role, hi, config.partner};
  SumLaw with = sum_law(s.geometry, others, first, true);
  if (relation == Neighbour::remove_one) return {std::move(with), sum_law(s.geometry, others, first, false)};
  TargetClient second = first;
  second.weight = lo;
  return {std::move(with), sum_law(s.geometry, others, second, true)};
}

ExactUcdpResult exact_ucdp(const ExactUcdpSetting& s, const Configuration& config,
                           Neighbour relation) {
  const auto [with, other] = neighbouring_laws(s, config, relation);
  const Counts counts = population_counts(s.n, s.gamma);
  ExactUcdpResult r;
  r.relation = relation;
  r.configuration = config.name;
  r.ldpq_clients = counts.ldpq;
  r.pairs = counts.pairs;
  r.support = with.size();
  const PrivacyLoss forward = PrivacyLoss::of(with, other), backward = PrivacyLoss::of(other, with);
  r.disjoint_mass = std::max(forward.infinite_mass, backward.infinite_mass);
  const auto at = exp_eps_for_delta(with, other, s.delta);
  r.infinite = at.infinite;
  if (!at.infinite) {
    r.exp_eps = at.exp_eps;
    r.eps = Interval(log(interval_from(at.exp_eps)));
  }
  return r;
}

std::vector<ExactUcdpResult> worst_case_search(const ExactUcdpSetting& s, Neighbour relation,
                                               void (*progress)(std::size_t, std::size_t)) {
  const Rational c = s.geometry.center, r = s.geometry.radius;
  const std::vector<std::pair<std::string, Rational>> weights = {
      {"c - r", Rational(c - r)}, {"c - r/2", Rational(c - r / 2)}, {"c", c},
      {"c + r/2", Rational(c + r / 2)}, {"c + r", Rational(c + r)}};
  const std::vector<std::pair<std::string, std::pair<Rational, Rational>>> pairs = {
      {"(c - r, c + r)", {Rational(c - r), Rational(c + r)}},
      {"(c, c)", {c, c}},
      {"(c + r, c + r)", {Rational(c + r), Rational(c + r)}}};
  std::vector<Rational> partners{c};
  if (s.role != TargetClient::Role::ldpq) partners = {Rational(c - r), c, Rational(c + r)};
  std::vector<Configuration> configs;
  for (const auto& [pname, pw] : pairs)
    for (const Rational& partner : partners) {
      const std::string tail = ", pairs at " + pname +
                               (s.role != TargetClient::Role::ldpq ? ", partner at " + to_string(partner) : "");
      for (const auto& [wname, w] : weights)
        configs.push_back({"LDPQ at " + wname + tail, w, false, pw.first, pw.second, partner});
      configs.push_back({"LDPQ split c - r / c + r" + tail, c, true, pw.first, pw.second, partner});
    }
  std::vector<ExactUcdpResult> results;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    results.push_back(exact_ucdp(s, configs[i], relation));
    if (progress) progress(i + 1, configs.size());
  }
  std::stable_sort(results.begin(), results.end(), [](const ExactUcdpResult& a, const ExactUcdpResult& b) {
    if (a.infinite != b.infinite) return a.infinite;
    return !a.infinite && a.exp_eps > b.exp_eps;
  });
  return results;
}

}  // namespace corbin
