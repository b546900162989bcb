// SPDX-License-Identifier: MIT
// Conformance: graph memory nodes and attributes, user objects and
// hipGraphDebugDotPrint.
#include "graph_test.hpp"

#include <atomic>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace graph_test;

namespace {

hipMemAllocNodeParams alloc_params(size_t bytes) {
  hipMemAllocNodeParams p{};
  p.poolProps.allocType = hipMemAllocationTypePinned;
  p.poolProps.location.type = hipMemLocationTypeDevice;
  p.poolProps.location.id = hip_test::device();
  p.bytesize = bytes;
  return p;
}

std::atomic<int> g_destroyed{0};
void destroy_counter(void*) { g_destroyed.fetch_add(1); }

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A small structural check of DOT: a digraph whose braces balance, whose
// statements end in ';' and whose edges join declared nodes.
void require_valid_dot(const std::string& dot, size_t nodes, size_t edges) {
  REQUIRE(dot.rfind("digraph ", 0) == 0);
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < dot.size(); ++i) {
    char c = dot[i];
    if (c == '\\' && in_string) {
      ++i;
      continue;
    }
    if (c == '"') in_string = !in_string;
    if (in_string) continue;
    if (c == '{') ++depth;
    if (c == '}') --depth;
    REQUIRE(depth >= 0);
  }
  REQUIRE(!in_string);
  REQUIRE(depth == 0);
  std::set<std::string> declared;
  std::regex node_re(R"(^\s*(n[0-9_n]*) \[label=)");
  std::regex edge_re(R"(^\s*(n[0-9_n]*) -> (n[0-9_n]*)( \[[^\]]*\])?;$)");
  size_t node_lines = 0, edge_lines = 0;
  std::istringstream lines(dot);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, node_re)) {
      declared.insert(m[1]);
      ++node_lines;
    } else if (std::regex_match(line, m, edge_re)) {
      REQUIRE(declared.count(m[1]));
      ++edge_lines;
    }
  }
  REQUIRE(node_lines == nodes);
  REQUIRE(edge_lines == edges);
}

}  // namespace

TEST_CASE("Unit_hipGraphAddMemAllocNode_Positive_StableAddress") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kN = 64;
  Graph g;
  hipMemAllocNodeParams p = alloc_params(kN * sizeof(int));
  hipGraphNode_t alloc = nullptr, set = nullptr, kernel = nullptr, copy = nullptr,
                 free_node = nullptr;
  HIP_CHECK(hipGraphAddMemAllocNode(&alloc, g.get(), nullptr, 0, &p));
  REQUIRE(p.dptr != nullptr);
  int* d = static_cast<int*>(p.dptr);
  hipMemsetParams ms{};
  ms.dst = d;
  ms.elementSize = 4;
  ms.width = kN;
  ms.height = 1;
  ms.value = 5;
  HIP_CHECK(hipGraphAddMemsetNode(&set, g.get(), &alloc, 1, &ms));
  // A kernel node through capture-free means: launch once so weft knows add_one.
  {
    hip_test::DeviceBuffer<int> warm(1);
    HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, nullptr, warm.get(), 1);
    HIP_CHECK(hipDeviceSynchronize());
  }
  int n = kN;
  void* args[] = {&d, &n};
  hipKernelNodeParams kp = kernel_node(reinterpret_cast<void*>(&add_one), dim3(1), dim3(kN), args);
  HIP_CHECK(hipGraphAddKernelNode(&kernel, g.get(), &set, 1, &kp));
  std::vector<int> h(kN, 0);
  HIP_CHECK(hipGraphAddMemcpyNode1D(&copy, g.get(), &kernel, 1, h.data(), d, kN * sizeof(int),
                                    hipMemcpyDeviceToHost));
  HIP_CHECK(hipGraphAddMemFreeNode(&free_node, g.get(), &copy, 1, d));

  hipMemAllocNodeParams back{};
  HIP_CHECK(hipGraphMemAllocNodeGetParams(alloc, &back));
  REQUIRE(back.dptr == d);
  REQUIRE(back.bytesize == kN * sizeof(int));
  void* freed = nullptr;
  HIP_CHECK(hipGraphMemFreeNodeGetParams(free_node, &freed));
  REQUIRE(freed == d);
  // The allocation is device memory HIP knows about.
  hipPointerAttribute_t attr{};
  HIP_CHECK(hipPointerGetAttributes(&attr, d));
  REQUIRE(attr.type == hipMemoryTypeDevice);

  uint64_t used = 0;
  HIP_CHECK(
      hipDeviceGetGraphMemAttribute(hip_test::device(), hipGraphMemAttrUsedMemCurrent, &used));
  REQUIRE(used >= kN * sizeof(int));

  Exec exec(g.get());
  for (int replay = 0; replay < 5; ++replay) {
    std::fill(h.begin(), h.end(), 0);
    HIP_CHECK(hipGraphLaunch(exec.get(), nullptr));
    HIP_CHECK(hipStreamSynchronize(nullptr));
    REQUIRE(h[0] == 6);
    REQUIRE(h[kN - 1] == 6);
    HIP_CHECK(hipGraphMemAllocNodeGetParams(alloc, &back));
    REQUIRE(back.dptr == d);  // same address on every replay
  }
  // One instantiation at a time for graphs with memory nodes (as HIP/CUDA).
  hipGraphExec_t second = nullptr;
  HIP_CHECK_ERROR(hipGraphInstantiate(&second, g.get(), nullptr, nullptr, 0), hipErrorNotSupported);
}

TEST_CASE("Unit_hipGraphAddMemAllocNode_Negative_Parameters") {
  Graph g;
  hipGraphNode_t n = nullptr;
  hipMemAllocNodeParams p = alloc_params(64);
  HIP_CHECK_ERROR(hipGraphAddMemAllocNode(&n, g.get(), nullptr, 0, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddMemAllocNode(nullptr, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddMemAllocNode(&n, nullptr, nullptr, 0, &p), hipErrorInvalidValue);
  SECTION("zero bytes") {
    p.bytesize = 0;
    HIP_CHECK_ERROR(hipGraphAddMemAllocNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("host location") {
    p.poolProps.location.type = hipMemLocationTypeHost;
    HIP_CHECK_ERROR(hipGraphAddMemAllocNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("bad device") {
    p.poolProps.location.id = 1000;
    HIP_CHECK_ERROR(hipGraphAddMemAllocNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  SECTION("bad allocation type") {
    p.poolProps.allocType = hipMemAllocationTypeInvalid;
    HIP_CHECK_ERROR(hipGraphAddMemAllocNode(&n, g.get(), nullptr, 0, &p), hipErrorInvalidValue);
  }
  REQUIRE(node_count(g.get()) == 0);
}

TEST_CASE("Unit_hipGraphAddMemFreeNode_Negative_Parameters") {
  Graph g;
  hipGraphNode_t n = nullptr;
  hip_test::DeviceBuffer<int> ordinary(4);
  HIP_CHECK_ERROR(hipGraphAddMemFreeNode(&n, g.get(), nullptr, 0, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddMemFreeNode(&n, g.get(), nullptr, 0, ordinary.get()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDrvGraphAddMemFreeNode(&n, g.get(), nullptr, 0, ordinary.get()),
                  hipErrorInvalidValue);
  hipGraphNode_t empty = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&empty, g.get(), nullptr, 0));
  void* out = nullptr;
  HIP_CHECK_ERROR(hipGraphMemFreeNodeGetParams(empty, &out), hipErrorInvalidValue);
  hipMemAllocNodeParams p{};
  HIP_CHECK_ERROR(hipGraphMemAllocNodeGetParams(empty, &p), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipDeviceGraphMemAttribute_Positive_Watermarks") {
  uint64_t before = 0, high = 0, zero = 0;
  // Blocks of destroyed graphs stay reserved in the graph pool until trimmed.
  HIP_CHECK(hipDeviceGraphMemTrim(hip_test::device()));
  HIP_CHECK(
      hipDeviceGetGraphMemAttribute(hip_test::device(), hipGraphMemAttrUsedMemCurrent, &before));
  {
    Graph g;
    hipGraphNode_t n = nullptr;
    hipMemAllocNodeParams p = alloc_params(1 << 20);
    HIP_CHECK(hipGraphAddMemAllocNode(&n, g.get(), nullptr, 0, &p));
    uint64_t now = 0;
    HIP_CHECK(
        hipDeviceGetGraphMemAttribute(hip_test::device(), hipGraphMemAttrReservedMemCurrent, &now));
    REQUIRE(now == before + (1 << 20));
  }
  uint64_t after = 0;
  HIP_CHECK(
      hipDeviceGetGraphMemAttribute(hip_test::device(), hipGraphMemAttrUsedMemCurrent, &after));
  REQUIRE(after == before);  // returned with the graph
  HIP_CHECK(hipDeviceGetGraphMemAttribute(hip_test::device(), hipGraphMemAttrUsedMemHigh, &high));
  REQUIRE(high >= before + (1 << 20));
  HIP_CHECK(hipDeviceSetGraphMemAttribute(hip_test::device(), hipGraphMemAttrUsedMemHigh, &zero));
  HIP_CHECK(hipDeviceGetGraphMemAttribute(hip_test::device(), hipGraphMemAttrUsedMemHigh, &high));
  REQUIRE(high == after);
  HIP_CHECK(hipDeviceGraphMemTrim(hip_test::device()));

  uint64_t one = 1;
  HIP_CHECK_ERROR(
      hipDeviceSetGraphMemAttribute(hip_test::device(), hipGraphMemAttrUsedMemHigh, &one),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipDeviceSetGraphMemAttribute(hip_test::device(), hipGraphMemAttrUsedMemCurrent, &zero),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipDeviceGetGraphMemAttribute(hip_test::device(), hipGraphMemAttrUsedMemCurrent, nullptr),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetGraphMemAttribute(-1, hipGraphMemAttrUsedMemCurrent, &high),
                  hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceGraphMemTrim(1000), hipErrorInvalidDevice);
}

TEST_CASE("Unit_hipUserObject_Positive_Lifetime") {
  g_destroyed = 0;
  int payload = 0;
  hipUserObject_t obj = nullptr;
  HIP_CHECK(hipUserObjectCreate(&obj, &payload, destroy_counter, 1, hipUserObjectNoDestructorSync));
  HIP_CHECK(hipUserObjectRetain(obj, 2));
  HIP_CHECK(hipUserObjectRelease(obj, 2));
  REQUIRE(g_destroyed == 0);
  {
    Graph g;
    HIP_CHECK(
        hipGraphRetainUserObject(g.get(), obj, 1, hipGraphUserObjectMove));  // takes our reference
    Graph clone(nullptr);
    HIP_CHECK(hipGraphClone(clone.out(), g.get()));
    hipGraphNode_t n = nullptr;
    HIP_CHECK(hipGraphAddEmptyNode(&n, clone.get(), nullptr, 0));
    {
      Exec exec(clone.get());
      HIP_CHECK(hipGraphLaunch(exec.get(), nullptr));
      HIP_CHECK(hipStreamSynchronize(nullptr));
    }
    REQUIRE(g_destroyed == 0);  // the graphs still hold references
  }
  REQUIRE(g_destroyed == 1);  // the last holder went
}

TEST_CASE("Unit_hipUserObject_Negative_Parameters") {
  hipUserObject_t obj = nullptr;
  HIP_CHECK_ERROR(
      hipUserObjectCreate(nullptr, nullptr, destroy_counter, 1, hipUserObjectNoDestructorSync),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipUserObjectCreate(&obj, nullptr, nullptr, 1, hipUserObjectNoDestructorSync),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipUserObjectCreate(&obj, nullptr, destroy_counter, 0, hipUserObjectNoDestructorSync),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipUserObjectCreate(&obj, nullptr, destroy_counter, 1, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipUserObjectRetain(nullptr, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipUserObjectRelease(nullptr, 1), hipErrorInvalidValue);
  HIP_CHECK(hipUserObjectCreate(&obj, nullptr, destroy_counter, 1, hipUserObjectNoDestructorSync));
  HIP_CHECK_ERROR(hipUserObjectRetain(obj, 0), hipErrorInvalidValue);
  Graph g;
  HIP_CHECK_ERROR(hipGraphRetainUserObject(g.get(), obj, 0, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphRetainUserObject(g.get(), obj, 1, 7), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphRetainUserObject(nullptr, obj, 1, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphReleaseUserObject(g.get(), obj, 1), hipErrorInvalidValue);  // holds none
  HIP_CHECK(hipGraphRetainUserObject(g.get(), obj, 1, 0));
  HIP_CHECK(hipGraphReleaseUserObject(g.get(), obj, 1));
  HIP_CHECK(hipUserObjectRelease(obj, 1));
}

TEST_CASE("Unit_hipGraphDebugDotPrint_Positive_ValidDot") {
  const unsigned flags =
      GENERATE(0u, unsigned(hipGraphDebugDotFlagsVerbose), unsigned(hipGraphDebugDotFlagsHandles));
  int value = 0;
  hip_test::DeviceBuffer<int> d(16);
  hip_test::Event e;
  Graph g, child;
  hipGraphNode_t a = nullptr, b = nullptr, c = nullptr, d1 = nullptr, in_child = nullptr;
  hipHostNodeParams hp{[](void*) {}, &value};
  HIP_CHECK(hipGraphAddHostNode(&in_child, child.get(), nullptr, 0, &hp));
  HIP_CHECK(hipGraphAddEmptyNode(&a, g.get(), nullptr, 0));
  hipMemsetParams ms{};
  ms.dst = d.get();
  ms.elementSize = 4;
  ms.width = 16;
  ms.height = 1;
  HIP_CHECK(hipGraphAddMemsetNode(&b, g.get(), &a, 1, &ms));
  HIP_CHECK(hipGraphAddChildGraphNode(&c, g.get(), &a, 1, child.get()));
  hipGraphNode_t bc[] = {b, c};
  HIP_CHECK(hipGraphAddEventRecordNode(&d1, g.get(), bc, 2, e.get()));
  const std::string path = "weft_graph_test.dot";
  HIP_CHECK(hipGraphDebugDotPrint(g.get(), path.c_str(), flags));
  std::string dot = read_file(path);
  std::remove(path.c_str());
  // 4 nodes + 1 inside the child graph; 4 edges + 1 into the child cluster.
  require_valid_dot(dot, 5, 5);
  REQUIRE(dot.find("memset") != std::string::npos);
  REQUIRE(dot.find("subgraph cluster_") != std::string::npos);
}

TEST_CASE("Unit_hipGraphDebugDotPrint_Negative_Parameters") {
  Graph g;
  HIP_CHECK_ERROR(hipGraphDebugDotPrint(nullptr, "x.dot", 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphDebugDotPrint(g.get(), nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphDebugDotPrint(g.get(), "/nonexistent-dir/x.dot", 0),
                  hipErrorOperatingSystem);
}

// Copy kinds appear by their enumerator names and every byte count has one form
// ("N bytes", then the binary unit from 1 KiB) in memcpy, memset and alloc labels.
TEST_CASE("Unit_hipGraphDebugDotPrint_Positive_CopyKindsAndSizes") {
  hip_test::DeviceBuffer<int> d(1024);
  std::vector<int> h(1024);
  Graph g;
  hipGraphNode_t to_device = nullptr, to_host = nullptr, fill = nullptr, alloc = nullptr;
  HIP_CHECK(hipGraphAddMemcpyNode1D(&to_device, g.get(), nullptr, 0, d.get(), h.data(), d.bytes(),
                                    hipMemcpyHostToDevice));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&to_host, g.get(), &to_device, 1, h.data(), d.get(), 12,
                                    hipMemcpyDeviceToHost));
  hipMemsetParams ms{};
  ms.dst = d.get();
  ms.elementSize = 4;
  ms.width = 16;
  ms.height = 2;
  ms.pitch = 64;
  HIP_CHECK(hipGraphAddMemsetNode(&fill, g.get(), &to_host, 1, &ms));
  hipMemAllocNodeParams ap{};
  ap.poolProps.allocType = hipMemAllocationTypePinned;
  ap.poolProps.location.type = hipMemLocationTypeDevice;
  ap.poolProps.location.id = hip_test::device();
  ap.bytesize = 3 << 20;
  HIP_CHECK(hipGraphAddMemAllocNode(&alloc, g.get(), nullptr, 0, &ap));
  hipGraphNode_t free_node = nullptr;
  HIP_CHECK(hipGraphAddMemFreeNode(&free_node, g.get(), &alloc, 1, ap.dptr));

  const std::string path = "weft_graph_sizes.dot";
  HIP_CHECK(hipGraphDebugDotPrint(g.get(), path.c_str(), hipGraphDebugDotFlagsVerbose));
  std::string dot = read_file(path);
  std::remove(path.c_str());
  INFO(dot);
  CHECK(dot.find("hipMemcpyHostToDevice") != std::string::npos);
  CHECK(dot.find("hipMemcpyDeviceToHost") != std::string::npos);
  CHECK(dot.find("kind ") == std::string::npos);  // no bare numbers for kinds
  CHECK(dot.find("4096x1x1, 4096 bytes (4.0 KiB)") != std::string::npos);
  CHECK(dot.find("12x1x1, 12 bytes\\n") != std::string::npos);
  CHECK(dot.find("16x2 elements of 4 bytes, 128 bytes") != std::string::npos);
  CHECK(dot.find("3145728 bytes (3.0 MiB) at ") != std::string::npos);
}
