#include "corbin/quantizer/baseline_identity.hpp"

#include <algorithm>
#include <map>

#include "corbin/quantizer/ldpq.hpp"
#include "corbin/quantizer/pbm.hpp"
#include "corbin/quantizer/rqm.hpp"
#include "corbin/quantizer/signsgd.hpp"

namespace corbin {
namespace {

/// The law as a measure: value -> total probability, zero atoms left out.
std::map<Rational, Rational> measure(const ScalarLaw<Rational>& law) {
  std::map<Rational, Rational> m;
  for (const auto& a : law.atoms) m[a.value] += a.prob;
  for (auto it = m.begin(); it != m.end();) it = it->second == 0 ? m.erase(it) : std::next(it);
  return m;
}

}  // namespace

std::string to_string(const ScalarLaw<Rational>& law) {
  std::string out = "{";
  for (const auto& [value, prob] : measure(law)) {
    if (out.size() > 1) out += ", ";
    out += to_string(value) + ": " + to_string(prob);
  }
  return out + "}";
}

bool same_law(const ScalarLaw<Rational>& a, const ScalarLaw<Rational>& b) {
  return measure(a) == measure(b);
}

ScalarLaw<Rational> ldpq_law(const Rational& alpha, const Rational& center, const Rational& radius,
                             const Rational& w) {
  check_radius(radius);
  check_weight("w", w, center, radius);
  if (alpha <= 1) throw invalid_argument("alpha", to_string(alpha), "> 1");
  const Rational q = ldpq_q(alpha, center, radius, w), level = ldpq_level(alpha, radius);
  return ScalarLaw<Rational>{{{Rational(center - level), Rational(1 - q)}, {Rational(center + level), q}}};
}

std::string B1Result::describe() const {
  if (same_as_ldpq)
    return mechanism + ": same as LDPQ (equal exact laws at " + std::to_string(compared.size()) +
           " inputs, which decides every w; at w = " + to_string(witness) + ": " + to_string(ldpq) + ")";
  return mechanism + ": distinct — at w = " + to_string(witness) + " it gives " + to_string(baseline) +
         ", LDPQ gives " + to_string(ldpq);
}

B1Result b1_compare(const std::string& mechanism,
                    const std::function<ScalarLaw<Rational>(const Rational&)>& law, unsigned degree,
                    const std::vector<Rational>& breakpoints, const Rational& alpha,
                    const Rational& center, const Rational& radius) {
  check_radius(radius);
  const Rational lo = center - radius, hi = center + radius;
  // Piece ends: the range's ends and the breakpoints strictly inside.
  std::vector<Rational> ends{lo, hi};
  for (const Rational& b : breakpoints)
    if (lo < b && b < hi) ends.push_back(b);
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  // LDPQ's probabilities have degree 1; D + 1 interior points per piece for D = max(degree, 1).
  const unsigned d = std::max(degree, 1u);
  std::vector<Rational> points{center};
  points.insert(points.end(), ends.begin(), ends.end());
  for (std::size_t i = 0; i + 1 < ends.size(); ++i)
    for (unsigned j = 1; j <= d + 1; ++j)
      points.push_back(Rational(ends[i] + (ends[i + 1] - ends[i]) * j / (d + 2)));
  B1Result result;
  result.mechanism = mechanism;
  for (const Rational& w : points) {
    result.compared.push_back({w, law(w), ldpq_law(alpha, center, radius, w)});
    const B1Comparison& at = result.compared.back();
    if (!same_law(at.baseline, at.ldpq)) {
      result.witness = w;
      result.baseline = at.baseline;
      result.ldpq = at.ldpq;
      return result;
    }
  }
  result.same_as_ldpq = true;
  result.witness = center;  // compared first
  result.baseline = result.compared.front().baseline;
  result.ldpq = result.compared.front().ldpq;
  return result;
}

std::vector<B1Result> b1_relation(const Rational& exp_eps, const Rational& center,
                                  const Rational& radius, const Rational& rqm_q) {
  check_radius(radius);
  if (exp_eps <= 1) throw invalid_argument("exp_eps", to_string(exp_eps), "> 1 (ε > 0)");
  check_rqm_q(rqm_q);
  const Rational alpha = (exp_eps + 1) / (exp_eps - 1);
  std::vector<B1Result> out;
  for (unsigned m : {1u, 2u}) {
    const Rational theta = pbm_theta_exact(exp_eps, m);
    out.push_back(b1_compare(
        "PBM (m = " + std::to_string(m) + ")",
        [&](const Rational& w) { return pbm_law(theta, m, center, radius, w); }, m, {}, alpha,
        center, radius));
  }
  for (unsigned m : {2u, 3u}) {
    const Rational d = rqm_delta_ratio(exp_eps, m, rqm_q);
    const std::vector<Rational> breaks = m == 3 ? std::vector<Rational>{center} : std::vector<Rational>{};
    out.push_back(b1_compare(
        "RQM (m = " + std::to_string(m) + (m == 3 ? ", q = " + to_string(rqm_q) : std::string()) + ")",
        [&](const Rational& w) { return rqm_law(m, rqm_q, d, center, radius, w); }, 1, breaks, alpha,
        center, radius));
  }
  out.push_back(b1_compare(
      "SignSGD", [&](const Rational& w) { return signsgd_law(center, radius, w); }, 0, {Rational(0)},
      alpha, center, radius));
  return out;
}

}  // namespace corbin
