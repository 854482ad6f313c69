#pragma once
// What the noise baselines' rounds share (gaussian_pld, laplace_sum): n clients each add
// independent noise to a clipped input in [c − r, c + r] and the sum is released, so replacing
// client 1's input shifts the sum's law by at most 2r whatever the others' inputs, the two orders
// are mirror images (the noise is symmetric), and the largest shift is the worst (a log-concave
// location family). The accountant of one use from the shift's two PLDs, attained at c ± r.

#include <string>

#include "corbin/privacy/run/accountant.hpp"

namespace corbin {

/// `noise` names each client's noise in the attaining configuration's words ("N(0, sigma^2)").
Accountant shift_pair_accountant(const UpperPld& upper, const LowerPld& lower, unsigned long n,
                                 const std::string& noise, const PldLimits& limits);

}  // namespace corbin
