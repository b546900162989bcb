// SPDX-License-Identifier: MIT
// Conformance: stream ordering and asynchrony: launches and copies return before they run,
// in-order execution under load, hipStreamWaitEvent, legacy null-stream semantics,
// hipStreamNonBlocking and hipStreamPerThread.
#include "hip_test.hpp"

#include <cstring>
#include <thread>
#include <vector>

namespace {

// p[1] = p[0] + 1 and p[0] = p[1] + 1: each reads what the previous kernel wrote.
__global__ void step_a(int* p) {
  if (threadIdx.x == 0 && blockIdx.x == 0) p[1] = p[0] + 1;
}
__global__ void step_b(int* p) {
  if (threadIdx.x == 0 && blockIdx.x == 0) p[0] = p[1] + 1;
}

__global__ void store(int* p, int value) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *p = value;
}

// dst = src + 1 (single thread): observes whether src was already written.
__global__ void copy_plus_one(int* dst, const int* src) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *dst = *src + 1;
}

__global__ void fill(int* out, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

}  // namespace

TEST_CASE("Unit_hipLaunchKernel_Positive_AsyncOnStream") {
  // The launch returns before the kernel runs: the kernel waits for a flag that the host only
  // sets after hipLaunchKernelGGL returned. A synchronous launch would time out the gate.
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::Gate gate;
  gate.launch(s.get());
  REQUIRE(gate.state() == hip_test::Gate::kNotFinished);
  gate.open();
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(gate.state() == hip_test::Gate::kReleased);
}

TEST_CASE("Unit_hipMemcpyAsync_Positive_AsyncAndOrdered") {
  // A copy queued behind a busy kernel neither runs early nor blocks the caller.
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::PinnedBuffer<int> src(1024), dst(1024);
  hip_test::DeviceBuffer<int> dev(1024);
  for (int i = 0; i < 1024; ++i) {
    src[i] = i;
    dst[i] = -1;
  }
  hip_test::Gate gate;
  gate.launch(s.get());
  HIP_CHECK(hipMemcpyAsync(dev.get(), src.get(), src.bytes(), hipMemcpyHostToDevice, s.get()));
  HIP_CHECK(hipMemcpyAsync(dst.get(), dev.get(), dst.bytes(), hipMemcpyDeviceToHost, s.get()));
  hip_test::sleep_ms(20);
  REQUIRE(dst[0] == -1);  // the copies wait for the gate kernel
  REQUIRE(dst[1023] == -1);
  HIP_CHECK_ERROR(hipStreamQuery(s.get()), hipErrorNotReady);
  gate.open();
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(gate.state() == hip_test::Gate::kReleased);
  for (int i = 0; i < 1024; ++i) REQUIRE(dst[i] == i);
}

TEST_CASE("Unit_hipStream_Positive_OrderingStress") {
  // 1000 dependent kernel pairs: any reordering or overlap loses an increment.
  if (!hip_test::kernels_supported()) return;
  constexpr int kPairs = 1000;
  hip_test::Stream s;
  hip_test::PinnedBuffer<int> p(2);
  p[0] = p[1] = 0;
  for (int i = 0; i < kPairs; ++i) {
    hipLaunchKernelGGL(step_a, dim3(1), dim3(1), 0, s.get(), p.get());
    hipLaunchKernelGGL(step_b, dim3(1), dim3(1), 0, s.get(), p.get());
  }
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(p[1] == 2 * kPairs - 1);
  REQUIRE(p[0] == 2 * kPairs);
}

TEST_CASE("Unit_hipStream_Positive_OrderingStressNullStream") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kPairs = 1000;
  hip_test::PinnedBuffer<int> p(2);
  p[0] = p[1] = 0;
  for (int i = 0; i < kPairs; ++i) {
    hipLaunchKernelGGL(step_a, dim3(1), dim3(1), 0, nullptr, p.get());
    hipLaunchKernelGGL(step_b, dim3(1), dim3(1), 0, nullptr, p.get());
  }
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  REQUIRE(p[0] == 2 * kPairs);
}

TEST_CASE("Unit_hipStreamWaitEvent_Positive_CrossStream") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream producer, consumer;
  hip_test::Event done(hipEventDisableTiming);
  hip_test::PinnedBuffer<int> v(2);
  v[0] = v[1] = 0;
  hip_test::Gate gate;
  gate.launch(producer.get());
  HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, producer.get(), v.get(), 41);
  HIP_CHECK(hipEventRecord(done.get(), producer.get()));
  HIP_CHECK(hipStreamWaitEvent(consumer.get(), done.get(), 0));
  HIP_LAUNCH_CHECK(copy_plus_one, dim3(1), dim3(1), 0, consumer.get(), v.get() + 1, v.get());
  hip_test::sleep_ms(20);
  HIP_CHECK_ERROR(hipStreamQuery(consumer.get()), hipErrorNotReady);
  REQUIRE(v[1] == 0);
  gate.open();
  HIP_CHECK(hipStreamSynchronize(consumer.get()));
  REQUIRE(v[1] == 42);
}

TEST_CASE("Unit_hipStreamWaitEvent_Positive_UnrecordedEvent") {
  // Waiting for an event that was never recorded is a no-op (CUDA semantics).
  hip_test::Stream s;
  hip_test::Event e;
  HIP_CHECK(hipStreamWaitEvent(s.get(), e.get(), 0));
  HIP_CHECK(hipStreamSynchronize(s.get()));
}

TEST_CASE("Unit_hipStreamWaitEvent_Negative_Parameters") {
  hip_test::Stream s;
  hip_test::Event e;
  HIP_CHECK(hipEventRecord(e.get(), s.get()));
  HIP_CHECK_ERROR(hipStreamWaitEvent(s.get(), nullptr, 0), hipErrorInvalidHandle);
  // Flags other than 0 and hipEventWaitExternal (1, HIP 6.4+) are rejected.
  HIP_CHECK_ERROR(hipStreamWaitEvent(s.get(), e.get(), 2), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipStreamWaitEvent(s.get(), e.get(), 0xFFu), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipStreamWaitEvent_Positive_WaitExternalFlag") {
  // hipEventWaitExternal only matters during stream capture; outside it is a plain wait.
  hip_test::Stream s;
  hip_test::Event e;
  HIP_CHECK(hipEventRecord(e.get(), s.get()));
  HIP_CHECK(hipStreamWaitEvent(s.get(), e.get(), hipEventWaitExternal));
  HIP_CHECK(hipStreamSynchronize(s.get()));
}

TEST_CASE("Unit_hipStream_Positive_NullStreamWaitsForBlockingStream") {
  // Legacy default stream: work on the null stream waits for earlier work on every blocking
  // stream of the device.
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream blocking;
  hip_test::PinnedBuffer<int> v(2);
  v[0] = v[1] = 0;
  hip_test::Gate gate;
  gate.launch(blocking.get());
  HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, blocking.get(), v.get(), 1);
  HIP_LAUNCH_CHECK(copy_plus_one, dim3(1), dim3(1), 0, nullptr, v.get() + 1, v.get());
  hip_test::sleep_ms(20);
  REQUIRE(v[1] == 0);
  HIP_CHECK_ERROR(hipStreamQuery(nullptr), hipErrorNotReady);
  gate.open();
  HIP_CHECK(hipStreamSynchronize(nullptr));
  REQUIRE(v[1] == 2);
}

TEST_CASE("Unit_hipStream_Positive_BlockingStreamWaitsForNullStream") {
  // ... and work on a blocking stream waits for earlier work on the null stream.
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream blocking;
  hip_test::PinnedBuffer<int> v(2);
  v[0] = v[1] = 0;
  hip_test::Gate gate;
  gate.launch(nullptr);
  HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, nullptr, v.get(), 1);
  HIP_LAUNCH_CHECK(copy_plus_one, dim3(1), dim3(1), 0, blocking.get(), v.get() + 1, v.get());
  hip_test::sleep_ms(20);
  REQUIRE(v[1] == 0);
  HIP_CHECK_ERROR(hipStreamQuery(blocking.get()), hipErrorNotReady);
  gate.open();
  HIP_CHECK(hipStreamSynchronize(blocking.get()));
  REQUIRE(v[1] == 2);
}

TEST_CASE("Unit_hipStream_Positive_NullStreamWaitsForMemcpyOnBlockingStream") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream blocking;
  hip_test::PinnedBuffer<int> src(1), v(2);
  src[0] = 7;
  v[0] = v[1] = 0;
  hip_test::Gate gate;
  gate.launch(blocking.get());
  HIP_CHECK(hipMemcpyAsync(v.get(), src.get(), sizeof(int), hipMemcpyHostToHost, blocking.get()));
  HIP_LAUNCH_CHECK(copy_plus_one, dim3(1), dim3(1), 0, nullptr, v.get() + 1, v.get());
  gate.open();
  HIP_CHECK(hipDeviceSynchronize());
  REQUIRE(v[1] == 8);
}

TEST_CASE("Unit_hipStream_Positive_NonBlockingStreamCompletes") {
  // A hipStreamNonBlocking stream does not synchronise with the null stream. Only check that
  // mixing them neither deadlocks nor loses work.
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream nonblocking(hipStreamNonBlocking);
  hip_test::PinnedBuffer<int> a(256), b(256);
  for (int i = 0; i < 256; ++i) a[i] = b[i] = 0;
  {
    hip_test::Gate gate;
    gate.launch(nullptr);
    HIP_LAUNCH_CHECK(fill, dim3(1), dim3(256), 0, nonblocking.get(), b.get(), 256, 2);
    HIP_LAUNCH_CHECK(fill, dim3(1), dim3(256), 0, nullptr, a.get(), 256, 1);
    gate.open();
    HIP_CHECK(hipStreamSynchronize(nonblocking.get()));
    HIP_CHECK(hipStreamSynchronize(nullptr));
    REQUIRE(gate.state() == hip_test::Gate::kReleased);
  }
  {
    hip_test::Gate gate;
    gate.launch(nonblocking.get());
    HIP_LAUNCH_CHECK(fill, dim3(1), dim3(256), 0, nullptr, a.get(), 256, 3);
    HIP_LAUNCH_CHECK(fill, dim3(1), dim3(256), 0, nonblocking.get(), b.get(), 256, 4);
    gate.open();
    HIP_CHECK(hipDeviceSynchronize());
    REQUIRE(gate.state() == hip_test::Gate::kReleased);
  }
  for (int i = 0; i < 256; ++i) {
    REQUIRE(a[i] == 3);
    REQUIRE(b[i] == 4);
  }
}

TEST_CASE("Unit_hipStreamPerThread_Positive_Basic") {
  if (!hip_test::kernels_supported()) return;
  hip_test::PinnedBuffer<int> v(2);
  v[0] = v[1] = 0;
  HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, hipStreamPerThread, v.get(), 5);
  HIP_LAUNCH_CHECK(copy_plus_one, dim3(1), dim3(1), 0, hipStreamPerThread, v.get() + 1, v.get());
  HIP_CHECK(hipStreamSynchronize(hipStreamPerThread));
  REQUIRE(v[1] == 6);
  unsigned flags = 0xFFu;
  HIP_CHECK(hipStreamGetFlags(hipStreamPerThread, &flags));
  int priority = 12345;
  HIP_CHECK(hipStreamGetPriority(hipStreamPerThread, &priority));
  REQUIRE(priority == 0);
}

TEST_CASE("Unit_hipStreamPerThread_Positive_TwoThreads") {
  // Each host thread gets its own per-thread stream; both can work concurrently.
  if (!hip_test::kernels_supported()) return;
  constexpr int kN = 4096;
  constexpr int kThreads = 2;
  hip_test::PinnedBuffer<int> out(kN * kThreads);
  for (int i = 0; i < kN * kThreads; ++i) out[i] = 0;
  hipError_t rc[kThreads][4];
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      rc[t][0] = hipSetDevice(hip_test::device());
      (void)hipGetLastError();
      for (int r = 1; r <= 50; ++r) {
        hipLaunchKernelGGL(fill, dim3(kN / 256), dim3(256), 0, hipStreamPerThread,
                           out.get() + t * kN, kN, r * 10 + t);
      }
      rc[t][1] = hipGetLastError();
      rc[t][2] = hipStreamSynchronize(hipStreamPerThread);
      rc[t][3] = hipStreamQuery(hipStreamPerThread);
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    for (int k = 0; k < 4; ++k) HIP_CHECK(rc[t][k]);
    for (int i = 0; i < kN; ++i) {
      if (out[t * kN + i] != 500 + t) FAIL("element " << i << " of thread " << t << " wrong");
    }
  }
}
