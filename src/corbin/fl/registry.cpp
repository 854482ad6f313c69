#include "corbin/fl/registry.hpp"

#include "corbin/privacy/worst_case/lone_clients.hpp"

#include <algorithm>

#include "corbin/fl/mechanism.hpp"
#include "corbin/fl/mechanisms/corbin.hpp"
#include "corbin/fl/mechanisms/cq.hpp"
#include "corbin/fl/mechanisms/ldp.hpp"
#include "corbin/fl/mechanisms/noise.hpp"
#include "corbin/fl/mechanisms/pbm.hpp"
#include "corbin/fl/mechanisms/rqm.hpp"
#include "corbin/fl/mechanisms/signsgd.hpp"
#include "corbin/fl/mechanisms/vanilla.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/worst_case/lone_clients.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "corbin/utility/worst_case.hpp"

namespace corbin::fl {

const char* to_string(Pairing p) {
  switch (p) {
    case Pairing::alone: return "alone";
    case Pairing::pairs: return "pairs";
    case Pairing::augmented: return "augmented";
  }
  return "?";
}

void LayerSampler::pair(const PairChannel&, const float*, const float*, float*, float*) const {
  throw invalid_argument("pairing", "a pair", "a mechanism whose clients quantize in pairs");
}

ErrorMoments error_moments(const std::vector<Atom>& law_minus_input) {
  ErrorMoments m{Rational(0), Rational(0), Rational(0)};
  for (const Atom& a : law_minus_input) {
    const Rational x2 = a.value * a.value;
    m.mean += a.prob * a.value;
    m.m2 += a.prob * x2;
    m.m4 += a.prob * x2 * x2;
  }
  return m;
}

CoordinateCheck combine(const std::vector<ErrorMoments>& parts, std::size_t survivors) {
  // e = (1/k) Σ X_j: E e² = (Σ E X_j² − Σ μ_j² + (Σ μ_j)²)/k², exactly; Var(e²) from the
  // centred fourth moments (the means are ~2^−32 of the level and are neglected there).
  const Rational k{BigInt(survivors)};
  Rational m2_sum(0), mu_sum(0), mu2_sum(0), m4_sum(0), m2_squares(0);
  for (const ErrorMoments& m : parts) {
    m2_sum += m.m2;
    mu_sum += m.mean;
    mu2_sum += m.mean * m.mean;
    m4_sum += m.m4;
    m2_squares += m.m2 * m.m2;
  }
  const Rational expected = (m2_sum - mu2_sum + mu_sum * mu_sum) / (k * k);
  const Rational fourth = (m4_sum + 3 * (m2_sum * m2_sum - m2_squares)) / (k * k * k * k);
  CoordinateCheck c;
  c.expected = to_double(expected);
  c.variance = std::max(0.0, to_double(Rational(fourth - expected * expected)));
  return c;
}

template <class T>
PldpSummary summary_of(const LawPldp<T>& p) {
  using N = NumTraits<T>;
  PldpSummary out;
  out.unbounded = p.unbounded;
  out.claimed = p.meets != Meets::not_claimed;
  if constexpr (N::kExact) {
    if (!p.unbounded) {
      out.ratio_exact = p.ratio;
      out.ratio = interval_from(p.ratio);
    }
    if (out.claimed) out.bound_exact = p.bound;
    out.bound = interval_from(p.bound);
    out.w_high = p.w_high;
    out.w_low = p.w_low;
    out.output = to_string(p.output_value);
  } else {
    if (!p.unbounded) out.ratio = p.ratio;
    out.bound = p.bound;
    out.w_high = to_rational(midpoint_of(p.w_high));
    out.w_low = to_rational(midpoint_of(p.w_low));
    out.output = to_decimal(midpoint_of(p.output_value), 17);
  }
  return out;
}
template PldpSummary summary_of(const LawPldp<Rational>&);
template PldpSummary summary_of(const LawPldp<Interval>&);

CoordinateCheck AloneLawCheck::coordinate(std::span<const float> alone, std::span<const std::pair<float, float>>) const {
  std::vector<ErrorMoments> parts;
  for (float w : alone) {
    std::vector<Atom> error = law_(w);
    const Rational x = to_rational(clip(g_, w));
    for (Atom& a : error) a.value -= x;
    parts.push_back(error_moments(error));
  }
  return combine(parts, alone.size());
}

std::unique_ptr<LayerCheck> Mechanism::check(const MechanismConfig&, const Geometry&) const { return nullptr; }

bool Mechanism::reads(SettingParameter p) const {
  switch (p) {
    case SettingParameter::budget: return takes_budget();
    case SettingParameter::bits:
    case SettingParameter::variant: return pairing() != Pairing::alone;
    case SettingParameter::gamma: return pairing() == Pairing::augmented;
    case SettingParameter::delta: return false;
  }
  return false;
}

std::optional<std::vector<Atom>> Mechanism::law(const CoordinateSetting&, const Rational&) const {
  return std::nullopt;
}

namespace {

/// E[(Q(w) − w)²] under a law, exactly.
Rational law_mse(const std::vector<Atom>& law, const Rational& w) {
  Rational out(0);
  for (const Atom& a : law) out += a.prob * (a.value - w) * (a.value - w);
  return out;
}

}  // namespace

void check_gamma(const Rational& gamma) {
  if (gamma < 0 || gamma > 1) throw invalid_argument("gamma", to_string(gamma), "in [0, 1]");
}

std::size_t lone_before_pairs(Pairing pairing, const Rational& gamma, std::size_t n) {
  switch (pairing) {
    case Pairing::alone: return n;
    case Pairing::pairs: return 0;
    case Pairing::augmented: break;
  }
  check_gamma(gamma);
  return floor_of(Rational(gamma * Rational(BigInt(n)))).convert_to<std::size_t>();
}

std::optional<Interval> Mechanism::mse(const CoordinateSetting& s, const Rational& w) const {
  const auto l = law(s, w);
  if (!l) return std::nullopt;
  return interval_from(law_mse(*l, w));
}

std::uint64_t uses_per_round(const Rational& dropout, std::uint64_t m) { return dropout > 0 ? 1 : m; }

std::vector<Rational> range_ends(const CoordinateSetting& s) {
  return {Rational(s.center - s.radius), Rational(s.center + s.radius)};
}

std::string input_words(const CoordinateSetting& s, const Rational& w) {
  const Rational offset = w - s.center;
  return offset == 0 ? std::string("c") : offset > 0 ? "c + " + to_string(offset) : "c - " + to_string(Rational(-offset));
}

std::optional<std::vector<Rational>> Mechanism::mse_quadratic_pieces(const CoordinateSetting& s) const {
  if (!law_affine_in_w()) return std::nullopt;
  return range_ends(s);
}

namespace {
/// The lone clients' MSE pieces (mse_quadratic_pieces), checked, and the points that fix each
/// piece's quadratic (ends and midpoints); none where the default does not apply.
std::optional<std::vector<Rational>> lone_points(const Mechanism& m, const CoordinateSetting& s, std::size_t n) {
  if (n == 0) throw invalid_argument("n", "0", "at least 1 client");
  // Lone clients averaged by the server; a biased client's cross terms would couple the clients'
  // inputs, and a pair's MSE is its room's business.
  if (!m.federated() || m.pairing() != Pairing::alone || !m.unbiased()) return std::nullopt;
  check_radius(s.radius);
  const auto pieces = m.mse_quadratic_pieces(s);
  if (!pieces) return std::nullopt;
  const std::vector<Rational>& p = *pieces;
  bool ordered = p.size() >= 2 && p.front() == s.center - s.radius && p.back() == s.center + s.radius;
  for (std::size_t i = 0; ordered && i + 1 < p.size(); ++i) ordered = p[i] < p[i + 1];
  if (!ordered)
    throw invalid_argument("mechanism", quote(m.name()), "one whose MSE pieces run from c − r to c + r in order");
  std::vector<Rational> points;
  for (std::size_t i = 0; i + 1 < p.size(); ++i) points.insert(points.end(), {p[i], Rational((p[i] + p[i + 1]) / 2)});
  points.push_back(p.back());
  return points;
}
}  // namespace

std::optional<Rational> Mechanism::worst_aggregate_mse_exact(const CoordinateSetting& s, std::size_t n) const {
  const auto points = lone_points(*this, s, n);
  if (!points) return std::nullopt;
  // Each piece's ends and midpoint fix its quadratic, exactly from the law.
  std::vector<Rational> exact;
  for (const Rational& w : *points) {
    const auto l = law(s, w);
    if (!l) return std::nullopt;
    exact.push_back(law_mse(*l, w));
  }
  Rational sup = exact.front();
  for (std::size_t i = 0; i + 2 < exact.size(); i += 2)
    sup = NumTraits<Rational>::max(sup, quadratic_sup(exact[i], exact[i + 1], exact[i + 2]));
  return worst_mean_mse<Rational>({{n, 1, sup}}, n);
}

std::optional<Interval> Mechanism::worst_aggregate_mse(const CoordinateSetting& s, std::size_t n) const {
  const auto points = lone_points(*this, s, n);
  if (!points) return std::nullopt;
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  if (const std::optional<Rational> exact = worst_aggregate_mse_exact(s, n)) return interval_from(*exact);
  std::vector<Interval> enclosed;
  for (const Rational& w : *points) {
    const auto m = mse(s, w);
    if (!m) return std::nullopt;
    enclosed.push_back(*m);
  }
  Interval sup = enclosed.front();
  for (std::size_t i = 0; i + 2 < enclosed.size(); i += 2)
    sup = NumTraits<Interval>::max(sup, quadratic_sup(enclosed[i], enclosed[i + 1], enclosed[i + 2]));
  return worst_mean_mse<Interval>({{n, 1, sup}}, n);
}

void check_inputs(const CoordinateSetting& s, const std::vector<Rational>& weights) {
  if (weights.empty()) throw invalid_argument("weights", "empty", "at least one client's input");
  check_radius(s.radius);
  corbin::check_weights(weights, s.center, s.radius);
}

std::optional<MseValue> Mechanism::aggregate_mse_at(const CoordinateSetting& s,
                                                    const std::vector<Rational>& weights) const {
  check_inputs(s, weights);
  // Independent lone clients only: a pair's joint law, or CQ's shared shift, is its room's.
  if (!federated() || pairing() != Pairing::alone || couples_lone_clients()) return std::nullopt;
  const Rational n{BigInt(weights.size())};
  Rational second(0), bias_sum(0), bias_squares(0);
  bool exact = true;
  for (const Rational& w : weights) {
    const auto l = law(s, w);
    if (!l) {
      exact = false;
      break;
    }
    Rational b(0);
    for (const Atom& a : *l) b += a.prob * (a.value - w);
    second += law_mse(*l, w);
    bias_sum += b;
    bias_squares += b * b;
  }
  if (exact) {
    const Rational value = (second + bias_sum * bias_sum - bias_squares) / (n * n);
    return MseValue{value, interval_from(value)};
  }
  // Without laws the biases are unknown; unbiased clients have none, and their MSEs add.
  if (!unbiased()) return std::nullopt;
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  Interval sum = interval_from(Rational(0));
  for (const Rational& w : weights) {
    const auto m = mse(s, w);
    if (!m) return std::nullopt;
    sum = Interval(sum + *m);
  }
  return MseValue{std::nullopt, Interval(sum / interval_from(Rational(n * n)))};
}

Interval Mechanism::claimed_exp_eps(const CoordinateSetting& s) const {
  return s.budget.exp_eps_interval();
}

std::optional<PldpSummary> Mechanism::pldp(const CoordinateSetting& s) const {
  if (!takes_budget()) return std::nullopt;
  if (!law_affine_in_w())
    throw invalid_argument("mechanism", quote(name()), "one whose PLDP ratio is known (its room defines it)");
  check_radius(s.radius);
  const Rational lo = s.center - s.radius, hi = s.center + s.radius;
  const auto at_lo = law(s, lo), at_hi = law(s, hi);
  if (!at_lo || !at_hi) throw invalid_argument("mechanism", quote(name()), "one with a finite law");
  // Affine probabilities: each ratio P(o | w)/P(o | w') is largest at the range's ends.
  PldpSummary out;
  out.bound = claimed_exp_eps(s);
  // The claim exactly where its enclosure pins it: a point, or the budget's own e^ε when the room
  // claims the budget (the default claimed_exp_eps). Not the budget's e^ε whatever the claim: a
  // room claiming 3 at e^ε = 9 would be checked against 9.
  const Interval budget_claim = Mechanism::claimed_exp_eps(s);
  if (lower_of(out.bound) == upper_of(out.bound))
    out.bound_exact = to_rational(lower_of(out.bound));
  else if (s.budget.exact() && lower_of(out.bound) == lower_of(budget_claim) && upper_of(out.bound) == upper_of(budget_claim))
    out.bound_exact = s.budget.exp_eps_exact();
  Rational best(0);
  for (const auto& [num, den, num_w, den_w] :
       {std::tuple{&*at_hi, &*at_lo, hi, lo}, std::tuple{&*at_lo, &*at_hi, lo, hi}}) {
    for (const Atom& a : *num) {
      const auto match = std::find_if(den->begin(), den->end(), [&](const Atom& b) { return b.value == a.value; });
      const Rational q = match == den->end() ? Rational(0) : match->prob;
      if (a.prob == 0) continue;
      if (q == 0) {
        out.unbounded = true;
        out.output = to_string(a.value);
        out.w_high = num_w;
        out.w_low = den_w;
        return out;
      }
      const Rational ratio = a.prob / q;
      if (ratio > best) {
        best = ratio;
        out.output = to_string(a.value);
        out.w_high = num_w;
        out.w_low = den_w;
      }
    }
  }
  out.ratio_exact = best;
  out.ratio = interval_from(best);
  return out;
}

std::optional<Rational> Mechanism::accountant_gamma(const MechanismConfig&, std::string& why_not) const {
  why_not = "used with a mechanism that has a certified accountant (augcorbin, or corbin with dropout)";
  return std::nullopt;
}

std::optional<std::vector<Rational>> Mechanism::law_extreme_inputs(const CoordinateSetting& s) const {
  if (!law_affine_in_w()) return std::nullopt;
  return range_ends(s);
}

std::optional<Accountant> Mechanism::round_accountant(const CoordinateSetting& s, std::size_t n,
                                                      const PldLimits& limits, std::string& why_not) const {
  std::optional<std::vector<Rational>> extremes = law_extreme_inputs(s);
  // Without randomness every client's output is a function of its input, so two inputs with
  // different outputs release disjoint laws whatever the others send (their outputs are fixed):
  // ε = ∞ for every δ < 1, attained at c ± r where those differ. Where they agree, inputs
  // between could still differ: no finite reduction is known.
  if (!extremes && !randomised()) {
    const std::vector<Rational> ends = range_ends(s);
    const std::optional<std::vector<Atom>> low = law(s, ends.front()), high = law(s, ends.back());
    if (low && high && *low != *high) extremes = ends;
  }
  if (!extremes) {
    why_not = randomised() ? "its law is not known to be affine between finitely many inputs, so the worst case over "
                             "inputs has no finite reduction here"
                           : "it has no randomness and its outputs at c − r and c + r agree: inputs between could "
                             "differ, and no reduction to finitely many inputs is known";
    return std::nullopt;
  }
  std::vector<ExtremeLaw> laws;
  for (const Rational& w : *extremes) {
    std::optional<std::vector<Atom>> atoms = law(s, w);
    if (!atoms) {
      why_not = "it has no exact law at this budget (a transcendental e^ε)";
      return std::nullopt;
    }
    laws.push_back({std::move(*atoms), input_words(s, w)});
  }
  return lone_clients_round(laws, n, s.center, s.relation, s.dropout, s.coordinates, limits);
}

RoomAccountant room_accountant(const Mechanism& room, const CoordinateSetting& s, std::size_t n,
                               const PldLimits& limits) {
  RoomAccountant out;
  out.round = room.round_accountant(s, n, limits, out.why_not);
  if (!out.round && s.dropout > 0) {
    CoordinateSetting without = s;
    without.dropout = 0;
    std::string other;
    out.dropout_refused = room.round_accountant(without, n, limits, other).has_value();
  }
  return out;
}

Registry::Registry() {
  add(make_vanilla());
  add(make_ldp());
  add(make_corbin());
  add(make_augcorbin());
  add(make_gaussian());
  add(make_laplace());
  add(make_cq());
  add(make_pbm(1));
  add(make_pbm(2));
  add(make_rqm(2));
  add(make_rqm(3));
  add(make_signsgd());
}

std::vector<std::pair<std::string, Property>> properties_of(const Mechanism& m) {
  return {{"name", m.name()},
          {"summary", m.summary()},
          {"pairing", std::string(to_string(m.pairing()))},
          {"takes_budget", m.takes_budget()},
          {"federated", m.federated()},
          {"bits_per_coordinate", m.bits_per_coordinate()},
          {"device_kernel", m.device_kernel() != DeviceKernel::host}};
}

Registry& Registry::global() {
  static Registry registry;
  return registry;
}

void Registry::add(std::unique_ptr<Mechanism> mechanism) {
  const std::string name = mechanism->name();
  const bool word = !name.empty() && std::all_of(name.begin(), name.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
  });
  if (!word) throw invalid_argument("mechanism", quote(name), "a lower-case word (letters, digits, _)");
  if (find_if(name)) throw invalid_argument("mechanism", quote(name), "a name not yet registered");
  mechanisms_.push_back(std::move(mechanism));
}

const Mechanism* Registry::find_if(const std::string& name) const {
  for (const auto& m : mechanisms_)
    if (m->name() == name) return m.get();
  return nullptr;
}

const Mechanism& Registry::find(const std::string& name) const {
  if (const Mechanism* m = find_if(name)) return *m;
  throw invalid_argument("mechanism", quote(name), "one of " + names());
}

std::vector<const Mechanism*> Registry::all() const {
  std::vector<const Mechanism*> out;
  for (const auto& m : mechanisms_) out.push_back(m.get());
  return out;
}

std::string Registry::names() const {
  std::string out;
  for (const auto& m : mechanisms_) out += (out.empty() ? "" : ", ") + m->name();
  return out;
}

}  // namespace corbin::fl
