// SPDX-License-Identifier: MIT
// Calls the kernels of scale_lib.hip (a shared library or an object) and offset.hip.
#include "declared.h"
#ifndef WEFTCC_TEST_CPU_OBJECT  // host code only: the device steps see no kernel here
#include <stdio.h>

int weftcc_test_scale(float* device_ptr, float s, int n);
int weftcc_test_add_offset(float* device_ptr, float offset, int n);

int main() {
  const int n = 777;
  static float h[n];
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i);
  float* d = nullptr;
  if (hipMalloc((void**)&d, sizeof h) != 0) return 2;
  if (hipMemcpy(d, h, sizeof h, 1 /* hipMemcpyHostToDevice */) != 0) return 2;
  if (weftcc_test_scale(d, 3.0f, n) != 0) {
    printf("scale launch failed\n");
    return 3;
  }
  if (weftcc_test_add_offset(d, 0.5f, n) != 0) {
    printf("add_offset launch failed\n");
    return 3;
  }
  if (hipMemcpy(h, d, sizeof h, 2 /* hipMemcpyDeviceToHost */) != 0) return 4;
  for (int i = 0; i < n; ++i)
    if (h[i] != 3.0f * static_cast<float>(i) + 0.5f) {
      printf("h[%d] = %g\n", i, h[i]);
      return 1;
    }
  hipFree(d);
  printf("scale+offset ok\n");
  return 0;
}
#endif
