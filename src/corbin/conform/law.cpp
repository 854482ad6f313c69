#include "corbin/conform/law.hpp"

#include <algorithm>

#include "corbin/fl/mechanisms/rqm.hpp"
#include "corbin/fl/registry.hpp"
#include "corbin/number/error.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/quantizer/pbm.hpp"
#include "corbin/quantizer/rqm.hpp"

namespace corbin::conform {
namespace {

const char* const kSharedCoin = "shared-coin";

/// The registry's room for a one-client mechanism with a finite exact law (pbm1, pbm2, rqm2, rqm3).
const fl::Mechanism& room(const Mechanism& m) {
  return fl::Registry::global().find(m.name());
}

fl::CoordinateSetting coordinate_setting(const Setting& s) {
  fl::CoordinateSetting c;
  c.budget = Budget::make(Budget::Kind::exp_eps, s.exp_eps);
  c.center = s.center;
  c.radius = s.radius;
  return c;
}

/// CorBinQ's joint law with the leader and the follower resolving a common tie (Z = T1 = T2) with
/// one private coin U: P(Q1 = +, Q2 = −) there is P(U < min(t1, t2)) = min(t1, t2) instead of
/// t1·t2, so the cells "+-" and "-+" gain Δ = (min(t1, t2) − t1 t2)/2^d and "++" and "--" lose it.
/// The marginals are unchanged: only the joint law (and an independence test) can see this fault.
JointLaw<Rational> shared_coin_law(const Setting& s, Variant variant) {
  const Rational alpha = alpha_of(s.exp_eps);
  JointLaw<Rational> law =
      corbinq_joint_law(alpha, s.center, s.radius, s.inputs[0], s.inputs[1], s.bits, variant);
  const BigInt two_d = pow2(s.bits);
  const auto [u, v] = threshold_cells(ldpq_q(alpha, s.center, s.radius, s.inputs[0]),
                                      ldpq_q(alpha, s.center, s.radius, s.inputs[1]), two_d);
  if (u.index != v.index || u.index >= two_d) return law;
  const Rational t1 = tie_probability(u, two_d, variant), t2 = tie_probability(v, two_d, variant);
  const Rational delta = (std::min(t1, t2) - t1 * t2) / Rational(two_d);
  law.pm += delta;
  law.mp += delta;
  law.pp -= delta;
  law.mm -= delta;
  return law;
}

}  // namespace

std::string Mechanism::name() const {
  switch (kind) {
    case Kind::ldpq:
      return "ldpq";
    case Kind::corbinq:
      return "corbinq";
    case Kind::pbm:
      return "pbm" + std::to_string(m);
    case Kind::rqm:
      return "rqm" + std::to_string(m);
  }
  return "?";
}

std::vector<Mechanism> all_mechanisms() {
  return {{Kind::ldpq, 0}, {Kind::corbinq, 0}, {Kind::pbm, 1},
          {Kind::pbm, 2},  {Kind::rqm, 2},     {Kind::rqm, 3}};
}

Mechanism parse_mechanism(std::string_view text) {
  // The registry's names of the same rooms are accepted too (ldp: LDP-FL's LDPQ; corbin:
  // CorBin-FL's pair).
  if (text == "ldp") return {Kind::ldpq, 0};
  if (text == "corbin") return {Kind::corbinq, 0};
  std::string names;
  for (const Mechanism& m : all_mechanisms()) {
    if (m.name() == text) return m;
    names += (names.empty() ? "" : ", ") + m.name();
  }
  throw invalid_argument("mechanism", quote(text), "one of " + names);
}

std::vector<std::string> variants_of(const Mechanism& m) {
  if (m.kind == Kind::corbinq) return {"corrected", "as-printed", "reference-code"};
  return {"standard"};
}

void check_variant(const Mechanism& m, const std::string& variant) {
  const auto known = variants_of(m);
  if (std::find(known.begin(), known.end(), variant) != known.end()) return;
  std::string names;
  for (const auto& v : known) names += (names.empty() ? "" : ", ") + v;
  throw invalid_argument("variant", quote(variant), "one of " + names + " for " + m.name());
}

std::vector<std::string> fault_models_of(const Mechanism& m, const std::string& variant) {
  if (m.kind == Kind::corbinq && variant == "corrected") return {kSharedCoin};
  return {};
}

bool is_fault_model(const std::string& name) {
  return name == kSharedCoin;
}

std::string describe_law(const Mechanism& m, const std::string& name) {
  if (name == "corrected") return "the corrected algorithm (Algorithm 2, line 14: ELSIF T2 ≺ Z)";
  if (name == "as-printed") return "Algorithm 2 as printed (line 14: ELSIF T1 ≺ Z)";
  if (name == "reference-code") return "the law of the authors' code: top-cell tie rule";
  if (name == kSharedCoin)
    return "a fault: the leader and the follower resolve a common tie with one private coin";
  switch (m.kind) {
    case Kind::ldpq:
      return "LDPQ (Algorithm 1)";
    case Kind::pbm:
      return "PBM as the authors' code runs it (θ = tanh(ε/(2m))/2)";
    case Kind::rqm:
      return "RQM as the authors' code runs it (D = 2/((1 − q)(e^ε − 1)), q = 1/2)";
    case Kind::corbinq:
      break;
  }
  return name;
}

Rational alpha_of(const Rational& exp_eps) {
  return (exp_eps + 1) / (exp_eps - 1);
}

void check_setting(const Setting& s) {
  if (s.exp_eps <= 1) throw invalid_argument("exp_eps", to_string(s.exp_eps), "> 1 (ε > 0)");
  check_radius(s.radius);
  if (s.inputs.size() != s.mechanism.clients())
    throw invalid_argument(
        "inputs", std::to_string(s.inputs.size()) + " values",
        std::to_string(s.mechanism.clients()) + " for " + s.mechanism.name() +
            (s.mechanism.clients() == 2 ? " (w1 of the leader, w2 of the follower)" : " (w)"));
  for (std::size_t i = 0; i < s.inputs.size(); ++i)
    check_weight(("inputs[" + std::to_string(i) + "]").c_str(), s.inputs[i], s.center, s.radius);
  if (s.mechanism.kind == Kind::corbinq) {
    if (s.bits < 1 || s.bits > kMaxConformBits)
      throw invalid_argument("bits", std::to_string(s.bits),
                             "in [1, " + std::to_string(kMaxConformBits) + "]");
  } else if (s.bits != 0) {
    throw invalid_argument("bits", std::to_string(s.bits), "0 (only CorBinQ has shared bits d)");
  }
  if (s.mechanism.kind == Kind::pbm)
    (void)pbm_theta_exact(s.exp_eps, s.mechanism.m);  // names exp_eps
}

std::vector<std::string> output_labels(const Mechanism& m) {
  switch (m.kind) {
    case Kind::ldpq:
      return {"+", "-"};
    case Kind::corbinq:
      return {"++", "+-", "-+", "--"};
    case Kind::pbm: {
      std::vector<std::string> labels;
      for (unsigned k = 0; k <= m.m; ++k) labels.push_back(std::to_string(k));
      return labels;
    }
    case Kind::rqm:
      return m.m == 2 ? std::vector<std::string>{"-", "+"}
                      : std::vector<std::string>{"-", "0", "+"};
  }
  return {};
}

Law exact_law(const Setting& s, const std::string& name) {
  check_setting(s);
  const Mechanism& m = s.mechanism;
  if (!(m.kind == Kind::corbinq && name == kSharedCoin)) check_variant(m, name);
  Law law{output_labels(m), {}};
  switch (m.kind) {
    case Kind::ldpq: {
      const Rational q = ldpq_q(alpha_of(s.exp_eps), s.center, s.radius, s.inputs[0]);
      law.prob = {q, Rational(1 - q)};
      break;
    }
    case Kind::corbinq: {
      const JointLaw<Rational> j =
          name == kSharedCoin
              ? shared_coin_law(s, Variant::corrected)
              : corbinq_joint_law(alpha_of(s.exp_eps), s.center, s.radius, s.inputs[0], s.inputs[1],
                                  s.bits, parse_variant(name));
      law.prob = {j.pp, j.pm, j.mp, j.mm};
      break;
    }
    case Kind::pbm:
    case Kind::rqm: {
      const auto atoms = room(m).law(coordinate_setting(s), s.inputs[0]);
      if (!atoms || atoms->size() != law.labels.size())
        throw invalid_argument("exp_eps", to_string(s.exp_eps),
                               "a budget with an exact law for " + m.name());
      for (const auto& a : *atoms) law.prob.push_back(a.prob);
      break;
    }
  }
  return law;
}

std::vector<Marginal> marginals(const Setting& s, const Law& law) {
  const Mechanism& m = s.mechanism;
  std::vector<Marginal> out;
  if (m.kind == Kind::ldpq || m.kind == Kind::corbinq) {
    const Rational level = alpha_of(s.exp_eps) * s.radius;
    const std::vector<Rational> values{Rational(s.center + level), Rational(s.center - level)};
    if (m.kind == Kind::ldpq) return {Marginal{0, law.labels, law.prob, values, {{0}, {1}}}};
    out.push_back(
        Marginal{0,
                 {"+", "-"},
                 {Rational(law.prob[0] + law.prob[1]), Rational(law.prob[2] + law.prob[3])},
                 values,
                 {{0, 1}, {2, 3}}});
    out.push_back(
        Marginal{1,
                 {"+", "-"},
                 {Rational(law.prob[0] + law.prob[2]), Rational(law.prob[1] + law.prob[3])},
                 values,
                 {{0, 2}, {1, 3}}});
    return out;
  }
  // PBM and RQM: the room's atoms carry the decoded values (the law at any input has them).
  const auto atoms = room(m).law(coordinate_setting(s), s.inputs[0]);
  Marginal one{0, law.labels, law.prob, {}, {}};
  for (std::size_t i = 0; i < law.labels.size(); ++i) {
    one.values.push_back((*atoms)[i].value);
    one.cells.push_back({i});
  }
  out.push_back(one);
  return out;
}

Rational bias(const Marginal& m, const Rational& input) {
  Rational mean = 0;
  for (std::size_t i = 0; i < m.prob.size(); ++i) mean += m.prob[i] * m.values[i];
  return mean - input;
}

Rational total_variation(const Law& a, const Law& b) {
  if (a.prob.size() != b.prob.size())
    throw invalid_argument(
        "law", std::to_string(b.prob.size()) + " outputs",
        std::to_string(a.prob.size()) + " outputs, as the law it is compared with");
  Rational sum = 0;
  for (std::size_t i = 0; i < a.prob.size(); ++i) sum += abs(Rational(a.prob[i] - b.prob[i]));
  return sum / 2;
}

std::vector<Rational> threshold_positions(const Setting& s) {
  if (s.mechanism.kind != Kind::corbinq) return {};
  const Rational alpha = alpha_of(s.exp_eps);
  const Rational two_d(pow2(s.bits));
  return {Rational(two_d * ldpq_q(alpha, s.center, s.radius, s.inputs[0])),
          Rational(two_d * (1 - ldpq_q(alpha, s.center, s.radius, s.inputs[1])))};
}

bool boundary_sensitive(const Setting& s) {
  for (const Rational& x : threshold_positions(s))
    if (denominator(x) == 1) return true;
  return false;
}

std::string describe(const Setting& s) {
  std::string text = s.mechanism.name();
  if (s.mechanism.kind == Kind::corbinq) text += " d=" + std::to_string(s.bits);
  text += " e^ε=" + to_string(s.exp_eps) + " c=" + to_string(s.center) +
          " r=" + to_string(s.radius) + " w=";
  if (s.inputs.size() == 1) return text + to_string(s.inputs[0]);
  text += "(";
  for (std::size_t i = 0; i < s.inputs.size(); ++i)
    text += (i ? ", " : "") + to_string(s.inputs[i]);
  return text + ")";
}

}  // namespace corbin::conform
