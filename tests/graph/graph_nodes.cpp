// SPDX-License-Identifier: MIT
// Conformance: explicit graph nodes. Kernel, memcpy (1D, 2D/3D, symbol, driver
// form), memset, host, child-graph and event nodes: add, get and set
// parameters, run; hipGraphAddNode / hipGraphNodeSetParams; kernel attributes.
#include "graph_test.hpp"

using namespace graph_test;

namespace {

constexpr int kN = 128;
__device__ int g_symbol[16];

void bump_twice(void* p) { *static_cast<int*>(p) += 2; }

// Instantiates, launches once and waits.
void run(hipGraph_t g) {
  Exec e(g);
  HIP_CHECK(hipGraphLaunch(e.get(), nullptr));
  HIP_CHECK(hipStreamSynchronize(nullptr));
}

// Makes the single-source kernels known by function address (a launch does).
void warm_up_kernels() {
  hip_test::DeviceBuffer<int> d(1);
  HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, nullptr, d.get(), 1);
  HIP_LAUNCH_CHECK(scale, dim3(1), dim3(1), 0, nullptr, d.get(), 1, 1);
  HIP_CHECK(hipDeviceSynchronize());
}

hipKernelNodeParams add_one_params(int*& ptr, int& n, void** args) {
  args[0] = &ptr;
  args[1] = &n;
  return kernel_node(reinterpret_cast<void*>(&add_one), dim3(kN / 32), dim3(32), args);
}

}  // namespace

TEST_CASE("Unit_hipGraphAddKernelNode_Positive_Basic") {
  if (!hip_test::kernels_supported()) return;
  warm_up_kernels();
  hip_test::DeviceBuffer<int> d(kN);
  HIP_CHECK(hipMemset(d.get(), 0, d.bytes()));
  int* ptr = d.get();
  int n = kN;
  void* args[2];
  hipKernelNodeParams p = add_one_params(ptr, n, args);
  Graph g;
  hipGraphNode_t k1 = nullptr, k2 = nullptr;
  HIP_CHECK(hipGraphAddKernelNode(&k1, g.get(), nullptr, 0, &p));
  HIP_CHECK(hipGraphAddKernelNode(&k2, g.get(), &k1, 1, &p));
  run(g.get());
  std::vector<int> h(kN);
  HIP_CHECK(hipMemcpy(h.data(), d.get(), d.bytes(), hipMemcpyDeviceToHost));
  REQUIRE(std::all_of(h.begin(), h.end(), [](int v) { return v == 2; }));

  // GetParams reports the function, the shape and the argument values.
  hipKernelNodeParams q{};
  HIP_CHECK(hipGraphKernelNodeGetParams(k1, &q));
  REQUIRE(q.func == p.func);
  REQUIRE(grid_of(q).x == kN / 32);
  REQUIRE(block_of(q).x == 32);
  REQUIRE(q.kernelParams != nullptr);
  REQUIRE(*static_cast<int**>(q.kernelParams[0]) == d.get());
  REQUIRE(*static_cast<int*>(q.kernelParams[1]) == kN);
}

TEST_CASE("Unit_hipGraphKernelNodeSetParams_Positive_NewArguments") {
  if (!hip_test::kernels_supported()) return;
  warm_up_kernels();
  hip_test::DeviceBuffer<int> a(kN), b(kN);
  HIP_CHECK(hipMemset(a.get(), 0, a.bytes()));
  HIP_CHECK(hipMemset(b.get(), 0, b.bytes()));
  int* ptr = a.get();
  int n = kN;
  void* args[2];
  hipKernelNodeParams p = add_one_params(ptr, n, args);
  Graph g;
  hipGraphNode_t k = nullptr;
  HIP_CHECK(hipGraphAddKernelNode(&k, g.get(), nullptr, 0, &p));
  ptr = b.get();  // arguments are copied when given, not read later
  run(g.get());
  int ha = 0, hb = 0;
  HIP_CHECK(hipMemcpy(&ha, a.get(), sizeof ha, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&hb, b.get(), sizeof hb, hipMemcpyDeviceToHost));
  REQUIRE(ha == 1);
  REQUIRE(hb == 0);
  HIP_CHECK(hipGraphKernelNodeSetParams(k, &p));  // now b
  run(g.get());
  HIP_CHECK(hipMemcpy(&hb, b.get(), sizeof hb, hipMemcpyDeviceToHost));
  REQUIRE(hb == 1);
}

TEST_CASE("Unit_hipGraphAddKernelNode_Negative_Parameters") {
  if (!hip_test::kernels_supported()) return;
  warm_up_kernels();
  hip_test::DeviceBuffer<int> d(kN);
  int* ptr = d.get();
  int n = kN;
  void* args[2];
  hipKernelNodeParams p = add_one_params(ptr, n, args);
  Graph g;
  hipGraphNode_t k = nullptr;
  HIP_CHECK_ERROR(hipGraphAddKernelNode(nullptr, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddKernelNode(&k, nullptr, nullptr, 0, &p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddKernelNode(&k, g.get(), nullptr, 0, nullptr), hipErrorInvalidValue);
  SECTION("null function") {
    p.func = nullptr;
    HIP_CHECK_ERROR(hipGraphAddKernelNode(&k, g.get(), nullptr, 0, &p),
                    hipErrorInvalidDeviceFunction);
  }
  SECTION("unknown function") {
    p.func = reinterpret_cast<void*>(&bump);
    HIP_CHECK_ERROR(hipGraphAddKernelNode(&k, g.get(), nullptr, 0, &p),
                    hipErrorInvalidDeviceFunction);
  }
  SECTION("zero grid") {
    grid_of(p) = dim3(0);
    HIP_CHECK_ERROR(hipGraphAddKernelNode(&k, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("block too large") {
    block_of(p) = dim3(4096);
    HIP_CHECK_ERROR(hipGraphAddKernelNode(&k, g.get(), nullptr, 0, &p),
                    hipErrorInvalidConfiguration);
  }
  SECTION("missing arguments") {
    p.kernelParams = nullptr;
    HIP_CHECK_ERROR(hipGraphAddKernelNode(&k, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("extra for a single-source kernel") {
    void* extra[] = {HIP_LAUNCH_PARAM_END};
    p.kernelParams = nullptr;
    p.extra = extra;
    HIP_CHECK_ERROR(hipGraphAddKernelNode(&k, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  REQUIRE(node_count(g.get()) == 0);
  hipKernelNodeParams q{};
  hipGraphNode_t empty = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&empty, g.get(), nullptr, 0));
  HIP_CHECK_ERROR(hipGraphKernelNodeGetParams(empty, &q), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphKernelNodeSetParams(empty, &p), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphKernelNodeAttribute_Positive_Basic") {
  if (!hip_test::kernels_supported()) return;
  warm_up_kernels();
  hip_test::DeviceBuffer<int> d(kN);
  int* ptr = d.get();
  int n = kN;
  void* args[2];
  hipKernelNodeParams p = add_one_params(ptr, n, args);
  Graph g;
  hipGraphNode_t k1 = nullptr, k2 = nullptr, empty = nullptr;
  HIP_CHECK(hipGraphAddKernelNode(&k1, g.get(), nullptr, 0, &p));
  HIP_CHECK(hipGraphAddKernelNode(&k2, g.get(), nullptr, 0, &p));
  HIP_CHECK(hipGraphAddEmptyNode(&empty, g.get(), nullptr, 0));
  hipKernelNodeAttrValue v{};
  v.priority = 3;
  HIP_CHECK(hipGraphKernelNodeSetAttribute(k1, hipKernelNodeAttributePriority, &v));
  v.cooperative = 0;
  HIP_CHECK(hipGraphKernelNodeCopyAttributes(k1, k2));
  hipKernelNodeAttrValue out{};
  HIP_CHECK(hipGraphKernelNodeGetAttribute(k2, hipKernelNodeAttributePriority, &out));
  REQUIRE(out.priority == 3);
  HIP_CHECK_ERROR(hipGraphKernelNodeSetAttribute(k1, hipKernelNodeAttributePriority, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphKernelNodeGetAttribute(k1, hipLaunchAttributeID(999), &out),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphKernelNodeGetAttribute(empty, hipKernelNodeAttributePriority, &out),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphKernelNodeCopyAttributes(k1, empty), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphAddMemcpyNode1D_Positive_Basic") {
  std::vector<int> src(kN), dst(kN, 0);
  for (int i = 0; i < kN; ++i) src[i] = i * 3;
  hip_test::DeviceBuffer<int> d(kN);
  Graph g;
  hipGraphNode_t up = nullptr, down = nullptr;
  HIP_CHECK(hipGraphAddMemcpyNode1D(&up, g.get(), nullptr, 0, d.get(), src.data(), d.bytes(),
                                    hipMemcpyHostToDevice));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&down, g.get(), &up, 1, dst.data(), d.get(), d.bytes(),
                                    hipMemcpyDefault));
  run(g.get());
  REQUIRE(dst == src);
  hipMemcpy3DParms p{};
  HIP_CHECK(hipGraphMemcpyNodeGetParams(up, &p));
  REQUIRE(p.dstPtr.ptr == d.get());
  REQUIRE(p.extent.width == d.bytes());
  REQUIRE(p.kind == hipMemcpyHostToDevice);
  // SetParams1D retargets the copy.
  std::vector<int> other(kN, 7);
  HIP_CHECK(
      hipGraphMemcpyNodeSetParams1D(up, d.get(), other.data(), d.bytes(), hipMemcpyHostToDevice));
  run(g.get());
  REQUIRE(dst == other);
}

TEST_CASE("Unit_hipGraphAddMemcpyNode1D_Negative_Parameters") {
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> h(kN);
  Graph g;
  hipGraphNode_t n = nullptr;
  HIP_CHECK_ERROR(
      hipGraphAddMemcpyNode1D(&n, g.get(), nullptr, 0, nullptr, h.data(), 4, hipMemcpyDefault),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipGraphAddMemcpyNode1D(&n, g.get(), nullptr, 0, d.get(), h.data(), 0, hipMemcpyDefault),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddMemcpyNode1D(&n, g.get(), nullptr, 0, d.get(), h.data(), d.bytes() + 4,
                                          hipMemcpyHostToDevice),
                  hipErrorInvalidValue);  // past the allocation's end
  HIP_CHECK_ERROR(
      hipGraphAddMemcpyNode1D(&n, g.get(), nullptr, 0, d.get(), h.data(), 4, hipMemcpyKind(42)),
      hipErrorInvalidMemcpyDirection);
  HIP_CHECK_ERROR(
      hipGraphAddMemcpyNode1D(nullptr, g.get(), nullptr, 0, d.get(), h.data(), 4, hipMemcpyDefault),
      hipErrorInvalidValue);
  REQUIRE(node_count(g.get()) == 0);
}

TEST_CASE("Unit_hipGraphAddMemcpyNode_Positive_3D") {
  constexpr size_t W = 16, H = 4, D = 3;  // bytes, rows, slices
  constexpr size_t kPitch = 32, kRows = 6;
  std::vector<unsigned char> src(kPitch * kRows * D), dst(W * H * D, 0);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i);
  hip_test::DeviceBuffer<unsigned char> d(kPitch * kRows * D);
  Graph g;
  hipGraphNode_t up = nullptr, down = nullptr;
  hipMemcpy3DParms p{};
  p.srcPtr = make_hipPitchedPtr(src.data(), kPitch, kPitch, kRows);
  p.dstPtr = make_hipPitchedPtr(d.get(), kPitch, kPitch, kRows);
  p.extent = make_hipExtent(kPitch, kRows, D);
  p.kind = hipMemcpyHostToDevice;
  HIP_CHECK(hipGraphAddMemcpyNode(&up, g.get(), nullptr, 0, &p));
  // Down: a W x H x D box starting at (2, 1, 0) into a packed buffer.
  hipMemcpy3DParms q{};
  q.srcPtr = make_hipPitchedPtr(d.get(), kPitch, kPitch, kRows);
  q.srcPos = make_hipPos(2, 1, 0);
  q.dstPtr = make_hipPitchedPtr(dst.data(), W, W, H);
  q.extent = make_hipExtent(W, H, D);
  q.kind = hipMemcpyDeviceToHost;
  HIP_CHECK(hipGraphAddMemcpyNode(&down, g.get(), &up, 1, &q));
  run(g.get());
  for (size_t z = 0; z < D; ++z)
    for (size_t y = 0; y < H; ++y)
      for (size_t x = 0; x < W; ++x)
        REQUIRE(dst[(z * H + y) * W + x] == src[z * kPitch * kRows + (y + 1) * kPitch + x + 2]);
  hipMemcpy3DParms back{};
  HIP_CHECK(hipGraphMemcpyNodeGetParams(down, &back));
  REQUIRE(back.srcPos.x == 2);
  REQUIRE(back.extent.depth == D);
}

TEST_CASE("Unit_hipGraphAddMemcpyNode_Negative_Parameters") {
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> h(kN);
  Graph g;
  hipGraphNode_t n = nullptr;
  hipMemcpy3DParms p{};
  p.srcPtr = make_hipPitchedPtr(h.data(), 64, 64, 1);
  p.dstPtr = make_hipPitchedPtr(d.get(), 64, 64, 1);
  p.extent = make_hipExtent(64, 1, 1);
  p.kind = hipMemcpyHostToDevice;
  HIP_CHECK_ERROR(hipGraphAddMemcpyNode(&n, g.get(), nullptr, 0, nullptr), hipErrorInvalidValue);
  SECTION("empty extent") {
    p.extent.width = 0;
    HIP_CHECK_ERROR(hipGraphAddMemcpyNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("pitch below width") {
    p.extent = make_hipExtent(64, 2, 1);
    p.srcPtr.pitch = 32;
    HIP_CHECK_ERROR(hipGraphAddMemcpyNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("too few rows per slice") {
    p.extent = make_hipExtent(64, 1, 2);
    p.srcPtr.ysize = 0;
    HIP_CHECK_ERROR(hipGraphAddMemcpyNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("array and pointer") {
    p.srcArray = reinterpret_cast<hipArray_t>(&h);
    HIP_CHECK_ERROR(hipGraphAddMemcpyNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("past the allocation") {
    p.extent = make_hipExtent(64, 16, 1);
    p.srcPtr = make_hipPitchedPtr(h.data(), 64, 64, 16);
    p.dstPtr = make_hipPitchedPtr(d.get(), 64, 64, 16);
    HIP_CHECK_ERROR(hipGraphAddMemcpyNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  REQUIRE(node_count(g.get()) == 0);
}

TEST_CASE("Unit_hipDrvGraphAddMemcpyNode_Positive_Basic") {
  std::vector<int> src(kN), dst(kN, 0);
  for (int i = 0; i < kN; ++i) src[i] = 1000 + i;
  hip_test::DeviceBuffer<int> d(kN);
  Graph g;
  HIP_MEMCPY3D p{};
  p.srcMemoryType = hipMemoryTypeHost;
  p.srcHost = src.data();
  p.srcPitch = d.bytes();
  p.dstMemoryType = hipMemoryTypeDevice;
  p.dstDevice = d.get();
  p.dstPitch = d.bytes();
  p.WidthInBytes = d.bytes();
  p.Height = 1;
  p.Depth = 1;
  hipGraphNode_t up = nullptr, down = nullptr;
  HIP_CHECK(hipDrvGraphAddMemcpyNode(&up, g.get(), nullptr, 0, &p, nullptr));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&down, g.get(), &up, 1, dst.data(), d.get(), d.bytes(),
                                    hipMemcpyDeviceToHost));
  run(g.get());
  REQUIRE(dst == src);
  HIP_MEMCPY3D back{};
  HIP_CHECK(hipDrvGraphMemcpyNodeGetParams(up, &back));
  REQUIRE(back.WidthInBytes == d.bytes());
  REQUIRE(back.dstDevice == d.get());
  HIP_CHECK(hipDrvGraphMemcpyNodeSetParams(up, &p));
  HIP_CHECK_ERROR(hipDrvGraphAddMemcpyNode(&up, g.get(), nullptr, 0, nullptr, nullptr),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphAddMemcpyNodeSymbol_Positive_Basic") {
  // g_symbol is a single-source __device__ variable: device memory only where
  // single-source kernels run.
  if (!hip_test::kernels_supported()) return;
  int in[4] = {5, 6, 7, 8}, out[4] = {};
  Graph g;
  hipGraphNode_t to = nullptr, from = nullptr;
  HIP_CHECK(hipGraphAddMemcpyNodeToSymbol(&to, g.get(), nullptr, 0,
                                          static_cast<const void*>(g_symbol), in, sizeof in,
                                          4 * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipGraphAddMemcpyNodeFromSymbol(&from, g.get(), &to, 1, out,
                                            static_cast<const void*>(g_symbol), sizeof out,
                                            4 * sizeof(int), hipMemcpyDeviceToHost));
  run(g.get());
  REQUIRE(std::equal(in, in + 4, out));
  hipGraphNodeType type;
  HIP_CHECK(hipGraphNodeGetType(to, &type));
  REQUIRE(type == hipGraphNodeTypeMemcpy);
  int in2[4] = {9, 9, 9, 9};
  HIP_CHECK(hipGraphMemcpyNodeSetParamsToSymbol(to, static_cast<const void*>(g_symbol), in2,
                                                sizeof in2, 4 * sizeof(int),
                                                hipMemcpyHostToDevice));
  HIP_CHECK(hipGraphMemcpyNodeSetParamsFromSymbol(from, out, static_cast<const void*>(g_symbol),
                                                  sizeof out, 4 * sizeof(int),
                                                  hipMemcpyDeviceToHost));
  run(g.get());
  REQUIRE(out[0] == 9);
  hipGraphNode_t n = nullptr;
  HIP_CHECK_ERROR(
      hipGraphAddMemcpyNodeToSymbol(&n, g.get(), nullptr, 0, static_cast<const void*>(g_symbol), in,
                                    sizeof in, 0, hipMemcpyDeviceToHost),
      hipErrorInvalidMemcpyDirection);
  HIP_CHECK_ERROR(hipGraphAddMemcpyNodeFromSymbol(&n, g.get(), nullptr, 0, out, nullptr, sizeof out,
                                                  0, hipMemcpyDeviceToHost),
                  hipErrorInvalidSymbol);
}

TEST_CASE("Unit_hipGraphAddMemsetNode_Positive_Basic") {
  const unsigned size = GENERATE(1u, 2u, 4u);
  constexpr size_t kWidth = 16, kHeight = 3, kPitch = 128;
  hip_test::DeviceBuffer<unsigned char> d(kPitch * kHeight);
  HIP_CHECK(hipMemset(d.get(), 0, d.bytes()));
  Graph g;
  hipMemsetParams p{};
  p.dst = d.get();
  p.elementSize = size;
  p.width = kWidth;
  p.height = kHeight;
  p.pitch = kPitch;
  p.value = 0x01020304;
  hipGraphNode_t n = nullptr;
  HIP_CHECK(hipGraphAddMemsetNode(&n, g.get(), nullptr, 0, &p));
  run(g.get());
  std::vector<unsigned char> h(d.bytes());
  HIP_CHECK(hipMemcpy(h.data(), d.get(), d.bytes(), hipMemcpyDeviceToHost));
  for (size_t row = 0; row < kHeight; ++row) {
    uint32_t v = 0;
    std::memcpy(&v, &h[row * kPitch], size);
    uint32_t expected = size == 1 ? 0x04 : size == 2 ? 0x0304 : 0x01020304;
    REQUIRE(v == expected);
    REQUIRE(h[row * kPitch + kWidth * size] == 0);  // stops at the row's end
  }
  hipMemsetParams back{};
  HIP_CHECK(hipGraphMemsetNodeGetParams(n, &back));
  REQUIRE(back.width == kWidth);
  REQUIRE(back.elementSize == size);
  p.value = 0;
  HIP_CHECK(hipGraphMemsetNodeSetParams(n, &p));
  run(g.get());
  HIP_CHECK(hipMemcpy(h.data(), d.get(), d.bytes(), hipMemcpyDeviceToHost));
  REQUIRE(h[0] == 0);
}

TEST_CASE("Unit_hipGraphAddMemsetNode_Negative_Parameters") {
  hip_test::DeviceBuffer<int> d(kN);
  Graph g;
  hipGraphNode_t n = nullptr;
  hipMemsetParams p{};
  p.dst = d.get();
  p.elementSize = 4;
  p.width = kN;
  p.height = 1;
  HIP_CHECK_ERROR(hipGraphAddMemsetNode(&n, g.get(), nullptr, 0, nullptr), hipErrorInvalidValue);
  SECTION("element size") {
    p.elementSize = 3;
    HIP_CHECK_ERROR(hipGraphAddMemsetNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("null destination") {
    p.dst = nullptr;
    HIP_CHECK_ERROR(hipGraphAddMemsetNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("zero width") {
    p.width = 0;
    HIP_CHECK_ERROR(hipGraphAddMemsetNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("pitch below the row") {
    p.height = 2;
    p.width = 8;
    p.pitch = 16;
    HIP_CHECK_ERROR(hipGraphAddMemsetNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("past the allocation") {
    p.width = kN + 1;
    HIP_CHECK_ERROR(hipGraphAddMemsetNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  REQUIRE(node_count(g.get()) == 0);
}

TEST_CASE("Unit_hipGraphAddHostNode_Positive_Basic") {
  int value = 0;
  Graph g;
  hipHostNodeParams p{bump, &value};
  hipGraphNode_t a = nullptr, b = nullptr;
  HIP_CHECK(hipGraphAddHostNode(&a, g.get(), nullptr, 0, &p));
  HIP_CHECK(hipGraphAddHostNode(&b, g.get(), &a, 1, &p));
  run(g.get());
  REQUIRE(value == 2);
  hipHostNodeParams back{};
  HIP_CHECK(hipGraphHostNodeGetParams(a, &back));
  REQUIRE(back.fn == &bump);
  REQUIRE(back.userData == &value);
  hipHostNodeParams twice{bump_twice, &value};
  HIP_CHECK(hipGraphHostNodeSetParams(a, &twice));
  run(g.get());
  REQUIRE(value == 5);
  hipHostNodeParams bad{nullptr, &value};
  hipGraphNode_t n = nullptr;
  HIP_CHECK_ERROR(hipGraphAddHostNode(&n, g.get(), nullptr, 0, &bad), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddHostNode(&n, g.get(), nullptr, 0, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphHostNodeGetParams(a, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphHostNodeSetParams(a, &bad), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphAddChildGraphNode_Positive_Basic") {
  int value = 0;
  Graph child, parent;
  hipHostNodeParams p{bump, &value};
  hipGraphNode_t h1 = nullptr, h2 = nullptr, c = nullptr, after = nullptr;
  HIP_CHECK(hipGraphAddHostNode(&h1, child.get(), nullptr, 0, &p));
  HIP_CHECK(hipGraphAddHostNode(&h2, child.get(), &h1, 1, &p));
  HIP_CHECK(hipGraphAddChildGraphNode(&c, parent.get(), nullptr, 0, child.get()));
  hipHostNodeParams twice{bump_twice, &value};
  HIP_CHECK(hipGraphAddHostNode(&after, parent.get(), &c, 1, &twice));
  // The node holds a copy: changing the original child later has no effect.
  HIP_CHECK(hipGraphDestroyNode(h2));
  run(parent.get());
  REQUIRE(value == 4);
  hipGraph_t embedded = nullptr;
  HIP_CHECK(hipGraphChildGraphNodeGetGraph(c, &embedded));
  REQUIRE(node_count(embedded) == 2);
  hipGraphNode_t n = nullptr;
  HIP_CHECK_ERROR(hipGraphAddChildGraphNode(&n, parent.get(), nullptr, 0, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddChildGraphNode(&n, parent.get(), nullptr, 0, parent.get()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphChildGraphNodeGetGraph(after, &embedded), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphChildGraphNodeGetGraph(c, nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGraphAddEventRecordNode_Positive_Basic") {
  hip_test::Event e1, e2;
  hip_test::Stream s;
  Graph g;
  hipGraphNode_t rec = nullptr, wait = nullptr;
  HIP_CHECK(hipGraphAddEventRecordNode(&rec, g.get(), nullptr, 0, e1.get()));
  HIP_CHECK(hipGraphAddEventWaitNode(&wait, g.get(), &rec, 1, e1.get()));
  hipEvent_t out = nullptr;
  HIP_CHECK(hipGraphEventRecordNodeGetEvent(rec, &out));
  REQUIRE(out == e1.get());
  HIP_CHECK(hipGraphEventRecordNodeSetEvent(rec, e2.get()));
  HIP_CHECK(hipGraphEventRecordNodeGetEvent(rec, &out));
  REQUIRE(out == e2.get());
  HIP_CHECK(hipGraphEventWaitNodeSetEvent(wait, e2.get()));
  HIP_CHECK(hipGraphEventWaitNodeGetEvent(wait, &out));
  REQUIRE(out == e2.get());
  Exec exec(g.get());
  HIP_CHECK(hipGraphLaunch(exec.get(), s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  HIP_CHECK(hipEventQuery(e2.get()));
  // Another stream can wait for the event the graph recorded.
  hip_test::Stream t;
  HIP_CHECK(hipStreamWaitEvent(t.get(), e2.get(), 0));
  HIP_CHECK(hipStreamSynchronize(t.get()));

  hipGraphNode_t n = nullptr;
  HIP_CHECK_ERROR(hipGraphAddEventRecordNode(&n, g.get(), nullptr, 0, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddEventWaitNode(&n, g.get(), nullptr, 0, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphEventRecordNodeGetEvent(wait, &out), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphEventWaitNodeGetEvent(rec, &out), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphEventWaitNodeGetEvent(wait, nullptr), hipErrorInvalidValue);
  hipEvent_t dead = nullptr;
  HIP_CHECK(hipEventCreate(&dead));
  HIP_CHECK(hipEventDestroy(dead));
  HIP_CHECK_ERROR(hipGraphEventRecordNodeSetEvent(rec, dead), hipErrorInvalidHandle);
}

TEST_CASE("Unit_hipGraphAddNode_Positive_Kinds") {
  int value = 0;
  hip_test::DeviceBuffer<int> d(kN);
  std::vector<int> h(kN, 0);
  Graph g;
  hipGraphNodeParams p{};
  hipGraphNode_t set = nullptr, copy = nullptr, host = nullptr, empty = nullptr;
  p.type = hipGraphNodeTypeMemset;
  p.memset.dst = d.get();
  p.memset.elementSize = 4;
  p.memset.width = kN;
  p.memset.height = 1;
  p.memset.value = 11;
  HIP_CHECK(hipGraphAddNode(&set, g.get(), nullptr, 0, &p));
  p = hipGraphNodeParams{};
  p.type = hipGraphNodeTypeMemcpy;
  p.memcpy.copyParams.srcPtr = make_hipPitchedPtr(d.get(), d.bytes(), d.bytes(), 1);
  p.memcpy.copyParams.dstPtr = make_hipPitchedPtr(h.data(), d.bytes(), d.bytes(), 1);
  p.memcpy.copyParams.extent = make_hipExtent(d.bytes(), 1, 1);
  p.memcpy.copyParams.kind = hipMemcpyDeviceToHost;
  HIP_CHECK(hipGraphAddNode(&copy, g.get(), &set, 1, &p));
  p = hipGraphNodeParams{};
  p.type = hipGraphNodeTypeHost;
  p.host = hipHostNodeParams{bump, &value};
  HIP_CHECK(hipGraphAddNode(&host, g.get(), &copy, 1, &p));
  p = hipGraphNodeParams{};
  p.type = hipGraphNodeTypeEmpty;
  HIP_CHECK(hipGraphAddNode(&empty, g.get(), &host, 1, &p));
  run(g.get());
  REQUIRE(h[kN - 1] == 11);
  REQUIRE(value == 1);

  // hipGraphNodeSetParams with the matching type.
  p = hipGraphNodeParams{};
  p.type = hipGraphNodeTypeHost;
  p.host = hipHostNodeParams{bump_twice, &value};
  HIP_CHECK(hipGraphNodeSetParams(host, &p));
  run(g.get());
  REQUIRE(value == 3);
  p.type = hipGraphNodeTypeMemset;
  HIP_CHECK_ERROR(hipGraphNodeSetParams(host, &p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphNodeSetParams(host, nullptr), hipErrorInvalidValue);

  hipGraphNode_t n = nullptr;
  HIP_CHECK_ERROR(hipGraphAddNode(&n, g.get(), nullptr, 0, nullptr), hipErrorInvalidValue);
  p = hipGraphNodeParams{};
  p.type =
      hipGraphNodeTypeExtSemaphoreSignal;  // with no semaphores (conformance_external has real ones)
  HIP_CHECK_ERROR(hipGraphAddNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  p = hipGraphNodeParams{};
  p.type = hipGraphNodeTypeMemcpy;
  p.memcpy.flags = 1;
  HIP_CHECK_ERROR(hipGraphAddNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
}
