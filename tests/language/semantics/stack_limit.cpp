// SPDX-License-Identifier: MIT
// hipDeviceSetLimit(hipLimitStackSize) sizes the stacks of the CPU agent's GPU
// threads: a kernel whose threads keep a large local array across __syncthreads
// (so every thread runs on a fiber of its own) runs once the limit is raised,
// and hipDeviceGetLimit reads back the size in effect. On a GPU agent the limit is the
// driver's per-thread stack (CUDA's CU_LIMIT_STACK_SIZE, 1 KiB by default): set and read
// back, a value the GPU cannot hold refused.
#include "hip_test.hpp"

#include <hip/hip_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

namespace {

constexpr size_t kLocalBytes = 768 * 1024;  // above the default 256 KiB fiber stack
constexpr int kThreads = 32;

__global__ void big_frame(int* out) {
  volatile unsigned char local[kLocalBytes];
  for (size_t i = 0; i < kLocalBytes; i += 512)
    local[i] = static_cast<unsigned char>(threadIdx.x + i / 512);
  __syncthreads();
  unsigned sum = 0;
  for (size_t i = 0; i < kLocalBytes; i += 512) sum += local[i];
  out[threadIdx.x] = static_cast<int>(sum);
}

bool cpu_agent() {
  const std::string arch = hip_test::props().gcnArchName;
  return arch == "x86_64" || arch == "aarch64";
}

}  // namespace

TEST_CASE("Language_stack_limit_RaisedLimitSizesFiberStacks") {
  if (!hip_test::kernels_supported()) return;
  if (!cpu_agent()) {
    hip_test::skip(
        "a 768 KiB frame per thread is beyond a GPU thread's local memory (512 KiB "
        "on NVIDIA); the fiber stacks this case sizes are the CPU agent's");
    return;
  }
  size_t initial = 0;
  HIP_CHECK(hipDeviceGetLimit(&initial, hipLimitStackSize));
  REQUIRE(initial >= 16 * 1024);  // what the CPU agent's fibers really get, not a GPU figure
  const size_t wanted = 2 * 1024 * 1024;
  HIP_CHECK(hipDeviceSetLimit(hipLimitStackSize, wanted));
  size_t now = 0;
  HIP_CHECK(hipDeviceGetLimit(&now, hipLimitStackSize));
  REQUIRE(now == wanted);

  hip_test::DeviceBuffer<int> out(kThreads);
  HIP_LAUNCH_CHECK(big_frame, dim3(3), dim3(kThreads), 0, nullptr, out.get());
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<int> got(kThreads);
  HIP_CHECK(hipMemcpy(got.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  for (int t = 0; t < kThreads; ++t) {
    unsigned sum = 0;
    for (size_t i = 0; i < kLocalBytes; i += 512) sum += static_cast<unsigned char>(t + i / 512);
    INFO("thread " << t);
    REQUIRE(got[t] == static_cast<int>(sum));
  }
  HIP_CHECK(hipDeviceSetLimit(hipLimitStackSize, initial));
  HIP_CHECK(hipDeviceGetLimit(&now, hipLimitStackSize));
  REQUIRE(now == initial);
}

TEST_CASE("Language_stack_limit_SmallAndHugeValues") {
  if (!hip_test::kernels_supported()) return;
  size_t initial = 0;
  HIP_CHECK(hipDeviceGetLimit(&initial, hipLimitStackSize));
  REQUIRE(initial > 0);
  size_t now = 0;
  if (!cpu_agent()) {
    // The GPU's own per-thread stack: what is set is what is read back.
    HIP_CHECK(hipDeviceSetLimit(hipLimitStackSize, 4096));
    HIP_CHECK(hipDeviceGetLimit(&now, hipLimitStackSize));
    REQUIRE(now >= 4096);
    const size_t set = now;
    // 1 TiB per thread: the driver refuses (the error it names), the limit stays.
    REQUIRE(hipDeviceSetLimit(hipLimitStackSize, size_t(1) << 40) != hipSuccess);
    HIP_CHECK(hipDeviceGetLimit(&now, hipLimitStackSize));
    REQUIRE(now == set);
    HIP_CHECK(hipDeviceSetLimit(hipLimitStackSize, initial));
    return;
  }
  // A GPU-sized limit is raised to what a fiber needs, and reported as such.
  HIP_CHECK(hipDeviceSetLimit(hipLimitStackSize, 1024));
  HIP_CHECK(hipDeviceGetLimit(&now, hipLimitStackSize));
  REQUIRE(now >= 16 * 1024);
  HIP_CHECK_ERROR(hipDeviceSetLimit(hipLimitStackSize, size_t(1) << 40), hipErrorInvalidValue);
  HIP_CHECK(hipDeviceGetLimit(&now, hipLimitStackSize));
  REQUIRE(now >= 16 * 1024);
  HIP_CHECK(hipDeviceSetLimit(hipLimitStackSize, initial));
}
