#pragma once
// What `corbin conform` holds a sampler to: for one setting (a mechanism, a budget e^ε, CorBinQ's
// d, the geometry c, r and the clients' inputs), the exact law of every output the sampler reports.
//
//   ldpq      one client, outputs "+" "-" (c ± rα; Alg. 1)
//   corbinq   a pair, the joint law of both outputs "++" "+-" "-+" "--" (first sign Q1's; Alg. 2)
//   pbm1/2    one client, outputs "0" … "m" (PBM's Z; quantizer/pbm.hpp, θ exact, so e^(ε/m)
//   rational) rqm2/3    one client, outputs "-" "+" or "-" "0" "+" (c − X, c, c + X;
//   quantizer/rqm.hpp, q = 1/2)
//
// Every law is exact (Rational) and comes from the formulas of quantizer/: nothing here restates
// them. A mechanism has known variants, the readings of its algorithm that a faithful sampler may
// implement: CorBinQ's corrected, as-printed and reference-code (corbinq.hpp); the others have one,
// "standard". Fault models are laws of known implementation faults (CorBinQ's "shared-coin": the
// leader and the follower resolve their ties with one private coin), used to size samples and to
// name what a departing sampler matches; they are never what a sampler should implement.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "corbin/number/rational.hpp"

namespace corbin::conform {

enum class Kind { ldpq, corbinq, pbm, rqm };

/// A mechanism on trial; m is PBM's number of trials (1, 2) or RQM's number of levels (2, 3).
struct Mechanism {
  Kind kind = Kind::corbinq;
  unsigned m = 0;
  /// "ldpq", "corbinq", "pbm1", "pbm2", "rqm2", "rqm3".
  std::string name() const;
  /// Outputs per draw: 2 for the CorBinQ pair, 1 otherwise.
  std::size_t clients() const { return kind == Kind::corbinq ? 2 : 1; }
  bool operator==(const Mechanism&) const = default;
};

/// The mechanism named `text`; anything else raises invalid_argument("mechanism") naming the known
/// ones.
Mechanism parse_mechanism(std::string_view text);
/// Every mechanism conform knows, in the order above.
std::vector<Mechanism> all_mechanisms();

/// The known variants of the mechanism, the first being the one a correct implementation follows:
/// corbinq: corrected, as-printed, reference-code; the others: standard.
std::vector<std::string> variants_of(const Mechanism& m);
/// Raises invalid_argument("variant") unless `variant` is one of variants_of(m).
void check_variant(const Mechanism& m, const std::string& variant);
/// The fault models whose laws are known relative to `variant` (corbinq's corrected: "shared-coin",
/// the corrected algorithm with one private coin for both clients' ties; none otherwise).
std::vector<std::string> fault_models_of(const Mechanism& m, const std::string& variant);
/// Whether `name` is a fault model (not a variant).
bool is_fault_model(const std::string& name);
/// A sentence naming the law: "the law of the authors' code: top-cell tie rule".
std::string describe_law(const Mechanism& m, const std::string& name);

/// Largest d conform accepts for CorBinQ (the fixed-point sampler's limit; the exact law has none).
constexpr unsigned kMaxConformBits = 32;

/// One setting of a trial. `inputs` holds one input per client (w, or w1 then w2).
struct Setting {
  Mechanism mechanism;
  Rational exp_eps{3};
  unsigned bits = 0;  ///< CorBinQ's d; 0 and unused for the others
  Rational center{0}, radius{1};
  std::vector<Rational> inputs;
  std::vector<std::string>
      purposes;  ///< why the grid chose these inputs ("ends", "max TV vs as-printed")
};

/// Validates a setting: e^ε > 1 (for pbm2 a perfect square of a rational, θ being rational in
/// e^(ε/2)), r > 0, one input per client inside [c − r, c + r], 1 <= d <= kMaxConformBits for
/// CorBinQ. Raises invalid_argument naming exp_eps, radius, inputs[i] or bits.
void check_setting(const Setting& s);

/// α = (e^ε + 1)/(e^ε − 1).
Rational alpha_of(const Rational& exp_eps);

/// The labels of the outputs in protocol order (see the header comment).
std::vector<std::string> output_labels(const Mechanism& m);

/// A finite law over a mechanism's outputs, in output_labels order.
struct Law {
  std::vector<std::string> labels;
  std::vector<Rational> prob;
};

/// The exact law of variant or fault model `name` at the setting (validated). Raises
/// invalid_argument("variant") for a name unknown for the mechanism.
Law exact_law(const Setting& s, const std::string& name);

/// One client's output: its own law (a marginal of a pair's), the value each output decodes to,
/// and which joint outputs make it up.
struct Marginal {
  std::size_t client = 0;  ///< 0: the leader (or the only client), 1: the follower
  std::vector<std::string> labels;
  std::vector<Rational> prob;
  std::vector<Rational> values;
  std::vector<std::vector<std::size_t>> cells;  ///< joint outputs (indices into the law) per output
};

/// The clients' marginals of `law` at the setting, with the decoded values c ± rα (LDPQ, CorBinQ),
/// PBM's levels c + r(2k − m)/(2mθ), RQM's c − X, (c,) c + X.
std::vector<Marginal> marginals(const Setting& s, const Law& law);

/// E[value] − input of a marginal, exactly (zero for an unbiased client).
Rational bias(const Marginal& m, const Rational& input);

/// The total variation distance (1/2) Σ |p − p'| of two laws over the same outputs, exactly.
Rational total_variation(const Law& a, const Law& b);

/// For CorBinQ, the threshold positions u = 2^d q1 and v = 2^d (1 − q2) of Alg. 2, line 3 (one per
/// client); empty for the others.
std::vector<Rational> threshold_positions(const Setting& s);
/// Whether some threshold position is an integer: the input sits on a cell boundary, where a
/// rounding of q decides between two cells (a law may jump there: as-printed, reference-code).
bool boundary_sensitive(const Setting& s);

/// "corbinq d=2 e^ε=3 c=0 r=1 w=(1/3, -1)": a setting for messages.
std::string describe(const Setting& s);

}  // namespace corbin::conform
