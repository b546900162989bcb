// SPDX-License-Identifier: MIT
// Kernels of vector_add.hip; vector_add_cpu.cpp builds the same source for the CPU agent.
#pragma once

__global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) c[i] = a[i] + b[i];
}
