// SPDX-License-Identifier: MIT
// Conformance: hipExtLaunchKernel (events recorded around the kernel), hipLaunchKernelExC
// through hipLaunchKernelEx (launch attributes) and hipExtLaunchMultiKernelMultiDevice, with
// single-source kernels. A single-source kernel passed as a plain address must be one the
// runtime already knows, so each test launches its kernel once by name first.
#include "hip_test.hpp"

#include <vector>

namespace {

__global__ void fill_value(int* out, int value, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = value + i;
}

void check_fill(const hip_test::DeviceBuffer<int>& out, int n, int value) {
  std::vector<int> host(n);
  HIP_CHECK(hipMemcpy(host.data(), out.get(), n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    INFO("element " << i);
    REQUIRE(host[i] == value + i);
  }
}

// Makes fill_value known to the runtime (and checks an ordinary launch works).
void introduce(const hip_test::DeviceBuffer<int>& out, int n) {
  HIP_LAUNCH_CHECK(fill_value, dim3(1), dim3(n), 0, nullptr, out.get(), 0, n);
  HIP_CHECK(hipDeviceSynchronize());
}

}  // namespace

TEST_CASE("Unit_hipExtLaunchKernel_Positive_Events") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kN = 96;
  hip_test::DeviceBuffer<int> out(kN);
  introduce(out, 8);
  hip_test::Stream s;
  hip_test::Event start, stop;
  int* out_ptr = out.get();
  int value = 500;
  int n = kN;
  void* args[] = {&out_ptr, &value, &n};
  HIP_CHECK(hipExtLaunchKernel(reinterpret_cast<const void*>(fill_value), dim3(3), dim3(32), args,
                               0, s.get(), start.get(), stop.get(), 0));
  HIP_CHECK(hipEventSynchronize(stop.get()));
  float ms = -1;
  HIP_CHECK(hipEventElapsedTime(&ms, start.get(), stop.get()));
  REQUIRE(ms >= 0.0f);
  check_fill(out, kN, 500);

  // No events, hipExtAnyOrderLaunch.
  value = 7;
  HIP_CHECK(hipExtLaunchKernel(reinterpret_cast<const void*>(fill_value), dim3(3), dim3(32), args,
                               0, s.get(), nullptr, nullptr, hipExtAnyOrderLaunch));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  check_fill(out, kN, 7);
}

TEST_CASE("Unit_hipExtLaunchKernel_Negative") {
  if (!hip_test::kernels_supported()) return;
  hip_test::DeviceBuffer<int> out(8);
  introduce(out, 8);
  int* out_ptr = out.get();
  int value = 1, n = 8;
  void* args[] = {&out_ptr, &value, &n};
  const void* f = reinterpret_cast<const void*>(fill_value);
  HIP_CHECK_ERROR(hipExtLaunchKernel(f, dim3(1), dim3(8), args, 0, nullptr, nullptr, nullptr, 0x8),
                  hipErrorInvalidValue);
  int bogus = 0;
  HIP_CHECK_ERROR(hipExtLaunchKernel(f, dim3(1), dim3(8), args, 0, nullptr,
                                     reinterpret_cast<hipEvent_t>(&bogus), nullptr, 0),
                  hipErrorInvalidHandle);
  HIP_CHECK_ERROR(
      hipExtLaunchKernel(nullptr, dim3(1), dim3(8), args, 0, nullptr, nullptr, nullptr, 0),
      hipErrorInvalidDeviceFunction);
  HIP_CHECK_ERROR(hipExtLaunchKernel(f, dim3(0), dim3(8), args, 0, nullptr, nullptr, nullptr, 0),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipExtLaunchKernel(f, dim3(1), dim3(1 << 20), args, 0, nullptr, nullptr, nullptr, 0),
      hipErrorInvalidConfiguration);
}

TEST_CASE("Unit_hipLaunchKernelEx_Positive_Attributes") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kN = 64;
  hip_test::DeviceBuffer<int> out(kN);
  introduce(out, 8);
  hip_test::Stream s;
  hipLaunchAttribute attrs[2];
  std::memset(attrs, 0, sizeof attrs);
  attrs[0].id = hipLaunchAttributePriority;
  attrs[0].val.priority = -1;
  attrs[1].id = hipLaunchAttributeAccessPolicyWindow;
  attrs[1].val.accessPolicyWindow.base_ptr = out.get();
  attrs[1].val.accessPolicyWindow.num_bytes = out.bytes();
  attrs[1].val.accessPolicyWindow.hitRatio = 1.0f;
  hipLaunchConfig_t config{};
  config.gridDim = dim3(2);
  config.blockDim = dim3(32);
  config.stream = s.get();
  config.attrs = attrs;
  config.numAttrs = 2;
  HIP_CHECK(hipLaunchKernelEx(&config, fill_value, out.get(), 40, kN));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  check_fill(out, kN, 40);

  // Cooperative: honoured (the occupancy limit applies).
  attrs[0].id = hipLaunchAttributeCooperative;
  attrs[0].val.cooperative = 1;
  config.numAttrs = 1;
  int per_unit = 0;
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_unit, fill_value, 32, 0));
  const int too_many = per_unit * hip_test::props().multiProcessorCount + 1;
  config.gridDim = dim3(static_cast<unsigned>(too_many));
  HIP_CHECK_ERROR(hipLaunchKernelEx(&config, fill_value, out.get(), 0, kN),
                  hipErrorCooperativeLaunchTooLarge);
  config.gridDim = dim3(2);
  HIP_CHECK(hipLaunchKernelEx(&config, fill_value, out.get(), 9, kN));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  check_fill(out, kN, 9);

  // Bad attribute lists and configurations.
  attrs[0].id = hipLaunchAttributeSynchronizationPolicy;
  HIP_CHECK_ERROR(hipLaunchKernelEx(&config, fill_value, out.get(), 0, kN), hipErrorInvalidValue);
  attrs[0].id = static_cast<hipLaunchAttributeID>(14);
  HIP_CHECK_ERROR(hipLaunchKernelEx(&config, fill_value, out.get(), 0, kN), hipErrorInvalidValue);
  config.attrs = nullptr;
  HIP_CHECK_ERROR(hipLaunchKernelEx(&config, fill_value, out.get(), 0, kN), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipLaunchKernelExC(nullptr, reinterpret_cast<const void*>(fill_value), nullptr),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipExtLaunchMultiKernelMultiDevice_Positive_OneDevice") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kN = 32;
  hip_test::DeviceBuffer<int> out(kN);
  introduce(out, 8);
  hip_test::Stream s;
  int* out_ptr = out.get();
  int value = 77, n = kN;
  void* args[] = {&out_ptr, &value, &n};
  hipLaunchParams p{};
  p.func = reinterpret_cast<void*>(fill_value);
  p.gridDim = dim3(1);
  p.blockDim = dim3(kN);
  p.args = args;
  p.stream = s.get();
  HIP_CHECK(hipExtLaunchMultiKernelMultiDevice(&p, 1, 0));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  check_fill(out, kN, 77);

  HIP_CHECK_ERROR(hipExtLaunchMultiKernelMultiDevice(nullptr, 1, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipExtLaunchMultiKernelMultiDevice(&p, 0, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipExtLaunchMultiKernelMultiDevice(&p, 1, 0x4), hipErrorInvalidValue);
  hipLaunchParams twice[2] = {p, p};  // one device twice
  HIP_CHECK_ERROR(hipExtLaunchMultiKernelMultiDevice(twice, 2, 0), hipErrorInvalidValue);
  p.func = nullptr;
  HIP_CHECK_ERROR(hipExtLaunchMultiKernelMultiDevice(&p, 1, 0), hipErrorInvalidDeviceFunction);
}
