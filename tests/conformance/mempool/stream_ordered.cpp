// SPDX-License-Identifier: MIT
// Stream-ordered allocation: kernels on hipMallocAsync memory, reuse on one stream, reuse
// across streams only as the pool's reuse policies allow, the release threshold at
// synchronize, hipMemPoolTrimTo, and concurrent use from several threads.
#include "mempool_test.hpp"

#include <thread>
#include <vector>

using namespace mempool_test;

namespace {

constexpr size_t kMiB = size_t(1) << 20;

__global__ void fill_affine(int* out, int n, int scale, int offset) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = scale * i + offset;
}

__global__ void scale_add(int* out, const int* in, int n, int scale, int offset) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = scale * in[i] + offset;
}

__global__ void store_value(int* slot, int value) { *slot = value; }

dim3 grid_for(int n) { return dim3(static_cast<unsigned>((n + 127) / 128)); }

// Allocation with kernels between: a, b from `alloc`, a freed and its block reused for c.
void kernels_round_trip(hipStream_t stream, hipMemPool_t pool) {
  constexpr int kN = 4096;
  auto alloc = [&](int** p) {
    if (pool)
      HIP_CHECK(
          hipMallocFromPoolAsync(reinterpret_cast<void**>(p), kN * sizeof(int), pool, stream));
    else HIP_CHECK(hipMallocAsync(reinterpret_cast<void**>(p), kN * sizeof(int), stream));
    REQUIRE(*p != nullptr);
  };
  int *a = nullptr, *b = nullptr, *c = nullptr;
  alloc(&a);
  alloc(&b);
  REQUIRE(a != b);
  HIP_LAUNCH_CHECK(fill_affine, grid_for(kN), dim3(128), 0, stream, a, kN, 3, 1);
  HIP_LAUNCH_CHECK(scale_add, grid_for(kN), dim3(128), 0, stream, b, a, kN, 2, 0);
  HIP_CHECK(hipFreeAsync(a, stream));
  alloc(&c);
  // The same stream may reuse a block it freed at once: stream order separates the uses.
  REQUIRE(c == a);
  HIP_LAUNCH_CHECK(scale_add, grid_for(kN), dim3(128), 0, stream, c, b, kN, 1, 5);
  std::vector<int> host(kN, -1);
  HIP_CHECK(hipMemcpyAsync(host.data(), c, kN * sizeof(int), hipMemcpyDeviceToHost, stream));
  HIP_CHECK(hipFreeAsync(b, stream));
  HIP_CHECK(hipFreeAsync(c, stream));
  HIP_CHECK(hipStreamSynchronize(stream));
  for (int i = 0; i < kN; ++i)
    if (host[i] != (3 * i + 1) * 2 + 5) FAIL("element " << i << " is " << host[i]);
}

}  // namespace

TEST_CASE("Unit_hipMallocAsync_Positive_KernelsDefaultPool") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  kernels_round_trip(s.get(), nullptr);
  kernels_round_trip(nullptr, nullptr);
}

TEST_CASE("Unit_hipMallocFromPoolAsync_Positive_KernelsOwnPool") {
  if (!hip_test::kernels_supported()) return;
  Pool pool;
  hip_test::Stream s(hipStreamNonBlocking);
  kernels_round_trip(s.get(), pool.get());
  REQUIRE(used(pool.get()) == 0);
}

TEST_CASE("Unit_hipMallocAsync_Positive_ZeroBytes") {
  Pool pool;
  void* p = reinterpret_cast<void*>(0x1);
  HIP_CHECK(hipMallocAsync(&p, 0, nullptr));
  REQUIRE(p == nullptr);
  p = reinterpret_cast<void*>(0x1);
  HIP_CHECK(hipMallocFromPoolAsync(&p, 0, pool.get(), nullptr));
  REQUIRE(p == nullptr);
  REQUIRE(reserved(pool.get()) == 0);
}

TEST_CASE("Unit_hipMemPool_Positive_UsedAndReservedCounters") {
  Pool pool;
  hip_test::Stream s;
  set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, UINT64_MAX);
  REQUIRE(reserved(pool.get()) == 0);
  REQUIRE(used(pool.get()) == 0);
  void* p = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(&p, kMiB, pool.get(), s.get()));
  REQUIRE(used(pool.get()) == kMiB);
  REQUIRE(reserved(pool.get()) == kMiB);
  HIP_CHECK(hipFreeAsync(p, s.get()));
  REQUIRE(used(pool.get()) == 0);
  REQUIRE(reserved(pool.get()) == kMiB);  // kept for reuse
  void* q = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(&q, kMiB, pool.get(), s.get()));
  REQUIRE(q == p);
  REQUIRE(reserved(pool.get()) == kMiB);  // nothing new reserved
  void* r = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(&r, kMiB, pool.get(), s.get()));
  REQUIRE(r != q);
  REQUIRE(used(pool.get()) == 2 * kMiB);
  REQUIRE(reserved(pool.get()) == 2 * kMiB);
  HIP_CHECK(hipFreeAsync(q, s.get()));
  HIP_CHECK(hipFreeAsync(r, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(used(pool.get()) == 0);
  REQUIRE(reserved(pool.get()) == 2 * kMiB);  // below the threshold: kept at synchronize
  REQUIRE(attr_u64(pool.get(), hipMemPoolAttrUsedMemHigh) == 2 * kMiB);
  REQUIRE(attr_u64(pool.get(), hipMemPoolAttrReservedMemHigh) == 2 * kMiB);
  // Resetting a watermark sets it to the current value.
  set_u64(pool.get(), hipMemPoolAttrUsedMemHigh, 0);
  REQUIRE(attr_u64(pool.get(), hipMemPoolAttrUsedMemHigh) == 0);
  set_u64(pool.get(), hipMemPoolAttrReservedMemHigh, 0);
  REQUIRE(attr_u64(pool.get(), hipMemPoolAttrReservedMemHigh) == 2 * kMiB);
  HIP_CHECK(hipMemPoolTrimTo(pool.get(), 0));
  REQUIRE(reserved(pool.get()) == 0);
}

TEST_CASE("Unit_hipMemPool_Positive_ReleaseThresholdAtSynchronize") {
  Pool pool;
  hip_test::Stream s;
  auto cache_three = [&] {
    void* p[3] = {};
    for (auto& q : p) HIP_CHECK(hipMallocFromPoolAsync(&q, kMiB, pool.get(), s.get()));
    for (auto& q : p) HIP_CHECK(hipFreeAsync(q, s.get()));
    REQUIRE(reserved(pool.get()) == 3 * kMiB);
  };
  SECTION("default threshold 0: everything goes at hipStreamSynchronize") {
    REQUIRE(attr_u64(pool.get(), hipMemPoolAttrReleaseThreshold) == 0);
    cache_three();
    HIP_CHECK(hipStreamSynchronize(s.get()));
    REQUIRE(reserved(pool.get()) == 0);
  }
  SECTION("threshold 2 MiB: one block goes at hipDeviceSynchronize") {
    set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, 2 * kMiB);
    cache_three();
    HIP_CHECK(hipDeviceSynchronize());
    REQUIRE(reserved(pool.get()) == 2 * kMiB);
  }
  SECTION("hipEventSynchronize releases too") {
    set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, kMiB);
    cache_three();
    hip_test::Event e;
    HIP_CHECK(hipEventRecord(e.get(), s.get()));
    HIP_CHECK(hipEventSynchronize(e.get()));
    REQUIRE(reserved(pool.get()) == kMiB);
  }
  SECTION("no synchronize, no release") {
    cache_three();
    REQUIRE(reserved(pool.get()) == 3 * kMiB);
    HIP_CHECK(hipMemPoolTrimTo(pool.get(), 0));
  }
}

TEST_CASE("Unit_hipMemPoolTrimTo_Positive_ReleasesOnlyCompletedFrees") {
  if (!hip_test::kernels_supported()) return;
  Pool pool;
  hip_test::Stream s;
  set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, UINT64_MAX);
  void* p[3] = {};
  for (auto& q : p) HIP_CHECK(hipMallocFromPoolAsync(&q, kMiB, pool.get(), s.get()));
  for (auto& q : p) HIP_CHECK(hipFreeAsync(q, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  HIP_CHECK(hipMemPoolTrimTo(pool.get(), kMiB + kMiB / 2));
  REQUIRE(reserved(pool.get()) == kMiB);
  HIP_CHECK(hipMemPoolTrimTo(pool.get(), kMiB));
  REQUIRE(reserved(pool.get()) == kMiB);  // already at most minBytesToKeep
  HIP_CHECK(hipMemPoolTrimTo(pool.get(), 0));
  REQUIRE(reserved(pool.get()) == 0);

  // A free the stream has not reached yet is not released.
  void* busy = nullptr;
  {
    hip_test::Gate gate;
    gate.launch(s.get());
    HIP_CHECK(hipMallocFromPoolAsync(&busy, kMiB, pool.get(), s.get()));
    HIP_LAUNCH_CHECK(store_value, dim3(1), dim3(1), 0, s.get(), static_cast<int*>(busy), 7);
    HIP_CHECK(hipFreeAsync(busy, s.get()));
    HIP_CHECK(hipMemPoolTrimTo(pool.get(), 0));
    REQUIRE(reserved(pool.get()) == kMiB);
    gate.open();
  }
  HIP_CHECK(hipStreamSynchronize(s.get()));
  HIP_CHECK(hipMemPoolTrimTo(pool.get(), 0));
  REQUIRE(reserved(pool.get()) == 0);
}

// The free on stream A has not run (A waits behind a gate); stream B asks for the same size.
TEST_CASE("Unit_hipMemPool_Positive_CrossStreamReuseFollowsEvents") {
  if (!hip_test::kernels_supported()) return;
  Pool pool;
  hip_test::Stream a, b;
  reuse_policy(pool.get(), 1, 0, 0);
  set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, UINT64_MAX);
  hip_test::Event freed;
  void *p = nullptr, *unordered = nullptr, *ordered = nullptr;
  {
    hip_test::Gate gate;
    gate.launch(a.get());
    HIP_CHECK(hipMallocFromPoolAsync(&p, 4096, pool.get(), a.get()));
    HIP_LAUNCH_CHECK(store_value, dim3(1), dim3(1), 0, a.get(), static_cast<int*>(p), 1);
    HIP_CHECK(hipFreeAsync(p, a.get()));
    // B is not ordered after the free: it must get other memory.
    HIP_CHECK(hipMallocFromPoolAsync(&unordered, 4096, pool.get(), b.get()));
    REQUIRE(unordered != p);  // (kept until the end: B would prefer its own freed block)
    // An event recorded after the free, waited for by B: now B may reuse the block.
    HIP_CHECK(hipEventRecord(freed.get(), a.get()));
    HIP_CHECK(hipStreamWaitEvent(b.get(), freed.get(), 0));
    HIP_CHECK(hipMallocFromPoolAsync(&ordered, 4096, pool.get(), b.get()));
    REQUIRE(ordered == p);
    HIP_LAUNCH_CHECK(store_value, dim3(1), dim3(1), 0, b.get(), static_cast<int*>(ordered), 2);
    REQUIRE(hipStreamQuery(b.get()) == hipErrorNotReady);  // still behind A's gate
    gate.open();
  }
  int value = 0;
  HIP_CHECK(hipMemcpyAsync(&value, ordered, sizeof value, hipMemcpyDeviceToHost, b.get()));
  HIP_CHECK(hipFreeAsync(ordered, b.get()));
  HIP_CHECK(hipFreeAsync(unordered, b.get()));
  HIP_CHECK(hipStreamSynchronize(b.get()));
  REQUIRE(value == 2);  // B's write came after A's
  HIP_CHECK(hipStreamSynchronize(a.get()));
}

TEST_CASE("Unit_hipMemPool_Positive_EventOrderPassesThroughStreams") {
  if (!hip_test::kernels_supported()) return;
  Pool pool;
  hip_test::Stream a, b, c;
  reuse_policy(pool.get(), 1, 0, 0);
  set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, UINT64_MAX);
  hip_test::Event on_a, on_b;
  void *p = nullptr, *q = nullptr;
  {
    hip_test::Gate gate;
    gate.launch(a.get());
    HIP_CHECK(hipMallocFromPoolAsync(&p, 4096, pool.get(), a.get()));
    HIP_CHECK(hipFreeAsync(p, a.get()));
    HIP_CHECK(hipEventRecord(on_a.get(), a.get()));
    HIP_CHECK(hipStreamWaitEvent(b.get(), on_a.get(), 0));
    HIP_CHECK(hipEventRecord(on_b.get(), b.get()));
    HIP_CHECK(hipStreamWaitEvent(c.get(), on_b.get(), 0));  // C after B after A's free
    HIP_CHECK(hipMallocFromPoolAsync(&q, 4096, pool.get(), c.get()));
    REQUIRE(q == p);
    HIP_CHECK(hipFreeAsync(q, c.get()));
    gate.open();
  }
  HIP_CHECK(hipDeviceSynchronize());
}

TEST_CASE("Unit_hipMemPool_Positive_InternalDependencyOrdersReuse") {
  if (!hip_test::kernels_supported()) return;
  Pool pool;
  hip_test::Stream a, b;
  reuse_policy(pool.get(), 0, 0, 1);
  set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, UINT64_MAX);
  void *p = nullptr, *q = nullptr;
  {
    hip_test::Gate gate;
    gate.launch(a.get());
    HIP_CHECK(hipMallocFromPoolAsync(&p, 4096, pool.get(), a.get()));
    HIP_LAUNCH_CHECK(store_value, dim3(1), dim3(1), 0, a.get(), static_cast<int*>(p), 1);
    HIP_CHECK(hipFreeAsync(p, a.get()));
    // The pool may hand A's block to B by making B wait for A's free.
    HIP_CHECK(hipMallocFromPoolAsync(&q, 4096, pool.get(), b.get()));
    REQUIRE(q == p);
    HIP_LAUNCH_CHECK(store_value, dim3(1), dim3(1), 0, b.get(), static_cast<int*>(q), 2);
    REQUIRE(hipStreamQuery(b.get()) == hipErrorNotReady);
    gate.open();
  }
  int value = 0;
  HIP_CHECK(hipMemcpyAsync(&value, q, sizeof value, hipMemcpyDeviceToHost, b.get()));
  HIP_CHECK(hipStreamSynchronize(b.get()));
  REQUIRE(value == 2);
  HIP_CHECK(hipFreeAsync(q, b.get()));
  HIP_CHECK(hipDeviceSynchronize());
}

TEST_CASE("Unit_hipMemPool_Positive_OpportunisticReuseAfterCompletion") {
  if (!hip_test::kernels_supported()) return;
  Pool pool;
  hip_test::Stream a, b;
  reuse_policy(pool.get(), 0, 1, 0);
  set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, UINT64_MAX);
  void *p = nullptr, *early = nullptr, *late = nullptr;
  {
    hip_test::Gate gate;
    gate.launch(a.get());
    HIP_CHECK(hipMallocFromPoolAsync(&p, 4096, pool.get(), a.get()));
    HIP_CHECK(hipFreeAsync(p, a.get()));
    HIP_CHECK(hipMallocFromPoolAsync(&early, 4096, pool.get(), b.get()));
    REQUIRE(early != p);  // A's free has not happened yet
    gate.open();
  }
  HIP_CHECK(hipStreamSynchronize(a.get()));
  HIP_CHECK(hipMallocFromPoolAsync(&late, 4096, pool.get(), b.get()));
  REQUIRE(late == p);  // completed: any stream may take it
  HIP_CHECK(hipFreeAsync(early, b.get()));
  HIP_CHECK(hipFreeAsync(late, b.get()));
  HIP_CHECK(hipStreamSynchronize(b.get()));
}

TEST_CASE("Unit_hipMemPool_Positive_NoReusePolicyMeansFreshMemory") {
  if (!hip_test::kernels_supported()) return;
  Pool pool;
  hip_test::Stream a, b;
  reuse_policy(pool.get(), 0, 0, 0);
  set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, UINT64_MAX);
  void *p = nullptr, *q = nullptr;
  hip_test::Event e;
  HIP_CHECK(hipMallocFromPoolAsync(&p, 4096, pool.get(), a.get()));
  HIP_CHECK(hipFreeAsync(p, a.get()));
  HIP_CHECK(hipEventRecord(e.get(), a.get()));
  HIP_CHECK(hipStreamWaitEvent(b.get(), e.get(), 0));
  HIP_CHECK(hipStreamSynchronize(a.get()));
  // Ordered and complete, but every cross-stream policy is off.
  HIP_CHECK(hipMallocFromPoolAsync(&q, 4096, pool.get(), b.get()));
  REQUIRE(q != p);
  HIP_CHECK(hipFreeAsync(q, b.get()));
  HIP_CHECK(hipDeviceSynchronize());
}

TEST_CASE("Unit_hipMallocAsync_Positive_FreedMemoryIsUnknown") {
  Pool pool;
  hip_test::Stream s;
  set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, UINT64_MAX);
  void* p = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(&p, 4096, pool.get(), s.get()));
  hipMemPool_t owner = nullptr;
  HIP_CHECK(hipPointerGetAttribute(&owner, HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, p));
  REQUIRE(owner == pool.get());
  HIP_CHECK(hipFreeAsync(p, s.get()));
  // Cached in the pool, but no longer the program's memory.
  HIP_CHECK_ERROR(hipMemsetAsync(p, 0, 16, s.get()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipFreeAsync(p, s.get()), hipErrorInvalidValue);  // double free
  HIP_CHECK(hipStreamSynchronize(s.get()));
}

TEST_CASE("Unit_hipFree_Positive_PoolMemory") {
  Pool pool;
  hip_test::Stream s;
  set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, UINT64_MAX);
  void* p = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(&p, 4096, pool.get(), s.get()));
  HIP_CHECK(hipMemsetAsync(p, 0x5A, 4096, s.get()));
  HIP_CHECK(hipFree(p));  // waits for the device, returns the block to its pool
  REQUIRE(used(pool.get()) == 0);
  REQUIRE(reserved(pool.get()) == 4096);
  HIP_CHECK_ERROR(hipFree(p), hipErrorInvalidValue);
  HIP_CHECK(hipMemPoolTrimTo(pool.get(), 0));
  REQUIRE(reserved(pool.get()) == 0);
}

TEST_CASE("Unit_hipMemPoolDestroy_Positive_LiveBlocksOutliveTheHandle") {
  hipMemPoolProps props = device_props();
  hipMemPool_t pool = nullptr;
  HIP_CHECK(hipMemPoolCreate(&pool, &props));
  hip_test::Stream s;
  int* p = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(reinterpret_cast<void**>(&p), 64 * sizeof(int), pool, s.get()));
  HIP_CHECK(hipMemPoolDestroy(pool));
  // The allocation stays usable until it is freed.
  HIP_CHECK(hipMemsetAsync(p, 0, 64 * sizeof(int), s.get()));
  int host[64];
  HIP_CHECK(hipMemcpyAsync(host, p, sizeof host, hipMemcpyDeviceToHost, s.get()));
  HIP_CHECK(hipFreeAsync(p, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(host[63] == 0);
  HIP_CHECK_ERROR(hipMemPoolTrimTo(pool, 0), hipErrorInvalidValue);  // the handle is gone
}

TEST_CASE("Unit_hipMallocAsync_Positive_ThreadsShareTheDefaultPool") {
  constexpr int kThreads = 4, kRounds = 100, kN = 256;
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &failures] {
      if (hipSetDevice(hip_test::device()) != hipSuccess) {
        failures[t] = -1;
        return;
      }
      hipStream_t s = nullptr;
      if (hipStreamCreate(&s) != hipSuccess) {
        failures[t] = -1;
        return;
      }
      std::vector<unsigned char> host(kN);
      for (int round = 0; round < kRounds; ++round) {
        void* p = nullptr;
        unsigned char value = static_cast<unsigned char>(t * 31 + round);
        bool ok = hipMallocAsync(&p, kN + 64 * t, s) == hipSuccess &&
                  hipMemsetAsync(p, value, kN, s) == hipSuccess &&
                  hipMemcpyAsync(host.data(), p, kN, hipMemcpyDeviceToHost, s) == hipSuccess &&
                  hipFreeAsync(p, s) == hipSuccess && hipStreamSynchronize(s) == hipSuccess;
        if (!ok || host[0] != value || host[kN - 1] != value) ++failures[t];
      }
      (void)hipStreamDestroy(s);
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) CHECK(failures[t] == 0);
}

// The legacy null stream orders blocking streams (not non-blocking ones) after its work, so a
// block it freed may serve a blocking stream at once under hipMemPoolReuseFollowEventDependencies.
TEST_CASE("Unit_hipMemPool_Positive_LegacyNullStreamOrdersReuse") {
  if (!hip_test::kernels_supported()) return;
  Pool pool;
  hip_test::Stream blocking, nonblocking(hipStreamNonBlocking);
  reuse_policy(pool.get(), 1, 0, 0);
  set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, UINT64_MAX);
  void *p = nullptr, *other = nullptr, *q = nullptr;
  {
    hip_test::Gate gate;
    gate.launch(nullptr);
    HIP_CHECK(hipMallocFromPoolAsync(&p, 4096, pool.get(), nullptr));
    HIP_LAUNCH_CHECK(store_value, dim3(1), dim3(1), 0, nullptr, static_cast<int*>(p), 1);
    HIP_CHECK(hipFreeAsync(p, nullptr));
    HIP_CHECK(hipMallocFromPoolAsync(&other, 4096, pool.get(), nonblocking.get()));
    REQUIRE(other != p);  // a non-blocking stream is not ordered after the null stream
    HIP_CHECK(hipMallocFromPoolAsync(&q, 4096, pool.get(), blocking.get()));
    REQUIRE(q == p);
    HIP_LAUNCH_CHECK(store_value, dim3(1), dim3(1), 0, blocking.get(), static_cast<int*>(q), 2);
    REQUIRE(hipStreamQuery(blocking.get()) == hipErrorNotReady);
    gate.open();
  }
  int value = 0;
  HIP_CHECK(hipMemcpyAsync(&value, q, sizeof value, hipMemcpyDeviceToHost, blocking.get()));
  HIP_CHECK(hipFreeAsync(q, blocking.get()));
  HIP_CHECK(hipFreeAsync(other, nonblocking.get()));
  HIP_CHECK(hipStreamSynchronize(blocking.get()));
  HIP_CHECK(hipStreamSynchronize(nonblocking.get()));
  REQUIRE(value == 2);
}
