// SPDX-License-Identifier: MIT
// The null driver through the whole runtime: run with WEFT_NULL_DRIVER=1 (meson
// sets it), the HIP API finds one null agent after every GPU and before the CPU
// agent, and serves memory, streams, host functions, events and launches on it
// (a kernel launch is refused: the agent runs no code). Without the variable no
// null agent exists; every other test binary of the tree runs that way.
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "hip_test.hpp"

namespace {

__global__ void touch(int* p) {
  if (threadIdx.x == 0) *p = 1;
}

// The ordinal of the null agent; REQUIREs that there is exactly one.
int null_agent() {
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  int found = -1, how_many = 0;
  for (int i = 0; i < count; ++i) {
    hipDeviceProp_t p{};
    HIP_CHECK(hipGetDeviceProperties(&p, i));
    if (std::string(p.gcnArchName) == "null") {
      found = i;
      ++how_many;
    }
  }
  INFO("WEFT_NULL_DRIVER=" << (std::getenv("WEFT_NULL_DRIVER") ? std::getenv("WEFT_NULL_DRIVER")
                                                               : "<unset>"));
  REQUIRE(how_many == 1);
  return found;
}

}  // namespace

TEST_CASE("NullHip_OneAgentBeforeTheCpuAgent") {
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  int n = null_agent();
  // The CPU agent is last (unless hidden with WEFT_CPU_AGENT=0); GPUs come first.
  const char* cpu = std::getenv("WEFT_CPU_AGENT");
  if (!cpu || std::string(cpu) != "0") CHECK(n == count - 2);
  else CHECK(n == count - 1);
  hipDeviceProp_t p{};
  HIP_CHECK(hipGetDeviceProperties(&p, n));
  CHECK(std::string(p.name) == "weft null agent 0");
  size_t free_bytes = 0, total = 0;
  HIP_CHECK(hipSetDevice(n));
  HIP_CHECK(hipMemGetInfo(&free_bytes, &total));
  CHECK(total > 0);
  CHECK(free_bytes <= total);
}

TEST_CASE("NullHip_CopiesAndFillsInStreamOrder") {
  HIP_CHECK(hipSetDevice(null_agent()));
  constexpr size_t kBytes = 1 << 16;
  std::vector<unsigned char> host(kBytes), back(kBytes, 0xee), expected(kBytes);
  for (size_t i = 0; i < kBytes; ++i)
    expected[i] = host[i] = static_cast<unsigned char>(i * 13 + 5);
  std::memset(expected.data() + 4096, 0x3c, 8192);
  void* dev = nullptr;
  HIP_CHECK(hipMalloc(&dev, kBytes));
  hip_test::Stream s;
  HIP_CHECK(hipMemcpyAsync(dev, host.data(), kBytes, hipMemcpyHostToDevice, s.get()));
  HIP_CHECK(hipMemsetAsync(static_cast<char*>(dev) + 4096, 0x3c, 8192, s.get()));
  HIP_CHECK(hipMemcpyAsync(back.data(), dev, kBytes, hipMemcpyDeviceToHost, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  CHECK(back == expected);
  HIP_CHECK(hipFree(dev));
}

TEST_CASE("NullHip_HostFunctionsAndEvents") {
  HIP_CHECK(hipSetDevice(null_agent()));
  hip_test::Stream a, b;
  hip_test::Event start, end, marker;
  std::mutex mutex;
  std::vector<int> order;
  struct Call {
    std::mutex* mutex;
    std::vector<int>* order;
    int tag;
  };
  auto host_func = [](void* user) {
    auto* c = static_cast<Call*>(user);
    std::lock_guard<std::mutex> lock(*c->mutex);
    c->order->push_back(c->tag);
  };
  Call first{&mutex, &order, 1}, second{&mutex, &order, 2};
  HIP_CHECK(hipEventRecord(start.get(), a.get()));
  HIP_CHECK(hipLaunchHostFunc(a.get(), host_func, &first));
  HIP_CHECK(hipEventRecord(marker.get(), a.get()));
  HIP_CHECK(hipStreamWaitEvent(b.get(), marker.get(), 0));
  HIP_CHECK(hipLaunchHostFunc(b.get(), host_func, &second));
  HIP_CHECK(hipEventRecord(end.get(), b.get()));
  HIP_CHECK(hipEventSynchronize(end.get()));
  HIP_CHECK(hipStreamSynchronize(a.get()));
  HIP_CHECK(hipStreamSynchronize(b.get()));
  CHECK(order == std::vector<int>{1, 2});
  HIP_CHECK(hipEventQuery(end.get()));
  float ms = -1;
  HIP_CHECK(hipEventElapsedTime(&ms, start.get(), end.get()));
  CHECK(ms >= 0.0f);
}

TEST_CASE("NullHip_KernelLaunchIsRefused") {
  HIP_CHECK(hipSetDevice(null_agent()));
  int* p = nullptr;
  HIP_CHECK(hipMalloc(&p, sizeof(int)));
  HIP_CHECK(hipMemset(p, 0, sizeof(int)));
  (void)hipGetLastError();
  hipLaunchKernelGGL(touch, dim3(1), dim3(1), 0, nullptr, p);
  CHECK(hipGetLastError() == hipErrorNoBinaryForGpu);
  int value = -1;
  HIP_CHECK(hipMemcpy(&value, p, sizeof(int), hipMemcpyDeviceToHost));
  CHECK(value == 0);
  HIP_CHECK(hipFree(p));
}
