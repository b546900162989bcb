// SPDX-License-Identifier: MIT
// A CPU code object whose kernel waits at grid.sync(), for
// hipModuleLaunchCooperativeKernel (module.cpp; built in meson.build).
#include <hip/weft/cpu_code_object.h>

#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

// totals[b] = the sum of every block's in[] slice, read after grid.sync().
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

WEFT_CPU_KERNEL(grid_total);
