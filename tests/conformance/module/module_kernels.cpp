// SPDX-License-Identifier: MIT
// A CPU code object for the library, kernel-object and extended module-launch tests
// (built in meson.build; three kernels).
#include <hip/weft/cpu_code_object.h>

#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

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

// totals[b] = the sum of every block's slice of in[], read after grid.sync().
extern "C" __global__ void grid_total(const int* in, int* partials, int* totals) {
  cg::grid_group grid = cg::this_grid();
  const unsigned t = threadIdx.x;
  if (t == 0) {
    int sum = 0;
    for (unsigned k = 0; k < blockDim.x; ++k) sum += in[blockIdx.x * blockDim.x + k];
    partials[blockIdx.x] = sum;
  }
  grid.sync();
  if (t == 0) {
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partials[b];
    totals[blockIdx.x] = total;
  }
}

WEFT_CPU_KERNEL(write_index);
WEFT_CPU_KERNEL(add_scalar);
WEFT_CPU_KERNEL(grid_total);
