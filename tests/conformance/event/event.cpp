// SPDX-License-Identifier: MIT
// Conformance: events: creation and flags, hipEventRecord on the null and created streams,
// hipEventSynchronize, hipEventQuery, hipEventElapsedTime and destruction.
#include "hip_test.hpp"

#include <atomic>
#include <chrono>
#include <thread>

namespace {

// weft validates event handles: a destroyed event is hipErrorInvalidHandle or, as AMD's
// runtime answers for a double destroy, hipErrorContextIsDestroyed. HIP's documentation
// names neither for a stale handle, so both are accepted.
#define REQUIRE_DESTROYED_EVENT(expr) \
  HIP_CHECK_ERROR_EITHER(expr, hipErrorInvalidHandle, hipErrorContextIsDestroyed)

__global__ void store(int* p, int value) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *p = value;
}

// A new event recorded on `s` behind a closed gate: pending until the gate opens.
hipEvent_t recorded_behind(hip_test::Gate& gate, hipStream_t s) {
  gate.launch(s);
  hipEvent_t e = nullptr;
  HIP_CHECK(hipEventCreate(&e));
  HIP_CHECK(hipEventRecord(e, s));
  return e;
}

}  // namespace

TEST_CASE("Unit_hipEventCreate_Positive_Basic") {
  hipEvent_t e = nullptr;
  HIP_CHECK(hipEventCreate(&e));
  REQUIRE(e != nullptr);
  HIP_CHECK(hipEventQuery(e));  // never recorded: complete
  HIP_CHECK(hipEventSynchronize(e));
  HIP_CHECK(hipEventDestroy(e));
}

TEST_CASE("Unit_hipEventCreate_Negative_Null") {
  HIP_CHECK_ERROR(hipEventCreate(nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipEventCreateWithFlags(nullptr, hipEventDefault), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipEventCreateWithFlags_Positive_Flags") {
  const unsigned flag_sets[] = {
      hipEventDefault,
      hipEventBlockingSync,
      hipEventDisableTiming,
      hipEventBlockingSync | hipEventDisableTiming,
      hipEventInterprocess | hipEventDisableTiming,
      hipEventReleaseToDevice,
      hipEventReleaseToSystem,
      hipEventDisableSystemFence,
  };
  for (unsigned flags : flag_sets) {
    INFO("flags 0x" << std::hex << flags);
    hipEvent_t e = nullptr;
    HIP_CHECK(hipEventCreateWithFlags(&e, flags));
    HIP_CHECK(hipEventRecord(e, nullptr));
    HIP_CHECK(hipEventSynchronize(e));
    HIP_CHECK(hipEventQuery(e));
    HIP_CHECK(hipEventDestroy(e));
  }
}

TEST_CASE("Unit_hipEventCreateWithFlags_Negative_Flags") {
  hipEvent_t e = nullptr;
  // Interprocess events must disable timing.
  HIP_CHECK_ERROR(hipEventCreateWithFlags(&e, hipEventInterprocess), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipEventCreateWithFlags(&e, hipEventInterprocess | hipEventBlockingSync),
                  hipErrorInvalidValue);
  // Unknown bits.
  HIP_CHECK_ERROR(hipEventCreateWithFlags(&e, 0x10), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipEventCreateWithFlags(&e, 0xFFFFFFFFu), hipErrorInvalidValue);
  // At most one release scope (AMD: hipEventReleaseToDevice, ReleaseToSystem and
  // DisableSystemFence are mutually exclusive).
  const hipError_t rc =
      hipEventCreateWithFlags(&e, hipEventReleaseToDevice | hipEventReleaseToSystem);
  if (rc == hipSuccess) (void)hipEventDestroy(e);
  HIP_CHECK_ERROR(rc, hipErrorInvalidValue);
}

TEST_CASE("Unit_hipEventRecord_Positive_Streams") {
  hip_test::Stream created;
  hip_test::Stream nonblocking(hipStreamNonBlocking);
  for (hipStream_t s :
       {hipStream_t{nullptr}, created.get(), nonblocking.get(), hipStreamPerThread}) {
    INFO("stream " << s);
    hip_test::Event e;
    HIP_CHECK(hipEventRecord(e.get(), s));
    HIP_CHECK(hipEventSynchronize(e.get()));
    HIP_CHECK(hipEventQuery(e.get()));
    // Re-recording an event is allowed.
    HIP_CHECK(hipEventRecord(e.get(), s));
    HIP_CHECK(hipStreamSynchronize(s));
    HIP_CHECK(hipEventQuery(e.get()));
  }
}

TEST_CASE("Unit_hipEventRecord_Negative_Null") {
  HIP_CHECK_ERROR(hipEventRecord(nullptr, nullptr), hipErrorInvalidHandle);
  hip_test::Stream s;
  HIP_CHECK_ERROR(hipEventRecord(nullptr, s.get()), hipErrorInvalidHandle);
}

TEST_CASE("Unit_hipEventQuery_Positive_NotReadyUntilWorkDone") {
  if (!hip_test::kernels_supported()) return;
  for (bool null_stream : {false, true}) {
    INFO((null_stream ? "null stream" : "created stream"));
    hip_test::Stream created;
    const hipStream_t s = null_stream ? nullptr : created.get();
    hip_test::Event e;
    hip_test::PinnedBuffer<int> v(1);
    v[0] = 0;
    hip_test::Gate gate;
    gate.launch(s);
    HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, s, v.get(), 1);
    HIP_CHECK(hipEventRecord(e.get(), s));
    HIP_CHECK_ERROR(hipEventQuery(e.get()), hipErrorNotReady);
    HIP_CHECK(hipGetLastError());  // NotReady does not become the last error (HIP 7)
    gate.open();
    HIP_CHECK(hipEventSynchronize(e.get()));
    REQUIRE(v[0] == 1);  // the event completes only after the work before it
    HIP_CHECK(hipEventQuery(e.get()));
    REQUIRE(gate.state() == hip_test::Gate::kReleased);
  }
}

TEST_CASE("Unit_hipEventQuery_Negative_Null") {
  HIP_CHECK_ERROR(hipEventQuery(nullptr), hipErrorInvalidHandle);
  HIP_CHECK_ERROR(hipEventSynchronize(nullptr), hipErrorInvalidHandle);
}

TEST_CASE("Unit_hipEventSynchronize_Positive_WaitsForRecordedWork") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::Event e(hipEventBlockingSync);
  hip_test::PinnedBuffer<int> v(1);
  v[0] = 0;
  hip_test::Gate gate;
  gate.launch(s.get());
  HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, s.get(), v.get(), 5);
  HIP_CHECK(hipEventRecord(e.get(), s.get()));
  std::thread opener([&] {
    hip_test::sleep_ms(30);
    gate.open();
  });
  HIP_CHECK(hipEventSynchronize(e.get()));
  opener.join();
  REQUIRE(v[0] == 5);
}

TEST_CASE("Unit_hipEventElapsedTime_Positive_AroundWork") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kHoldMs = 60;
  hip_test::Stream s;
  hip_test::Event start, stop;
  hip_test::Gate gate;
  HIP_CHECK(hipEventRecord(start.get(), s.get()));
  gate.launch(s.get());
  HIP_CHECK(hipEventRecord(stop.get(), s.get()));
  hip_test::sleep_ms(kHoldMs);
  gate.open();
  HIP_CHECK(hipEventSynchronize(stop.get()));
  float ms = -1.0f;
  HIP_CHECK(hipEventElapsedTime(&ms, start.get(), stop.get()));
  INFO("elapsed " << ms << " ms, kernel held for at least ~" << kHoldMs << " ms");
  REQUIRE(ms > 0.0f);
  REQUIRE(ms >= kHoldMs * 0.5f);
  REQUIRE(ms < 60000.0f);
  // Reversed order gives the negative interval.
  float back = 0.0f;
  HIP_CHECK(hipEventElapsedTime(&back, stop.get(), start.get()));
  REQUIRE(back <= 0.0f);
}

TEST_CASE("Unit_hipEventElapsedTime_Positive_NullStream") {
  hip_test::Event start, stop;
  HIP_CHECK(hipEventRecord(start.get(), nullptr));
  HIP_CHECK(hipEventRecord(stop.get(), nullptr));
  HIP_CHECK(hipEventSynchronize(stop.get()));
  float ms = -1.0f;
  HIP_CHECK(hipEventElapsedTime(&ms, start.get(), stop.get()));
  REQUIRE(ms >= 0.0f);
}

TEST_CASE("Unit_hipEventElapsedTime_Negative_Parameters") {
  hip_test::Event start, stop;
  HIP_CHECK(hipEventRecord(start.get(), nullptr));
  HIP_CHECK(hipEventRecord(stop.get(), nullptr));
  HIP_CHECK(hipEventSynchronize(stop.get()));
  float ms = 0.0f;
  HIP_CHECK_ERROR(hipEventElapsedTime(nullptr, start.get(), stop.get()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipEventElapsedTime(&ms, nullptr, stop.get()), hipErrorInvalidHandle);
  HIP_CHECK_ERROR(hipEventElapsedTime(&ms, start.get(), nullptr), hipErrorInvalidHandle);
}

TEST_CASE("Unit_hipEventElapsedTime_Negative_DisableTiming") {
  hip_test::Event timed, untimed(hipEventDisableTiming);
  HIP_CHECK(hipEventRecord(timed.get(), nullptr));
  HIP_CHECK(hipEventRecord(untimed.get(), nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  float ms = 0.0f;
  HIP_CHECK_ERROR(hipEventElapsedTime(&ms, timed.get(), untimed.get()), hipErrorInvalidHandle);
  HIP_CHECK_ERROR(hipEventElapsedTime(&ms, untimed.get(), timed.get()), hipErrorInvalidHandle);
}

TEST_CASE("Unit_hipEventElapsedTime_Negative_NotRecorded") {
  // CUDA and AMD: an event that was never recorded is an invalid handle for timing.
  hip_test::Event recorded, fresh;
  HIP_CHECK(hipEventRecord(recorded.get(), nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  float ms = 0.0f;
  HIP_CHECK_ERROR(hipEventElapsedTime(&ms, recorded.get(), fresh.get()), hipErrorInvalidHandle);
  HIP_CHECK_ERROR(hipEventElapsedTime(&ms, fresh.get(), recorded.get()), hipErrorInvalidHandle);
}

TEST_CASE("Unit_hipEventElapsedTime_Negative_NotReady") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::Event start, stop;
  hip_test::Gate gate;
  HIP_CHECK(hipEventRecord(start.get(), s.get()));
  gate.launch(s.get());
  HIP_CHECK(hipEventRecord(stop.get(), s.get()));
  float ms = 0.0f;
  HIP_CHECK_ERROR(hipEventElapsedTime(&ms, start.get(), stop.get()), hipErrorNotReady);
  gate.open();
  HIP_CHECK(hipEventSynchronize(stop.get()));
  HIP_CHECK(hipEventElapsedTime(&ms, start.get(), stop.get()));
}

TEST_CASE("Unit_hipEventDestroy_Negative_UseAfterDestroy") {
  hipEvent_t e = nullptr;
  HIP_CHECK(hipEventCreate(&e));
  HIP_CHECK(hipEventRecord(e, nullptr));
  HIP_CHECK(hipEventDestroy(e));
  float ms = 0.0f;
  REQUIRE_DESTROYED_EVENT(hipEventQuery(e));
  REQUIRE_DESTROYED_EVENT(hipEventSynchronize(e));
  REQUIRE_DESTROYED_EVENT(hipEventRecord(e, nullptr));
  REQUIRE_DESTROYED_EVENT(hipEventElapsedTime(&ms, e, e));
  hip_test::Stream s;
  REQUIRE_DESTROYED_EVENT(hipStreamWaitEvent(s.get(), e, 0));
  REQUIRE_DESTROYED_EVENT(hipEventDestroy(e));
}

TEST_CASE("Unit_hipEventDestroy_Negative_Null") {
  HIP_CHECK_ERROR(hipEventDestroy(nullptr), hipErrorInvalidHandle);
}

TEST_CASE("Unit_hipEventDestroy_Positive_PendingEvent") {
  // Destroying an event whose work has not finished is allowed (resources are released once
  // it completes).
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::Gate gate;
  hipEvent_t e = recorded_behind(gate, s.get());
  HIP_CHECK(hipEventDestroy(e));
  gate.open();
  HIP_CHECK(hipStreamSynchronize(s.get()));
}

TEST_CASE("Unit_hipEventDestroy_Positive_WhileAnotherThreadWaits") {
  // A thread in hipEventSynchronize does not hold up hipEventDestroy of the same
  // event on another thread (CUDA: destroying a pending event returns at once);
  // the wait still ends when the work does, and succeeds.
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::Gate gate;
  hipEvent_t e = recorded_behind(gate, s.get());
  std::atomic<int> waited{-1};
  std::thread waiter([&] { waited = int(hipEventSynchronize(e)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // let it reach the wait
  std::atomic<bool> destroyed{false};
  std::thread destroyer([&] {
    (void)hipEventDestroy(e);
    destroyed = true;
  });
  for (int i = 0; i < 5000 && !destroyed; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const bool destroy_returned = destroyed.load();
  CHECK(waited.load() == -1);  // still waiting: the gate is closed
  gate.open();
  destroyer.join();
  waiter.join();
  CHECK(destroy_returned);
  CHECK(waited.load() == int(hipSuccess));
  HIP_CHECK(hipStreamSynchronize(s.get()));
}
