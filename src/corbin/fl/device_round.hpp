#pragma once
// The round mechanism for clients' weights held as the rows of one tensor ([clients,
// parameters], float32), on the CPU or a CUDA device: what the batched training produces. The
// roles and the protocol come from plan_round, the sampling from the round kernels
// (round_kernels.hpp) where the weights are, and the aggregate from ordered sums there too, so
// that only the aggregate (and the per-coordinate errors for the empirical MSE) leaves the
// device. The result equals obfuscated_mean's on the same weights bit for bit for vanilla,
// LDP-FL, CorBin-FL and AugCorBin-FL; for the noise baselines, to the last place of the
// device's log and cos. A mechanism without device kernels (CQ: its shared shifts are drawn by
// rejection; a registered mechanism of a user's) runs on the host (registry.hpp: DeviceKernel).

#include <torch/torch.h>

#include "corbin/fl/mechanism.hpp"

namespace corbin::fl {

/// What each surviving client sent in the round (LDPQ, CorBinQ or noise), as rows of a tensor
/// shaped and placed like `clients`; rows of clients that sent nothing are unspecified. Raises
/// invalid_argument for a mechanism without sampling kernels, and naming the first NaN weight.
torch::Tensor obfuscate_rows(const torch::Tensor& clients, const RoundPlan& plan, const std::vector<float>& global,
                             const std::vector<Layer>& layers, const MechanismConfig& config, std::uint64_t round);

/// obfuscated_mean for weights held as rows of `clients`.
RoundResult obfuscated_mean_rows(const torch::Tensor& clients, const std::vector<float>& global,
                                 const std::vector<Layer>& layers, const MechanismConfig& config, std::uint64_t round);

}  // namespace corbin::fl
