#pragma once
// CORBIN_HD marks a function that is compiled for the host and, under nvcc, for CUDA devices
// too: the sampling rules the GPU kernels share with the CPU samplers (ChaCha20, the
// fixed-point threshold, the noise transforms) are written once, in headers that use nothing
// but arithmetic, so that both builds compute them from one text.

#if defined(__CUDACC__)
#define CORBIN_HD __host__ __device__ inline
#else
#define CORBIN_HD inline
#endif
