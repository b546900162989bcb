// SPDX-License-Identifier: MIT
// Drop-in program 3: templated kernels (type and value parameters).
#include "common.h"
#include "templates_kernels.h"

int main() {
  dropin_print_agent();
  const int n = 256;
  float* f = nullptr;
  double* d = nullptr;
  int* i32 = nullptr;
  DROPIN_CHECK(hipMalloc(&f, n * sizeof(float)));
  DROPIN_CHECK(hipMalloc(&d, n * sizeof(double)));
  DROPIN_CHECK(hipMalloc(&i32, n * sizeof(int)));
  fill_pattern<int, 3><<<1, n>>>(i32);
  bool run = DROPIN_LAUNCHED("fill_pattern<int, 3>");
  float hf[n];
  double hd[n];
  for (int i = 0; i < n; ++i) {
    hf[i] = static_cast<float>(i);
    hd[i] = static_cast<double>(i);
  }
  DROPIN_CHECK(hipMemcpy(f, hf, sizeof(hf), hipMemcpyHostToDevice));
  DROPIN_CHECK(hipMemcpy(d, hd, sizeof(hd), hipMemcpyHostToDevice));
  scale<float><<<2, 128>>>(f, 2.0f, n);
  DROPIN_LAUNCHED("scale<float>");
  hipLaunchKernelGGL(scale<double>, dim3(4), dim3(64), 0, 0, d, 0.5, n);
  DROPIN_LAUNCHED("scale<double>");
  if (run) {
    int hi[n];
    DROPIN_CHECK(hipMemcpy(hi, i32, sizeof(hi), hipMemcpyDeviceToHost));
    DROPIN_CHECK(hipMemcpy(hf, f, sizeof(hf), hipMemcpyDeviceToHost));
    DROPIN_CHECK(hipMemcpy(hd, d, sizeof(hd), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      DROPIN_REQUIRE(hi[i] == 3 * i);
      DROPIN_REQUIRE(hf[i] == 2.0f * static_cast<float>(i));
      DROPIN_REQUIRE(hd[i] == 0.5 * static_cast<double>(i));
    }
  }
  DROPIN_CHECK(hipFree(f));
  DROPIN_CHECK(hipFree(d));
  DROPIN_CHECK(hipFree(i32));
  std::printf("PASS templates\n");
  return 0;
}
