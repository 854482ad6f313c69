#include "corbin/fl/coordinate.hpp"

#include <set>
#include <stdexcept>

#include "corbin/number/error.hpp"
#include "corbin/number/rational.hpp"

namespace corbin::fl {
namespace {

/// `exact_budget_may_help`: a law of probabilities affine in α is irrational at an irrational e^ε
/// (LDPQ's), so the room may answer at an exact one.
[[noreturn]] void refuse(const Mechanism& m, const CoordinateSetting& s, const char* question,
                         const char* what, bool exact_budget_may_help) {
  std::string rule =
      std::string("one that answers ") + question + " (" + m.name() + " has no " + what + " here";
  if (exact_budget_may_help && m.takes_budget() && !s.budget.exact())
    rule += "; an exact e^ε may give one";
  throw invalid_argument("mechanism", quote(m.name()), rule + ")");
}

/// How many bits |x| has (0 for 0).
std::size_t bit_length(const BigInt& x) {
  return x == 0 ? 0 : static_cast<std::size_t>(boost::multiprecision::msb(abs(x))) + 1;
}

}  // namespace

std::optional<LoneMse> lone_mse(const Mechanism& m, const CoordinateSetting& s, const Rational& w) {
  const auto law = m.law(s, w);
  const auto enclosure = m.mse(s, w);
  if (!law && !enclosure) return std::nullopt;
  LoneMse out;
  if (law) out.exact = ScalarLaw<Rational>{*law}.mse(w);
  out.enclosure = enclosure ? *enclosure : interval_from(*out.exact);
  if (out.exact && !(to_rational(lower_of(out.enclosure)) <= *out.exact &&
                     *out.exact <= to_rational(upper_of(out.enclosure))))
    throw std::logic_error(
        "mechanism " + m.name() +
        ": its MSE enclosure misses its law's MSE at w = " + corbin::to_string(w));
  return out;
}

std::optional<MseValue> worst_aggregate(const Mechanism& m, const CoordinateSetting& s, std::size_t n) {
  if (const std::optional<Rational> exact = m.worst_aggregate_mse_exact(s, n))
    return MseValue{*exact, interval_from(*exact)};
  const std::optional<Interval> worst = m.worst_aggregate_mse(s, n);
  if (!worst) return std::nullopt;
  return MseValue{std::nullopt, *worst};
}

void check_input_count(const Mechanism& m, const std::vector<Rational>& weights) {
  if (weights.size() > kMaxInputs)
    throw invalid_argument("weights", std::to_string(weights.size()) + " inputs",
                           "at most " + std::to_string(kMaxInputs) + " clients");
  for (std::size_t i = 0; i < weights.size(); ++i)
    if (bit_length(numerator(weights[i])) > kMaxInputBits || bit_length(denominator(weights[i])) > kMaxInputBits)
      throw invalid_argument("weights[" + std::to_string(i) + "]", corbin::to_string(weights[i]),
                             "a number whose numerator and denominator have at most " +
                                 std::to_string(kMaxInputBits) + " bits (38 digits)");
  if (m.pairing() == Pairing::alone) return;
  const std::set<Rational> distinct(weights.begin(), weights.end());
  if (distinct.size() > kMaxPairedValues)
    throw invalid_argument("weights", std::to_string(distinct.size()) + " distinct inputs",
                           "at most " + std::to_string(kMaxPairedValues) + " distinct inputs for " + m.name() +
                               ", whose pairs take a law per ordered pair of them");
}

std::vector<Atom> answered_law(const Mechanism& m, const CoordinateSetting& s, const Rational& w,
                               const char* question) {
  auto law = m.law(s, w);
  if (!law) refuse(m, s, question, "finite exact law", true);
  return std::move(*law);
}

LoneMse answered_mse(const Mechanism& m, const CoordinateSetting& s, const Rational& w,
                     const char* question) {
  auto mse = lone_mse(m, s, w);
  if (!mse) refuse(m, s, question, "MSE", true);
  return std::move(*mse);
}

PldpSummary answered_pldp(const Mechanism& m, const CoordinateSetting& s, const char* question) {
  auto p = m.pldp(s);
  if (!p) refuse(m, s, question, "PLDP claim", false);
  return std::move(*p);
}

}  // namespace corbin::fl
