// SPDX-License-Identifier: MIT
// Conformance: the extended module launches. hipExtModuleLaunchKernel and
// hipHccModuleLaunchKernel take the grid in work-items (threads), not blocks, and
// record events around the kernel; their C++-mangled ROCm 5 spellings behave the same;
// hipDrvLaunchKernelEx honours hipLaunchAttributeCooperative; the multi-device
// cooperative module launch runs a one-device list.
#include "hip_test.hpp"
#include "test_files.hpp"

#include <hip/hip_ext.h>

#include <dlfcn.h>

// Found next to the executable when the tests run outside the build tree.
static const std::string kModuleObject = hip_test::helper_file(WEFT_TEST_MODULE_OBJECT);

namespace {

struct Module {
  hipModule_t module = nullptr;
  hipFunction_t write_index = nullptr;
  hipFunction_t grid_total = nullptr;
  ~Module() {
    if (module) (void)hipModuleUnload(module);
  }
};

bool load(Module& m) {
  const hipError_t rc = hipModuleLoad(&m.module, kModuleObject.c_str());
  if (rc == hipErrorNoBinaryForGpu || rc == hipErrorInvalidImage) {
    hip_test::skip("the device under test does not load CPU code objects");
    return false;
  }
  HIP_CHECK(rc);
  HIP_CHECK(hipModuleGetFunction(&m.write_index, m.module, "write_index"));
  HIP_CHECK(hipModuleGetFunction(&m.grid_total, m.module, "grid_total"));
  return true;
}

void check_indices(const hip_test::DeviceBuffer<int>& out, int count, int base) {
  std::vector<int> host(out.count(), -7);
  HIP_CHECK(hipMemcpy(host.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  for (int i = 0; i < count; ++i) {
    INFO("index " << i);
    REQUIRE(host[i] == base + i);
  }
  // Nothing past the grid's work-items was written.
  for (size_t i = count; i < host.size(); ++i) REQUIRE(host[i] == -1);
}

using ExtLaunchCxx = hipError_t (*)(hipFunction_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
                                    uint32_t, size_t, hipStream_t, void**, void**, hipEvent_t,
                                    hipEvent_t, uint32_t);
using HccLaunchCxx = hipError_t (*)(hipFunction_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
                                    uint32_t, size_t, hipStream_t, void**, void**, hipEvent_t,
                                    hipEvent_t);

}  // namespace

TEST_CASE("Unit_hipExtModuleLaunchKernel_Positive_GridInWorkItems") {
  Module m;
  if (!load(m)) return;
  hip_test::DeviceBuffer<int> out(512);
  HIP_CHECK(hipMemset(out.get(), 0xff, out.bytes()));
  int* out_ptr = out.get();
  int base = 10;
  void* params[] = {&out_ptr, &base};
  hip_test::Event start, stop;
  // 256 work-items in groups of 64: 4 blocks, 256 threads (not 256 blocks).
  HIP_CHECK(hipExtModuleLaunchKernel(m.write_index, 256, 1, 1, 64, 1, 1, 0, nullptr, params,
                                     nullptr, start.get(), stop.get(), 0));
  HIP_CHECK(hipEventSynchronize(stop.get()));
  HIP_CHECK(hipEventQuery(start.get()));
  float ms = -1;
  HIP_CHECK(hipEventElapsedTime(&ms, start.get(), stop.get()));
  REQUIRE(ms >= 0.0f);
  check_indices(out, 256, 10);

  // Without events, and through hipHccModuleLaunchKernel.
  HIP_CHECK(hipMemset(out.get(), 0xff, out.bytes()));
  base = 3;
  HIP_CHECK(hipHccModuleLaunchKernel(m.write_index, 128, 1, 1, 32, 1, 1, 0, nullptr, params,
                                     nullptr, nullptr, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  check_indices(out, 128, 3);
}

TEST_CASE("Unit_hipExtModuleLaunchKernel_Positive_MangledRocm5Names") {
  Module m;
  if (!load(m)) return;
  auto ext =
      reinterpret_cast<ExtLaunchCxx>(dlsym(RTLD_DEFAULT,
                                           "_Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_"
                                           "tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j"));
  auto hcc =
      reinterpret_cast<HccLaunchCxx>(dlsym(RTLD_DEFAULT,
                                           "_Z24hipHccModuleLaunchKernelP18ihipModuleSymbol_"
                                           "tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_"));
  REQUIRE(ext != nullptr);
  REQUIRE(hcc != nullptr);
  hip_test::DeviceBuffer<int> out(512);
  HIP_CHECK(hipMemset(out.get(), 0xff, out.bytes()));
  int* out_ptr = out.get();
  int base = 100;
  void* params[] = {&out_ptr, &base};
  hip_test::Event stop;
  HIP_CHECK(
      ext(m.write_index, 192, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr, nullptr, stop.get(), 0));
  HIP_CHECK(hipEventSynchronize(stop.get()));
  check_indices(out, 192, 100);
  HIP_CHECK(hipMemset(out.get(), 0xff, out.bytes()));
  base = 0;
  HIP_CHECK(hcc(m.write_index, 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr, nullptr, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  check_indices(out, 64, 0);
  // Errors are the C entry point's.
  HIP_CHECK_ERROR(
      ext(m.write_index, 100, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr, nullptr, nullptr, 0),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hcc(nullptr, 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr, nullptr, nullptr),
                  hipErrorInvalidResourceHandle);
}

TEST_CASE("Unit_hipDrvLaunchKernelEx_Positive_Attributes") {
  Module m;
  if (!load(m)) return;
  constexpr int kBlocks = 2, kThreads = 4;
  std::vector<int> in(kBlocks * kThreads);
  int expected = 0;
  for (size_t i = 0; i < in.size(); ++i) expected += (in[i] = static_cast<int>(i) * 3 + 1);
  hip_test::DeviceBuffer<int> d_in(in.size()), partials(kBlocks), totals(kBlocks);
  HIP_CHECK(hipMemcpy(d_in.get(), in.data(), d_in.bytes(), hipMemcpyHostToDevice));
  int* p_in = d_in.get();
  int* p_partials = partials.get();
  int* p_totals = totals.get();
  void* params[] = {&p_in, &p_partials, &p_totals};

  hipLaunchAttribute attrs[2];
  std::memset(attrs, 0, sizeof attrs);
  attrs[0].id = hipLaunchAttributeCooperative;
  attrs[0].val.cooperative = 1;
  attrs[1].id = hipLaunchAttributePriority;
  attrs[1].val.priority = -1;
  HIP_LAUNCH_CONFIG config{};
  config.gridDimX = kBlocks;
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = kThreads;
  config.blockDimY = config.blockDimZ = 1;
  config.attrs = attrs;
  config.numAttrs = 2;
  const hipError_t rc = hipDrvLaunchKernelEx(&config, m.grid_total, params, nullptr);
  if (rc == hipErrorNotSupported) {
    hip_test::skip("the device runs no cooperative launches");
    return;
  }
  HIP_CHECK(rc);
  std::vector<int> host(kBlocks);
  HIP_CHECK(hipMemcpy(host.data(), totals.get(), totals.bytes(), hipMemcpyDeviceToHost));
  for (int b = 0; b < kBlocks; ++b) REQUIRE(host[b] == expected);

  // The attribute is honoured: a cooperative grid larger than fits at once is refused.
  int per_unit = 0;
  HIP_CHECK(
      hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&per_unit, m.grid_total, kThreads, 0));
  config.gridDimX = static_cast<unsigned>(per_unit * hip_test::props().multiProcessorCount + 1);
  HIP_CHECK_ERROR(hipDrvLaunchKernelEx(&config, m.grid_total, params, nullptr),
                  hipErrorCooperativeLaunchTooLarge);

  // Bad attribute lists.
  config.gridDimX = kBlocks;
  attrs[1].id = hipLaunchAttributeSynchronizationPolicy;  // a stream attribute only
  HIP_CHECK_ERROR(hipDrvLaunchKernelEx(&config, m.grid_total, params, nullptr),
                  hipErrorInvalidValue);
  config.attrs = nullptr;
  HIP_CHECK_ERROR(hipDrvLaunchKernelEx(&config, m.grid_total, params, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDrvLaunchKernelEx(nullptr, m.grid_total, params, nullptr),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipModuleLaunchCooperativeKernelMultiDevice_Positive_OneDevice") {
  Module m;
  if (!load(m)) return;
  constexpr int kBlocks = 2, kThreads = 2;
  std::vector<int> in = {5, 6, 7, 8};
  hip_test::DeviceBuffer<int> d_in(in.size()), partials(kBlocks), totals(kBlocks);
  HIP_CHECK(hipMemcpy(d_in.get(), in.data(), d_in.bytes(), hipMemcpyHostToDevice));
  int* p_in = d_in.get();
  int* p_partials = partials.get();
  int* p_totals = totals.get();
  void* params[] = {&p_in, &p_partials, &p_totals};
  hip_test::Stream s;
  hipFunctionLaunchParams launch{};
  launch.function = m.grid_total;
  launch.gridDimX = kBlocks;
  launch.gridDimY = launch.gridDimZ = 1;
  launch.blockDimX = kThreads;
  launch.blockDimY = launch.blockDimZ = 1;
  launch.hStream = s.get();
  launch.kernelParams = params;
  const hipError_t rc = hipModuleLaunchCooperativeKernelMultiDevice(&launch, 1, 0);
  if (rc == hipErrorNotSupported) {
    hip_test::skip("the device runs no cooperative launches");
    return;
  }
  HIP_CHECK(rc);
  HIP_CHECK(hipStreamSynchronize(s.get()));
  std::vector<int> host(kBlocks);
  HIP_CHECK(hipMemcpy(host.data(), totals.get(), totals.bytes(), hipMemcpyDeviceToHost));
  for (int b = 0; b < kBlocks; ++b) REQUIRE(host[b] == 26);

  HIP_CHECK_ERROR(hipModuleLaunchCooperativeKernelMultiDevice(nullptr, 1, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipModuleLaunchCooperativeKernelMultiDevice(&launch, 0, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipModuleLaunchCooperativeKernelMultiDevice(&launch, 1, 0x10),
                  hipErrorInvalidValue);
  // Two launches on one device: each needs its own.
  hipFunctionLaunchParams twice[2] = {launch, launch};
  HIP_CHECK_ERROR(hipModuleLaunchCooperativeKernelMultiDevice(twice, 2, 0), hipErrorInvalidValue);
  launch.function = nullptr;
  HIP_CHECK_ERROR(hipModuleLaunchCooperativeKernelMultiDevice(&launch, 1, 0),
                  hipErrorInvalidResourceHandle);
}
