// SPDX-License-Identifier: MIT
// One kernel, one launch: weftcc's pipeline end to end on the CPU agent.
#include "declared.h"
#ifndef FILL_VALUE
#error "the test compiles with -DFILL_VALUE=..."
#endif

__global__ void fill(int* out, int value, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = value + i;
}
WEFTCC_TEST_KERNEL(fill);

#ifndef WEFTCC_TEST_CPU_OBJECT
#include <stdio.h>
int main() {
  const int n = 1000;
  int* d = nullptr;
  static int h[n];
  if (hipMalloc((void**)&d, n * sizeof(int)) != 0) return 2;
  fill<<<(n + 127) / 128, 128>>>(d, FILL_VALUE, n);
  int launch = hipGetLastError();
  if (launch != 0) {
    printf("launch failed: %d\n", launch);
    return 3;
  }
  if (hipMemcpy(h, d, sizeof h, 2 /* hipMemcpyDeviceToHost */) != 0) return 4;
  for (int i = 0; i < n; ++i)
    if (h[i] != FILL_VALUE + i) {
      printf("h[%d] = %d, expected %d\n", i, h[i], FILL_VALUE + i);
      return 1;
    }
  hipFree(d);
  printf("fill ok\n");
  return 0;
}
#endif
