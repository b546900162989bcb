// SPDX-License-Identifier: MIT
// hipModuleLaunchCooperativeKernel with a CPU code object (module_kernels.cpp).
#include "hip_test.hpp"
#include "test_files.hpp"

TEST_CASE("Unit_hipModuleLaunchCooperativeKernel_Positive_GridSyncAndLimit") {
  hipModule_t module = nullptr;
  const hipError_t rc =
      hipModuleLoad(&module, hip_test::helper_file(WEFT_TEST_COOP_OBJECT).c_str());
  if (rc == hipErrorNoBinaryForGpu) {
    hip_test::skip("the device under test does not run x86_64 code objects");
    return;
  }
  REQUIRE(rc == hipSuccess);
  hipFunction_t f = nullptr;
  HIP_CHECK(hipModuleGetFunction(&f, module, "grid_total"));
  constexpr unsigned block = 32;
  int per_unit = 0;
  HIP_CHECK(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&per_unit, f, block, 0));
  const unsigned limit = static_cast<unsigned>(per_unit * hip_test::props().multiProcessorCount);
  REQUIRE(limit >= 2);
  const unsigned blocks = std::min(limit, 6u), n = blocks * block;
  std::vector<int> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = static_cast<int>(i * 7 % 23);
  hip_test::DeviceBuffer<int> d_in(n), d_partials(blocks), d_totals(blocks);
  HIP_CHECK(hipMemcpy(d_in.get(), in.data(), d_in.bytes(), hipMemcpyHostToDevice));
  const int* p_in = d_in.get();
  int* p_partials = d_partials.get();
  int* p_totals = d_totals.get();
  void* params[] = {&p_in, &p_partials, &p_totals};
  HIP_CHECK(hipModuleLaunchCooperativeKernel(f, blocks, 1, 1, block, 1, 1, 0, nullptr, params));
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<int> totals(blocks);
  HIP_CHECK(hipMemcpy(totals.data(), p_totals, d_totals.bytes(), hipMemcpyDeviceToHost));
  int expected = 0;
  for (int v : in) expected += v;
  for (unsigned b = 0; b < blocks; ++b) CHECK(totals[b] == expected);
  HIP_CHECK_ERROR(
      hipModuleLaunchCooperativeKernel(f, limit + 1, 1, 1, block, 1, 1, 0, nullptr, params),
      hipErrorCooperativeLaunchTooLarge);
  HIP_CHECK(hipModuleUnload(module));
}
