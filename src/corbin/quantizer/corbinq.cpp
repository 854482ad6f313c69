#include "corbin/quantizer/corbinq.hpp"

#include <algorithm>
#include <string>

namespace corbin {

Variant parse_variant(std::string_view text) {
  if (text == "corrected") return Variant::corrected;
  if (text == "as-printed") return Variant::as_printed;
  if (text == "reference-code") return Variant::reference_code;
  throw invalid_argument("variant", quote(text),
                         "one of corrected, as-printed, reference-code");
}

const char* to_string(Variant v) {
  switch (v) {
    case Variant::corrected: return "corrected";
    case Variant::as_printed: return "as-printed";
    case Variant::reference_code: return "reference-code";
  }
  return "corrected";
}

void check_bits(long long bits, unsigned long limit) {
  if (bits < 0 || static_cast<unsigned long long>(bits) > limit)
    throw invalid_argument("bits", std::to_string(bits),
                           "an integer in [0, " + std::to_string(limit) + "]");
}

unsigned default_precision_bits(unsigned long bits) {
  // At least PrecisionFloor's (a caller that asks for more precision everywhere).
  return static_cast<unsigned>(std::max<unsigned long>({128, bits + 128, precision_floor_bits()}));
}

}  // namespace corbin
