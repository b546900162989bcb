// SPDX-License-Identifier: MIT
// Kernels and device variables of variables.hip.
#pragma once

__device__ int counters[16];
__constant__ float weights[4];
__managed__ int managed_total;

__global__ void use_variables(float* out, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    out[i] = weights[i % 4] * static_cast<float>(counters[i % 16]);
    atomicAdd(&managed_total, 1);
  }
}
