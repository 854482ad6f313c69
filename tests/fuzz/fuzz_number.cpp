// The number parser (every numeric option and Python argument goes through it): any bytes either
// parse to a rational or raise invalid_argument naming the parameter; a parsed value prints as
// "p/q" and parses back to itself.

#include <cstdint>
#include <string>

#include "corbin/number/error.hpp"
#include "corbin/number/rational.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;  // longer values take the same paths; keep each run fast
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const corbin::Rational x = corbin::parse_rational(text, "x");
    if (corbin::parse_rational(corbin::to_string(x), "x") != x) __builtin_trap();
  } catch (const corbin::invalid_argument& e) {
    if (e.parameter() != "x") __builtin_trap();
  }
  return 0;
}
