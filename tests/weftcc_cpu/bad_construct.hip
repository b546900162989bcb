// SPDX-License-Identifier: MIT
// A kernel that calls a host-only function: weftcc must fail, naming target x86_64.
// expect-build-error: [target x86_64]
// expect-build-error: host_only
#include <hip/hip_runtime.h>

int host_only(int x) { return x * 2; }

__global__ void uses_host(int* out) { out[threadIdx.x] = host_only(int(threadIdx.x)); }

int main() {
  int* d = nullptr;
  uses_host<<<1, 1>>>(d);
  return 0;
}
