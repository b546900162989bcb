// SPDX-License-Identifier: MIT
// Conformance: lazy, thread-safe initialisation. This binary is built with
// HIP_TEST_NO_DEVICE_SETUP, so no HIP call happens before the test case: 64 threads released
// together make the process's first HIP calls, mixing entry points, and must all succeed and
// agree. Keep this the only test case in the binary.
#include "hip_test.hpp"

#include <atomic>
#include <latch>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 64;

struct Outcome {
  hipError_t first = hipErrorUnknown;   // the thread's first HIP call
  hipError_t second = hipErrorUnknown;  // a follow-up call that depends on the first
  hipError_t cleanup = hipSuccess;
  int count = -1;   // hipGetDeviceCount result (every thread asks, after its first call)
  int device = -1;  // hipGetDevice after hipSetDevice
  void* ptr = nullptr;
  hipPointerAttribute_t attr{};
};

void run(int index, int target_device, std::latch& go, Outcome& out) {
  go.arrive_and_wait();
  switch (index % 4) {
    case 0:
      out.first = hipGetDeviceCount(&out.count);
      out.second = hipSuccess;
      break;
    case 1:
      out.first = hipMalloc(&out.ptr, 4096 + static_cast<size_t>(index));
      out.second =
          out.ptr != nullptr ? hipPointerGetAttributes(&out.attr, out.ptr) : hipErrorUnknown;
      break;
    case 2:
      out.first = hipSetDevice(target_device);
      out.second = hipGetDevice(&out.device);
      break;
    case 3: {
      hipStream_t s = nullptr;
      out.first = hipStreamCreate(&s);
      if (out.first == hipSuccess) {
        out.second = hipStreamSynchronize(s);
        out.cleanup = hipStreamDestroy(s);
      }
      break;
    }
  }
  if (index % 4 != 0) {
    const hipError_t rc = hipGetDeviceCount(&out.count);
    if (rc != hipSuccess) out.count = -100 - static_cast<int>(rc);
  }
  if (out.ptr != nullptr) out.cleanup = hipFree(out.ptr);
}

}  // namespace

TEST_CASE("Unit_hipInit_Positive_ConcurrentFirstCalls") {
  // The device under test, read from the environment without touching HIP. hipSetDevice on
  // it must succeed if the suite's configuration is valid; device 0 always exists.
  const int target = hip_test::device();

  std::latch go(kThreads);
  std::vector<Outcome> outcomes(kThreads);
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back(run, i, target, std::ref(go), std::ref(outcomes[i]));
  }
  for (auto& t : threads) t.join();

  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  REQUIRE(count >= 1);

  for (int i = 0; i < kThreads; ++i) {
    INFO("thread " << i << " (kind " << i % 4 << ")");
    const Outcome& o = outcomes[i];
    HIP_CHECK(o.first);
    HIP_CHECK(o.second);
    HIP_CHECK(o.cleanup);
    REQUIRE(o.count == count);  // every thread saw the same, final device table
    if (i % 4 == 1) {
      // hipMalloc on a thread that never selected a device allocates on device 0.
      REQUIRE(o.attr.type == hipMemoryTypeDevice);
      REQUIRE(o.attr.device == 0);
    }
    if (i % 4 == 2) REQUIRE(o.device == target);
  }

  // The main thread, which made no call before, starts on device 0 whatever the workers chose.
  int current = -1;
  HIP_CHECK(hipGetDevice(&current));
  REQUIRE(current == 0);
}
