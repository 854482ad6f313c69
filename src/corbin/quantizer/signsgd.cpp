#include "corbin/quantizer/signsgd.hpp"

#include <vector>

namespace corbin {

int signsgd_sign(const Rational& v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }

ScalarLaw<Rational> signsgd_law(const Rational& center, const Rational& radius, const Rational& v) {
  check_radius(radius);
  check_weight("w", v, center, radius);
  const int s = signsgd_sign(v);
  ScalarLaw<Rational> law;
  for (int value : {-1, 0, 1}) law.atoms.push_back({Rational(value), Rational(value == s ? 1 : 0)});
  return law;
}

Rational signsgd_mse(const Rational& center, const Rational& radius, const Rational& v) {
  check_radius(radius);
  check_weight("w", v, center, radius);
  const Rational e = signsgd_sign(v) - v;
  return e * e;
}

LawPldp<Rational> signsgd_pldp(const Rational& center, const Rational& radius) {
  check_radius(radius);
  std::vector<Rational> inputs{Rational(center - radius), Rational(center + radius)};
  if (center - radius < 0 && 0 < center + radius) inputs.push_back(Rational(0));
  std::vector<ScalarLaw<Rational>> laws;
  for (const Rational& v : inputs) laws.push_back(signsgd_law(center, radius, v));
  return pldp_over_inputs(inputs, laws);  // meets stays not_claimed
}

WireBits signsgd_wire_bits() { return {1, 2, 32}; }

double signsgd_sample(double v, std::uint64_t) {
  if (v != v) throw invalid_argument("w", "NaN", "a number (NaN inputs cannot be quantized)");
  return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0);
}

void signsgd_sample(const float* v, float* out, std::size_t count, std::uint64_t first) {
  check_no_nan_input(v, count, first);
  for (std::size_t i = 0; i < count; ++i)
    out[i] = static_cast<float>(signsgd_sample(static_cast<double>(v[i]), 0));
}

}  // namespace corbin
