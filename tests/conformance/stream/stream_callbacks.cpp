// SPDX-License-Identifier: MIT
// Conformance: hipStreamAddCallback and hipLaunchHostFunc: they run once, in stream order,
// after the work queued before them and before the work queued after them.
#include "hip_test.hpp"

#include <atomic>
#include <mutex>
#include <vector>

namespace {

__global__ void store(int* p, int value) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *p = value;
}

struct Log {
  std::mutex mutex;
  std::vector<int> entries;  // tags in the order the callbacks ran
  std::vector<int> seen;     // the device value each callback observed
  std::vector<hipStream_t> streams;
  std::vector<hipError_t> statuses;
  const volatile int* watched = nullptr;
};

struct Tagged {
  Log* log;
  int tag;
};

void record(Log* log, int tag, hipStream_t stream, hipError_t status) {
  std::lock_guard<std::mutex> lock(log->mutex);
  log->entries.push_back(tag);
  log->seen.push_back(log->watched != nullptr ? *log->watched : -1);
  log->streams.push_back(stream);
  log->statuses.push_back(status);
}

void stream_callback(hipStream_t stream, hipError_t status, void* user) {
  auto* t = static_cast<Tagged*>(user);
  record(t->log, t->tag, stream, status);
}

void host_func(void* user) {
  auto* t = static_cast<Tagged*>(user);
  record(t->log, t->tag, nullptr, hipSuccess);
}

void count_callback(hipStream_t, hipError_t, void* user) {
  static_cast<std::atomic<int>*>(user)->fetch_add(1);
}

}  // namespace

TEST_CASE("Unit_hipStreamAddCallback_Positive_Basic") {
  hip_test::Stream s;
  std::atomic<int> calls{0};
  HIP_CHECK(hipStreamAddCallback(s.get(), count_callback, &calls, 0));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(calls.load() == 1);
  // On the null stream too.
  HIP_CHECK(hipStreamAddCallback(nullptr, count_callback, &calls, 0));
  HIP_CHECK(hipStreamSynchronize(nullptr));
  REQUIRE(calls.load() == 2);
}

TEST_CASE("Unit_hipStreamAddCallback_Positive_ArgumentsAndOrder") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::PinnedBuffer<int> value(1);
  value[0] = 0;
  Log log;
  log.watched = value.get();
  Tagged first{&log, 1}, second{&log, 2}, third{&log, 3};

  hip_test::Gate gate;
  gate.launch(s.get());
  HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, s.get(), value.get(), 10);
  HIP_CHECK(hipStreamAddCallback(s.get(), stream_callback, &first, 0));
  HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, s.get(), value.get(), 20);
  HIP_CHECK(hipLaunchHostFunc(s.get(), host_func, &second));
  HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, s.get(), value.get(), 30);
  HIP_CHECK(hipStreamAddCallback(s.get(), stream_callback, &third, 0));

  hip_test::sleep_ms(20);
  {
    std::lock_guard<std::mutex> lock(log.mutex);
    REQUIRE(log.entries.empty());  // nothing runs before the preceding kernel finished
  }
  gate.open();
  HIP_CHECK(hipStreamSynchronize(s.get()));  // also waits for the callbacks

  std::lock_guard<std::mutex> lock(log.mutex);
  REQUIRE(log.entries == std::vector<int>{1, 2, 3});
  // Each callback saw exactly the work queued before it, and none queued after it.
  REQUIRE(log.seen == std::vector<int>{10, 20, 30});
  REQUIRE(log.streams[0] == s.get());
  REQUIRE(log.streams[2] == s.get());
  REQUIRE(log.statuses[0] == hipSuccess);
  REQUIRE(log.statuses[2] == hipSuccess);
}

TEST_CASE("Unit_hipStreamAddCallback_Positive_BlocksLaterWork") {
  // Work queued after a callback waits until the callback returned.
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::PinnedBuffer<int> value(1);
  value[0] = 0;
  struct Slow {
    const volatile int* value;
    int observed;
  } slow{value.get(), -1};
  auto slow_callback = [](hipStream_t, hipError_t, void* user) {
    auto* sl = static_cast<Slow*>(user);
    hip_test::sleep_ms(50);
    sl->observed = *sl->value;  // the kernel below must not have run yet
  };
  HIP_CHECK(hipStreamAddCallback(s.get(), slow_callback, &slow, 0));
  HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, s.get(), value.get(), 1);
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(slow.observed == 0);
  REQUIRE(value[0] == 1);
}

TEST_CASE("Unit_hipStreamAddCallback_Positive_Many") {
  hip_test::Stream s;
  std::atomic<int> calls{0};
  for (int i = 0; i < 200; ++i) HIP_CHECK(hipStreamAddCallback(s.get(), count_callback, &calls, 0));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(calls.load() == 200);
}

TEST_CASE("Unit_hipStreamAddCallback_Negative_Parameters") {
  hip_test::Stream s;
  std::atomic<int> calls{0};
  HIP_CHECK_ERROR(hipStreamAddCallback(s.get(), nullptr, nullptr, 0), hipErrorInvalidValue);
  // flags is reserved and must be 0.
  HIP_CHECK_ERROR(hipStreamAddCallback(s.get(), count_callback, &calls, 1), hipErrorInvalidValue);
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(calls.load() == 0);
}

TEST_CASE("Unit_hipLaunchHostFunc_Positive_Streams") {
  hip_test::Stream s;
  Log log;
  Tagged a{&log, 1}, b{&log, 2}, c{&log, 3};
  HIP_CHECK(hipLaunchHostFunc(s.get(), host_func, &a));
  HIP_CHECK(hipLaunchHostFunc(nullptr, host_func, &b));
  HIP_CHECK(hipLaunchHostFunc(hipStreamPerThread, host_func, &c));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipStreamSynchronize(hipStreamPerThread));
  std::lock_guard<std::mutex> lock(log.mutex);
  REQUIRE(log.entries.size() == 3);
}

TEST_CASE("Unit_hipLaunchHostFunc_Positive_AfterPrecedingWork") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::PinnedBuffer<int> value(1);
  value[0] = 0;
  Log log;
  log.watched = value.get();
  Tagged t{&log, 7};
  hip_test::Gate gate;
  gate.launch(s.get());
  HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, s.get(), value.get(), 99);
  HIP_CHECK(hipLaunchHostFunc(s.get(), host_func, &t));
  hip_test::sleep_ms(20);
  {
    std::lock_guard<std::mutex> lock(log.mutex);
    REQUIRE(log.entries.empty());
  }
  gate.open();
  HIP_CHECK(hipStreamSynchronize(s.get()));
  std::lock_guard<std::mutex> lock(log.mutex);
  REQUIRE(log.entries == std::vector<int>{7});
  REQUIRE(log.seen == std::vector<int>{99});
}

TEST_CASE("Unit_hipLaunchHostFunc_Negative_Null") {
  hip_test::Stream s;
  HIP_CHECK_ERROR(hipLaunchHostFunc(s.get(), nullptr, nullptr), hipErrorInvalidValue);
}
