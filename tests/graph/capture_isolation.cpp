// SPDX-License-Identifier: MIT
// Capture errors stay with the capture: calls on other threads are refused
// only where the capture modes say so, nothing sticks to the device or to the
// last-error state once the capture ended, and the next capture works.
#include "graph_test.hpp"

#include <barrier>
#include <functional>

using namespace graph_test;

namespace {

// Runs `body` on a new thread (with the device under test current) and returns its result.
hipError_t on_thread(const std::function<hipError_t()>& body,
                     hipStreamCaptureMode mode = hipStreamCaptureModeGlobal) {
  hipError_t rc = hipErrorUnknown;
  std::thread([&] {
    (void)hipSetDevice(hip_test::device());
    hipStreamCaptureMode m = mode;
    (void)hipThreadExchangeStreamCaptureMode(&m);
    rc = body();
  }).join();
  return rc;
}

// A few potentially unsafe calls, on the calling thread's own resources.
hipError_t unsafe_calls() {
  hipStream_t mine = nullptr;
  if (hipError_t rc = hipStreamCreateWithFlags(&mine, hipStreamNonBlocking); rc != hipSuccess)
    return rc;
  void* p = nullptr;
  hipError_t rc = hipMalloc(&p, 256);
  if (rc == hipSuccess) rc = hipMemsetAsync(p, 0, 256, mine);
  if (rc == hipSuccess) rc = hipStreamSynchronize(mine);
  if (p) {
    hipError_t f = hipFree(p);
    if (rc == hipSuccess) rc = f;
  }
  (void)hipStreamDestroy(mine);
  return rc;
}

}  // namespace

TEST_CASE("Unit_StreamCapture_Isolation_ThreadLocalAndRelaxed") {
  const auto mode = GENERATE(hipStreamCaptureModeThreadLocal, hipStreamCaptureModeRelaxed);
  hip_test::Stream s(hipStreamNonBlocking);
  HIP_CHECK(hipStreamBeginCapture(s.get(), mode));
  // Another thread in the default (global) interaction mode is not affected.
  REQUIRE(on_thread(unsafe_calls) == hipSuccess);
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
  REQUIRE(g.get() != nullptr);
}

TEST_CASE("Unit_StreamCapture_Isolation_GlobalModeAndRecovery") {
  hip_test::Stream s(hipStreamNonBlocking);
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  // A relaxed thread may do anything; the global capture survives.
  REQUIRE(on_thread(unsafe_calls, hipStreamCaptureModeRelaxed) == hipSuccess);
  REQUIRE(on_thread(unsafe_calls, hipStreamCaptureModeThreadLocal) == hipSuccess);
  hipStreamCaptureStatus status;
  HIP_CHECK(hipStreamIsCapturing(s.get(), &status));
  REQUIRE(status == hipStreamCaptureStatusActive);

  // A thread in global mode is refused and the global capture is invalidated.
  REQUIRE(on_thread(unsafe_calls) == hipErrorStreamCaptureUnsupported);
  HIP_CHECK(hipStreamIsCapturing(s.get(), &status));
  REQUIRE(status == hipStreamCaptureStatusInvalidated);
  Graph g(nullptr);
  HIP_CHECK_ERROR(hipStreamEndCapture(s.get(), g.out()), hipErrorStreamCaptureInvalidated);
  (void)hipGetLastError();

  // No trace: every thread's calls work again and nothing is sticky.
  REQUIRE(on_thread(unsafe_calls) == hipSuccess);
  REQUIRE(on_thread([] {
            (void)unsafe_calls();
            return hipGetLastError();
          }) == hipSuccess);
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  Graph g2(nullptr);
  HIP_CHECK(hipStreamEndCapture(s.get(), g2.out()));
  REQUIRE(g2.get() != nullptr);
}

TEST_CASE("Unit_StreamCapture_Isolation_DeviceSyncInvalidates") {
  const auto mode = GENERATE(hipStreamCaptureModeGlobal, hipStreamCaptureModeThreadLocal,
                             hipStreamCaptureModeRelaxed);
  hip_test::Stream s(hipStreamNonBlocking);
  HIP_CHECK(hipStreamBeginCapture(s.get(), mode));
  REQUIRE(on_thread([] { return hipDeviceSynchronize(); }) == hipErrorStreamCaptureUnsupported);
  Graph g(nullptr);
  HIP_CHECK_ERROR(hipStreamEndCapture(s.get(), g.out()), hipErrorStreamCaptureInvalidated);
  REQUIRE(on_thread([] { return hipDeviceSynchronize(); }) == hipSuccess);
}

TEST_CASE("Unit_StreamCapture_Isolation_LegacyStreamAndBlockingCapture") {
  // A blocking stream's capture cannot coexist with legacy-stream work from any thread.
  hip_test::Stream blocking;
  hip_test::DeviceBuffer<int> d(4);
  HIP_CHECK(hipStreamBeginCapture(blocking.get(), hipStreamCaptureModeRelaxed));
  REQUIRE(on_thread([&] { return hipMemset(d.get(), 0, 16); }, hipStreamCaptureModeRelaxed) ==
          hipErrorStreamCaptureImplicit);
  Graph g(nullptr);
  HIP_CHECK_ERROR(hipStreamEndCapture(blocking.get(), g.out()), hipErrorStreamCaptureInvalidated);
  REQUIRE(on_thread([&] { return hipMemset(d.get(), 0, 16); }) == hipSuccess);
}

TEST_CASE("Unit_StreamCapture_Isolation_ConcurrentCaptures") {
  if (!hip_test::kernels_supported()) return;
  const auto mode = GENERATE(hipStreamCaptureModeGlobal, hipStreamCaptureModeThreadLocal,
                             hipStreamCaptureModeRelaxed);
  constexpr int kThreads = 4;
  std::vector<hipError_t> results(kThreads, hipErrorUnknown);
  std::vector<int> values(kThreads, 0);
  // Setup and cleanup (hipStreamSynchronize, hipFree) are unsafe calls: keep
  // them out of the window in which the captures run, as global mode requires.
  std::barrier before(kThreads), after(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      (void)hipSetDevice(hip_test::device());
      hipStream_t s = nullptr;
      int* d = nullptr;
      hipGraph_t g = nullptr;
      hipGraphExec_t e = nullptr;
      hipError_t rc = hipStreamCreate(&s);
      if (rc == hipSuccess) rc = hipMallocAsync(reinterpret_cast<void**>(&d), sizeof(int), s);
      if (rc == hipSuccess) rc = hipStreamSynchronize(s);
      before.arrive_and_wait();
      if (rc == hipSuccess) rc = hipStreamBeginCapture(s, mode);
      if (rc == hipSuccess) {
        (void)hipMemsetAsync(d, 0, sizeof(int), s);
        for (int i = 0; i <= t; ++i) hipLaunchKernelGGL(increment, dim3(1), dim3(1), 0, s, d);
        (void)hipMemcpyAsync(&values[t], d, sizeof(int), hipMemcpyDeviceToHost, s);
        rc = hipStreamEndCapture(s, &g);
      }
      after.arrive_and_wait();
      if (rc == hipSuccess) rc = hipGraphInstantiate(&e, g, nullptr, nullptr, 0);
      if (rc == hipSuccess) rc = hipGraphLaunch(e, s);
      if (rc == hipSuccess) rc = hipStreamSynchronize(s);
      if (e) (void)hipGraphExecDestroy(e);
      if (g) (void)hipGraphDestroy(g);
      if (d) (void)hipFree(d);
      if (s) (void)hipStreamDestroy(s);
      results[t] = rc;
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    REQUIRE(results[t] == hipSuccess);
    REQUIRE(values[t] == t + 1);
  }
}
