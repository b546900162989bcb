// SPDX-License-Identifier: MIT
// Drop-in program 2: __device__, __constant__ and __managed__ variables.
#include "common.h"
#include "variables_kernels.h"

#include <vector>

int main() {
  dropin_print_agent();
  int host_counters[16];
  for (int i = 0; i < 16; ++i) host_counters[i] = i + 1;
  const float host_weights[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  managed_total = 0;  // managed memory: written by the host directly
  DROPIN_REQUIRE(managed_total == 0);
  bool run = dropin_needs_code(
      hipMemcpyToSymbol(HIP_SYMBOL(counters), host_counters, sizeof(host_counters)),
      "hipMemcpyToSymbol(counters)");
  dropin_needs_code(hipMemcpyToSymbol(HIP_SYMBOL(weights), host_weights, sizeof(host_weights)),
                    "hipMemcpyToSymbol(weights)");
  const int n = 1000;
  float* out = nullptr;
  DROPIN_CHECK(hipMalloc(&out, n * sizeof(float)));
  use_variables<<<(n + 63) / 64, 64>>>(out, n);
  if (DROPIN_LAUNCHED("use_variables") && run) {
    DROPIN_CHECK(hipDeviceSynchronize());
    std::vector<float> host(n);
    DROPIN_CHECK(hipMemcpy(host.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      DROPIN_REQUIRE(host[i] == host_weights[i % 4] * static_cast<float>(i % 16 + 1));
    DROPIN_REQUIRE(managed_total == n);
  }
  DROPIN_CHECK(hipFree(out));
  std::printf("PASS variables\n");
  return 0;
}
