// SPDX-License-Identifier: MIT
// A CPU code object for the library, kernel-object and extended module-launch tests
// (built in meson.build; three kernels).
#include <hip/weft/cpu_code_object.h>

#include "../../support/grid_total_kernel.hpp"  // grid_total

// out[i] = i + base for every thread of the grid, i its global index.
extern "C" __global__ void write_index(int* out, int base) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = static_cast<int>(i) + base;
}

// y[i] += a for the first n elements.
extern "C" __global__ void add_scalar(float* y, float a, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) y[i] += a;
}

WEFT_CPU_KERNEL(write_index);
WEFT_CPU_KERNEL(add_scalar);
WEFT_CPU_KERNEL(grid_total);
