// SPDX-License-Identifier: MIT
// __device__, __constant__ and __managed__ variables of a weftcc program, defined in its
// x86_64 image: hipMemcpyToSymbol / FromSymbol, hipGetSymbolAddress / Size, and managed
// variables that the host and the kernels share (writes of each seen by the other).
#include "check.h"

__device__ int counter = 11;
__device__ double table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__constant__ float coefficients[4];
__managed__ int managed_value = 5;
__managed__ float managed_array[16];
int g_host_only[3] = {1, 2, 3};
namespace app {
__device__ long long scoped = 123456789012345ll;
}

__global__ void use(float* out) {
  atomicAdd(&counter, 1);
  out[threadIdx.x] =
      coefficients[threadIdx.x % 4] * float(table[threadIdx.x % 8]) + float(managed_value);
  if (threadIdx.x == 0) app::scoped += 1;
}
__global__ void touch_managed() {
  managed_array[threadIdx.x] = managed_array[threadIdx.x] * 2 + 1;
  if (threadIdx.x == 0) managed_value += 100;
}

int main() {
  const float c[4] = {0.5f, 1.5f, 2.5f, 3.5f};
  HIP_OK(hipMemcpyToSymbol(HIP_SYMBOL(coefficients), c, sizeof c));
  size_t size = 0;
  HIP_OK(hipGetSymbolSize(&size, HIP_SYMBOL(table)));
  CHECK(size == 8 * sizeof(double));
  // A host variable is no device symbol: the runtime says so (the header's template used to
  // answer sizeof(T) for anything the CPU agent could address).
  CHECK(hipGetSymbolSize(&size, g_host_only) == hipErrorInvalidSymbol);
  CHECK(hipGetLastError() == hipErrorInvalidSymbol);
  void* address = nullptr;
  HIP_OK(hipGetSymbolAddress(&address, HIP_SYMBOL(table)));
  CHECK(address != nullptr);
  const double replacement[2] = {10, 20};
  HIP_OK(
      hipMemcpy(address, replacement, sizeof replacement, hipMemcpyHostToDevice));  // table[0..1]
  managed_value = 7;  // a host write before any launch
  float* out;
  HIP_OK(hipMalloc(&out, 64 * sizeof(float)));
  use<<<1, 64>>>(out);
  float h[64];
  HIP_OK(hipMemcpy(h, out, sizeof h, hipMemcpyDeviceToHost));
  const double t[8] = {10, 20, 3, 4, 5, 6, 7, 8};
  for (int i = 0; i < 64; ++i) CHECK(h[i] == c[i % 4] * float(t[i % 8]) + 7.0f);
  int count = 0;
  HIP_OK(hipMemcpyFromSymbol(&count, HIP_SYMBOL(counter), sizeof count));
  CHECK(count == 11 + 64);
  long long scoped = 0;
  HIP_OK(hipMemcpyFromSymbol(&scoped, HIP_SYMBOL(app::scoped), sizeof scoped));
  CHECK(scoped == 123456789012346ll);

  for (int i = 0; i < 16; ++i) managed_array[i] = float(i);
  managed_value = 1;
  touch_managed<<<1, 16>>>();
  HIP_OK(hipDeviceSynchronize());
  for (int i = 0; i < 16; ++i) CHECK(managed_array[i] == float(i) * 2 + 1);
  CHECK(managed_value == 101);
  void* managed_address = nullptr;
  HIP_OK(hipGetSymbolAddress(&managed_address, HIP_SYMBOL(managed_value)));
  CHECK(managed_address == &managed_value);
  HIP_OK(hipFree(out));
  return finish("weftcc_cpu variables");
}
