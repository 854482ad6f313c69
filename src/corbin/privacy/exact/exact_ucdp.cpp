#include "corbin/privacy/exact/exact_ucdp.hpp"

#include <algorithm>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/number/mp.hpp"
#include "corbin/privacy/worst_case/aggregate_law.hpp"
#include "corbin/privacy/exact/privacy_loss.hpp"
#include "corbin/quantizer/ldpq.hpp"

namespace corbin {
namespace {


std::vector<ClientCandidate<Rational>> exact_candidates(const ExactUcdpSetting& s,
                                                        Neighbour relation) {
  return client_candidates(s.geometry.alpha, s.geometry.bits, s.geometry.variant, s.role, relation);
}

/// Upper bound on Σ_x (P(x) − γ Q(x))₊ from the windows, for γ >= gamma_lo.
double delta_bound(const WindowPmf& p, const WindowPmf& q, bool disjoint, double gamma_lo) {
  using namespace directed;
  if (disjoint) return 1;
  double sum = p.tail;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double term = sub_up(p.hi[i], mul_down(gamma_lo, q.lo[i]));
    if (term > 0) sum = add_up(sum, term);
  }
  return sum;
}

}  // namespace

AccountSetting account_setting(const ExactUcdpSetting& s, Neighbour relation) {
  AccountSetting a;
  a.n = s.n;
  a.gamma = s.gamma;
  a.budget = Budget::make(Budget::Kind::alpha, s.geometry.alpha);
  a.center = s.geometry.center;
  a.radius = s.geometry.radius;
  a.bits = s.geometry.bits;
  a.variant = s.geometry.variant;
  a.role = s.role;
  a.relation = relation;
  return a;
}

void check_exact_setting(const ExactUcdpSetting& s) {
  if (s.n < 2) throw invalid_argument("n", std::to_string(s.n), "at least 2");
  // The exact law has O(n) support points of O(n)-digit rationals, built by O(n²) big-integer
  // products for every configuration that needs it.
  if (s.n > kMaxExactClients)
    throw invalid_argument("n", std::to_string(s.n),
                           "at most " + std::to_string(kMaxExactClients) +
                               " for the exact law of the aggregate (its cost grows as n²)");
  if (s.geometry.bits > kMaxExactBits)
    throw invalid_argument("bits", std::to_string(s.geometry.bits),
                           "at most " + std::to_string(kMaxExactBits) +
                               " for the exact law of the aggregate (a pair's d-bit probabilities are in "
                               "every product)");
  if (s.gamma < 0 || s.gamma > 1) throw invalid_argument("gamma", to_string(s.gamma), "in [0, 1]");
  if (s.delta <= 0 || s.delta >= 1)
    throw invalid_argument("delta", to_string(s.delta), "in (0, 1)");
  check_radius(s.geometry.radius);
  check_role_present(population_counts(s.n, s.gamma), s.role, s.gamma);
}

std::pair<SumLaw, SumLaw> neighbouring_laws(const ExactUcdpSetting& s, const Configuration& c,
                                            Neighbour relation) {
  check_exact_setting(s);
  const AggregateFamily family(account_setting(s, relation));
  const std::vector<ClientCandidate<Rational>> candidates = exact_candidates(s, relation);
  if (c.candidate >= candidates.size() || c.top > family.other_ldpq())
    throw invalid_argument("configuration",
                           std::to_string(c.candidate) + ", " + std::to_string(c.top),
                           "a candidate below " + std::to_string(candidates.size()) +
                               " and j at most " + std::to_string(family.other_ldpq()));
  const ClientCandidate<Rational>& cand = candidates[c.candidate];
  const Rational q_low = ldpq_q(s.geometry.alpha, s.geometry.center, s.geometry.radius,
                                Rational(s.geometry.center - s.geometry.radius));
  CountPolynomial others;
  others.times_binomial(family.other_ldpq() - c.top, q_low);
  others.times_binomial(c.top, Rational(1 - q_low));
  CountPolynomial with = others, neighbour = others;
  with.times(cand.with);
  neighbour.times(cand.neighbour);
  const std::size_t rest =
      family.other_ldpq() + 2 * family.other_pairs();  // outputs besides client 1's part
  const Rational level = s.geometry.radius * s.geometry.alpha;
  return {
      with.law(rest + cand.terms_with, family.other_pairs(), s.geometry.center, level),
      neighbour.law(rest + cand.terms_neighbour, family.other_pairs(), s.geometry.center, level)};
}

ExactUcdpResult exact_ucdp_at(const ExactUcdpSetting& s, const Configuration& c,
                              Neighbour relation) {
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  const auto [with, other] = neighbouring_laws(s, c, relation);
  const AggregateFamily family(account_setting(s, relation));
  const PopulationCounts counts = population_counts(s.n, s.gamma);
  ExactUcdpResult r;
  r.relation = relation;
  r.configuration = c;
  r.words = family.describe(c);
  r.ldpq_clients = counts.ldpq;
  r.pairs = counts.pairs;
  r.other_ldpq = family.other_ldpq();
  r.other_pairs = family.other_pairs();
  r.support = with.size();
  r.configurations = family.candidates() * (family.other_ldpq() + 1);
  r.exact_laws = 1;
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

ExactUcdpResult exact_ucdp(const ExactUcdpSetting& s, Neighbour relation) {
  check_exact_setting(s);
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  const AggregateFamily family(account_setting(s, relation));
  const std::size_t candidates = family.candidates(), last = family.other_ldpq();
  ExactUcdpResult best = exact_ucdp_at(s, Configuration{0, 0}, relation);
  std::size_t laws = 1;
  const auto gamma_lo = [&] { return Mp::of(best.exp_eps, MPFR_RNDD).down(); };
  // Every configuration whose window allows a δ above the target at the best e^ε so far.
  struct Pending {
    Configuration c;
    double bound;
  };
  std::vector<Pending> pending;
  if (!best.infinite) {
    const double g = gamma_lo();
    for (std::size_t top = 0; top <= last; ++top) {
      const WindowPmf others = family.others(top);
      for (std::size_t c = 0; c < candidates; ++c) {
        if (c == 0 && top == 0) continue;
        const NeighbouringPmfs w = family.laws(others, c);
        const double bound =
            std::max(delta_bound(w.p, w.q, w.disjoint, g), delta_bound(w.q, w.p, w.disjoint, g));
        if (to_rational(bound) > s.delta) pending.push_back({Configuration{c, top}, bound});
      }
    }
  }
  std::stable_sort(pending.begin(), pending.end(),
                   [](const Pending& a, const Pending& b) { return a.bound > b.bound; });
  for (const Pending& x : pending) {
    if (best.infinite) break;
    const NeighbouringPmfs w = family.laws(x.c);  // again, at the best e^ε found since
    const double g = gamma_lo();
    if (to_rational(std::max(delta_bound(w.p, w.q, w.disjoint, g),
                             delta_bound(w.q, w.p, w.disjoint, g))) <= s.delta)
      continue;
    ExactUcdpResult r = exact_ucdp_at(s, x.c, relation);
    ++laws;
    if (r.infinite || r.exp_eps > best.exp_eps) best = std::move(r);
  }
  best.exact_laws = laws;
  return best;
}

ConfigurationWeights weights_of(const ExactUcdpSetting& s, const Configuration& c,
                                Neighbour relation) {
  const AggregateFamily family(account_setting(s, relation));
  const std::vector<ClientCandidate<Rational>> candidates = exact_candidates(s, relation);
  const ClientCandidate<Rational>& cand = candidates.at(c.candidate);
  if (!cand.attained())
    throw invalid_argument("configuration", "a one-sided limit at a grid point",
                           "an input some client can have");
  const SumGeometry& g = s.geometry;
  auto weight = [&](const InputPoint& x) {
    return weight_of(x, g.alpha, g.center, g.radius, g.bits);
  };
  ConfigurationWeights w;
  w.role = cand.role;
  w.client_1 = weight(cand.x);
  w.client_1_neighbour = relation == Neighbour::replace_one ? weight(cand.x2) : w.client_1;
  if (cand.partner) w.partner = weight(*cand.partner);
  w.others_high = c.top;
  w.others_low = family.other_ldpq() - c.top;
  w.other_pairs = family.other_pairs();
  return w;
}

}  // namespace corbin
