// SPDX-License-Identifier: MIT
// A CPU code object for the tests: ordinary kernel source, listed with
// WEFT_CPU_KERNEL, built as a shared object (tests/codeobj/meson.build).
#include <hip/weft/cpu_code_object.h>

__device__ int table[16];
__device__ float bias = 0.5f;

extern "C" __global__ void fill_index(int* out, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = i;
}

__global__ void axpy(float* y, const float* x, float a, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) y[i] = a * x[i] + y[i];
}

template <typename T>
__global__ void scale(T* p, T s, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) p[i] *= s;
}

// Arguments whose offsets need padding: char@0, double@8, short@16, long@24, ptr@32.
__global__ void mixed(char c, double d, short s, long l, double* out) {
  if (threadIdx.x == 0) *out = c + d + s + static_cast<double>(l);
}

// Block-wide reduction through __shared__ memory and barriers.
__global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[256];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

__global__ void reverse_dynamic(int* data) {
  HIP_DYNAMIC_SHARED(int, tile);
  unsigned t = threadIdx.x;
  tile[t] = data[t];
  __syncthreads();
  data[t] = tile[blockDim.x - 1 - t];
}

__global__ void read_table(int* out) {
  unsigned t = threadIdx.x;
  out[t] = table[t] + static_cast<int>(bias * 2);
}

WEFT_CPU_KERNEL(fill_index);
WEFT_CPU_KERNEL(axpy);
WEFT_CPU_KERNEL(scale<float>);
WEFT_CPU_KERNEL(scale<double>);
WEFT_CPU_KERNEL(mixed);
WEFT_CPU_KERNEL_EX("block_sum", 256, block_sum);
WEFT_CPU_KERNEL(reverse_dynamic);
WEFT_CPU_KERNEL(read_table);
