// SPDX-License-Identifier: MIT
// printf and assert in kernels of the x86_64 image: printf writes through the C library
// (the runner checks the lines), a failed assert ends the launch with hipErrorAssert.
// expect-output: weftcc printf block 1 thread 2 value 42 pi 3.14
// expect-output: weftcc printf block 0 thread 0 value 42 pi 3.14
#include "check.h"

__global__ void say(int value) {
  if (threadIdx.x == 2 || (blockIdx.x == 0 && threadIdx.x == 0))
    printf("weftcc printf block %u thread %u value %d pi %.2f\n", blockIdx.x, threadIdx.x, value,
           3.14159);
}
__global__ void checked(const int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(data[i] >= 0);
}

int main() {
  say<<<2, 4>>>(42);
  HIP_OK(hipDeviceSynchronize());
  int* d;
  HIP_OK(hipMalloc(&d, 256 * sizeof(int)));
  HIP_OK(hipMemset(d, 0, 256 * sizeof(int)));
  checked<<<2, 128>>>(d, 256);
  CHECK(hipDeviceSynchronize() == hipSuccess);
  const int negative = -1;
  HIP_OK(hipMemcpy(d + 200, &negative, sizeof negative, hipMemcpyHostToDevice));
  checked<<<2, 128>>>(d, 256);
  CHECK(hipDeviceSynchronize() == hipErrorAssert);
  return finish("weftcc_cpu printf_assert");
}
