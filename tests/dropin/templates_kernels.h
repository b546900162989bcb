// SPDX-License-Identifier: MIT
// Templated kernels of templates.hip.
#pragma once

template <typename T>
__global__ void scale(T* p, T factor, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) p[i] *= factor;
}

template <typename T, int Step>
__global__ void fill_pattern(T* p) {
  p[threadIdx.x] = static_cast<T>(Step * static_cast<int>(threadIdx.x));
}
