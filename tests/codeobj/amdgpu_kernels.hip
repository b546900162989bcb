// SPDX-License-Identifier: MIT
// Kernels that hipcc compiles into a real AMDGPU offload bundle for the parser
// tests and the fuzz corpus (tests/codeobj/meson.build).
#include <hip/hip_runtime.h>

__device__ int table[16];
__constant__ float coefficients[4];

extern "C" __global__ void scale(float* a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s * coefficients[0];
}

template <typename T>
__global__ void add(T* out, const T* a, const T* b, char tag, long n) {
  __shared__ T tile[64];
  tile[threadIdx.x % 64] = a[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < n) out[threadIdx.x] = tile[threadIdx.x % 64] + b[threadIdx.x] + tag + table[0];
}

template __global__ void add<float>(float*, const float*, const float*, char, long);
template __global__ void add<double>(double*, const double*, const double*, char, long);
