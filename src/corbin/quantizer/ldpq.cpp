#include "corbin/quantizer/ldpq.hpp"

namespace corbin {

void check_radius(const Rational& radius) {
  if (radius <= 0) throw invalid_argument("radius", to_string(radius), "> 0");
}

void check_weight(const char* parameter, const Rational& w, const Rational& center,
                  const Rational& radius) {
  if (w < center - radius || w > center + radius)
    throw invalid_argument(parameter, to_string(w),
                           "in [c − r, c + r] = [" + to_string(Rational(center - radius)) + ", " +
                               to_string(Rational(center + radius)) + "]");
}

void check_weights(const std::vector<Rational>& weights, const Rational& center, const Rational& radius) {
  if (weights.empty()) throw invalid_argument("weights", "empty", "at least one client's input");
  for (std::size_t i = 0; i < weights.size(); ++i)
    check_weight(("weights[" + std::to_string(i) + "]").c_str(), weights[i], center, radius);
}

}  // namespace corbin
