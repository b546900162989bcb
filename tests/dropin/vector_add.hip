// SPDX-License-Identifier: MIT
// Drop-in program 1: vector add with <<<>>> and hipLaunchKernelGGL.
#include "common.h"
#include "vector_add_kernels.h"

#include <vector>

int main() {
  dropin_print_agent();
  const int n = 100000;
  const size_t bytes = n * sizeof(float);
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i);
  }
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  DROPIN_CHECK(hipMalloc(&da, bytes));
  DROPIN_CHECK(hipMalloc(&db, bytes));
  DROPIN_CHECK(hipMalloc(&dc, bytes));
  DROPIN_CHECK(hipMemcpy(da, a.data(), bytes, hipMemcpyHostToDevice));
  DROPIN_CHECK(hipMemcpy(db, b.data(), bytes, hipMemcpyHostToDevice));
  DROPIN_CHECK(hipMemset(dc, 0, bytes));

  vector_add<<<(n + 255) / 256, 256>>>(dc, da, db, n);
  if (DROPIN_LAUNCHED("vector_add<<<>>>")) {
    DROPIN_CHECK(hipDeviceSynchronize());
    DROPIN_CHECK(hipMemcpy(c.data(), dc, bytes, hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) DROPIN_REQUIRE(c[i] == 1.5f * static_cast<float>(i));
  }
  hipStream_t stream;
  DROPIN_CHECK(hipStreamCreate(&stream));
  hipLaunchKernelGGL(vector_add, dim3((n + 127) / 128), dim3(128), 0, stream, da, da, db, n);
  if (DROPIN_LAUNCHED("hipLaunchKernelGGL(vector_add)")) {
    DROPIN_CHECK(hipStreamSynchronize(stream));
    DROPIN_CHECK(hipMemcpy(c.data(), da, bytes, hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) DROPIN_REQUIRE(c[i] == 1.5f * static_cast<float>(i));
  }
  // The failed launches must not have broken anything.
  DROPIN_CHECK(hipStreamDestroy(stream));
  DROPIN_CHECK(hipDeviceSynchronize());
  DROPIN_CHECK(hipFree(da));
  DROPIN_CHECK(hipFree(db));
  DROPIN_CHECK(hipFree(dc));
  std::printf("PASS vector_add\n");
  return 0;
}
