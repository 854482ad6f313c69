#pragma once
// Samplers of corbin's own on trial (`corbin conform`'s samplers builtin:cpu and builtin:exact).
//
// builtin:cpu runs the fixed-point samplers `corbin fl` uses (quantizer/sampler.hpp, pbm.hpp,
// rqm.hpp) over ChaCha20 streams keyed by the request's seed. They take float inputs and realise,
// exactly, the law of their integer rule at the float (fixed_point_law): that is the law they claim
// and are held to; fixed_point_distance says how far it is from the exact law, at the float inputs
// (the fixed-point rounding of q alone) and at the rational inputs asked (the float rounding of the
// inputs too). CorBinQ's sampler implements the corrected algorithm only.
//
// builtin:exact draws from the exact law of the requested variant with 64-bit ChaCha20 words
// against cumulative thresholds floor(2^64 F) (each output's probability within 2^−64 of exact): a
// check of corbin's statistics, not of any implementation.

#include "corbin/conform/trial.hpp"

namespace corbin::conform {

/// The float a fixed-point sampler receives for a rational input (round to nearest via double).
float input_as_float(const Rational& w);

/// The law builtin:cpu realises at the setting (validated), exactly.
Law fixed_point_law(const Setting& s);

/// TV of the fixed-point law from the exact law of the corrected (or only) variant, at the float
/// inputs (clipped to [c − r, c + r], as the samplers clip) and at the rational inputs.
struct FixedPointDistance {
  Rational at_float_inputs, at_exact_inputs;
};
FixedPointDistance fixed_point_distance(const Setting& s);

class CpuSampler final : public Sampler {
 public:
  /// Raises invalid_argument("variant") for CorBinQ variants other than the corrected one.
  Answer draw(const Request& request) override;
};

class ExactSampler final : public Sampler {
 public:
  Answer draw(const Request& request) override;
};

}  // namespace corbin::conform
