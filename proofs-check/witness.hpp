#pragma once
// Counterexamples a stranger can recompute: each witness is a JSON item {"kind": ..., "reading":
// key, every input of the claim, the exact values, "refutes": bool} that
// recheck_certificates.py recomputes from its inputs with its own code, never re-reading the
// value it checks. The checks attach them to their certificates under "witnesses".

#include "claims.hpp"
#include "corbin/privacy/run/accountant.hpp"

namespace corbin::audit {

/// Theorem 1 with 𝒬 as printed: CorBinQ against a pair with levels lo, hi (not c ± rα) in which
/// the last bit of Z picks which client may go high (FreeLevels.v's competitor). `what`:
/// "bound" (Eq. (th:1:opt)) or "optimality" (least MSE in 𝒬) or "limit" (the gap at d).
Json free_levels_witness(const std::string& reading, const std::string& what, unsigned long bits);

/// The expectation of the server's average for pairs of inputs, one Algorithm 2 variant.
Json aggregate_mean_witness(const std::string& reading, const Rational& exp_eps, const Rational& c,
                            const Rational& r, unsigned long bits, const std::vector<std::pair<Rational, Rational>>& pairs,
                            const char* variant);

/// Algorithm 2 as printed: P(Q2 = c + rα) at one leader input and two follower inputs.
Json printed_q2_witness(const std::string& reading, const Rational& exp_eps, const Rational& c, const Rational& r,
                        unsigned long bits, const Rational& leader, const Rational& a, const Rational& b);

/// The reference code at its top threshold cell: e^ε >= exp_eps_lower (exactly e^ε when `eps`
/// is empty), d bits: P(c + rα | c + r) against LDPQ's q, and P(c − rα) at c + r and c − r.
Json reference_top_witness(const std::string& reading, const Rational& exp_eps_lower, const std::string& eps,
                           const Rational& c, const Rational& r, unsigned long bits);

/// A CorBinQ client's law given Z = z at two inputs (what a holder of Z sees).
Json given_z_witness(const std::string& reading, const Rational& exp_eps, const Rational& c, const Rational& r,
                     unsigned long bits, unsigned long z, const Rational& w_a, const Rational& w_b);

/// The configuration attaining an accountant's lower bound (Accountant::attaining_epsilon), one
/// object per part: its role, client 1's input and its neighbour's, the other clients' inputs, the
/// order of the two datasets where it is reversed, and how many uses (coordinates × rounds) it
/// has. `corbin account` prints the same.
Json attained_json(const AttainedBy& by);

}  // namespace corbin::audit
