// SPDX-License-Identifier: MIT
// Conformance: synchronizing while other threads submit, query, synchronize or destroy the
// same stream. On the CPU agent a thread in hipStreamSynchronize that finds no thread
// running the stream's work runs it itself (docs/cpu-engine.md, "The queue"); these cases
// hold on every agent: stream order, events and callbacks, errors, and many synchronizers.
// Rounds alternate between submitting right after a sync and after a pause (a queue thread
// that went to sleep), so both the queue's thread and a synchronizing caller run the work.
#include "fault_isolation.hpp"
#include "hip_test.hpp"

#include <pthread.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

__global__ void store(int* p, int value) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *p = value;
}

__global__ void add_one(int* p) {
  if (threadIdx.x == 0) atomicAdd(p, 1);
}

__global__ void assert_on_thread(int bad_thread, int* touched) {
  assert(static_cast<int>(threadIdx.x) != bad_thread);
  atomicAdd(touched, 1);
}

// Every thread keeps a large local array across a barrier: thread 0 of each block runs on
// the OS thread's stack, the others on fibers of the device's stack size.
constexpr size_t kLocalBytes = 768 * 1024;
__global__ void big_frame(int* out) {
  volatile unsigned char local[kLocalBytes];
  for (size_t i = 0; i < kLocalBytes; i += 512)
    local[i] = static_cast<unsigned char>(threadIdx.x + i / 512);
  __syncthreads();
  unsigned sum = 0;
  for (size_t i = 0; i < kLocalBytes; i += 512) sum += local[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(sum);
}

// A pause long enough for an idle queue thread to stop spinning and sleep.
void maybe_pause(int round) {
  if (round % 2 == 1) hip_test::sleep_ms(1);
}

struct Log {
  std::mutex mutex;
  std::vector<int> tags;  // in the order the callbacks ran
  std::vector<int> seen;  // the device value each one read
  const volatile int* watched = nullptr;
};

struct Tagged {
  Log* log;
  int tag;
};

void log_tag(void* user) {
  auto* t = static_cast<Tagged*>(user);
  std::lock_guard<std::mutex> lock(t->log->mutex);
  t->log->tags.push_back(t->tag);
  int now = *t->log->watched;
  t->log->seen.push_back(now);
}

}  // namespace

TEST_CASE("Unit_hipStreamSynchronize_Drain_EventsAndCallbacksInStreamOrder") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kRounds = 60, kSteps = 8;
  hip_test::Stream s;
  hip_test::PinnedBuffer<int> value(1);
  value[0] = -1;
  std::vector<hipEvent_t> events(kSteps);
  for (auto& e : events) HIP_CHECK(hipEventCreate(&e));
  for (int round = 0; round < kRounds; ++round) {
    Log log;
    log.watched = value.get();
    std::vector<Tagged> tags(kSteps);
    maybe_pause(round);
    for (int i = 0; i < kSteps; ++i) {
      tags[i] = Tagged{&log, round * kSteps + i};
      HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, s.get(), value.get(), round * kSteps + i);
      HIP_CHECK(hipEventRecord(events[i], s.get()));
      HIP_CHECK(hipLaunchHostFunc(s.get(), log_tag, &tags[i]));
    }
    HIP_CHECK(hipStreamSynchronize(s.get()));
    INFO("round " << round);
    REQUIRE(log.tags.size() == static_cast<size_t>(kSteps));
    for (int i = 0; i < kSteps; ++i) {
      REQUIRE(log.tags[i] == round * kSteps + i);  // stream order
      REQUIRE(log.seen[i] == round * kSteps + i);  // after its kernel, before the next one
      HIP_CHECK(hipEventQuery(events[i]));
    }
    for (int i = 0; i + 1 < kSteps; ++i) {
      float ms = -1.0f;
      HIP_CHECK(hipEventElapsedTime(&ms, events[i], events[i + 1]));
      REQUIRE(ms >= 0.0f);  // completed in record order
    }
  }
  for (auto& e : events) HIP_CHECK(hipEventDestroy(e));
}

namespace {
struct Enqueuer {
  hipStream_t stream;
  int* counter;
  std::atomic<int>* done;
  hipError_t launch = hipErrorUnknown;
};

void set_done(void* user) { static_cast<std::atomic<int>*>(user)->fetch_add(1); }

void enqueue_more(void* user) {
  auto* e = static_cast<Enqueuer*>(user);
  hipLaunchKernelGGL(add_one, dim3(1), dim3(1), 0, e->stream, e->counter);
  e->launch = hipGetLastError();
  if (e->launch == hipSuccess) e->launch = hipLaunchHostFunc(e->stream, set_done, e->done);
}
}  // namespace

TEST_CASE("Unit_hipStreamSynchronize_Drain_CallbackEnqueuesMoreWork") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::PinnedBuffer<int> counter(1);
  counter[0] = 0;
  std::atomic<int> done{0};
  for (int round = 0; round < 40; ++round) {
    INFO("round " << round);
    Enqueuer e{s.get(), counter.get(), &done};
    maybe_pause(round);
    HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, s.get(), counter.get());
    HIP_CHECK(hipLaunchHostFunc(s.get(), enqueue_more, &e));
    // The callback ran before this returns, so its launches are queued by then...
    HIP_CHECK(hipStreamSynchronize(s.get()));
    HIP_CHECK(e.launch);
    // ...and the next synchronize waits for them.
    HIP_CHECK(hipStreamSynchronize(s.get()));
    REQUIRE(counter[0] == 2 * (round + 1));
    REQUIRE(done.load() == round + 1);
  }
}

namespace {
struct CrossSync {
  hipStream_t other;
  const volatile int* counter;
  hipError_t status = hipErrorUnknown;
  int seen = -1;
};

void sync_other(void* user) {
  auto* c = static_cast<CrossSync*>(user);
  c->status = hipStreamSynchronize(c->other);
  c->seen = *c->counter;
}
}  // namespace

TEST_CASE("Unit_hipStreamSynchronize_Drain_CallbackSynchronizesAnotherStream") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream a, b;
  hip_test::PinnedBuffer<int> counter(1);
  counter[0] = 0;
  for (int round = 0; round < 30; ++round) {
    INFO("round " << round);
    CrossSync c{b.get(), counter.get()};
    maybe_pause(round);
    for (int i = 0; i < 10; ++i)
      HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, b.get(), counter.get());
    HIP_CHECK(hipLaunchHostFunc(a.get(), sync_other, &c));
    HIP_CHECK(hipStreamSynchronize(a.get()));
    HIP_CHECK(c.status);
    REQUIRE(c.seen == 10 * (round + 1));
  }
}

TEST_CASE("Unit_hipStreamSynchronize_Drain_SeveralThreadsWaitForOneStream") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kThreads = 4;
  hip_test::Stream s;
  hip_test::PinnedBuffer<int> value(1);
  value[0] = 0;
  hip_test::Gate gate;
  gate.launch(s.get());
  for (int i = 0; i < 10; ++i) HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, s.get(), value.get());
  std::vector<hipError_t> rc(kThreads, hipErrorUnknown);
  std::vector<int> seen(kThreads, -1);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      rc[t] = hipSetDevice(hip_test::device());
      if (rc[t] == hipSuccess) rc[t] = hipStreamSynchronize(s.get());
      seen[t] = value[0];
    });
  }
  REQUIRE(gate.wait_started());
  hip_test::sleep_ms(10);  // let the threads reach the synchronize (either order is right)
  gate.open();
  for (auto& th : threads) th.join();
  REQUIRE(gate.state() == hip_test::Gate::kReleased);
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    HIP_CHECK(rc[t]);
    REQUIRE(seen[t] == 10);  // submitted before any of them synchronized
  }
}

TEST_CASE("Unit_hipStreamSynchronize_Drain_ThreadsLaunchAndSynchronizeOneStream") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kThreads = 4, kIterations = 150;
  hip_test::Stream s;
  hip_test::PinnedBuffer<int> value(1);
  value[0] = 0;
  std::vector<hipError_t> rc(kThreads, hipSuccess);
  std::vector<int> short_counts(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      if ((rc[t] = hipSetDevice(hip_test::device())) != hipSuccess) return;
      for (int i = 1; i <= kIterations; ++i) {
        hipLaunchKernelGGL(add_one, dim3(1), dim3(1), 0, s.get(), value.get());
        if ((rc[t] = hipGetLastError()) != hipSuccess) return;
        if (i % 3 == 0 && (rc[t] = hipStreamQuery(s.get())) == hipErrorNotReady) rc[t] = hipSuccess;
        if (rc[t] != hipSuccess) return;
        if ((rc[t] = hipStreamSynchronize(s.get())) != hipSuccess) return;
        // This thread's launches were all submitted before its synchronize. Other threads'
        // kernels may be adding to the value right now, so read it atomically.
        if (__atomic_load_n(value.get(), __ATOMIC_RELAXED) < i) ++short_counts[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  HIP_CHECK(hipStreamSynchronize(s.get()));
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    HIP_CHECK(rc[t]);
    REQUIRE(short_counts[t] == 0);
  }
  REQUIRE(value[0] == kThreads * kIterations);
}

TEST_CASE("Unit_hipStreamQuery_Drain_NotReadyWhileAnotherThreadSynchronizes") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::Event after;
  hip_test::PinnedBuffer<int> value(1);
  value[0] = 0;
  hip_test::Gate gate;
  gate.launch(s.get());
  for (int i = 0; i < 5; ++i) HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, s.get(), value.get());
  HIP_CHECK(hipEventRecord(after.get(), s.get()));
  hipError_t rc = hipErrorUnknown;
  std::thread waiter([&] {
    rc = hipSetDevice(hip_test::device());
    if (rc == hipSuccess) rc = hipStreamSynchronize(s.get());
  });
  REQUIRE(gate.wait_started());
  for (int i = 0; i < 50; ++i) {  // the gate is closed: nothing behind it can have run
    HIP_CHECK_ERROR(hipStreamQuery(s.get()), hipErrorNotReady);
    HIP_CHECK_ERROR(hipEventQuery(after.get()), hipErrorNotReady);
    if (i % 10 == 9) hip_test::sleep_ms(1);
  }
  REQUIRE(value[0] == 0);
  gate.open();
  waiter.join();
  HIP_CHECK(rc);
  HIP_CHECK(hipStreamQuery(s.get()));
  HIP_CHECK(hipEventQuery(after.get()));
  REQUIRE(value[0] == 5);
}

TEST_CASE("Unit_hipStreamDestroy_Drain_WhileAnotherThreadSynchronizes") {
  if (!hip_test::kernels_supported()) return;
  for (int round = 0; round < 3; ++round) {
    INFO("round " << round);
    hipStream_t s = nullptr;
    HIP_CHECK(hipStreamCreate(&s));
    hip_test::PinnedBuffer<int> value(1);
    value[0] = 0;
    hip_test::Gate gate;
    gate.launch(s);
    for (int i = 0; i < 5; ++i) HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, s, value.get());
    hipError_t rc = hipErrorUnknown;
    int seen = -1;
    std::thread waiter([&] {
      rc = hipSetDevice(hip_test::device());
      if (rc == hipSuccess) rc = hipStreamSynchronize(s);
      seen = value[0];
    });
    REQUIRE(gate.wait_started());
    if (round > 0) hip_test::sleep_ms(5 * round);  // the waiter is (most likely) inside by now
    HIP_CHECK(hipStreamDestroy(s));                // returns at once; the work still runs
    gate.open();
    waiter.join();
    // A synchronize that began before the destroy waits for the work; one that began
    // after it finds the handle gone. Either way nothing crashes and the work completes.
    INFO("hipStreamSynchronize returned " << hipGetErrorName(rc));
    REQUIRE((rc == hipSuccess || rc == hipErrorInvalidHandle || rc == hipErrorContextIsDestroyed));
    if (rc == hipSuccess) REQUIRE(seen == 5);
    HIP_CHECK(hipDeviceSynchronize());
    REQUIRE(value[0] == 5);
  }
}

TEST_CASE("Unit_hipDeviceSynchronize_Drain_ManyStreamsAndThreads") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kStreams = 16, kLaunches = 20, kRounds = 8;
  std::vector<hipStream_t> streams(kStreams);
  std::vector<hipEvent_t> events(kStreams);
  for (auto& s : streams) HIP_CHECK(hipStreamCreate(&s));
  for (auto& e : events) HIP_CHECK(hipEventCreateWithFlags(&e, hipEventDisableTiming));
  hip_test::PinnedBuffer<int> counters(kStreams);
  std::atomic<int> callbacks{0};
  for (int round = 1; round <= kRounds; ++round) {
    INFO("round " << round);
    for (int i = 0; i < kStreams; ++i) counters[i] = 0;
    maybe_pause(round);
    for (int i = 0; i < kStreams; ++i) {
      for (int k = 0; k < kLaunches; ++k)
        HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, streams[i], counters.get() + i);
      HIP_CHECK(hipLaunchHostFunc(streams[i], set_done, &callbacks));
      HIP_CHECK(hipEventRecord(events[i], streams[i]));
    }
    // Two threads synchronize halves of the streams while this one synchronizes the device.
    hipError_t rc[2] = {hipErrorUnknown, hipErrorUnknown};
    std::vector<std::thread> helpers;
    for (int h = 0; h < 2; ++h) {
      helpers.emplace_back([&, h] {
        rc[h] = hipSetDevice(hip_test::device());
        for (int i = h; i < kStreams && rc[h] == hipSuccess; i += 2)
          rc[h] = hipStreamSynchronize(streams[(i * 5) % kStreams]);
      });
    }
    HIP_CHECK(hipDeviceSynchronize());
    for (int i = 0; i < kStreams; ++i) {
      REQUIRE(counters[i] == kLaunches);
      HIP_CHECK(hipEventQuery(events[i]));
    }
    REQUIRE(callbacks.load() >= kStreams * round);
    for (auto& th : helpers) th.join();
    HIP_CHECK(rc[0]);
    HIP_CHECK(rc[1]);
    REQUIRE(callbacks.load() == kStreams * round);
  }
  for (auto& e : events) HIP_CHECK(hipEventDestroy(e));
  for (auto& s : streams) HIP_CHECK(hipStreamDestroy(s));
}

TEST_CASE("Unit_hipStreamSynchronize_Drain_SmallStackThreadWaits") {
  // A thread with a small stack must not run kernels that need a large one on it: with the
  // stack limit at 2 MiB its synchronize leaves the work to the stream's own thread.
  if (!hip_test::kernels_supported()) return;
  const std::string arch = hip_test::props().gcnArchName;
  if (arch != "x86_64" && arch != "aarch64") {
    hip_test::skip(
        "kernels run on host threads on the CPU agent only; a 2 MiB stack per GPU thread is "
        "beyond a GPU's local memory (512 KiB on NVIDIA)");
    return;
  }
  size_t initial = 0;
  HIP_CHECK(hipDeviceGetLimit(&initial, hipLimitStackSize));
  HIP_CHECK(hipDeviceSetLimit(hipLimitStackSize, 2 * 1024 * 1024));
  constexpr int kBlocks = 2, kThreads = 8;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> out(kBlocks * kThreads);
  struct Job {
    hipStream_t stream;
    int* out;
    hipError_t rc[3];
  } job{s.get(), out.get(), {hipErrorUnknown, hipErrorUnknown, hipErrorUnknown}};
  auto body = [](void* arg) -> void* {
    auto* j = static_cast<Job*>(arg);
    j->rc[0] = hipSetDevice(hip_test::device());
    for (int round = 0; round < 4 && j->rc[0] == hipSuccess; ++round) {
      if (round % 2 == 1) hip_test::sleep_ms(1);
      hipLaunchKernelGGL(big_frame, dim3(kBlocks), dim3(kThreads), 0, j->stream, j->out);
      j->rc[1] = hipGetLastError();
      j->rc[2] = hipStreamSynchronize(j->stream);
      if (j->rc[1] != hipSuccess || j->rc[2] != hipSuccess) break;
    }
    return nullptr;
  };
  pthread_attr_t attr;
  REQUIRE(pthread_attr_init(&attr) == 0);
  REQUIRE(pthread_attr_setstacksize(&attr, 512 * 1024) == 0);  // less than one GPU thread needs
  pthread_t thread;
  REQUIRE(pthread_create(&thread, &attr, body, &job) == 0);
  pthread_attr_destroy(&attr);
  pthread_join(thread, nullptr);
  for (hipError_t rc : job.rc) HIP_CHECK(rc);
  std::vector<int> got(kBlocks * kThreads);
  HIP_CHECK(hipMemcpy(got.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  for (int i = 0; i < kBlocks * kThreads; ++i) {
    unsigned sum = 0;
    for (size_t k = 0; k < kLocalBytes; k += 512)
      sum += static_cast<unsigned char>(i % kThreads + k / 512);
    INFO("GPU thread " << i);
    REQUIRE(got[i] == static_cast<int>(sum));
  }
  HIP_CHECK(hipDeviceSetLimit(hipLimitStackSize, initial));
}

TEST_CASE("Unit_assert_Drain_FailingAssertSeenBySynchronizingThreads") {
  // A device assert while the synchronizing thread (this one, or another) runs the stream's
  // work ends in hipErrorAssert there too, sticky until hipDeviceReset. A GPU's context is
  // lost at the fault: there one round runs, in a child process.
  if (!hip_test::kernels_supported()) return;
  if (hip_test::ran_isolated()) return;  // faults the device
  const bool recovers = hip_test::device_recovers_from_faults();
  for (int round = 0; round < (recovers ? 4 : 1); ++round) {
    INFO("round " << round);
    hipStream_t s = nullptr;
    HIP_CHECK(hipStreamCreate(&s));
    int* touched = nullptr;
    HIP_CHECK(hipMalloc(&touched, sizeof(int)));
    HIP_CHECK(hipMemset(touched, 0, sizeof(int)));
    HIP_CHECK(hipStreamSynchronize(s));
    hip_test::sleep_ms(1);  // the stream's thread sleeps: the synchronizer runs the kernel
    HIP_LAUNCH_CHECK(assert_on_thread, dim3(2), dim3(32), 0, s, 3, touched);
    hipError_t rc = hipErrorUnknown;
    if (round % 2 == 0) {
      rc = hipStreamSynchronize(s);
    } else {
      std::thread t([&] {
        rc = hipSetDevice(hip_test::device());
        if (rc == hipSuccess) rc = hipStreamSynchronize(s);
      });
      t.join();
    }
    REQUIRE(rc == hipErrorAssert);
    REQUIRE(hipDeviceSynchronize() == hipErrorAssert);
    if (!recovers) {
      hip_test::reset_after_fault(hipErrorAssert);
      return;
    }
    HIP_CHECK(hipDeviceReset());  // drops the stream and the allocation
    HIP_CHECK(hipDeviceSynchronize());
  }
}
