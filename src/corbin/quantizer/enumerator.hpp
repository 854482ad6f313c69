#pragma once
// Brute-force law of CorBinQ: runs Alg. 2 (or the reference code's logic) literally for every one
// of the 2^d shared vectors Z, with thresholds as d-bit vectors compared lexicographically, and
// adds up P(outputs | Z) exactly. It shares no code with the closed form beyond q (Alg. 2,
// line 2), so agreement between the two is evidence for both. Cost 2^d: d <= kMaxBitsEnumerator.

#include "corbin/quantizer/corbinq.hpp"

namespace corbin {

JointLaw<Rational> enumerate_joint_law(const Rational& alpha, const Rational& center,
                                       const Rational& radius, const Rational& w1,
                                       const Rational& w2, unsigned long bits, Variant variant);

}  // namespace corbin
