#include "corbin/fl/round_kernels.hpp"

#include <algorithm>
#include <string>

#include "corbin/fl/round_kernel_steps.hpp"
#include "corbin/number/error.hpp"

namespace corbin::fl::kernels {

#if defined(CORBIN_WITH_CUDA)
namespace cuda {  // round_kernels.cu
bool ldpq(const std::vector<LdpqJob>& jobs);
bool corbinq(const std::vector<CorbinqJob>& jobs);
void noise(const std::vector<NoiseJob>& jobs);
void sums(const SumInput& input, const std::vector<SumJob>& jobs);
bool available();
float* allocate(std::size_t count);
void release(float* data) noexcept;
void copy_in(float* device, const float* host, std::size_t count);
void copy_out(float* host, const float* device, std::size_t count);
}  // namespace cuda
bool cuda_built() { return true; }
bool cuda_available() { return cuda::available(); }
#define CORBIN_ON_CUDA(call) return cuda::call
#define CORBIN_ON_CUDA_VOID(statement) statement
#else
bool cuda_built() { return false; }
bool cuda_available() { return false; }
#define CORBIN_ON_CUDA(call) throw invalid_argument("device", "cuda", "a device this build has (built without CUDA)")
#define CORBIN_ON_CUDA_VOID(statement) CORBIN_ON_CUDA(statement)
#endif

namespace {

std::uint64_t blocks_of(std::uint64_t size, std::uint64_t per_block) { return (size + per_block - 1) / per_block; }

/// CorBinQ on one chunk, the ties ranked by a running count (the CUDA kernel ranks them with a
/// block-wide prefix sum instead).
bool corbinq_chunk_on_host(const CorbinqJob& job, std::uint64_t chunk, std::vector<std::uint8_t>& bytes) {
  const std::uint64_t start = chunk * kChunk;
  const auto n = static_cast<std::uint32_t>(std::min(kChunk, job.size - start));
  const auto length = static_cast<std::uint32_t>((static_cast<std::uint64_t>(n) * job.bits + 7) / 8);
  bytes.resize(length);
  for (std::uint32_t b = 0; b < blocks_of(length, 64); ++b) z_block(job, chunk, b, length, bytes.data());
  bool nan = false;
  std::uint64_t leader_ties = 0, follower_ties = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    PairStep s = corbinq_step(job, job.w1[start + i], job.w2[start + i], z_at(bytes.data(), length, i, job.bits));
    nan |= s.nan;
    if (s.tie1) s.out1 = leader_tie(job, s.n1, chunk, leader_ties++);
    if (s.tie2) s.out2 = follower_tie(job, s.n2, chunk, follower_ties++);
    job.out1[start + i] = s.out1;
    job.out2[start + i] = s.out2;
  }
  return nan;
}

}  // namespace

FloatBuffer::FloatBuffer(Backend backend, std::size_t size) : backend_(backend), size_(size) {
  if (backend == Backend::host) {
    data_ = new float[size]();
    return;
  }
  CORBIN_ON_CUDA_VOID(data_ = cuda::allocate(size));
}

FloatBuffer::~FloatBuffer() {
  if (backend_ == Backend::host) {
    delete[] data_;
    return;
  }
#if defined(CORBIN_WITH_CUDA)
  cuda::release(data_);
#endif
}

void FloatBuffer::write(const float* from, std::size_t count) {
  count = std::min(count, size_);
  if (backend_ == Backend::host) {
    std::copy(from, from + count, data_);
    return;
  }
  CORBIN_ON_CUDA_VOID(cuda::copy_in(data_, from, count));
}

void FloatBuffer::read(float* to, std::size_t count) const {
  count = std::min(count, size_);
  if (backend_ == Backend::host) {
    std::copy(data_, data_ + count, to);
    return;
  }
  CORBIN_ON_CUDA_VOID(cuda::copy_out(to, data_, count));
}

bool run_ldpq(Backend backend, const std::vector<LdpqJob>& jobs) {
  if (backend == Backend::cuda) CORBIN_ON_CUDA(ldpq(jobs));
  bool nan = false;
  for (const LdpqJob& job : jobs)
    for (std::uint64_t g = 0; g < blocks_of(job.size, 16); ++g) nan |= ldpq_group(job, g);
  return nan;
}

bool run_corbinq(Backend backend, const std::vector<CorbinqJob>& jobs) {
  if (backend == Backend::cuda) CORBIN_ON_CUDA(corbinq(jobs));
  bool nan = false;
  std::vector<std::uint8_t> bytes;
  for (const CorbinqJob& job : jobs)
    for (std::uint64_t c = 0; c < blocks_of(job.size, kChunk); ++c) nan |= corbinq_chunk_on_host(job, c, bytes);
  return nan;
}

void run_noise(Backend backend, const std::vector<NoiseJob>& jobs) {
  if (backend == Backend::cuda) CORBIN_ON_CUDA(noise(jobs));
  for (const NoiseJob& job : jobs)
    for (std::uint64_t g = 0; g < blocks_of(job.size, 4); ++g) noise_group(job, g);
}

void run_sums(Backend backend, const SumInput& input, const std::vector<SumJob>& jobs) {
  if (backend == Backend::cuda) CORBIN_ON_CUDA(sums(input, jobs));
  for (const SumJob& job : jobs)
    for (std::uint64_t t = 0; t < job.size; ++t) sum_coordinate(input, job, t);
}

}  // namespace corbin::fl::kernels
