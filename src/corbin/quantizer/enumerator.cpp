#include "corbin/quantizer/enumerator.hpp"

#include <cstdint>
#include <vector>

namespace corbin {
namespace {

using Bits = std::vector<bool>;  // most significant bit first: Z_1 ... Z_d

Bits to_bits(std::uint64_t x, unsigned long d) {  // B_d(x)
  Bits b(d);
  for (unsigned long i = 0; i < d; ++i) b[d - 1 - i] = (x >> i) & 1u;
  return b;
}

bool lex_less(const Bits& a, const Bits& b) {  // a ≺ b
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return b[i];
  return false;
}

Rational clamp01(const Rational& x) { return x < 0 ? Rational(0) : (x > 1 ? Rational(1) : x); }

/// P(output = own sign | Z) for one client of the reference implementation: own sign if
/// Z < idx, the other if Z > idx, and at Z = idx own sign iff uniform < (P − idx'/2^d)·2^d.
Rational reference_own(const Rational& p, std::uint64_t z, std::uint64_t two_d) {
  BigInt idx = floor_of(Rational(p * two_d));
  if (idx < 0) idx = 0;
  if (idx > two_d - 1) idx = two_d - 1;
  const auto i = idx.convert_to<std::uint64_t>();
  if (z < i) return 1;
  if (z > i) return 0;
  const long long idx_prime = (i + 1 >= two_d) ? static_cast<long long>(two_d) - 2
                                                : static_cast<long long>(i);
  return clamp01(Rational((p - Rational(idx_prime, BigInt(two_d))) * two_d));
}

}  // namespace

JointLaw<Rational> enumerate_joint_law(const Rational& alpha, const Rational& center,
                                       const Rational& radius, const Rational& w1,
                                       const Rational& w2, unsigned long bits, Variant variant) {
  check_radius(radius);
  check_weight("w1", w1, center, radius);
  check_weight("w2", w2, center, radius);
  check_bits(static_cast<long long>(bits), kMaxBitsEnumerator);
  const std::uint64_t two_d = std::uint64_t{1} << bits;
  const Rational q1 = ldpq_q(alpha, center, radius, w1);
  const Rational q2 = ldpq_q(alpha, center, radius, w2);

  // Alg. 2, line 3.
  const Rational u = q1 * two_d, v = (1 - q2) * two_d;
  const auto t1_int = floor_of(u).convert_to<std::uint64_t>();
  const auto t2_int = floor_of(v).convert_to<std::uint64_t>();
  const Bits t1 = to_bits(t1_int, bits), t2 = to_bits(t2_int, bits);
  const Rational f1 = u - Rational(t1_int), f2 = v - Rational(t2_int);  // lines 9 and 17

  JointLaw<Rational> law{0, 0, 0, 0, 0, 0};
  for (std::uint64_t z_int = 0; z_int < two_d; ++z_int) {
    Rational p1_plus, p2_minus;  // P(Q1 = +  | Z), P(Q2 = − | Z)
    if (variant == Variant::reference_code) {
      p1_plus = reference_own(q1, z_int, two_d);           // leader: own sign +
      p2_minus = reference_own(1 - q2, z_int, two_d);      // follower: own sign −
    } else {
      const Bits z = to_bits(z_int, bits);
      // Lines 4-11.
      if (lex_less(z, t1)) p1_plus = 1;
      else if (lex_less(t1, z)) p1_plus = 0;
      else p1_plus = f1;
      // Lines 12-19; line 14 reads T2 ≺ Z (corrected) or T1 ≺ Z (as printed).
      const Bits& line14 = variant == Variant::as_printed ? t1 : t2;
      if (lex_less(z, t2)) p2_minus = 1;
      else if (lex_less(line14, z)) p2_minus = 0;
      else p2_minus = f2;
    }
    law.pm += p1_plus * p2_minus;
    law.pp += p1_plus * (1 - p2_minus);
    law.mm += (1 - p1_plus) * p2_minus;
    law.mp += (1 - p1_plus) * (1 - p2_minus);
  }
  const Rational scale(1, BigInt(two_d));
  law.pp *= scale;
  law.pm *= scale;
  law.mp *= scale;
  law.mm *= scale;
  law.plus1 = law.pp + law.pm;
  law.plus2 = law.pp + law.mp;
  return law;
}

}  // namespace corbin
