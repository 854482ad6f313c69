#include "corbin/fl/coordinate.hpp"

#include <stdexcept>

#include "corbin/number/rational.hpp"

namespace corbin::fl {

std::optional<LoneMse> lone_mse(const Mechanism& m, const CoordinateSetting& s, const Rational& w) {
  const auto law = m.law(s, w);
  const auto enclosure = m.mse(s, w);
  if (!law && !enclosure) return std::nullopt;
  LoneMse out;
  if (law) out.exact = ScalarLaw<Rational>{*law}.mse(w);
  out.enclosure = enclosure ? *enclosure : interval_from(*out.exact);
  if (out.exact && !(to_rational(lower_of(out.enclosure)) <= *out.exact && *out.exact <= to_rational(upper_of(out.enclosure))))
    throw std::logic_error("mechanism " + m.name() + ": its MSE enclosure misses its law's MSE at w = " + corbin::to_string(w));
  return out;
}

}  // namespace corbin::fl
