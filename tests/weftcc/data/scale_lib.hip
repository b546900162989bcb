// SPDX-License-Identifier: MIT
// A kernel in a shared library (weftcc -fPIC -shared) and one in a second object:
// each object registers its own bundle.
#include "declared.h"

__global__ void scale(float* p, float s, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) p[i] *= s;
}
WEFTCC_TEST_KERNEL(scale);

#ifndef WEFTCC_TEST_CPU_OBJECT
int weftcc_test_scale(float* device_ptr, float s, int n) {
  scale<<<(n + 63) / 64, 64>>>(device_ptr, s, n);
  return hipGetLastError();
}
#endif
