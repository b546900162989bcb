// SPDX-License-Identifier: MIT
// Conformance: stream capture. hipStreamBeginCapture / BeginCaptureToGraph /
// EndCapture / IsCapturing / GetCaptureInfo(_v2) / UpdateCaptureDependencies /
// hipThreadExchangeStreamCaptureMode, fork and join through events, and the
// calls that a capture forbids.
#include "graph_test.hpp"

using namespace graph_test;

namespace {

constexpr int kN = 256;

void host_add(void* p) { ++*static_cast<int*>(p); }

// Captures: memset(d, 0); add_one x2; copy to host.
void capture_simple(hipStream_t s, int* d, int* h) {
  HIP_CHECK(hipMemsetAsync(d, 0, kN * sizeof(int), s));
  HIP_LAUNCH_CHECK(add_one, dim3(kN / 64), dim3(64), 0, s, d, kN);
  HIP_LAUNCH_CHECK(add_one, dim3(kN / 64), dim3(64), 0, s, d, kN);
  HIP_CHECK(hipMemcpyAsync(h, d, kN * sizeof(int), hipMemcpyDeviceToHost, s));
}

}  // namespace

TEST_CASE("Unit_hipStreamBeginCapture_Positive_Basic") {
  if (!hip_test::kernels_supported()) return;
  const auto mode = GENERATE(hipStreamCaptureModeGlobal, hipStreamCaptureModeThreadLocal,
                             hipStreamCaptureModeRelaxed);
  const bool per_thread = GENERATE(false, true);
  hip_test::Stream created;
  hipStream_t s = per_thread ? hipStreamPerThread : created.get();
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> h(kN, -1);

  HIP_CHECK(hipStreamBeginCapture(s, mode));
  capture_simple(s, d.get(), h.data());
  Graph graph(nullptr);
  HIP_CHECK(hipStreamEndCapture(s, graph.out()));
  REQUIRE(graph.get() != nullptr);
  REQUIRE(node_count(graph.get()) == 4);
  REQUIRE(edge_count(graph.get()) == 3);
  // Nothing ran during capture.
  REQUIRE(h[0] == -1);

  Exec exec(graph.get());
  for (int replay = 0; replay < 3; ++replay) {
    std::fill(h.begin(), h.end(), -1);
    HIP_CHECK(hipGraphLaunch(exec.get(), s));
    HIP_CHECK(hipStreamSynchronize(s));
    REQUIRE(std::all_of(h.begin(), h.end(), [](int v) { return v == 2; }));
  }
}

TEST_CASE("Unit_hipStreamBeginCapture_Negative_Parameters") {
  hip_test::Stream s;
  SECTION("legacy stream") {
    HIP_CHECK_ERROR(hipStreamBeginCapture(nullptr, hipStreamCaptureModeGlobal),
                    hipErrorStreamCaptureUnsupported);
    HIP_CHECK_ERROR(hipStreamBeginCapture(hipStreamLegacy, hipStreamCaptureModeGlobal),
                    hipErrorStreamCaptureUnsupported);
  }
  SECTION("already capturing") {
    HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
    HIP_CHECK_ERROR(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal),
                    hipErrorIllegalState);
    Graph g(nullptr);
    HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
  }
  SECTION("invalid mode") {
    HIP_CHECK_ERROR(hipStreamBeginCapture(s.get(), hipStreamCaptureMode(3)), hipErrorInvalidValue);
  }
  SECTION("destroyed stream") {
    hipStream_t dead = nullptr;
    HIP_CHECK(hipStreamCreate(&dead));
    HIP_CHECK(hipStreamDestroy(dead));
    HIP_CHECK_ERROR(hipStreamBeginCapture(dead, hipStreamCaptureModeGlobal), hipErrorInvalidHandle);
  }
}

TEST_CASE("Unit_hipStreamEndCapture_Negative_Parameters") {
  hip_test::Stream s;
  Graph g(nullptr);
  SECTION("not capturing") {
    HIP_CHECK_ERROR(hipStreamEndCapture(s.get(), g.out()), hipErrorIllegalState);
  }
  SECTION("null graph pointer") {
    HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
    HIP_CHECK_ERROR(hipStreamEndCapture(s.get(), nullptr), hipErrorInvalidValue);
    HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
  }
  SECTION("another thread ends a global capture") {
    HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
    hipError_t rc = hipSuccess;
    hipGraph_t other = nullptr;
    std::thread([&] {
      (void)hipSetDevice(hip_test::device());
      rc = hipStreamEndCapture(s.get(), &other);
    }).join();
    REQUIRE(rc == hipErrorStreamCaptureWrongThread);
    HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
  }
  SECTION("another thread ends a relaxed capture") {
    HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeRelaxed));
    hipError_t rc = hipErrorUnknown;
    std::thread([&] {
      (void)hipSetDevice(hip_test::device());
      rc = hipStreamEndCapture(s.get(), g.out());
    }).join();
    REQUIRE(rc == hipSuccess);
    REQUIRE(g.get() != nullptr);
  }
  SECTION("ending on a joined stream") {
    hip_test::Stream other;
    hip_test::Event e;
    HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
    HIP_CHECK(hipEventRecord(e.get(), s.get()));
    HIP_CHECK(hipStreamWaitEvent(other.get(), e.get(), 0));
    HIP_CHECK_ERROR(hipStreamEndCapture(other.get(), g.out()), hipErrorStreamCaptureUnmatched);
    HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
  }
}

TEST_CASE("Unit_hipStreamBeginCapture_Positive_ForkJoin") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s0, s1, s2;
  hip_test::Event fork, join1, join2;
  hip_test::DeviceBuffer<int> counter(1);
  int host = 0;
  HIP_CHECK(hipMemset(counter.get(), 0, sizeof(int)));
  // Work queued before the fork runs at once and is not part of the graph.
  HIP_LAUNCH_CHECK(increment, dim3(1), dim3(1), 0, s1.get(), counter.get());

  HIP_CHECK(hipStreamBeginCapture(s0.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipEventRecord(fork.get(), s0.get()));
  HIP_CHECK(hipStreamWaitEvent(s1.get(), fork.get(), 0));
  HIP_CHECK(hipStreamWaitEvent(s2.get(), fork.get(), 0));
  hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
  HIP_CHECK(hipStreamIsCapturing(s1.get(), &status));
  REQUIRE(status == hipStreamCaptureStatusActive);
  for (hipStream_t s : {s0.get(), s1.get(), s1.get(), s2.get(), s2.get(), s2.get()})
    HIP_LAUNCH_CHECK(increment, dim3(1), dim3(1), 0, s, counter.get());
  HIP_CHECK(hipEventRecord(join1.get(), s1.get()));
  HIP_CHECK(hipEventRecord(join2.get(), s2.get()));
  HIP_CHECK(hipStreamWaitEvent(s0.get(), join1.get(), 0));
  HIP_CHECK(hipStreamWaitEvent(s0.get(), join2.get(), 0));
  HIP_CHECK(hipMemcpyAsync(&host, counter.get(), sizeof(int), hipMemcpyDeviceToHost, s0.get()));
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture(s0.get(), g.out()));
  // The joined streams left the capture with it.
  HIP_CHECK(hipStreamIsCapturing(s1.get(), &status));
  REQUIRE(status == hipStreamCaptureStatusNone);
  REQUIRE(node_count(g.get()) == 7);
  size_t roots = 0;
  HIP_CHECK(hipGraphGetRootNodes(g.get(), nullptr, &roots));
  REQUIRE(roots == 3);

  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemset(counter.get(), 0, sizeof(int)));
  Exec exec(g.get());
  HIP_CHECK(hipGraphLaunch(exec.get(), s0.get()));
  HIP_CHECK(hipStreamSynchronize(s0.get()));
  REQUIRE(host == 6);
}

TEST_CASE("Unit_hipStreamEndCapture_Negative_Unjoined") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s0, s1;
  hip_test::Event fork;
  hip_test::DeviceBuffer<int> counter(1);
  HIP_CHECK(hipStreamBeginCapture(s0.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipEventRecord(fork.get(), s0.get()));
  HIP_CHECK(hipStreamWaitEvent(s1.get(), fork.get(), 0));
  HIP_LAUNCH_CHECK(increment, dim3(1), dim3(1), 0, s1.get(), counter.get());
  Graph g(nullptr);
  HIP_CHECK_ERROR(hipStreamEndCapture(s0.get(), g.out()), hipErrorStreamCaptureUnjoined);
  REQUIRE(g.get() == nullptr);
  // No trace: both streams work normally again.
  hipStreamCaptureStatus status;
  HIP_CHECK(hipStreamIsCapturing(s1.get(), &status));
  REQUIRE(status == hipStreamCaptureStatusNone);
  HIP_CHECK(hipStreamSynchronize(s1.get()));
}

TEST_CASE("Unit_hipStreamEndCapture_Positive_ForkWithoutWork") {
  // A stream that joined but captured nothing needs no join (HIP's behaviour).
  hip_test::Stream s0, s1;
  hip_test::Event e;
  HIP_CHECK(hipStreamBeginCapture(s0.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipEventRecord(e.get(), s0.get()));
  HIP_CHECK(hipStreamWaitEvent(s1.get(), e.get(), 0));
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture(s0.get(), g.out()));
  HIP_CHECK(hipStreamBeginCapture(s1.get(), hipStreamCaptureModeGlobal));
  Graph g2(nullptr);
  HIP_CHECK(hipStreamEndCapture(s1.get(), g2.out()));
}

TEST_CASE("Unit_hipStreamIsCapturing_Positive_Status") {
  hip_test::Stream blocking;
  hip_test::Stream nonblocking(hipStreamNonBlocking);
  hipStreamCaptureStatus status = hipStreamCaptureStatusActive;
  HIP_CHECK(hipStreamIsCapturing(blocking.get(), &status));
  REQUIRE(status == hipStreamCaptureStatusNone);
  HIP_CHECK(hipStreamIsCapturing(nullptr, &status));
  REQUIRE(status == hipStreamCaptureStatusNone);

  HIP_CHECK(hipStreamBeginCapture(nonblocking.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipStreamIsCapturing(nonblocking.get(), &status));
  REQUIRE(status == hipStreamCaptureStatusActive);
  // A non-blocking capture leaves the legacy stream alone.
  HIP_CHECK(hipStreamIsCapturing(nullptr, &status));
  REQUIRE(status == hipStreamCaptureStatusNone);
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture(nonblocking.get(), g.out()));

  HIP_CHECK(hipStreamBeginCapture(blocking.get(), hipStreamCaptureModeGlobal));
  // The legacy stream would implicitly wait for the capturing blocking stream.
  HIP_CHECK_ERROR(hipStreamIsCapturing(nullptr, &status), hipErrorStreamCaptureImplicit);
  // ... which is only a query: the capture goes on.
  HIP_CHECK(hipStreamIsCapturing(blocking.get(), &status));
  REQUIRE(status == hipStreamCaptureStatusActive);
  HIP_CHECK_ERROR(hipStreamSynchronize(blocking.get()), hipErrorStreamCaptureUnsupported);
  HIP_CHECK(hipStreamIsCapturing(blocking.get(), &status));
  REQUIRE(status == hipStreamCaptureStatusInvalidated);
  Graph g2(nullptr);
  HIP_CHECK_ERROR(hipStreamEndCapture(blocking.get(), g2.out()), hipErrorStreamCaptureInvalidated);
  REQUIRE(g2.get() == nullptr);
}

TEST_CASE("Unit_hipStreamIsCapturing_Negative_Parameters") {
  hip_test::Stream s;
  HIP_CHECK_ERROR(hipStreamIsCapturing(s.get(), nullptr), hipErrorInvalidValue);
  hipStream_t dead = nullptr;
  HIP_CHECK(hipStreamCreate(&dead));
  HIP_CHECK(hipStreamDestroy(dead));
  hipStreamCaptureStatus status;
  HIP_CHECK_ERROR(hipStreamIsCapturing(dead, &status), hipErrorInvalidHandle);
}

TEST_CASE("Unit_hipStreamGetCaptureInfo_Positive_Basic") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> d(kN);
  hipStreamCaptureStatus status = hipStreamCaptureStatusActive;
  unsigned long long id = 0, id2 = 0;
  HIP_CHECK(hipStreamGetCaptureInfo(s.get(), &status, &id));
  REQUIRE(status == hipStreamCaptureStatusNone);

  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipStreamGetCaptureInfo(s.get(), &status, &id));
  REQUIRE(status == hipStreamCaptureStatusActive);
  HIP_LAUNCH_CHECK(add_one, dim3(4), dim3(64), 0, s.get(), d.get(), kN);
  hipGraph_t captured = nullptr;
  const hipGraphNode_t* deps = nullptr;
  size_t count = 99;
  HIP_CHECK(hipStreamGetCaptureInfo_v2(s.get(), &status, &id2, &captured, &deps, &count));
  REQUIRE(id2 == id);
  REQUIRE(captured != nullptr);
  REQUIRE(count == 1);
  hipGraphNodeType type;
  HIP_CHECK(hipGraphNodeGetType(deps[0], &type));
  REQUIRE(type == hipGraphNodeTypeKernel);
  REQUIRE(node_count(captured) == 1);
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
  REQUIRE(g.get() == captured);

  // A new capture gets a new id.
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipStreamGetCaptureInfo(s.get(), &status, &id2));
  REQUIRE(id2 != id);
  Graph g2(nullptr);
  HIP_CHECK(hipStreamEndCapture(s.get(), g2.out()));
}

TEST_CASE("Unit_hipStreamGetCaptureInfo_Negative_Parameters") {
  hip_test::Stream blocking;
  hipStreamCaptureStatus status;
  HIP_CHECK_ERROR(hipStreamGetCaptureInfo(blocking.get(), nullptr, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipStreamGetCaptureInfo_v2(blocking.get(), nullptr, nullptr, nullptr, nullptr, nullptr),
      hipErrorInvalidValue);
  HIP_CHECK(hipStreamBeginCapture(blocking.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK_ERROR(hipStreamGetCaptureInfo(nullptr, &status, nullptr),
                  hipErrorStreamCaptureImplicit);
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture(blocking.get(), g.out()));
}

TEST_CASE("Unit_hipStreamUpdateCaptureDependencies_Positive_Basic") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> d(kN);
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_LAUNCH_CHECK(add_one, dim3(4), dim3(64), 0, s.get(), d.get(), kN);
  HIP_LAUNCH_CHECK(add_one, dim3(4), dim3(64), 0, s.get(), d.get(), kN);
  hipStreamCaptureStatus status;
  hipGraph_t captured = nullptr;
  const hipGraphNode_t* deps = nullptr;
  size_t count = 0;
  HIP_CHECK(hipStreamGetCaptureInfo_v2(s.get(), &status, nullptr, &captured, &deps, &count));
  REQUIRE(count == 1);
  hipGraphNode_t second = deps[0];
  hipGraphNode_t empty = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&empty, captured, nullptr, 0));
  // Add: the next node depends on both.
  HIP_CHECK(
      hipStreamUpdateCaptureDependencies(s.get(), &empty, 1, hipStreamAddCaptureDependencies));
  HIP_CHECK(hipStreamGetCaptureInfo_v2(s.get(), &status, nullptr, nullptr, &deps, &count));
  REQUIRE(count == 2);
  // Set: only the empty node.
  HIP_CHECK(
      hipStreamUpdateCaptureDependencies(s.get(), &empty, 1, hipStreamSetCaptureDependencies));
  HIP_CHECK(hipStreamGetCaptureInfo_v2(s.get(), &status, nullptr, nullptr, &deps, &count));
  REQUIRE(count == 1);
  REQUIRE(deps[0] == empty);
  HIP_LAUNCH_CHECK(add_one, dim3(4), dim3(64), 0, s.get(), d.get(), kN);
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
  REQUIRE(node_count(g.get()) == 4);
  size_t n = 0;
  HIP_CHECK(hipGraphNodeGetDependentNodes(second, nullptr, &n));
  REQUIRE(n == 0);  // the third kernel follows the empty node only
}

TEST_CASE("Unit_hipStreamUpdateCaptureDependencies_Negative_Parameters") {
  hip_test::Stream s;
  Graph other;
  hipGraphNode_t foreign = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&foreign, other.get(), nullptr, 0));
  SECTION("not capturing") {
    HIP_CHECK_ERROR(hipStreamUpdateCaptureDependencies(s.get(), &foreign, 1, 0),
                    hipErrorIllegalState);
  }
  SECTION("bad arguments") {
    HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
    HIP_CHECK_ERROR(hipStreamUpdateCaptureDependencies(s.get(), &foreign, 1, 0),
                    hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamUpdateCaptureDependencies(s.get(), nullptr, 1, 0),
                    hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamUpdateCaptureDependencies(s.get(), nullptr, 0, 7),
                    hipErrorInvalidValue);
    Graph g(nullptr);
    HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
  }
}

TEST_CASE("Unit_hipThreadExchangeStreamCaptureMode_Positive_Swap") {
  hipStreamCaptureMode mode = hipStreamCaptureModeRelaxed;
  HIP_CHECK(hipThreadExchangeStreamCaptureMode(&mode));
  REQUIRE(mode == hipStreamCaptureModeGlobal);
  mode = hipStreamCaptureModeThreadLocal;
  HIP_CHECK(hipThreadExchangeStreamCaptureMode(&mode));
  REQUIRE(mode == hipStreamCaptureModeRelaxed);
  mode = hipStreamCaptureModeGlobal;
  HIP_CHECK(hipThreadExchangeStreamCaptureMode(&mode));  // back to the default
  REQUIRE(mode == hipStreamCaptureModeThreadLocal);
  // Other threads start in global mode.
  hipStreamCaptureMode seen = hipStreamCaptureModeRelaxed;
  std::thread([&] {
    hipStreamCaptureMode m = hipStreamCaptureModeRelaxed;
    (void)hipThreadExchangeStreamCaptureMode(&m);
    seen = m;
  }).join();
  REQUIRE(seen == hipStreamCaptureModeGlobal);
}

TEST_CASE("Unit_hipThreadExchangeStreamCaptureMode_Negative_Parameters") {
  HIP_CHECK_ERROR(hipThreadExchangeStreamCaptureMode(nullptr), hipErrorInvalidValue);
  hipStreamCaptureMode bad = hipStreamCaptureMode(9);
  HIP_CHECK_ERROR(hipThreadExchangeStreamCaptureMode(&bad), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipStreamBeginCaptureToGraph_Positive_Basic") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> h(kN, 0);
  Graph g;
  hipGraphNode_t first = nullptr;
  hipMemsetParams ms{};
  ms.dst = d.get();
  ms.elementSize = 4;
  ms.width = kN;
  ms.height = 1;
  ms.value = 40;
  HIP_CHECK(hipGraphAddMemsetNode(&first, g.get(), nullptr, 0, &ms));
  HIP_CHECK(hipStreamBeginCaptureToGraph(s.get(), g.get(), &first, nullptr, 1,
                                         hipStreamCaptureModeGlobal));
  HIP_LAUNCH_CHECK(add_one, dim3(4), dim3(64), 0, s.get(), d.get(), kN);
  HIP_LAUNCH_CHECK(add_one, dim3(4), dim3(64), 0, s.get(), d.get(), kN);
  HIP_CHECK(hipMemcpyAsync(h.data(), d.get(), kN * sizeof(int), hipMemcpyDeviceToHost, s.get()));
  hipGraph_t out = nullptr;
  HIP_CHECK(hipStreamEndCapture(s.get(), &out));
  REQUIRE(out == g.get());
  REQUIRE(node_count(g.get()) == 4);
  Exec exec(g.get());
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(h[0] == 42);
  REQUIRE(h[kN - 1] == 42);
}

TEST_CASE("Unit_hipStreamBeginCaptureToGraph_Negative_Parameters") {
  hip_test::Stream s;
  Graph g, other;
  hipGraphNode_t foreign = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&foreign, other.get(), nullptr, 0));
  HIP_CHECK_ERROR(hipStreamBeginCaptureToGraph(s.get(), nullptr, nullptr, nullptr, 0,
                                               hipStreamCaptureModeGlobal),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipStreamBeginCaptureToGraph(s.get(), g.get(), &foreign, nullptr, 1,
                                               hipStreamCaptureModeGlobal),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipStreamBeginCaptureToGraph(s.get(), g.get(), nullptr, nullptr, 1,
                                               hipStreamCaptureModeGlobal),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipStreamBeginCaptureToGraph(nullptr, g.get(), nullptr, nullptr, 0,
                                               hipStreamCaptureModeGlobal),
                  hipErrorStreamCaptureUnsupported);
}

TEST_CASE("Unit_hipStreamBeginCapture_Negative_SyncDuringCapture") {
  const auto mode = GENERATE(hipStreamCaptureModeGlobal, hipStreamCaptureModeThreadLocal,
                             hipStreamCaptureModeRelaxed);
  const unsigned flags = GENERATE(hipStreamDefault, hipStreamNonBlocking);
  hip_test::Stream s(flags);
  hip_test::Event e;
  hip_test::DeviceBuffer<int> d(4);
  HIP_CHECK(hipStreamBeginCapture(s.get(), mode));
  SECTION("hipStreamSynchronize") {
    HIP_CHECK_ERROR(hipStreamSynchronize(s.get()), hipErrorStreamCaptureUnsupported);
  }
  SECTION("hipStreamQuery") {
    HIP_CHECK_ERROR(hipStreamQuery(s.get()), hipErrorStreamCaptureUnsupported);
  }
  SECTION("hipDeviceSynchronize") {
    HIP_CHECK_ERROR(hipDeviceSynchronize(), hipErrorStreamCaptureUnsupported);
  }
  SECTION("hipEventSynchronize on a captured event") {
    HIP_CHECK(hipEventRecord(e.get(), s.get()));
    HIP_CHECK_ERROR(hipEventSynchronize(e.get()), hipErrorCapturedEvent);
  }
  SECTION("hipEventQuery on a captured event") {
    HIP_CHECK(hipEventRecord(e.get(), s.get()));
    HIP_CHECK_ERROR(hipEventQuery(e.get()), hipErrorCapturedEvent);
  }
  SECTION("hipStreamAddCallback") {
    auto cb = [](hipStream_t, hipError_t, void*) {};
    HIP_CHECK_ERROR(hipStreamAddCallback(s.get(), cb, nullptr, 0),
                    hipErrorStreamCaptureUnsupported);
  }
  // Later work on the invalidated capture is refused, then the capture ends with the error.
  HIP_CHECK_ERROR(hipMemsetAsync(d.get(), 0, 16, s.get()), hipErrorStreamCaptureInvalidated);
  Graph g(nullptr);
  HIP_CHECK_ERROR(hipStreamEndCapture(s.get(), g.out()), hipErrorStreamCaptureInvalidated);
  REQUIRE(g.get() == nullptr);
  // No trace: the stream, the event and the device work normally again.
  HIP_CHECK(hipStreamSynchronize(s.get()));
  HIP_CHECK(hipEventRecord(e.get(), s.get()));
  HIP_CHECK(hipEventSynchronize(e.get()));
  HIP_CHECK(hipDeviceSynchronize());
}

TEST_CASE("Unit_hipStreamBeginCapture_Negative_UnsafeCalls") {
  const auto mode = GENERATE(hipStreamCaptureModeGlobal, hipStreamCaptureModeThreadLocal);
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> d(4);
  int h[4] = {};
  void* p = nullptr;
  HIP_CHECK(hipStreamBeginCapture(s.get(), mode));
  SECTION("hipMalloc") { HIP_CHECK_ERROR(hipMalloc(&p, 64), hipErrorStreamCaptureUnsupported); }
  SECTION("hipHostMalloc") {
    HIP_CHECK_ERROR(hipHostMalloc(&p, 64, 0), hipErrorStreamCaptureUnsupported);
  }
  SECTION("hipFree") { HIP_CHECK_ERROR(hipFree(d.get()), hipErrorStreamCaptureUnsupported); }
  SECTION("hipMemcpy (legacy stream, blocking capture)") {
    HIP_CHECK_ERROR(hipMemcpy(d.get(), h, sizeof h, hipMemcpyHostToDevice),
                    hipErrorStreamCaptureImplicit);
  }
  SECTION("hipMemset (legacy stream, blocking capture)") {
    HIP_CHECK_ERROR(hipMemset(d.get(), 0, sizeof h), hipErrorStreamCaptureImplicit);
  }
  SECTION("async work on the legacy stream") {
    HIP_CHECK_ERROR(hipMemsetAsync(d.get(), 0, sizeof h, nullptr), hipErrorStreamCaptureImplicit);
  }
  Graph g(nullptr);
  HIP_CHECK_ERROR(hipStreamEndCapture(s.get(), g.out()), hipErrorStreamCaptureInvalidated);
  // Afterwards the same calls succeed.
  HIP_CHECK(hipMalloc(&p, 64));
  HIP_CHECK(hipFree(p));
  HIP_CHECK(hipMemcpy(d.get(), h, sizeof h, hipMemcpyHostToDevice));
}

TEST_CASE("Unit_hipStreamBeginCapture_Positive_RelaxedAllowsUnsafeCalls") {
  hip_test::Stream s(hipStreamNonBlocking);
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeRelaxed));
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, 64));
  HIP_CHECK(hipFree(p));
  int h = 3;
  hip_test::DeviceBuffer<int> d(1);
  // A non-blocking capture does not involve the legacy stream.
  HIP_CHECK(hipMemcpy(d.get(), &h, sizeof h, hipMemcpyHostToDevice));
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
}

TEST_CASE("Unit_hipStreamWaitEvent_Capture_Negative_Isolation") {
  hip_test::Stream s, other;
  hip_test::Event outside;
  HIP_CHECK(hipEventRecord(outside.get(), other.get()));
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK_ERROR(hipStreamWaitEvent(s.get(), outside.get(), 0), hipErrorStreamCaptureIsolation);
  Graph g(nullptr);
  HIP_CHECK_ERROR(hipStreamEndCapture(s.get(), g.out()), hipErrorStreamCaptureInvalidated);
}

TEST_CASE("Unit_hipStreamWaitEvent_Capture_Positive_External") {
  hip_test::Stream s, other;
  hip_test::Event outside;
  hip_test::Event never_recorded;
  HIP_CHECK(hipEventRecord(outside.get(), other.get()));
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipStreamWaitEvent(s.get(), never_recorded.get(), 0));  // nothing to wait for
  HIP_CHECK(hipStreamWaitEvent(s.get(), outside.get(), hipEventWaitExternal));
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
  auto nodes = nodes_of(g.get());
  REQUIRE(nodes.size() == 1);
  hipGraphNodeType type;
  HIP_CHECK(hipGraphNodeGetType(nodes[0], &type));
  REQUIRE(type == hipGraphNodeTypeWaitEvent);
  hipEvent_t e = nullptr;
  HIP_CHECK(hipGraphEventWaitNodeGetEvent(nodes[0], &e));
  REQUIRE(e == outside.get());
}

TEST_CASE("Unit_hipStreamWaitEvent_Capture_Positive_ExternalWaitReplays") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s, other;
  hip_test::Event outside;
  std::atomic<int> flag{0};
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipStreamWaitEvent(s.get(), outside.get(), hipEventWaitExternal));
  HIP_CHECK(hipLaunchHostFunc(
      s.get(), [](void* p) { static_cast<std::atomic<int>*>(p)->store(1); }, &flag));
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
  Exec exec(g.get());
  hip_test::Gate gate;
  gate.launch(other.get());
  HIP_CHECK(hipEventRecord(outside.get(), other.get()));  // completes when the gate opens
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  hip_test::sleep_ms(50);
  REQUIRE(flag.load() == 0);  // the replay waits for the event
  gate.open();
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(flag.load() == 1);
}

TEST_CASE("Unit_hipLaunchHostFunc_Capture_Positive") {
  hip_test::Stream s;
  int value = 0;
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipLaunchHostFunc(s.get(), host_add, &value));
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
  REQUIRE(value == 0);
  auto nodes = nodes_of(g.get());
  REQUIRE(nodes.size() == 1);
  hipGraphNodeType type;
  HIP_CHECK(hipGraphNodeGetType(nodes[0], &type));
  REQUIRE(type == hipGraphNodeTypeHost);
  // The reported parameters run the captured callback.
  hipHostNodeParams p{};
  HIP_CHECK(hipGraphHostNodeGetParams(nodes[0], &p));
  REQUIRE(p.fn != nullptr);
  p.fn(p.userData);
  REQUIRE(value == 1);
  Exec exec(g.get());
  for (int i = 0; i < 3; ++i) HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(value == 4);
}

TEST_CASE("Unit_hipMallocAsync_Capture_Positive_MemoryNodes") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  int h[kN] = {};
  void* p = nullptr;
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipMallocAsync(&p, kN * sizeof(int), s.get()));
  REQUIRE(p != nullptr);
  HIP_CHECK(hipMemsetAsync(p, 0, kN * sizeof(int), s.get()));
  HIP_LAUNCH_CHECK(add_one, dim3(4), dim3(64), 0, s.get(), static_cast<int*>(p), kN);
  HIP_CHECK(hipMemcpyAsync(h, p, sizeof h, hipMemcpyDeviceToHost, s.get()));
  HIP_CHECK(hipFreeAsync(p, s.get()));
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture(s.get(), g.out()));
  auto nodes = nodes_of(g.get());
  REQUIRE(nodes.size() == 5);
  hipGraphNodeType first, last;
  HIP_CHECK(hipGraphNodeGetType(nodes.front(), &first));
  HIP_CHECK(hipGraphNodeGetType(nodes.back(), &last));
  REQUIRE(first == hipGraphNodeTypeMemAlloc);
  REQUIRE(last == hipGraphNodeTypeMemFree);
  hipMemAllocNodeParams ap{};
  HIP_CHECK(hipGraphMemAllocNodeGetParams(nodes.front(), &ap));
  REQUIRE(ap.dptr == p);
  REQUIRE(ap.bytesize == kN * sizeof(int));
  Exec exec(g.get());
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(h[0] == 1);
  REQUIRE(h[kN - 1] == 1);
}

TEST_CASE("Unit_hipGraphLaunch_Capture_Positive_ChildNode") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> counter(1);
  int host = 0;
  HIP_CHECK(hipMemset(counter.get(), 0, sizeof(int)));
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_LAUNCH_CHECK(increment, dim3(1), dim3(1), 0, s.get(), counter.get());
  Graph inner(nullptr);
  HIP_CHECK(hipStreamEndCapture(s.get(), inner.out()));
  Exec inner_exec(inner.get());

  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipGraphLaunch(inner_exec.get(), s.get()));
  HIP_CHECK(hipGraphLaunch(inner_exec.get(), s.get()));
  HIP_CHECK(hipMemcpyAsync(&host, counter.get(), sizeof(int), hipMemcpyDeviceToHost, s.get()));
  Graph outer(nullptr);
  HIP_CHECK(hipStreamEndCapture(s.get(), outer.out()));
  auto nodes = nodes_of(outer.get());
  REQUIRE(nodes.size() == 3);
  hipGraphNodeType type;
  HIP_CHECK(hipGraphNodeGetType(nodes[0], &type));
  REQUIRE(type == hipGraphNodeTypeGraph);
  Exec exec(outer.get());
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(host == 2);
}

TEST_CASE("Unit_hipStreamDestroy_Capture_Positive_EndsCapture") {
  hipStream_t s = nullptr;
  HIP_CHECK(hipStreamCreate(&s));
  HIP_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  HIP_CHECK(hipStreamDestroy(s));
  // The abandoned capture left nothing behind.
  HIP_CHECK(hipDeviceSynchronize());
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, 16));
  HIP_CHECK(hipFree(p));
}
