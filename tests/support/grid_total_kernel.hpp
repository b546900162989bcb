// SPDX-License-Identifier: MIT
// A cooperative kernel shared by the CPU code objects of the coop and module tests
// (each object includes it once): totals[b] = the sum of every block's in[] slice,
// read after grid.sync(), so a grid barrier that releases early gives wrong totals.
#pragma once

#include <hip/weft/cpu_code_object.h>

#include <hip/hip_cooperative_groups.h>

extern "C" __global__ void grid_total(const int* in, int* partials, int* totals) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
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
