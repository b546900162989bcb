// SPDX-License-Identifier: MIT
// Conformance: executable graphs. Instantiate (three forms), launch, upload,
// destroy, flags, the hipGraphExec*SetParams family, hipGraphExecUpdate and
// node enable/disable.
#include "graph_test.hpp"

using namespace graph_test;

namespace {

constexpr int kN = 64;

// Captures `chain` add_one kernels on `d` followed by a copy to `h`.
hipGraph_t capture_chain(hipStream_t s, int* d, int* h, int chain) {
  HIP_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  for (int i = 0; i < chain; ++i) HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(kN), 0, s, d, kN);
  HIP_CHECK(hipMemcpyAsync(h, d, kN * sizeof(int), hipMemcpyDeviceToHost, s));
  hipGraph_t g = nullptr;
  HIP_CHECK(hipStreamEndCapture(s, &g));
  return g;
}

hipGraphNode_t first_of_type(hipGraph_t g, hipGraphNodeType type) {
  for (hipGraphNode_t n : nodes_of(g)) {
    hipGraphNodeType t;
    HIP_CHECK(hipGraphNodeGetType(n, &t));
    if (t == type) return n;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("Unit_hipGraphInstantiate_Positive_Forms") {
  Graph g;
  hipGraphNode_t n = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&n, g.get(), nullptr, 0));
  hipGraphExec_t e = nullptr;
  SECTION("plain") {
    hipGraphNode_t error = reinterpret_cast<hipGraphNode_t>(1);
    char log[32] = "untouched";
    HIP_CHECK(hipGraphInstantiate(&e, g.get(), &error, log, sizeof log));
    REQUIRE(error == nullptr);
  }
  SECTION("with flags") {
    HIP_CHECK(hipGraphInstantiateWithFlags(&e, g.get(), hipGraphInstantiateFlagAutoFreeOnLaunch));
    unsigned long long flags = 0;
    HIP_CHECK(hipGraphExecGetFlags(e, &flags));
    REQUIRE(flags == hipGraphInstantiateFlagAutoFreeOnLaunch);
  }
  SECTION("with params") {
    hip_test::Stream s;
    hipGraphInstantiateParams p{};
    p.flags = hipGraphInstantiateFlagUpload;
    p.uploadStream = s.get();
    p.result_out = hipGraphInstantiateError;
    HIP_CHECK(hipGraphInstantiateWithParams(&e, g.get(), &p));
    REQUIRE(p.result_out == hipGraphInstantiateSuccess);
    REQUIRE(p.errNode_out == nullptr);
  }
  REQUIRE(e != nullptr);
  HIP_CHECK(hipGraphUpload(e, nullptr));
  HIP_CHECK(hipGraphLaunch(e, nullptr));
  HIP_CHECK(hipStreamSynchronize(nullptr));
  HIP_CHECK(hipGraphExecDestroy(e));
}

TEST_CASE("Unit_hipGraphInstantiate_Negative_Parameters") {
  Graph g;
  hipGraphExec_t e = nullptr;
  HIP_CHECK_ERROR(hipGraphInstantiate(nullptr, g.get(), nullptr, nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphInstantiate(&e, nullptr, nullptr, nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphInstantiateWithFlags(&e, g.get(), 1ull << 40), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphInstantiateWithParams(&e, g.get(), nullptr), hipErrorInvalidValue);
  hipGraphInstantiateParams p{};
  p.flags = 1ull << 40;
  HIP_CHECK_ERROR(hipGraphInstantiateWithParams(&e, g.get(), &p), hipErrorInvalidValue);
  REQUIRE(p.result_out == hipGraphInstantiateError);
  unsigned long long flags;
  HIP_CHECK_ERROR(hipGraphExecGetFlags(nullptr, &flags), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphLaunch_Negative_Parameters") {
  Graph g;
  hipGraphNode_t n = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&n, g.get(), nullptr, 0));
  hipGraphExec_t e = nullptr;
  HIP_CHECK(hipGraphInstantiate(&e, g.get(), nullptr, nullptr, 0));
  HIP_CHECK_ERROR(hipGraphLaunch(nullptr, nullptr), hipErrorInvalidValue);
  hipStream_t dead = nullptr;
  HIP_CHECK(hipStreamCreate(&dead));
  HIP_CHECK(hipStreamDestroy(dead));
  HIP_CHECK_ERROR(hipGraphLaunch(e, dead), hipErrorInvalidHandle);
  HIP_CHECK_ERROR(hipGraphUpload(nullptr, nullptr), hipErrorInvalidValue);
  HIP_CHECK(hipGraphExecDestroy(e));
  HIP_CHECK_ERROR(hipGraphLaunch(e, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphExecDestroy(e), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphLaunch_Positive_ExecOutlivesGraph") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> h(kN);
  HIP_CHECK(hipMemset(d.get(), 0, d.bytes()));
  hipGraph_t g = capture_chain(s.get(), d.get(), h.data(), 3);
  Exec exec(g);
  HIP_CHECK(hipGraphDestroy(g));  // the plan keeps what it needs
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(h[0] == 6);
  // hipGraphLaunch_spt on the per-thread stream.
  HIP_CHECK(hipGraphLaunch_spt(exec.get(), nullptr));
  HIP_CHECK(hipStreamSynchronize(hipStreamPerThread));
  REQUIRE(h[0] == 9);
}

TEST_CASE("Unit_hipGraphExecKernelNodeSetParams_Positive_Arguments") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> a(kN), b(kN);
  std::vector<int> h(kN);
  HIP_CHECK(hipMemset(a.get(), 0, a.bytes()));
  HIP_CHECK(hipMemset(b.get(), 0, b.bytes()));
  Graph g(capture_chain(s.get(), a.get(), h.data(), 1));
  Exec exec(g.get());
  hipGraphNode_t kernel = first_of_type(g.get(), hipGraphNodeTypeKernel);
  hipKernelNodeParams p{};
  HIP_CHECK(hipGraphKernelNodeGetParams(kernel, &p));
  REQUIRE(p.func == reinterpret_cast<void*>(&add_one));
  // Point the plan's kernel at b; the graph itself keeps a.
  int* target = b.get();
  int n = kN;
  void* args[] = {&target, &n};
  p.kernelParams = args;
  HIP_CHECK(hipGraphExecKernelNodeSetParams(exec.get(), kernel, &p));
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  int ha = -1, hb = -1;
  HIP_CHECK(hipMemcpy(&ha, a.get(), sizeof ha, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&hb, b.get(), sizeof hb, hipMemcpyDeviceToHost));
  REQUIRE(ha == 0);
  REQUIRE(hb == 1);
  hipKernelNodeParams graph_side{};
  HIP_CHECK(hipGraphKernelNodeGetParams(kernel, &graph_side));
  REQUIRE(*static_cast<int**>(graph_side.kernelParams[0]) == a.get());

  // Negative: another function, a non-kernel node, a node of another graph.
  hipKernelNodeParams other = p;
  int factor = 2;
  void* sargs[] = {&target, &n, &factor};
  other.func = reinterpret_cast<void*>(&scale);
  other.kernelParams = sargs;
  HIP_LAUNCH_CHECK(scale, dim3(1), dim3(1), 0, s.get(), b.get(), 1, 1);  // make scale known
  HIP_CHECK_ERROR(hipGraphExecKernelNodeSetParams(exec.get(), kernel, &other),
                  hipErrorInvalidValue);
  hipGraphNode_t copy = first_of_type(g.get(), hipGraphNodeTypeMemcpy);
  HIP_CHECK_ERROR(hipGraphExecKernelNodeSetParams(exec.get(), copy, &p), hipErrorInvalidValue);
  Graph unrelated;
  hipGraphNode_t stranger = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&stranger, unrelated.get(), nullptr, 0));
  HIP_CHECK_ERROR(hipGraphExecKernelNodeSetParams(exec.get(), stranger, &p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphExecKernelNodeSetParams(nullptr, kernel, &p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphExecKernelNodeSetParams(exec.get(), kernel, nullptr),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphExecSetParams_Positive_OtherKinds") {
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> src(kN, 1), src2(kN, 2), dst(kN, 0);
  int value = 0;
  hip_test::Event e1, e2;
  Graph g, child;
  hipGraphNode_t set = nullptr, up = nullptr, down = nullptr, host = nullptr, rec = nullptr,
                 sub = nullptr;
  hipHostNodeParams hp{bump, &value};
  hipGraphNode_t inner = nullptr;
  HIP_CHECK(hipGraphAddHostNode(&inner, child.get(), nullptr, 0, &hp));
  hipMemsetParams ms{};
  ms.dst = d.get();
  ms.elementSize = 4;
  ms.width = kN;
  ms.height = 1;
  ms.value = 0;
  HIP_CHECK(hipGraphAddMemsetNode(&set, g.get(), nullptr, 0, &ms));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&up, g.get(), &set, 1, d.get(), src.data(), d.bytes(),
                                    hipMemcpyHostToDevice));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&down, g.get(), &up, 1, dst.data(), d.get(), d.bytes(),
                                    hipMemcpyDeviceToHost));
  HIP_CHECK(hipGraphAddHostNode(&host, g.get(), &down, 1, &hp));
  HIP_CHECK(hipGraphAddEventRecordNode(&rec, g.get(), &host, 1, e1.get()));
  HIP_CHECK(hipGraphAddChildGraphNode(&sub, g.get(), &rec, 1, child.get()));
  Exec exec(g.get());
  HIP_CHECK(hipGraphLaunch(exec.get(), nullptr));
  HIP_CHECK(hipStreamSynchronize(nullptr));
  REQUIRE(dst[0] == 1);
  REQUIRE(value == 2);

  HIP_CHECK(hipGraphExecMemcpyNodeSetParams1D(exec.get(), up, d.get(), src2.data(), d.bytes(),
                                              hipMemcpyHostToDevice));
  hipHostNodeParams ten{bump_ten, &value};
  HIP_CHECK(hipGraphExecHostNodeSetParams(exec.get(), host, &ten));
  HIP_CHECK(hipGraphExecEventRecordNodeSetEvent(exec.get(), rec, e2.get()));
  Graph child2;
  hipGraphNode_t inner2 = nullptr;
  HIP_CHECK(hipGraphAddHostNode(&inner2, child2.get(), nullptr, 0, &ten));
  HIP_CHECK(hipGraphExecChildGraphNodeSetParams(exec.get(), sub, child2.get()));
  HIP_CHECK(hipGraphLaunch(exec.get(), nullptr));
  HIP_CHECK(hipStreamSynchronize(nullptr));
  REQUIRE(dst[0] == 2);
  REQUIRE(value == 22);
  HIP_CHECK(hipEventQuery(e2.get()));

  // Memset: the value changes, the node keeps its shape.
  ms.value = 5;
  HIP_CHECK(hipGraphExecMemsetNodeSetParams(exec.get(), set, &ms));
  // The direction of a memcpy node cannot change.
  HIP_CHECK_ERROR(hipGraphExecMemcpyNodeSetParams1D(exec.get(), up, dst.data(), dst.data(), 4,
                                                    hipMemcpyHostToHost),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphExecNodeSetParams(exec.get(), up, nullptr), hipErrorInvalidValue);
  hipMemcpy3DParms p3{};
  HIP_CHECK(hipGraphMemcpyNodeGetParams(up, &p3));
  p3.srcPtr.ptr = src.data();
  HIP_CHECK(hipGraphExecMemcpyNodeSetParams(exec.get(), up, &p3));
  HIP_CHECK(hipGraphLaunch(exec.get(), nullptr));
  HIP_CHECK(hipStreamSynchronize(nullptr));
  REQUIRE(dst[0] == 1);

  // A child graph of another shape is refused.
  Graph child3;
  hipGraphNode_t x = nullptr, y = nullptr;
  HIP_CHECK(hipGraphAddHostNode(&x, child3.get(), nullptr, 0, &hp));
  HIP_CHECK(hipGraphAddHostNode(&y, child3.get(), &x, 1, &hp));
  HIP_CHECK_ERROR(hipGraphExecChildGraphNodeSetParams(exec.get(), sub, child3.get()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphExecHostNodeSetParams(exec.get(), host, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphExecEventRecordNodeSetEvent(exec.get(), host, e1.get()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphExecEventWaitNodeSetEvent(exec.get(), rec, e1.get()),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphExecNodeSetParams_Positive_Generic") {
  int value = 0;
  Graph g;
  hipGraphNode_t host = nullptr;
  hipHostNodeParams hp{bump, &value};
  HIP_CHECK(hipGraphAddHostNode(&host, g.get(), nullptr, 0, &hp));
  Exec exec(g.get());
  hipGraphNodeParams p{};
  p.type = hipGraphNodeTypeHost;
  p.host = hipHostNodeParams{bump_ten, &value};
  HIP_CHECK(hipGraphExecNodeSetParams(exec.get(), host, &p));
  HIP_CHECK(hipGraphLaunch(exec.get(), nullptr));
  HIP_CHECK(hipStreamSynchronize(nullptr));
  REQUIRE(value == 10);
  p.type = hipGraphNodeTypeMemset;
  HIP_CHECK_ERROR(hipGraphExecNodeSetParams(exec.get(), host, &p), hipErrorInvalidValue);
  p.type = hipGraphNodeTypeMemAlloc;
  HIP_CHECK_ERROR(hipGraphExecNodeSetParams(exec.get(), host, &p), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphNodeSetEnabled_Positive_Basic") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> h(kN);
  HIP_CHECK(hipMemset(d.get(), 0, d.bytes()));
  Graph g(capture_chain(s.get(), d.get(), h.data(), 2));
  Exec exec(g.get());
  hipGraphNode_t kernel = first_of_type(g.get(), hipGraphNodeTypeKernel);
  unsigned enabled = 0;
  HIP_CHECK(hipGraphNodeGetEnabled(exec.get(), kernel, &enabled));
  REQUIRE(enabled == 1);
  HIP_CHECK(hipGraphNodeSetEnabled(exec.get(), kernel, 0));
  HIP_CHECK(hipGraphNodeGetEnabled(exec.get(), kernel, &enabled));
  REQUIRE(enabled == 0);
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(h[0] == 1);  // one of the two kernels ran
  HIP_CHECK(hipGraphNodeSetEnabled(exec.get(), kernel, 1));
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(h[0] == 3);

  Graph other;
  hipGraphNode_t empty = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&empty, other.get(), nullptr, 0));
  HIP_CHECK_ERROR(hipGraphNodeSetEnabled(exec.get(), empty, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphNodeSetEnabled(nullptr, kernel, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphNodeGetEnabled(exec.get(), kernel, nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphExecUpdate_Positive_Recapture") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> a(kN), b(kN);
  std::vector<int> ha(kN), hb(kN);
  HIP_CHECK(hipMemset(a.get(), 0, a.bytes()));
  HIP_CHECK(hipMemset(b.get(), 0, b.bytes()));
  Graph first(capture_chain(s.get(), a.get(), ha.data(), 4));
  Exec exec(first.get());
  // The same work captured again on other buffers: the plan follows it.
  Graph second(capture_chain(s.get(), b.get(), hb.data(), 4));
  hipGraphNode_t error = reinterpret_cast<hipGraphNode_t>(1);
  hipGraphExecUpdateResult result = hipGraphExecUpdateError;
  HIP_CHECK(hipGraphExecUpdate(exec.get(), second.get(), &error, &result));
  REQUIRE(result == hipGraphExecUpdateSuccess);
  REQUIRE(error == nullptr);
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(hb[0] == 4);
  int a0 = -1;
  HIP_CHECK(hipMemcpy(&a0, a.get(), sizeof a0, hipMemcpyDeviceToHost));
  REQUIRE(a0 == 0);
  // Nodes of the update graph address the plan from now on.
  hipGraphNode_t kernel = first_of_type(second.get(), hipGraphNodeTypeKernel);
  HIP_CHECK(hipGraphNodeSetEnabled(exec.get(), kernel, 0));
  // Updating with the graph the plan already has changes nothing.
  HIP_CHECK(hipGraphExecUpdate(exec.get(), second.get(), &error, &result));
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(hb[0] == 7);  // 3 of 4 kernels: the disabled one stays disabled
}

TEST_CASE("Unit_hipGraphExecUpdate_Negative_Mismatches") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> h(kN);
  Graph g(capture_chain(s.get(), d.get(), h.data(), 2));
  Exec exec(g.get());
  hipGraphNode_t error = nullptr;
  hipGraphExecUpdateResult result = hipGraphExecUpdateSuccess;
  SECTION("topology") {
    Graph longer(capture_chain(s.get(), d.get(), h.data(), 3));
    HIP_CHECK_ERROR(hipGraphExecUpdate(exec.get(), longer.get(), &error, &result),
                    hipErrorGraphExecUpdateFailure);
    REQUIRE(result == hipGraphExecUpdateErrorTopologyChanged);
  }
  SECTION("node type") {
    HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
    HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(kN), 0, s.get(), d.get(), kN);
    HIP_CHECK(hipMemsetAsync(d.get(), 0, 4, s.get()));
    HIP_CHECK(hipMemcpyAsync(h.data(), d.get(), 4, hipMemcpyDeviceToHost, s.get()));
    Graph other(nullptr);
    HIP_CHECK(hipStreamEndCapture(s.get(), other.out()));
    HIP_CHECK_ERROR(hipGraphExecUpdate(exec.get(), other.get(), &error, &result),
                    hipErrorGraphExecUpdateFailure);
    REQUIRE(result == hipGraphExecUpdateErrorNodeTypeChanged);
    REQUIRE(error == nodes_of(other.get())[1]);
  }
  SECTION("function") {
    HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
    HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(kN), 0, s.get(), d.get(), kN);
    HIP_LAUNCH_CHECK(scale, dim3(1), dim3(kN), 0, s.get(), d.get(), kN, 2);
    HIP_CHECK(hipMemcpyAsync(h.data(), d.get(), kN * sizeof(int), hipMemcpyDeviceToHost, s.get()));
    Graph other(nullptr);
    HIP_CHECK(hipStreamEndCapture(s.get(), other.out()));
    HIP_CHECK_ERROR(hipGraphExecUpdate(exec.get(), other.get(), &error, &result),
                    hipErrorGraphExecUpdateFailure);
    REQUIRE(result == hipGraphExecUpdateErrorFunctionChanged);
  }
  SECTION("parameters") {
    Graph g2;
    hip_test::DeviceBuffer<int> d2(kN);
    hipGraphNode_t n1 = nullptr;
    HIP_CHECK(hipGraphAddMemcpyNode1D(&n1, g2.get(), nullptr, 0, d2.get(), d.get(), 4,
                                      hipMemcpyDeviceToDevice));
    Exec e2(g2.get());
    Graph g3;
    hipGraphNode_t n2 = nullptr;
    HIP_CHECK(hipGraphAddMemcpyNode1D(&n2, g3.get(), nullptr, 0, h.data(), d.get(), 4,
                                      hipMemcpyDeviceToHost));
    HIP_CHECK_ERROR(hipGraphExecUpdate(e2.get(), g3.get(), &error, &result),
                    hipErrorGraphExecUpdateFailure);
    REQUIRE(result == hipGraphExecUpdateErrorParametersChanged);
    REQUIRE(error == n2);
  }
  // A failed update leaves the plan as it was.
  HIP_CHECK(hipMemset(d.get(), 0, d.bytes()));
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(h[0] == 2);
}

TEST_CASE("Unit_hipGraphExecUpdate_Negative_Parameters") {
  Graph g;
  hipGraphNode_t n = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&n, g.get(), nullptr, 0));
  Exec exec(g.get());
  hipGraphNode_t error = nullptr;
  hipGraphExecUpdateResult result;
  HIP_CHECK_ERROR(hipGraphExecUpdate(nullptr, g.get(), &error, &result), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphExecUpdate(exec.get(), nullptr, &error, &result), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphExecUpdate(exec.get(), g.get(), nullptr, &result), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphExecUpdate(exec.get(), g.get(), &error, nullptr), hipErrorInvalidValue);
}
