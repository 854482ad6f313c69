#pragma once
// A layer's quantizer geometry and the per-coordinate arithmetic every mechanism of a round
// shares, written once for the CPU round (mechanism.cpp) and the GPU kernels
// (round_kernels.cu): the clip to [c − r, c + r], and the noise baselines' transforms of
// ChaCha20 words into uniforms and of uniforms into Gaussian and Laplace draws.

#include <cmath>
#include <cstdint>

#include "corbin/number/device.hpp"

namespace corbin::fl {

/// c and r of a layer from the global model (layer_geometry in mechanism.hpp).
struct Geometry {
  double c, r;
};

/// w clipped to [c − r, c + r] (the paper's footnote), as the float a client holds; std::clamp's
/// order of comparisons, written out for the device.
CORBIN_HD float clip(const Geometry& g, float w) {
  const double x = w, lo = g.c - g.r, hi = g.c + g.r;
  return static_cast<float>(x < lo ? lo : (hi < x ? hi : x));
}

/// A uniform double in (0, 1) from a 64-bit ChaCha20 word: (k + 1/2)/2^53 for its top 53 bits k.
CORBIN_HD double unit_uniform(std::uint64_t word) { return (static_cast<double>(word >> 11) + 0.5) * 0x1p-53; }

/// A standard normal draw from two uniforms (Box–Muller, the cosine branch).
CORBIN_HD double gaussian_draw(double u1, double u2) {
  constexpr double kPi = 3.14159265358979323846;
  return ::sqrt(-2 * ::log(u1)) * ::cos(2 * kPi * u2);
}

/// A standard Laplace draw (scale 1) from one uniform, by inverting its distribution function.
CORBIN_HD double laplace_draw(double u) { return u < 0.5 ? ::log(2 * u) : -::log(2 - 2 * u); }

}  // namespace corbin::fl
