#pragma once
// What the noise baselines' rounds share (gaussian_pld, laplace_sum): n clients each add
// independent noise to a clipped input in [c − r, c + r] and the sum is released, so replacing
// client 1's input shifts the sum's law by at most 2r whatever the others' inputs, the two orders
// are mirror images (the noise is symmetric), and the largest shift is the worst (a log-concave
// location family). The accountant of one use from the shift's two PLDs, attained at c ± r.
//
// Dropout (each client, client 1 included, drops independently with probability p and sends
// nothing; who survived is public, run/round.hpp): given the survivors, c of them with client 1,
// the round is the shift pair of c clients' noise whatever the others' inputs, so inputs chosen
// knowing the draw and inputs fixed before it give the same round: the labelled mixture over the
// number of survivors, client 1 dropped one law in both worlds, is the round as run. Above, the
// populations themselves up to kMaxSurvivorPopulations clients, else the ladder's (fewer survivors:
// less noise, survivors.hpp); below, the same populations, else the ladder of ceilings' (more).

#include <functional>
#include <string>

#include "corbin/privacy/pld/continuous.hpp"
#include "corbin/privacy/run/accountant.hpp"

namespace corbin {

/// `noise` names each client's noise in the attaining configuration's words ("N(0, sigma^2)").
Accountant shift_pair_accountant(const UpperPld& upper, const LowerPld& lower, unsigned long n,
                                 const std::string& noise, const PldLimits& limits);

/// One dropout round of n >= 2 clients with dropout p in (0, 1) (see above) and m >= 1
/// coordinates sharing the draw (who drops out drops out of all of them): the labelled mixture
/// over who survived of the m coordinates composed, both ends, the whole round one use.
/// `plds(c)` is the shift pair's PLDs for c clients' noise. Raises invalid_argument(dropout)
/// outside (0, 1), invalid_argument(m) for 0, and what plds raises.
Accountant noise_dropout_accountant(const std::function<ContinuousPlds(unsigned long)>& plds, unsigned long n,
                                    const Rational& p, std::uint64_t m, const std::string& noise,
                                    const PldLimits& limits);

}  // namespace corbin
