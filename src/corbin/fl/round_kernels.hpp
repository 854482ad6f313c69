#pragma once
// The per-coordinate work of a federated round over many clients at once, as lists of jobs that
// run on the host or on a CUDA device: the LDPQ and CorBinQ samplers, the Gaussian and Laplace
// baselines, and the ordered sums that make the aggregate. Every job draws exactly the
// randomness the CPU samplers draw for the same keys (sampler.hpp: the same ChaCha20 streams,
// chunks and word indices, the same fixed-point rule and tie coins), so a round computed here
// equals obfuscated_mean's bit for bit; the noise baselines agree to the last place of the
// device's log and cos. The host backend runs the very same per-job code on the CPU, so the CPU
// build tests everything here but the launch itself.
//
// Pointers in a job point where the backend runs: host memory for Backend::host, device memory
// for Backend::cuda. The job lists themselves are host vectors (the CUDA backend copies them).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "corbin/fl/geometry.hpp"
#include "corbin/quantizer/chacha20.hpp"
#include "corbin/quantizer/fixed_point.hpp"

namespace corbin::fl::kernels {

/// The CPU samplers' chunk: parameter i of a layer draws from chunk i / kChunk of its streams.
constexpr std::uint64_t kChunk = 32768;

/// One client's layer under LDPQ: out[i] = c ± rα as coin i < n(w[i]) (LdpqSampler::sample).
struct LdpqJob {
  const float* w;
  float* out;
  std::uint64_t size;
  chacha20::KeyWords key;  ///< the client's private coins
  std::uint32_t stream;    ///< the layer's index
  SamplerConstants k;      ///< FixedPointLaw::constants(0)
};

/// One pair's layer under CorBinQ (CorbinqPairSampler::sample, or sample_with_z when z is set).
struct CorbinqJob {
  const float *w1, *w2;
  float *out1, *out2;
  std::uint64_t size;
  chacha20::KeyWords shared, leader, follower;  ///< Z's key, and the leader's and follower's coins
  const std::uint8_t* z;  ///< Z as the follower received it (packed_z's layout), or null: from `shared`
  std::uint32_t stream, bits;
  SamplerConstants k;  ///< FixedPointLaw::constants(32 − bits)
};

/// One client's layer under a noise baseline: out[t] = clip(w[t]) + scale · draw, the draw from
/// the 64-bit words 2t and 2t + 1 of the client's noise stream (obfuscated_mean's rule).
struct NoiseJob {
  const float* w;
  float* out;
  std::uint64_t size;
  chacha20::KeyWords key;
  std::uint32_t stream;
  Geometry g;
  double scale;
  std::uint32_t gaussian;  ///< 1: Box–Muller; 0: Laplace
};

/// The aggregate of a round, one layer per job: for each coordinate, in the order given, the sum
/// (in double) of what the survivors sent and of their clipped weights, divided by their count.
struct SumInput {
  const float* values;   ///< [rows × stride]: what each client sent
  const float* weights;  ///< [rows × stride]: each client's weights
  std::uint64_t stride;
  const std::uint32_t* order;  ///< the survivors' rows, in summation order
  std::uint32_t count;
  float* aggregate;     ///< [stride]: sum of values / count
  float* clipped_mean;  ///< [stride]: sum of clipped weights / count
  double* error;        ///< [stride]: sum of values / count − sum of clipped weights / count
};
struct SumJob {
  std::uint64_t offset, size;
  Geometry g;
  std::uint32_t clip;  ///< 0: the weights as they are (vanilla)
};

enum class Backend { host, cuda };

/// Whether this build has the CUDA kernels (CORBIN_WITH_CUDA).
bool cuda_built();

/// Whether Backend::cuda can run here: the build has the kernels and the machine a CUDA device.
bool cuda_available();

/// Floats where a backend's jobs read and write them: host memory, or device memory for
/// Backend::cuda, freed with the buffer. What a caller without tensors (corbin conform's
/// builtin:cuda) stages its jobs' inputs and outputs in. Backend::cuda in a build without CUDA
/// raises invalid_argument("device").
class FloatBuffer {
 public:
  FloatBuffer(Backend backend, std::size_t size);
  ~FloatBuffer();
  FloatBuffer(const FloatBuffer&) = delete;
  FloatBuffer& operator=(const FloatBuffer&) = delete;

  float* data() { return data_; }
  std::size_t size() const { return size_; }
  /// Copies the first count (<= size()) floats in from host memory, or out to it.
  void write(const float* from, std::size_t count);
  void read(float* to, std::size_t count) const;

 private:
  Backend backend_;
  std::size_t size_;
  float* data_ = nullptr;
};

/// Each returns true if some weight it read was NaN (the outputs are then meaningless).
/// Backend::cuda in a build without CUDA raises invalid_argument("device").
bool run_ldpq(Backend backend, const std::vector<LdpqJob>& jobs);
bool run_corbinq(Backend backend, const std::vector<CorbinqJob>& jobs);
void run_noise(Backend backend, const std::vector<NoiseJob>& jobs);
void run_sums(Backend backend, const SumInput& input, const std::vector<SumJob>& jobs);

}  // namespace corbin::fl::kernels
