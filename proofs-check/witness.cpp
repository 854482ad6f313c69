#include "witness.hpp"

#include "corbin/privacy/run/run_ledger.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "corbin/utility/pair_mse.hpp"

namespace corbin::audit {

namespace {
Json base(const char* kind, const std::string& reading) {
  Json j = Json::object();
  j["kind"] = kind;
  j["reading"] = reading;
  return j;
}
Rational sq(const Rational& x) { return x * x; }
/// The inputs every CorBinQ witness states: e^ε, c, r and d.
void put_setting(Json& j, const Rational& exp_eps, const Rational& c, const Rational& r, unsigned long bits) {
  j["exp_eps"] = to_string(exp_eps);
  j["center"] = to_string(c);
  j["radius"] = to_string(r);
  j["bits"] = bits;
}
}  // namespace

Json free_levels_witness(const std::string& reading, const std::string& what, unsigned long bits) {
  // c = r = 1, e^ε = 3 (α = 2), w = w' = c + r = 2; the competitor's levels −1 and 5 with
  // p(w) = (w + 1)/6: given an even z client 1 is high with probability 2p(w), client 2 low; given
  // an odd z the other way round. At w = w' = 2 its sum is 5 − 1 = 4 = w + w' at every z.
  const Rational c(1), r(1), x(3), w(2), lo(-1), hi(5);
  const Rational alpha = alpha_of(x);
  Json j = base("free_levels_pair", reading);
  j["claim_part"] = what;
  put_setting(j, x, c, r, bits);
  j["w1"] = to_string(w);
  j["w2"] = to_string(w);
  j["competitor_levels"] = {to_string(lo), to_string(hi)};
  j["competitor_rule"] = "z even: client 1 high w.p. 2p(w1), client 2 low; z odd: client 2 high w.p. 2p(w2), client 1 low; "
                         "p(w) = (w - lo)/(hi - lo)";
  const Rational p = (w - lo) / (hi - lo);
  // Even z: Q1 = hi w.p. 2p, else lo; Q2 = lo. Odd z: the mirror. Both halves have the same MSE.
  const Rational competitor = 2 * p * sq(hi + lo - 2 * w) + (1 - 2 * p) * sq(2 * lo - 2 * w);
  const auto u = pair_utility(alpha, c, r, w, w, bits, Variant::corrected);
  const Rational bound = paper_gap_bound(alpha, r, bits);
  put(j, "corbinq_mse", u.mse);
  put(j, "competitor_mse", competitor);
  put(j, "thm1_bound", bound);
  j["refutes"] = what == "bound" ? u.mse > competitor + bound : u.mse > competitor;
  return j;
}

Json aggregate_mean_witness(const std::string& reading, const Rational& exp_eps, const Rational& c,
                            const Rational& r, unsigned long bits, const std::vector<std::pair<Rational, Rational>>& pairs,
                            const char* variant) {
  const Rational alpha = alpha_of(exp_eps);
  Json j = base("aggregate_mean", reading);
  put_setting(j, exp_eps, c, r, bits);
  j["variant"] = variant;
  Json list = Json::array();
  Rational mean(0), inputs(0);
  const Rational level = r * alpha;
  for (const auto& [w1, w2] : pairs) {
    list.push_back({to_string(w1), to_string(w2)});
    const auto law = corbinq_joint_law(alpha, c, r, w1, w2, bits, parse_variant(variant));
    mean += 2 * c + level * (2 * law.plus1 - 1) + level * (2 * law.plus2 - 1);
    inputs += w1 + w2;
  }
  const Rational n(BigInt(static_cast<long long>(2 * pairs.size())));
  j["pairs"] = list;
  put(j, "expected_average", Rational(mean / n));
  put(j, "average_of_inputs", Rational(inputs / n));
  j["refutes"] = mean != inputs;
  return j;
}

Json printed_q2_witness(const std::string& reading, const Rational& exp_eps, const Rational& c, const Rational& r,
                        unsigned long bits, const Rational& leader, const Rational& a, const Rational& b) {
  const Rational alpha = alpha_of(exp_eps);
  Json j = base("printed_q2", reading);
  put_setting(j, exp_eps, c, r, bits);
  j["leader"] = to_string(leader);
  j["follower_a"] = to_string(a);
  j["follower_b"] = to_string(b);
  const Rational pa = corbinq_joint_law(alpha, c, r, leader, a, bits, Variant::as_printed).plus2;
  const Rational pb = corbinq_joint_law(alpha, c, r, leader, b, bits, Variant::as_printed).plus2;
  put(j, "plus_at_a", pa);
  put(j, "plus_at_b", pb);
  const Rational mean_b = c + r * alpha * (2 * pb - 1);
  put(j, "mean_at_b", mean_b);
  j["refutes"] = pa > exp_eps * pb || pb > exp_eps * pa || mean_b != b;
  return j;
}

Json reference_top_witness(const std::string& reading, const Rational& exp_eps_lower, const std::string& eps,
                           const Rational& c, const Rational& r, unsigned long bits) {
  const Rational alpha = alpha_of(exp_eps_lower);
  Json j = base("reference_top_cell", reading);
  if (!eps.empty()) j["eps"] = eps;
  j["exp_eps_at_least"] = to_string(exp_eps_lower);
  j["center"] = to_string(c);
  j["radius"] = to_string(r);
  j["bits"] = bits;
  const auto top = corbinq_joint_law(alpha, c, r, c + r, c, bits, Variant::reference_code);
  const auto bottom = corbinq_joint_law(alpha, c, r, c - r, c, bits, Variant::reference_code);
  put(j, "plus_at_c_plus_r", top.plus1);
  put(j, "ldpq_q_at_c_plus_r", Rational(ldpq_q(alpha, c, r, Rational(c + r))));
  put(j, "minus_at_c_plus_r", Rational(1 - top.plus1));
  put(j, "minus_at_c_minus_r", Rational(1 - bottom.plus1));
  j["refutes"] = top.plus1 != ldpq_q(alpha, c, r, Rational(c + r)) || (top.plus1 == 1 && bottom.plus1 != 1);
  return j;
}

Json given_z_witness(const std::string& reading, const Rational& exp_eps, const Rational& c, const Rational& r,
                     unsigned long bits, unsigned long z, const Rational& w_a, const Rational& w_b) {
  const Rational alpha = alpha_of(exp_eps);
  Json j = base("given_z", reading);
  put_setting(j, exp_eps, c, r, bits);
  j["z"] = z;
  j["w_a"] = to_string(w_a);
  j["w_b"] = to_string(w_b);
  // Alg. 2, lines 3–11: u = 2^d q(w); "+" for z < ⌊u⌋, with probability u − ⌊u⌋ at z = ⌊u⌋.
  const auto given = [&](const Rational& w) {
    const Rational u = Rational(pow2(bits)) * ldpq_q(alpha, c, r, w);
    const BigInt a = floor_of(u);
    const BigInt zz(static_cast<long long>(z));
    return zz < a ? Rational(1) : zz == a ? Rational(u - Rational(a)) : Rational(0);
  };
  const Rational pa = given(w_a), pb = given(w_b);
  put(j, "plus_given_z_at_a", pa);
  put(j, "plus_given_z_at_b", pb);
  j["refutes"] = pa > exp_eps * pb || pb > exp_eps * pa || 1 - pa > exp_eps * (1 - pb) || 1 - pb > exp_eps * (1 - pa);
  return j;
}

Json attained_json(const AttainedBy& by) {
  Json parts = Json::array();
  for (std::size_t i = 0; i < by.parts.size(); ++i) {
    const ConfigurationWords& w = by.parts[i];
    Json part = Json::object();
    part["role"] = role_name(w);
    part["client_1"] = w.client_1;
    part["neighbour"] = w.replaced_by;
    if (i < by.reversed.size() && by.reversed[i])
      part["order"] = "reversed: the neighbour's input in the first dataset, client 1's in the second";
    if (!w.partner.empty()) part["partner"] = w.partner;
    part["other_ldpq"] = w.others_ldpq;
    part["other_pairs"] = w.others_pairs;
    if (!w.dropout.empty()) part["dropout"] = w.dropout;
    if (!w.when.empty()) part["when"] = w.when;
    if (by.adaptive)  // an adaptive strategy's configurations (choice_plan.hpp)
      part["chosen"] = "adaptively, by the privacy loss of the outputs before (uses: those it may be played in)";
    part["uses"] = std::to_string(by.repeats[i]);
    parts.push_back(part);
  }
  return parts;
}

}  // namespace corbin::audit
