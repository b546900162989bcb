// SPDX-License-Identifier: MIT
#include "declared.h"

__global__ void add_offset(float* p, float offset, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) p[i] += offset;
}
WEFTCC_TEST_KERNEL(add_offset);

#ifndef WEFTCC_TEST_CPU_OBJECT
int weftcc_test_add_offset(float* device_ptr, float offset, int n) {
  add_offset<<<(n + 31) / 32, 32>>>(device_ptr, offset, n);
  return hipGetLastError();
}
#endif
