// The CUDA backend of round_kernels.hpp. Each kernel maps the shared steps
// (round_kernel_steps.hpp) onto threads; only CorBinQ's tie ranks need cooperation, which a
// block-wide prefix sum gives. Built without fused multiply-add (nvcc -fmad=false) as well as with the explicit roundings
// in the steps, so that no multiply-add is fused and the device computes what the host does.

#include <cuda_runtime.h>

#include <algorithm>
#include <cub/block/block_scan.cuh>
#include <stdexcept>
#include <string>
#include <vector>

#include "corbin/fl/round_kernel_steps.hpp"

namespace corbin::fl::kernels::cuda {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

/// Device copies of a job list and a NaN flag, in buffers kept across calls (a round launches a
/// few kernels; fresh allocations each time would cost more than the kernels).
class Scratch {
 public:
  template <class Job>
  const Job* jobs(const std::vector<Job>& host) {
    const std::size_t bytes = host.size() * sizeof(Job);
    if (bytes > capacity_) {
      if (jobs_ != nullptr) check(cudaFree(jobs_), "free job list");
      check(cudaMalloc(&jobs_, bytes), "allocate job list");
      capacity_ = bytes;
    }
    check(cudaMemcpy(jobs_, host.data(), bytes, cudaMemcpyHostToDevice), "copy job list");
    return static_cast<const Job*>(jobs_);
  }
  unsigned* flag() {
    if (flag_ == nullptr) check(cudaMalloc(&flag_, sizeof(unsigned)), "allocate flag");
    check(cudaMemset(flag_, 0, sizeof(unsigned)), "clear flag");
    return flag_;
  }
  bool read_flag() {
    unsigned value = 0;
    check(cudaMemcpy(&value, flag_, sizeof value, cudaMemcpyDeviceToHost), "read flag");
    return value != 0;
  }

 private:
  void* jobs_ = nullptr;
  std::size_t capacity_ = 0;
  unsigned* flag_ = nullptr;
};

Scratch& scratch() {
  static Scratch s;  // lives until exit; the driver frees device memory with the context
  return s;
}

constexpr unsigned kThreads = 256;
constexpr unsigned kPairThreads = 1024;  // one block per CorBinQ chunk: 32 rows of 1024 parameters

unsigned grid_for(std::uint64_t units) { return static_cast<unsigned>((units + kThreads - 1) / kThreads); }

template <class Job>
std::uint64_t most(const std::vector<Job>& jobs, std::uint64_t per_unit) {
  std::uint64_t units = 0;
  for (const Job& job : jobs) units = std::max(units, (job.size + per_unit - 1) / per_unit);
  return units;
}

void check_launch(const char* what) { check(cudaGetLastError(), what); }

__global__ void ldpq_kernel(const LdpqJob* jobs, unsigned* nan) {
  const LdpqJob& job = jobs[blockIdx.y];
  const std::uint64_t group = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (group * 16 >= job.size) return;
  if (ldpq_group(job, group)) atomicOr(nan, 1u);
}

__global__ void noise_kernel(const NoiseJob* jobs) {
  const NoiseJob& job = jobs[blockIdx.y];
  const std::uint64_t group = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (group * 4 < job.size) noise_group(job, group);
}

__global__ void sum_kernel(SumInput input, const SumJob* jobs) {
  const SumJob& job = jobs[blockIdx.y];
  const std::uint64_t t = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < job.size) sum_coordinate(input, job, t);
}

/// One block per (pair, chunk): Z's bytes into shared memory, then 32 rows of 1024 parameters,
/// each row's ties ranked by an exclusive prefix sum (leader ties in the low 16 bits, follower
/// ties in the high 16: at most 1024 of each per row) on top of the previous rows' totals.
__global__ void __launch_bounds__(kPairThreads) corbinq_kernel(const CorbinqJob* jobs, unsigned* nan) {
  using Scan = cub::BlockScan<unsigned, kPairThreads>;
  __shared__ typename Scan::TempStorage scan_storage;
  extern __shared__ std::uint8_t z_bytes[];
  const CorbinqJob& job = jobs[blockIdx.y];
  const std::uint64_t chunk = blockIdx.x, start = chunk * kChunk;
  if (start >= job.size) return;  // the whole block leaves together
  const auto n = static_cast<std::uint32_t>(job.size - start < kChunk ? job.size - start : kChunk);
  const auto length = static_cast<std::uint32_t>((static_cast<std::uint64_t>(n) * job.bits + 7) / 8);
  for (std::uint32_t b = threadIdx.x; b < (length + 63) / 64; b += blockDim.x) z_block(job, chunk, b, length, z_bytes);
  __syncthreads();
  std::uint64_t leader_ties = 0, follower_ties = 0;
  bool saw_nan = false;
  for (std::uint32_t row = 0; row * kPairThreads < n; ++row) {
    const std::uint32_t i = row * kPairThreads + threadIdx.x;
    const bool active = i < n;
    PairStep s{};
    if (active) s = corbinq_step(job, job.w1[start + i], job.w2[start + i], z_at(z_bytes, length, i, job.bits));
    const unsigned flags = (active && s.tie1 ? 1u : 0u) | (active && s.tie2 ? 1u << 16 : 0u);
    unsigned rank = 0, total = 0;
    Scan(scan_storage).ExclusiveSum(flags, rank, total);
    if (active) {
      saw_nan |= s.nan;
      if (s.tie1) s.out1 = leader_tie(job, s.n1, chunk, leader_ties + (rank & 0xffffu));
      if (s.tie2) s.out2 = follower_tie(job, s.n2, chunk, follower_ties + (rank >> 16));
      job.out1[start + i] = s.out1;
      job.out2[start + i] = s.out2;
    }
    leader_ties += total & 0xffffu;
    follower_ties += total >> 16;
    __syncthreads();  // the scan's storage is reused by the next row
  }
  if (saw_nan) atomicOr(nan, 1u);
}

}  // namespace

bool ldpq(const std::vector<LdpqJob>& jobs) {
  if (jobs.empty()) return false;
  Scratch& s = scratch();
  const LdpqJob* device_jobs = s.jobs(jobs);
  unsigned* flag = s.flag();
  ldpq_kernel<<<dim3(grid_for(most(jobs, 16)), static_cast<unsigned>(jobs.size())), kThreads>>>(device_jobs, flag);
  check_launch("LDPQ kernel");
  return s.read_flag();
}

bool corbinq(const std::vector<CorbinqJob>& jobs) {
  if (jobs.empty()) return false;
  std::uint32_t bits = 0;
  for (const CorbinqJob& job : jobs) bits = std::max(bits, job.bits);
  // Z of a whole chunk: kChunk·d/8 bytes (128 KiB at d = 32: above the default 48 KiB).
  const int shared_bytes = static_cast<int>(kChunk / 8 * bits);
  check(cudaFuncSetAttribute(corbinq_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes),
        "shared memory for Z");
  Scratch& s = scratch();
  const CorbinqJob* device_jobs = s.jobs(jobs);
  unsigned* flag = s.flag();
  corbinq_kernel<<<dim3(static_cast<unsigned>(most(jobs, kChunk)), static_cast<unsigned>(jobs.size())), kPairThreads,
                   shared_bytes>>>(device_jobs, flag);
  check_launch("CorBinQ kernel");
  return s.read_flag();
}

void noise(const std::vector<NoiseJob>& jobs) {
  if (jobs.empty()) return;
  const NoiseJob* device_jobs = scratch().jobs(jobs);
  noise_kernel<<<dim3(grid_for(most(jobs, 4)), static_cast<unsigned>(jobs.size())), kThreads>>>(device_jobs);
  check_launch("noise kernel");
  check(cudaDeviceSynchronize(), "noise kernel");
}

void sums(const SumInput& input, const std::vector<SumJob>& jobs) {
  if (jobs.empty()) return;
  const SumJob* device_jobs = scratch().jobs(jobs);
  sum_kernel<<<dim3(grid_for(most(jobs, 1)), static_cast<unsigned>(jobs.size())), kThreads>>>(input, device_jobs);
  check_launch("sum kernel");
  check(cudaDeviceSynchronize(), "sum kernel");
}

bool available() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

float* allocate(std::size_t count) {
  void* data = nullptr;
  check(cudaMalloc(&data, std::max<std::size_t>(count, 1) * sizeof(float)), "allocate buffer");
  return static_cast<float*>(data);
}

void release(float* data) noexcept { cudaFree(data); }

void copy_in(float* device, const float* host, std::size_t count) {
  check(cudaMemcpy(device, host, count * sizeof(float), cudaMemcpyHostToDevice), "copy buffer in");
}

void copy_out(float* host, const float* device, std::size_t count) {
  check(cudaMemcpy(host, device, count * sizeof(float), cudaMemcpyDeviceToHost), "copy buffer out");
}

}  // namespace corbin::fl::kernels::cuda
