// SPDX-License-Identifier: MIT
// Kernel limits and internal-linkage kernels in the CPU image that weftcc builds:
// - __launch_bounds__(N) reaches the kernel's record: hipFuncGetAttributes answers N as
//   maxThreadsPerBlock, a launch of more threads fails with hipErrorInvalidConfiguration,
//   the occupancy API suggests no block above N; a kernel without it keeps the agent's
//   1024 (template instances included, their N from the template argument);
// - kernels in an anonymous namespace, with parameter types of that namespace, get CPU
//   records and run (their types have no linkage outside this file).
// expect-output: launch_bounds: passed
#include <hip/hip_runtime.h>

#include "check.h"

__global__ __launch_bounds__(128) void bounded(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = int(threadIdx.x);
}

template <int N>
__global__ __launch_bounds__(N, 1) void bounded_by(int* out) {
  out[threadIdx.x] = N;
}

__global__ void unbounded(int* out) { out[threadIdx.x] = 1; }

namespace {

struct Scale {
  int factor;
  int offset;
};

__global__ void scaled(Scale s, const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * s.factor + s.offset;
}

__global__ __launch_bounds__(64) void local_bounded(Scale* s) { s[threadIdx.x].factor = 64; }

}  // namespace

static int max_threads(const void* kernel) {
  hipFuncAttributes attr{};
  HIP_OK(hipFuncGetAttributes(&attr, kernel));
  return attr.maxThreadsPerBlock;
}

int main() {
  int* d = nullptr;
  HIP_OK(hipMallocManaged(&d, 4096 * sizeof(int)));

  CHECK(max_threads(reinterpret_cast<const void*>(bounded)) == 128);
  CHECK(max_threads(reinterpret_cast<const void*>(bounded_by<32>)) == 32);
  CHECK(max_threads(reinterpret_cast<const void*>(bounded_by<256>)) == 256);
  CHECK(max_threads(reinterpret_cast<const void*>(unbounded)) == 1024);
  CHECK(max_threads(reinterpret_cast<const void*>(local_bounded)) == 64);
  CHECK(max_threads(reinterpret_cast<const void*>(scaled)) == 1024);

  // At the limit: runs. Above it: the launch fails and nothing runs.
  bounded<<<2, 128>>>(d);
  HIP_OK(hipGetLastError());
  HIP_OK(hipDeviceSynchronize());
  for (int i = 0; i < 256; ++i) CHECK(d[i] == i % 128);
  d[0] = -7;
  bounded<<<1, 129>>>(d);
  CHECK(hipGetLastError() == hipErrorInvalidConfiguration);
  bounded_by<32><<<1, dim3(8, 8)>>>(d);
  CHECK(hipGetLastError() == hipErrorInvalidConfiguration);
  HIP_OK(hipDeviceSynchronize());
  CHECK(d[0] == -7);
  bounded_by<256><<<1, 256>>>(d);
  HIP_OK(hipGetLastError());
  unbounded<<<1, 1024>>>(d);
  HIP_OK(hipGetLastError());
  HIP_OK(hipDeviceSynchronize());

  int grid = 0, block = 0;
  HIP_OK(hipOccupancyMaxPotentialBlockSize(&grid, &block, bounded, 0, 0));
  CHECK(block > 0 && block <= 128);

  // Internal linkage: the anonymous namespace's kernels and their struct argument.
  const int n = 1000;
  int *in = nullptr, *out = nullptr;
  HIP_OK(hipMallocManaged(&in, n * sizeof(int)));
  HIP_OK(hipMallocManaged(&out, n * sizeof(int)));
  for (int i = 0; i < n; ++i) in[i] = i;
  scaled<<<(n + 255) / 256, 256>>>(Scale{3, -4}, in, out, n);
  HIP_OK(hipGetLastError());
  hipLaunchKernelGGL(local_bounded, dim3(1), dim3(64), 0, 0, reinterpret_cast<Scale*>(d));
  HIP_OK(hipGetLastError());
  local_bounded<<<1, 65>>>(reinterpret_cast<Scale*>(d));
  CHECK(hipGetLastError() == hipErrorInvalidConfiguration);
  HIP_OK(hipDeviceSynchronize());
  for (int i = 0; i < n; ++i) CHECK(out[i] == 3 * i - 4);
  for (int i = 0; i < 64; ++i) CHECK(d[2 * i] == 64);

  HIP_OK(hipFree(in));
  HIP_OK(hipFree(out));
  HIP_OK(hipFree(d));
  return finish("launch_bounds");
}
