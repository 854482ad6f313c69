#pragma once
// Input grids shared by the checks: weights in [c − r, c + r] at steps of r/steps.

#include <vector>

#include "corbin/number/rational.hpp"

namespace corbin::audit {

inline std::vector<Rational> input_grid(const Rational& c, const Rational& r, unsigned long steps) {
  std::vector<Rational> w;
  for (long k = -static_cast<long>(steps); k <= static_cast<long>(steps); ++k)
    w.push_back(c + r * Rational(k, static_cast<long>(steps)));
  return w;
}

}  // namespace corbin::audit
