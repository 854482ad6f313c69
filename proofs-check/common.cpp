#include <cmath>

#include "claims.hpp"
#include "corbin/quantizer/budget.hpp"
#include "corbin/quantizer/corbinq.hpp"

namespace corbin::audit {

Grid Grid::paper() {
  Grid g;
  g.eps = {0.1, 0.3, 0.5, 1, 3, 5, 7};
  for (double e : g.eps) g.exp_eps.push_back(exp_eps_near(e));
  g.bits = {0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 64};
  g.clients = {50, 100, 200, 500};
  g.enumerate_up_to = 8;
  g.optimise_up_to = 3;
  g.input_steps = 8;
  return g;
}

Grid Grid::quick_grid() {
  Grid g;
  g.eps = {0.5, 1, 5};  // 5: past the reference code's top-cell threshold at d = 5 (R1)
  for (double e : g.eps) g.exp_eps.push_back(exp_eps_near(e));
  g.bits = {0, 1, 5};
  g.clients = {50};
  g.enumerate_up_to = 5;
  g.optimise_up_to = 2;
  g.input_steps = 4;
  g.quick = true;
  return g;
}

Rational exp_eps_near(double eps) {
  // Six decimals, rounded up: e^ε grows by at most 1e-6, i.e. ε by < 1e-6.
  const double scaled = std::ceil(std::exp(eps) * 1e6);
  return Rational(BigInt(static_cast<long long>(scaled)), BigInt(1000000));
}

Rational alpha_of(const Rational& exp_eps) {
  return Budget::make(Budget::Kind::exp_eps, exp_eps).alpha_exact();
}

void put(Json& j, const std::string& key, const Rational& value) {
  j[key] = to_string(value);
  j[key + "_approx"] = to_double(value);
}

void put(Json& j, const std::string& key, const Interval& value) {
  j[key] = {to_decimal(lower_of(value), 30), to_decimal(upper_of(value), 30)};
  j[key + "_approx"] = midpoint_of(value).convert_to<double>();
}

Json joint_recheck(const Rational& alpha, const Rational& c, const Rational& r, const Rational& w1,
                   const Rational& w2, unsigned long bits, const char* variant) {
  Json j = Json::object();
  j["kind"] = "corbinq_joint";
  j["alpha"] = to_string(alpha);
  j["center"] = to_string(c);
  j["radius"] = to_string(r);
  j["w1"] = to_string(w1);
  j["w2"] = to_string(w2);
  j["bits"] = bits;
  j["variant"] = variant;
  const auto law = corbinq_joint_law(alpha, c, r, w1, w2, bits, parse_variant(variant));
  Json joint = Json::object();
  joint["++"] = to_string(law.pp);
  joint["+-"] = to_string(law.pm);
  joint["-+"] = to_string(law.mp);
  joint["--"] = to_string(law.mm);
  j["joint"] = joint;
  return j;
}

std::string decimals(const Rational& x, int places, bool up) {
  BigInt scale(1);
  for (int i = 0; i < places; ++i) scale *= 10;
  const Rational scaled = x * Rational(scale);
  BigInt m = floor_of(scaled);
  if (up && Rational(m) != scaled) m += 1;
  const bool negative = m < 0;
  std::string digits = (negative ? BigInt(-m) : m).str();
  if (digits.size() <= static_cast<std::size_t>(places)) digits.insert(0, places + 1 - digits.size(), '0');
  const std::string whole = digits.substr(0, digits.size() - places);
  return (negative ? "-" : "") + whole + (places > 0 ? "." + digits.substr(digits.size() - places) : "");
}

const std::vector<NamedCheck>& all_checks() {
  static const std::vector<NamedCheck> checks = {
      {"P1", check_p1},   {"A2", check_a2},   {"T1a", check_t1a}, {"T1b", check_t1b},
      {"T1c", check_t1c}, {"T1u", check_t1u}, {"T2a", check_t2a}, {"T2b", check_t2b},
      {"T2c", check_t2c}, {"T3", check_t3},   {"T3m", check_t3m}, {"T4", check_t4},
      {"T4u", check_t4u}, {"T4m", check_t4m}, {"S1", check_s1},   {"D0", check_d0},
      {"D1", check_d1},   {"C1", check_c1},   {"R1", check_r1},   {"X1", check_x1},
      {"L1", check_l1},   {"G1", check_g1},   {"X8", check_x8},   {"B1", check_b1},   {"E1", check_e1}, {"E2", check_e2},
      {"E3", check_e3},   {"E4", check_e4},   {"E5", check_e5}};
  return checks;
}

}  // namespace corbin::audit
