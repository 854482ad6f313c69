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
// builtin:kernels and builtin:cuda run the round kernels `corbin fl` samples with when the clients'
// weights are rows of one tensor (fl/round_kernels.hpp): on the host, and on a CUDA device. They
// draw what builtin:cpu draws for the same keys (for the first kKernelBlock draws of a request,
// the very same outputs) and are held to the same fixed-point law; they sample LDPQ and CorBinQ
// only, as the kernels do (PBM and RQM run on the host in `corbin fl`).
//
// builtin:exact draws from the exact law of the requested variant with 64-bit ChaCha20 words
// against cumulative thresholds floor(2^64 F) (each output's probability within 2^−64 of exact): a
// check of corbin's statistics, not of any implementation.

#include <memory>
#include <string>
#include <vector>

#include "corbin/conform/trial.hpp"
#include "corbin/fl/round_kernels.hpp"

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

/// Draws a KernelSampler makes per launch: block b of a request runs on the kernels' stream b.
constexpr std::uint64_t kKernelBlock = std::uint64_t{1} << 20;

class KernelSampler final : public Sampler {
 public:
  /// Raises invalid_argument("device") for Backend::cuda where no CUDA device can be used.
  explicit KernelSampler(fl::kernels::Backend backend);
  /// Raises invalid_argument("mechanism") for PBM and RQM, ("variant") as CpuSampler; a kernel
  /// output that is neither output level raises ProtocolError.
  Answer draw(const Request& request) override;

 private:
  fl::kernels::Backend backend_;
  fl::kernels::FloatBuffer w1_, w2_, out1_, out2_;
  std::vector<float> host1_, host2_;
};

class ExactSampler final : public Sampler {
 public:
  Answer draw(const Request& request) override;
};

/// corbin's own samplers by name (builtin:cpu, builtin:kernels, builtin:cuda, builtin:exact),
/// with the law each is held to.
struct Builtin {
  std::unique_ptr<Sampler> sampler;
  ClaimedLaw claimed;
  bool fixed_point = false;  ///< held to fixed_point_law rather than the variant's exact law
};

/// The names builtin_sampler knows, in the order to list them.
const std::vector<std::string>& builtin_names();
bool is_builtin(const std::string& name);

/// Raises invalid_argument("sampler") for a name it does not know or builtin:cuda where no CUDA
/// device can be used, ("variant") for a CorBinQ variant other than corrected under a
/// fixed-point sampler, ("mechanism") for a mechanism the kernels do not sample.
Builtin builtin_sampler(const std::string& name, const Mechanism& mechanism,
                        const std::string& variant);

}  // namespace corbin::conform
