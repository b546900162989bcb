// SPDX-License-Identifier: MIT
// Conformance, second part of exec.cpp: hipGraphExecUpdate applying and
// refusing changes (with its result info), node enable/disable on every kind,
// hipGraphAddNode for every supported kind, the instantiate forms with their
// flags, params and upload, and the driver/symbol SetParams forms.
#include "graph_test.hpp"

#include <cstring>

using namespace graph_test;

namespace {

constexpr int kN = 64;

__device__ int g_exec_symbol[kN];

hipMemsetParams memset_of(void* dst, unsigned value, size_t elements) {
  hipMemsetParams p{};
  p.dst = dst;
  p.value = value;
  p.elementSize = 4;
  p.width = elements;
  p.height = 1;
  return p;
}

void launch_and_wait(hipGraphExec_t exec) {
  HIP_CHECK(hipGraphLaunch(exec, nullptr));
  HIP_CHECK(hipStreamSynchronize(nullptr));
}

// memset(d, value) -> copy d to h -> host bump(counter)
struct Pipeline {
  hipGraphNode_t set = nullptr, copy = nullptr, host = nullptr;
  void build(hipGraph_t g, int* d, int* h, unsigned value, hipHostFn_t fn, int* counter) {
    hipMemsetParams ms = memset_of(d, value, kN);
    HIP_CHECK(hipGraphAddMemsetNode(&set, g, nullptr, 0, &ms));
    HIP_CHECK(
        hipGraphAddMemcpyNode1D(&copy, g, &set, 1, h, d, kN * sizeof(int), hipMemcpyDeviceToHost));
    hipHostNodeParams hp{fn, counter};
    HIP_CHECK(hipGraphAddHostNode(&host, g, &copy, 1, &hp));
  }
};

}  // namespace

// ---- hipGraphExecUpdate -----------------------------------------------------------------

TEST_CASE("Unit_hipGraphExecUpdate_Positive_PatchesEveryKind") {
  hip_test::DeviceBuffer<int> d(kN), d2(kN);
  std::vector<int> h(kN, 0), h2(kN, 0);
  int counter = 0;
  hip_test::Event e1, e2;
  Graph g, child;
  hipGraphNode_t inner = nullptr, sub = nullptr, rec = nullptr;
  hipHostNodeParams inner_params{bump, &counter};
  HIP_CHECK(hipGraphAddHostNode(&inner, child.get(), nullptr, 0, &inner_params));
  Pipeline p;
  p.build(g.get(), d.get(), h.data(), 1, bump, &counter);
  HIP_CHECK(hipGraphAddChildGraphNode(&sub, g.get(), &p.host, 1, child.get()));
  HIP_CHECK(hipGraphAddEventRecordNode(&rec, g.get(), &sub, 1, e1.get()));
  Exec exec(g.get());
  launch_and_wait(exec.get());
  REQUIRE(h[0] == 1);
  REQUIRE(counter == 2);

  // A clone with every node's parameters changed.
  Graph next(nullptr);
  HIP_CHECK(hipGraphClone(next.out(), g.get()));
  auto nodes = nodes_of(next.get());
  REQUIRE(nodes.size() == 5);
  hipMemsetParams ms = memset_of(d2.get(), 7, kN);
  HIP_CHECK(hipGraphMemsetNodeSetParams(nodes[0], &ms));
  HIP_CHECK(hipGraphMemcpyNodeSetParams1D(nodes[1], h2.data(), d2.get(), kN * sizeof(int),
                                          hipMemcpyDeviceToHost));
  hipHostNodeParams ten{bump_ten, &counter};
  HIP_CHECK(hipGraphHostNodeSetParams(nodes[2], &ten));
  Graph child2;
  hipGraphNode_t inner2 = nullptr;
  HIP_CHECK(hipGraphAddHostNode(&inner2, child2.get(), nullptr, 0, &ten));
  hipGraphNodeParams np{};
  np.type = hipGraphNodeTypeGraph;
  np.graph.graph = child2.get();
  HIP_CHECK(hipGraphNodeSetParams(nodes[3], &np));
  HIP_CHECK(hipGraphEventRecordNodeSetEvent(nodes[4], e2.get()));

  hipGraphNode_t error = reinterpret_cast<hipGraphNode_t>(1);
  hipGraphExecUpdateResult result = hipGraphExecUpdateError;
  HIP_CHECK(hipGraphExecUpdate(exec.get(), next.get(), &error, &result));
  REQUIRE(result == hipGraphExecUpdateSuccess);
  REQUIRE(error == nullptr);
  std::fill(h.begin(), h.end(), 0);
  counter = 0;
  launch_and_wait(exec.get());
  REQUIRE(h[0] == 0);  // the old destination is not written any more
  REQUIRE(h2[0] == 7);
  REQUIRE(h2[kN - 1] == 7);
  REQUIRE(counter == 20);
  HIP_CHECK(hipEventQuery(e2.get()));

  // The original graph is untouched: updating back restores the first plan.
  HIP_CHECK(hipGraphExecUpdate(exec.get(), g.get(), &error, &result));
  counter = 0;
  std::fill(h2.begin(), h2.end(), 0);
  launch_and_wait(exec.get());
  REQUIRE(h[0] == 1);
  REQUIRE(h2[0] == 0);
  REQUIRE(counter == 2);
}

TEST_CASE("Unit_hipGraphExecUpdate_Negative_ResultInfo") {
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> h(kN, 0);
  int counter = 0;
  Graph g;
  Pipeline p;
  p.build(g.get(), d.get(), h.data(), 3, bump, &counter);
  Exec exec(g.get());
  hipGraphNode_t error = nullptr;
  hipGraphExecUpdateResult result = hipGraphExecUpdateSuccess;

  SECTION("fewer nodes") {
    Graph other;
    Pipeline q;
    q.build(other.get(), d.get(), h.data(), 3, bump, &counter);
    HIP_CHECK(hipGraphDestroyNode(q.host));
    HIP_CHECK_ERROR(hipGraphExecUpdate(exec.get(), other.get(), &error, &result),
                    hipErrorGraphExecUpdateFailure);
    REQUIRE(result == hipGraphExecUpdateErrorTopologyChanged);
  }
  SECTION("an edge moved, same node count") {
    Graph other;
    Pipeline q;
    q.build(other.get(), d.get(), h.data(), 3, bump, &counter);
    HIP_CHECK(hipGraphRemoveDependencies(other.get(), &q.copy, &q.host, 1));
    HIP_CHECK(hipGraphAddDependencies(other.get(), &q.set, &q.host, 1));
    HIP_CHECK_ERROR(hipGraphExecUpdate(exec.get(), other.get(), &error, &result),
                    hipErrorGraphExecUpdateFailure);
    REQUIRE(result == hipGraphExecUpdateErrorTopologyChanged);
    REQUIRE(error == q.host);
  }
  SECTION("a node of another type") {
    Graph other;
    hipGraphNode_t a = nullptr, b = nullptr, c = nullptr;
    hipMemsetParams ms = memset_of(d.get(), 3, kN);
    HIP_CHECK(hipGraphAddMemsetNode(&a, other.get(), nullptr, 0, &ms));
    HIP_CHECK(hipGraphAddMemsetNode(&b, other.get(), &a, 1, &ms));
    hipHostNodeParams hp{bump, &counter};
    HIP_CHECK(hipGraphAddHostNode(&c, other.get(), &b, 1, &hp));
    HIP_CHECK_ERROR(hipGraphExecUpdate(exec.get(), other.get(), &error, &result),
                    hipErrorGraphExecUpdateFailure);
    REQUIRE(result == hipGraphExecUpdateErrorNodeTypeChanged);
    REQUIRE(error == b);
  }
  SECTION("a memcpy node changed its direction") {
    Graph other;
    Pipeline q;
    q.build(other.get(), d.get(), h.data(), 3, bump, &counter);
    std::vector<int> src(kN, 0);
    HIP_CHECK(hipGraphMemcpyNodeSetParams1D(q.copy, d.get(), src.data(), kN * sizeof(int),
                                            hipMemcpyHostToDevice));
    HIP_CHECK_ERROR(hipGraphExecUpdate(exec.get(), other.get(), &error, &result),
                    hipErrorGraphExecUpdateFailure);
    REQUIRE(result == hipGraphExecUpdateErrorParametersChanged);
    REQUIRE(error == q.copy);
  }
  // Nothing of a failed update reached the plan.
  counter = 0;
  launch_and_wait(exec.get());
  REQUIRE(h[0] == 3);
  REQUIRE(counter == 1);
}

TEST_CASE("Unit_hipGraphExecUpdate_Negative_ChildGraphShape") {
  int counter = 0;
  Graph g, child, bigger;
  hipGraphNode_t inner = nullptr, sub = nullptr, x = nullptr, y = nullptr;
  hipHostNodeParams hp{bump, &counter};
  HIP_CHECK(hipGraphAddHostNode(&inner, child.get(), nullptr, 0, &hp));
  HIP_CHECK(hipGraphAddChildGraphNode(&sub, g.get(), nullptr, 0, child.get()));
  Exec exec(g.get());
  HIP_CHECK(hipGraphAddHostNode(&x, bigger.get(), nullptr, 0, &hp));
  HIP_CHECK(hipGraphAddHostNode(&y, bigger.get(), &x, 1, &hp));
  Graph other;
  hipGraphNode_t sub2 = nullptr;
  HIP_CHECK(hipGraphAddChildGraphNode(&sub2, other.get(), nullptr, 0, bigger.get()));
  hipGraphNode_t error = nullptr;
  hipGraphExecUpdateResult result = hipGraphExecUpdateSuccess;
  HIP_CHECK_ERROR(hipGraphExecUpdate(exec.get(), other.get(), &error, &result),
                  hipErrorGraphExecUpdateFailure);
  REQUIRE(result == hipGraphExecUpdateErrorTopologyChanged);
  REQUIRE(error == sub2);
  launch_and_wait(exec.get());
  REQUIRE(counter == 1);
}

TEST_CASE("Unit_hipGraphExecUpdate_Positive_KernelDimensionsAndArguments") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> a(kN), b(kN);
  HIP_CHECK(hipMemset(a.get(), 0, a.bytes()));
  HIP_CHECK(hipMemset(b.get(), 0, b.bytes()));
  auto capture = [&](int* p, unsigned block) {
    HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
    HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(block), 0, s.get(), p, kN);
    hipGraph_t out = nullptr;
    HIP_CHECK(hipStreamEndCapture(s.get(), &out));
    return out;
  };
  Graph first(capture(a.get(), 16));  // touches a[0..15]
  Exec exec(first.get());
  Graph second(capture(b.get(), kN));  // every element of b
  hipGraphNode_t error = nullptr;
  hipGraphExecUpdateResult result = hipGraphExecUpdateError;
  HIP_CHECK(hipGraphExecUpdate(exec.get(), second.get(), &error, &result));
  REQUIRE(result == hipGraphExecUpdateSuccess);
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  std::vector<int> ha(kN), hb(kN);
  HIP_CHECK(hipMemcpy(ha.data(), a.get(), a.bytes(), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(hb.data(), b.get(), b.bytes(), hipMemcpyDeviceToHost));
  REQUIRE(ha[0] == 0);
  REQUIRE(hb[0] == 1);
  REQUIRE(hb[kN - 1] == 1);  // the new block size reached the plan
}

// ---- node enable / disable ----------------------------------------------------------------

TEST_CASE("Unit_hipGraphNodeSetEnabled_Positive_MemsetAndMemcpy") {
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> h(kN, -1);
  int counter = 0;
  Graph g;
  Pipeline p;
  p.build(g.get(), d.get(), h.data(), 5, bump, &counter);
  Exec exec(g.get());
  HIP_CHECK(hipMemset(d.get(), 0, d.bytes()));
  HIP_CHECK(hipGraphNodeSetEnabled(exec.get(), p.set, 0));
  launch_and_wait(exec.get());
  REQUIRE(h[0] == 0);  // memset skipped, copy ran
  REQUIRE(counter == 1);
  HIP_CHECK(hipGraphNodeSetEnabled(exec.get(), p.copy, 0));
  std::fill(h.begin(), h.end(), -1);
  launch_and_wait(exec.get());
  REQUIRE(h[0] == -1);  // copy skipped too; the host node after it still ran
  REQUIRE(counter == 2);
  // SetParams on a disabled node keeps it disabled.
  hipMemsetParams ms = memset_of(d.get(), 9, kN);
  HIP_CHECK(hipGraphExecMemsetNodeSetParams(exec.get(), p.set, &ms));
  unsigned enabled = 1;
  HIP_CHECK(hipGraphNodeGetEnabled(exec.get(), p.set, &enabled));
  REQUIRE(enabled == 0);
  HIP_CHECK(hipGraphNodeSetEnabled(exec.get(), p.set, 1));
  HIP_CHECK(hipGraphNodeSetEnabled(exec.get(), p.copy, 2));  // any non-zero value enables
  HIP_CHECK(hipGraphNodeGetEnabled(exec.get(), p.copy, &enabled));
  REQUIRE(enabled == 1);
  launch_and_wait(exec.get());
  REQUIRE(h[0] == 9);
  REQUIRE(counter == 3);
}

TEST_CASE("Unit_hipGraphNodeSetEnabled_Negative_Kinds") {
  int counter = 0;
  hip_test::Event e;
  Graph g, child;
  hipGraphNode_t host = nullptr, empty = nullptr, sub = nullptr, rec = nullptr, inner = nullptr;
  hipHostNodeParams hp{bump, &counter};
  HIP_CHECK(hipGraphAddHostNode(&inner, child.get(), nullptr, 0, &hp));
  HIP_CHECK(hipGraphAddHostNode(&host, g.get(), nullptr, 0, &hp));
  HIP_CHECK(hipGraphAddEmptyNode(&empty, g.get(), &host, 1));
  HIP_CHECK(hipGraphAddChildGraphNode(&sub, g.get(), &empty, 1, child.get()));
  HIP_CHECK(hipGraphAddEventRecordNode(&rec, g.get(), &sub, 1, e.get()));
  Exec exec(g.get());
  unsigned enabled = 0;
  for (hipGraphNode_t n : {host, empty, sub, rec}) {
    HIP_CHECK_ERROR(hipGraphNodeSetEnabled(exec.get(), n, 0), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipGraphNodeGetEnabled(exec.get(), n, &enabled), hipErrorInvalidValue);
  }
  // A node inside a child graph is not a node of the plan.
  HIP_CHECK_ERROR(hipGraphNodeSetEnabled(exec.get(), inner, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphNodeSetEnabled(exec.get(), nullptr, 0), hipErrorInvalidValue);
  launch_and_wait(exec.get());
  REQUIRE(counter == 2);  // nothing was disabled
}

// ---- hipGraphAddNode --------------------------------------------------------------------

TEST_CASE("Unit_hipGraphAddNode_Positive_EventChildAndMemoryKinds") {
  int counter = 0;
  hip_test::Event done;
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> h(kN, 0);
  Graph g, child;
  hipGraphNode_t inner = nullptr;
  hipHostNodeParams hp{bump, &counter};
  HIP_CHECK(hipGraphAddHostNode(&inner, child.get(), nullptr, 0, &hp));
  hipGraphNodeParams p{};
  hipGraphNode_t alloc = nullptr, set = nullptr, copy = nullptr, sub = nullptr, rec = nullptr,
                 wait = nullptr, free_node = nullptr;
  p.type = hipGraphNodeTypeMemAlloc;
  p.alloc.poolProps.allocType = hipMemAllocationTypePinned;
  p.alloc.poolProps.location.type = hipMemLocationTypeDevice;
  p.alloc.poolProps.location.id = hip_test::device();
  p.alloc.bytesize = kN * sizeof(int);
  HIP_CHECK(hipGraphAddNode(&alloc, g.get(), nullptr, 0, &p));
  void* mem = p.alloc.dptr;
  REQUIRE(mem != nullptr);
  p = hipGraphNodeParams{};
  p.type = hipGraphNodeTypeMemset;
  p.memset = memset_of(mem, 42, kN);
  HIP_CHECK(hipGraphAddNode(&set, g.get(), &alloc, 1, &p));
  p = hipGraphNodeParams{};
  p.type = hipGraphNodeTypeMemcpy;
  p.memcpy.copyParams.srcPtr = make_hipPitchedPtr(mem, kN * sizeof(int), kN * sizeof(int), 1);
  p.memcpy.copyParams.dstPtr = make_hipPitchedPtr(h.data(), kN * sizeof(int), kN * sizeof(int), 1);
  p.memcpy.copyParams.extent = make_hipExtent(kN * sizeof(int), 1, 1);
  p.memcpy.copyParams.kind = hipMemcpyDeviceToHost;
  HIP_CHECK(hipGraphAddNode(&copy, g.get(), &set, 1, &p));
  p = hipGraphNodeParams{};
  p.type = hipGraphNodeTypeGraph;
  p.graph.graph = child.get();
  HIP_CHECK(hipGraphAddNode(&sub, g.get(), &copy, 1, &p));
  p = hipGraphNodeParams{};
  p.type = hipGraphNodeTypeEventRecord;
  p.eventRecord.event = done.get();
  HIP_CHECK(hipGraphAddNode(&rec, g.get(), &sub, 1, &p));
  p = hipGraphNodeParams{};
  p.type = hipGraphNodeTypeWaitEvent;
  p.eventWait.event = done.get();
  HIP_CHECK(hipGraphAddNode(&wait, g.get(), &rec, 1, &p));
  p = hipGraphNodeParams{};
  p.type = hipGraphNodeTypeMemFree;
  p.free.dptr = mem;
  HIP_CHECK(hipGraphAddNode(&free_node, g.get(), &wait, 1, &p));

  const std::pair<hipGraphNode_t, hipGraphNodeType> expected[] = {
      {alloc, hipGraphNodeTypeMemAlloc},   {set, hipGraphNodeTypeMemset},
      {copy, hipGraphNodeTypeMemcpy},      {sub, hipGraphNodeTypeGraph},
      {rec, hipGraphNodeTypeEventRecord},  {wait, hipGraphNodeTypeWaitEvent},
      {free_node, hipGraphNodeTypeMemFree}};
  for (auto [node, type] : expected) {
    hipGraphNodeType t{};
    HIP_CHECK(hipGraphNodeGetType(node, &t));
    REQUIRE(t == type);
  }
  hipEvent_t e = nullptr;
  HIP_CHECK(hipGraphEventRecordNodeGetEvent(rec, &e));
  REQUIRE(e == done.get());
  HIP_CHECK(hipGraphEventWaitNodeGetEvent(wait, &e));
  REQUIRE(e == done.get());
  hipGraph_t embedded = nullptr;
  HIP_CHECK(hipGraphChildGraphNodeGetGraph(sub, &embedded));
  REQUIRE(node_count(embedded) == 1);

  Exec exec(g.get());
  launch_and_wait(exec.get());
  REQUIRE(h[0] == 42);
  REQUIRE(counter == 1);
  HIP_CHECK(hipEventQuery(done.get()));
}

TEST_CASE("Unit_hipGraphAddNode_Positive_Kernel") {
  if (!hip_test::kernels_supported()) return;
  hip_test::DeviceBuffer<int> d(kN);
  HIP_CHECK(hipMemset(d.get(), 0, d.bytes()));
  HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, nullptr, d.get(), 0);  // makes add_one known
  HIP_CHECK(hipDeviceSynchronize());
  Graph g;
  int* ptr = d.get();
  int n = kN;
  void* args[] = {&ptr, &n};
  hipGraphNodeParams p{};
  p.type = hipGraphNodeTypeKernel;
  p.kernel = kernel_node(reinterpret_cast<void*>(&add_one), dim3(2), dim3(kN / 2), args);
  hipGraphNode_t k = nullptr;
  HIP_CHECK(hipGraphAddNode(&k, g.get(), nullptr, 0, &p));
  hipKernelNodeParams back{};
  HIP_CHECK(hipGraphKernelNodeGetParams(k, &back));
  REQUIRE(back.func == reinterpret_cast<void*>(&add_one));
  REQUIRE(grid_of(back).x == 2);
  REQUIRE(block_of(back).x == kN / 2);
  Exec exec(g.get());
  launch_and_wait(exec.get());
  launch_and_wait(exec.get());
  std::vector<int> h(kN);
  HIP_CHECK(hipMemcpy(h.data(), d.get(), d.bytes(), hipMemcpyDeviceToHost));
  REQUIRE(h[0] == 2);
  REQUIRE(h[kN - 1] == 2);
  // hipGraphExecNodeSetParams with the kernel form.
  int* target = d.get();
  void* fewer[] = {&target, &n};
  p.kernel = kernel_node(reinterpret_cast<void*>(&add_one), dim3(1), dim3(kN), fewer);
  HIP_CHECK(hipGraphExecNodeSetParams(exec.get(), k, &p));
  launch_and_wait(exec.get());
  HIP_CHECK(hipMemcpy(h.data(), d.get(), d.bytes(), hipMemcpyDeviceToHost));
  REQUIRE(h[kN - 1] == 3);
  // Negative: no function.
  p.kernel.func = nullptr;
  hipGraphNode_t bad = nullptr;
  HIP_CHECK_ERROR(hipGraphAddNode(&bad, g.get(), nullptr, 0, &p), hipErrorInvalidDeviceFunction);
}

TEST_CASE("Unit_hipGraphAddNode_Negative_Parameters") {
  Graph g, other;
  hipGraphNode_t stranger = nullptr, n = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&stranger, other.get(), nullptr, 0));
  hipGraphNodeParams p{};
  p.type = hipGraphNodeTypeEmpty;
  HIP_CHECK_ERROR(hipGraphAddNode(nullptr, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddNode(&n, nullptr, nullptr, 0, &p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddNode(&n, g.get(), &stranger, 1, &p),
                  hipErrorInvalidValue);  // another graph's node
  HIP_CHECK_ERROR(hipGraphAddNode(&n, g.get(), nullptr, 1, &p), hipErrorInvalidValue);
  SECTION("zero-byte allocation") {
    p.type = hipGraphNodeTypeMemAlloc;
    p.alloc.poolProps.allocType = hipMemAllocationTypePinned;
    p.alloc.poolProps.location.type = hipMemLocationTypeDevice;
    p.alloc.bytesize = 0;
    HIP_CHECK_ERROR(hipGraphAddNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("free of memory no graph allocated") {
    hip_test::DeviceBuffer<int> ordinary(4);
    p.type = hipGraphNodeTypeMemFree;
    p.free.dptr = ordinary.get();
    HIP_CHECK_ERROR(hipGraphAddNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("a graph inside itself") {
    p.type = hipGraphNodeTypeGraph;
    p.graph.graph = g.get();
    HIP_CHECK_ERROR(hipGraphAddNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("null event") {
    p.type = hipGraphNodeTypeEventRecord;
    p.eventRecord.event = nullptr;
    HIP_CHECK_ERROR(hipGraphAddNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("batch mem-op nodes") {
    p.type = hipGraphNodeTypeBatchMemOp;
    HIP_CHECK_ERROR(hipGraphAddNode(&n, g.get(), nullptr, 0, &p), hipErrorNotSupported);
  }
  SECTION("no such type") {
    p.type = hipGraphNodeTypeCount;  // (a value outside the enum's range would be UB)
    HIP_CHECK_ERROR_EITHER(hipGraphAddNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue,
                           hipErrorNotSupported);
  }
  REQUIRE(node_count(g.get()) == 0);
}

// ---- instantiate ------------------------------------------------------------------------

TEST_CASE("Unit_hipGraphInstantiate_Positive_FlagsParamsUpload") {
  int counter = 0;
  Graph g;
  hipGraphNode_t host = nullptr;
  hipHostNodeParams hp{bump, &counter};
  HIP_CHECK(hipGraphAddHostNode(&host, g.get(), nullptr, 0, &hp));
  hip_test::Stream upload, run;
  const unsigned long long flags =
      GENERATE(0ull, static_cast<unsigned long long>(hipGraphInstantiateFlagAutoFreeOnLaunch),
               static_cast<unsigned long long>(hipGraphInstantiateFlagUseNodePriority),
               static_cast<unsigned long long>(hipGraphInstantiateFlagUpload),
               static_cast<unsigned long long>(hipGraphInstantiateFlagAutoFreeOnLaunch |
                                               hipGraphInstantiateFlagUseNodePriority));
  INFO("flags " << flags);
  hipGraphInstantiateParams params{};
  params.flags = flags;
  params.uploadStream = upload.get();
  params.result_out = hipGraphInstantiateError;
  params.errNode_out = host;
  hipGraphExec_t exec = nullptr;
  HIP_CHECK(hipGraphInstantiateWithParams(&exec, g.get(), &params));
  REQUIRE(params.result_out == hipGraphInstantiateSuccess);
  REQUIRE(params.errNode_out == nullptr);
  unsigned long long got = ~0ull;
  HIP_CHECK(hipGraphExecGetFlags(exec, &got));
  REQUIRE(got == flags);
  // Upload on one stream, then launch on another, as often as wanted.
  HIP_CHECK(hipGraphUpload(exec, upload.get()));
  HIP_CHECK(hipStreamSynchronize(upload.get()));
  HIP_CHECK(hipGraphUpload(exec, upload.get()));
  HIP_CHECK(hipGraphLaunch(exec, run.get()));
  HIP_CHECK(hipGraphLaunch(exec, run.get()));
  HIP_CHECK(hipStreamSynchronize(run.get()));
  REQUIRE(counter == 2);  // an upload runs nothing
  HIP_CHECK(hipGraphExecDestroy(exec));
  // The same flags through hipGraphInstantiateWithFlags.
  HIP_CHECK(hipGraphInstantiateWithFlags(&exec, g.get(), flags));
  HIP_CHECK(hipGraphExecGetFlags(exec, &got));
  REQUIRE(got == flags);
  HIP_CHECK(hipGraphExecDestroy(exec));
}

TEST_CASE("Unit_hipGraphInstantiate_Negative_ResultOut") {
  Graph g;
  hipGraphNode_t a = nullptr, b = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&a, g.get(), nullptr, 0));
  HIP_CHECK(hipGraphAddEmptyNode(&b, g.get(), &a, 1));
  HIP_CHECK(hipGraphAddDependencies(g.get(), &b, &a, 1));  // a cycle
  hipGraphExec_t exec = nullptr;
  SECTION("with params: the result names the structure") {
    hipGraphInstantiateParams p{};
    HIP_CHECK_ERROR(hipGraphInstantiateWithParams(&exec, g.get(), &p), hipErrorInvalidValue);
    REQUIRE(p.result_out == hipGraphInstantiateInvalidStructure);
  }
  SECTION("plain: the log says why, within its size") {
    char log[16];
    std::memset(log, 'x', sizeof log);
    hipGraphNode_t error = a;
    HIP_CHECK_ERROR(hipGraphInstantiate(&exec, g.get(), &error, log, sizeof log),
                    hipErrorInvalidValue);
    REQUIRE(std::memchr(log, '\0', sizeof log) != nullptr);  // terminated inside the buffer
    REQUIRE(std::strlen(log) > 0);
  }
  SECTION("upload to a destroyed stream") {
    hipGraph_t ok = nullptr;
    HIP_CHECK(hipGraphCreate(&ok, 0));
    hipStream_t dead = nullptr;
    HIP_CHECK(hipStreamCreate(&dead));
    HIP_CHECK(hipStreamDestroy(dead));
    hipGraphInstantiateParams p{};
    p.flags = hipGraphInstantiateFlagUpload;
    p.uploadStream = dead;
    HIP_CHECK_ERROR(hipGraphInstantiateWithParams(&exec, ok, &p), hipErrorInvalidHandle);
    HIP_CHECK(hipGraphInstantiate(&exec, ok, nullptr, nullptr, 0));
    HIP_CHECK_ERROR(hipGraphUpload(exec, dead), hipErrorInvalidHandle);
    HIP_CHECK(hipGraphExecDestroy(exec));
    HIP_CHECK(hipGraphDestroy(ok));
  }
  SECTION("a second plan of a graph with memory nodes") {
    Graph mem;
    hipMemAllocNodeParams ap{};
    ap.poolProps.allocType = hipMemAllocationTypePinned;
    ap.poolProps.location.type = hipMemLocationTypeDevice;
    ap.poolProps.location.id = hip_test::device();
    ap.bytesize = 256;
    hipGraphNode_t alloc = nullptr;
    HIP_CHECK(hipGraphAddMemAllocNode(&alloc, mem.get(), nullptr, 0, &ap));
    Exec first(mem.get());
    hipGraphInstantiateParams p{};
    HIP_CHECK_ERROR(hipGraphInstantiateWithParams(&exec, mem.get(), &p), hipErrorNotSupported);
    REQUIRE(p.result_out == hipGraphInstantiateNodeOperationNotSupported);
  }
}

// ---- SetParams forms not covered elsewhere ------------------------------------------------

TEST_CASE("Unit_hipDrvGraphAddMemsetNode_Positive_AndExecForms") {
  hip_test::DeviceBuffer<int> d(kN), d2(kN);
  std::vector<int> src(kN), h(kN, 0);
  for (int i = 0; i < kN; ++i) src[i] = 500 + i;
  Graph g;
  hipGraphNode_t set = nullptr, up = nullptr, down = nullptr;
  hipMemsetParams ms = memset_of(d.get(), 4, kN);
  HIP_CHECK(hipDrvGraphAddMemsetNode(&set, g.get(), nullptr, 0, &ms, nullptr));
  hipMemsetParams back{};
  HIP_CHECK(hipGraphMemsetNodeGetParams(set, &back));
  REQUIRE(back.dst == d.get());
  REQUIRE(back.value == 4);
  HIP_CHECK(hipGraphAddMemcpyNode1D(&down, g.get(), &set, 1, h.data(), d.get(), d.bytes(),
                                    hipMemcpyDeviceToHost));
  Exec exec(g.get());
  launch_and_wait(exec.get());
  REQUIRE(h[kN - 1] == 4);

  ms.value = 6;
  HIP_CHECK(hipDrvGraphExecMemsetNodeSetParams(exec.get(), set, &ms, nullptr));
  launch_and_wait(exec.get());
  REQUIRE(h[kN - 1] == 6);
  HIP_CHECK(hipGraphMemsetNodeGetParams(set, &back));
  REQUIRE(back.value == 4);  // the graph keeps its own parameters

  // The driver copy form, on the D2H node: read d2 instead of d.
  HIP_CHECK(hipMemcpy(d2.get(), src.data(), d2.bytes(), hipMemcpyHostToDevice));
  HIP_MEMCPY3D p{};
  p.srcMemoryType = hipMemoryTypeDevice;
  p.srcDevice = d2.get();
  p.srcPitch = d2.bytes();
  p.dstMemoryType = hipMemoryTypeHost;
  p.dstHost = h.data();
  p.dstPitch = d2.bytes();
  p.WidthInBytes = d2.bytes();
  p.Height = 1;
  p.Depth = 1;
  HIP_CHECK(hipDrvGraphExecMemcpyNodeSetParams(exec.get(), down, &p, nullptr));
  launch_and_wait(exec.get());
  REQUIRE(h[0] == 500);
  REQUIRE(h[kN - 1] == 500 + kN - 1);

  // Negative: null parameters, a node of the wrong kind, a changed direction.
  HIP_CHECK_ERROR(hipDrvGraphAddMemsetNode(&up, g.get(), nullptr, 0, nullptr, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDrvGraphExecMemsetNodeSetParams(exec.get(), set, nullptr, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDrvGraphExecMemsetNodeSetParams(exec.get(), down, &ms, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDrvGraphExecMemcpyNodeSetParams(exec.get(), down, nullptr, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDrvGraphExecMemcpyNodeSetParams(exec.get(), set, &p, nullptr),
                  hipErrorInvalidValue);
  p.dstMemoryType = hipMemoryTypeDevice;
  p.dstDevice = d.get();
  HIP_CHECK_ERROR(hipDrvGraphExecMemcpyNodeSetParams(exec.get(), down, &p, nullptr),
                  hipErrorInvalidValue);
  ms.elementSize = 3;
  HIP_CHECK_ERROR(hipDrvGraphAddMemsetNode(&up, g.get(), nullptr, 0, &ms, nullptr),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphExecMemcpyNodeSetParamsSymbol_Positive_AndNegative") {
  // g_symbol is a single-source __device__ variable: device memory only where
  // single-source kernels run.
  if (!hip_test::kernels_supported()) return;
  int in[4] = {1, 2, 3, 4}, in2[4] = {5, 6, 7, 8}, out[4] = {};
  Graph g;
  hipGraphNode_t to = nullptr, from = nullptr;
  HIP_CHECK(hipGraphAddMemcpyNodeToSymbol(&to, g.get(), nullptr, 0,
                                          static_cast<const void*>(g_exec_symbol), in, sizeof in, 0,
                                          hipMemcpyHostToDevice));
  HIP_CHECK(hipGraphAddMemcpyNodeFromSymbol(&from, g.get(), &to, 1, out,
                                            static_cast<const void*>(g_exec_symbol), sizeof out, 0,
                                            hipMemcpyDeviceToHost));
  Exec exec(g.get());
  launch_and_wait(exec.get());
  REQUIRE(out[3] == 4);
  // Write in2 at an offset of 8 elements, read it back from there.
  HIP_CHECK(hipGraphExecMemcpyNodeSetParamsToSymbol(
      exec.get(), to, static_cast<const void*>(g_exec_symbol), in2, sizeof in2, 8 * sizeof(int),
      hipMemcpyHostToDevice));
  HIP_CHECK(hipGraphExecMemcpyNodeSetParamsFromSymbol(
      exec.get(), from, out, static_cast<const void*>(g_exec_symbol), sizeof out, 8 * sizeof(int),
      hipMemcpyDeviceToHost));
  launch_and_wait(exec.get());
  REQUIRE(out[0] == 5);
  REQUIRE(out[3] == 8);
  // Negative: a node of another plan's graph, an unknown symbol, the wrong
  // direction. (A single-source __device__ variable is a host variable of
  // unknown size, so its end cannot be checked here.)
  Graph unrelated;
  hipGraphNode_t stranger = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&stranger, unrelated.get(), nullptr, 0));
  HIP_CHECK_ERROR(hipGraphExecMemcpyNodeSetParamsToSymbol(
                      exec.get(), stranger, static_cast<const void*>(g_exec_symbol), in2,
                      sizeof in2, 0, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphExecMemcpyNodeSetParamsFromSymbol(exec.get(), from, out, nullptr,
                                                            sizeof out, 0, hipMemcpyDeviceToHost),
                  hipErrorInvalidSymbol);
  HIP_CHECK_ERROR(hipGraphExecMemcpyNodeSetParamsToSymbol(
                      exec.get(), to, static_cast<const void*>(g_exec_symbol), in2, sizeof in2, 0,
                      hipMemcpyDeviceToHost),
                  hipErrorInvalidMemcpyDirection);
  // The plan still runs the last good parameters.
  std::memset(out, 0, sizeof out);
  launch_and_wait(exec.get());
  REQUIRE(out[0] == 5);
}

TEST_CASE("Unit_hipGraphMemcpyNodeSetParams_Positive_AndNegative") {
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> src(kN, 3), src2(kN, 4), h(kN, 0);
  Graph g;
  hipGraphNode_t up = nullptr, down = nullptr;
  HIP_CHECK(hipGraphAddMemcpyNode1D(&up, g.get(), nullptr, 0, d.get(), src.data(), d.bytes(),
                                    hipMemcpyHostToDevice));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&down, g.get(), &up, 1, h.data(), d.get(), d.bytes(),
                                    hipMemcpyDeviceToHost));
  hipMemcpy3DParms p{};
  HIP_CHECK(hipGraphMemcpyNodeGetParams(up, &p));
  p.srcPtr.ptr = src2.data();
  HIP_CHECK(hipGraphMemcpyNodeSetParams(up, &p));
  hipMemcpy3DParms back{};
  HIP_CHECK(hipGraphMemcpyNodeGetParams(up, &back));
  REQUIRE(back.srcPtr.ptr == src2.data());
  Exec exec(g.get());
  launch_and_wait(exec.get());
  REQUIRE(h[0] == 4);
  HIP_CHECK_ERROR(hipGraphMemcpyNodeSetParams(up, nullptr), hipErrorInvalidValue);
  hipMemcpy3DParms bad = p;
  bad.extent = make_hipExtent(0, 1, 1);
  bad.srcPtr.ptr = nullptr;
  HIP_CHECK_ERROR(hipGraphMemcpyNodeSetParams(up, &bad), hipErrorInvalidValue);
  hipGraphNode_t empty = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&empty, g.get(), nullptr, 0));
  HIP_CHECK_ERROR(hipGraphMemcpyNodeSetParams(empty, &p), hipErrorInvalidValue);
  HIP_CHECK(hipGraphMemcpyNodeGetParams(up, &back));
  REQUIRE(back.srcPtr.ptr == src2.data());  // a refused change left the node as it was
}

// ---- per-thread-stream capture forms ----------------------------------------------------

TEST_CASE("Unit_hipStreamBeginCapture_spt_Positive_PerThreadStream") {
  int counter = 0;
  HIP_CHECK(hipStreamBeginCapture_spt(nullptr, hipStreamCaptureModeThreadLocal));
  hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
  HIP_CHECK(hipStreamIsCapturing_spt(nullptr, &status));
  REQUIRE(status == hipStreamCaptureStatusActive);
  unsigned long long id = 0, id2 = 0;
  HIP_CHECK(hipStreamGetCaptureInfo_spt(hipStreamPerThread, &status, &id));
  REQUIRE(status == hipStreamCaptureStatusActive);
  REQUIRE(id != 0);
  HIP_CHECK(hipLaunchHostFunc(hipStreamPerThread, bump, &counter));
  hipGraph_t capturing = nullptr;
  const hipGraphNode_t* deps = nullptr;
  size_t count = 0;
  HIP_CHECK(hipStreamGetCaptureInfo_v2_spt(nullptr, &status, &id2, &capturing, &deps, &count));
  REQUIRE(id2 == id);
  REQUIRE(capturing != nullptr);
  REQUIRE(count == 1);
  HIP_CHECK(hipStreamIsCapturing(hipStreamPerThread, &status));  // the same stream
  REQUIRE(status == hipStreamCaptureStatusActive);
  Graph g(nullptr);
  HIP_CHECK(hipStreamEndCapture_spt(nullptr, g.out()));
  REQUIRE(node_count(g.get()) == 1);
  HIP_CHECK(hipStreamIsCapturing_spt(nullptr, &status));
  REQUIRE(status == hipStreamCaptureStatusNone);
  Exec exec(g.get());
  HIP_CHECK(hipGraphLaunch_spt(exec.get(), nullptr));
  HIP_CHECK(hipStreamSynchronize(hipStreamPerThread));
  REQUIRE(counter == 1);
  // Negative: ending a capture that was never begun, null outputs.
  HIP_CHECK_ERROR(hipStreamEndCapture_spt(nullptr, g.out()), hipErrorIllegalState);
  HIP_CHECK_ERROR(hipStreamIsCapturing_spt(nullptr, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipStreamGetCaptureInfo_spt(nullptr, nullptr, &id), hipErrorInvalidValue);
}
