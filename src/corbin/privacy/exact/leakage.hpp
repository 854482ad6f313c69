#pragma once
// Leakage beyond what the paper claims (L1; the paper states PLDP per client only). Two
// observers of one CorBin pair:
//   * an eavesdropper on both uplinks sees (Q1, Q2): the likelihood ratio of the pair's output
//     over the leader's own input, the follower's input held fixed (it is not the target's
//     data) and chosen worst;
//   * a holder of the shared Z (the partner, or anyone who learns the key) sees Q1 given Z = z.
// Both are computed exactly (Rational α) over the inputs that can be extremal: every end of a
// threshold cell of either client (the joint law is affine in each fractional part inside a
// cell) plus the cell midpoints, for d <= kMaxLeakageBits.

#include <optional>
#include <string>

#include "corbin/quantizer/corbinq.hpp"

namespace corbin {

constexpr unsigned long kMaxLeakageBits = 10;

struct LeakageResult {
  bool unbounded = false;  ///< some output is impossible for one input and possible for another
  Rational ratio;          ///< the largest ratio found (when bounded)
  std::string output;      ///< "++", "+-", ... (pair) or "+", "-" (Z holder)
  Rational w_high, w_low;  ///< the leader's inputs for the numerator and the denominator
  Rational w_partner;      ///< the follower's input (pair eavesdropper)
  std::optional<BigInt> z; ///< the shared value (Z holder)
};

/// Raises invalid_argument(bits) for d > kMaxLeakageBits.
LeakageResult pair_eavesdropper_leakage(const Rational& alpha, const Rational& center,
                                        const Rational& radius, unsigned long bits,
                                        Variant variant);
LeakageResult z_holder_leakage(const Rational& alpha, const Rational& center,
                               const Rational& radius, unsigned long bits, Variant variant);

}  // namespace corbin
