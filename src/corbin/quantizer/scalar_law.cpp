#include "corbin/quantizer/scalar_law.hpp"

#include <string>

#include "corbin/quantizer/budget.hpp"

namespace corbin {

const char* to_string(Meets m) {
  switch (m) {
    case Meets::yes: return "yes";
    case Meets::no: return "no";
    case Meets::undecided: return "undecided";
    case Meets::not_claimed: return "not claimed";
  }
  return "not claimed";
}

Meets decide_at_most(const Rational& ratio, const Rational& bound) {
  return ratio <= bound ? Meets::yes : Meets::no;
}

Meets decide_at_most(const Interval& ratio, const Interval& bound) {
  if (upper_of(ratio) <= lower_of(bound)) return Meets::yes;
  if (lower_of(ratio) > upper_of(bound)) return Meets::no;
  return Meets::undecided;
}

Meets decide_at_most(double ratio, double bound) { return ratio <= bound ? Meets::yes : Meets::no; }

unsigned bits_for_symbols(std::size_t symbols) {
  unsigned bits = 0;
  while ((std::size_t{1} << bits) < symbols) ++bits;
  return bits;
}

namespace {

std::uint64_t to_u64(const BigInt& x) { return x.convert_to<std::uint64_t>(); }

}  // namespace

FixedRange fixed_range(const Rational& lo, const Rational& hi) {
  const BigInt one_k = pow2(kFixedBits);
  return {to_u64(-floor_of(Rational(-lo * one_k))), to_u64(floor_of(Rational(hi * one_k)))};
}

FixedRange fixed_range(const Interval& lo, const Interval& hi) {
  const Interval one_k = interval_from(pow2(kFixedBits));
  const Interval lo_k = lo * one_k, hi_k = hi * one_k;
  BigInt lo_ceil, hi_floor;
  mpfr_get_z(lo_ceil.backend().data(), upper_of(lo_k).backend().data(), MPFR_RNDU);
  mpfr_get_z(hi_floor.backend().data(), lower_of(hi_k).backend().data(), MPFR_RNDD);
  return {to_u64(lo_ceil), to_u64(hi_floor)};
}

void check_chunk_start(std::uint64_t first) {
  if (first % kBaselineChunk != 0)
    throw invalid_argument("first", std::to_string(first),
                           "a multiple of the chunk size " + std::to_string(kBaselineChunk));
}

void check_no_nan_input(const float* w, std::size_t count, std::uint64_t first) {
  for (std::size_t i = 0; i < count; ++i)
    if (w[i] != w[i])
      throw invalid_argument("w[" + std::to_string(first + i) + "]", "NaN",
                             "a number (NaN inputs cannot be quantized)");
}

Interval exp_eps_interval(const Rational& eps) {
  if (eps <= 0) throw invalid_argument("eps", to_string(eps), "> 0");
  // Beyond this, e^ε leaves MPFR's exponent range and every enclosure is useless (budget.cpp).
  if (eps > Budget::kMaxEps) throw invalid_argument("eps", to_string(eps), "at most 10^8");
  return Interval(exp(interval_from(eps)));
}

}  // namespace corbin
