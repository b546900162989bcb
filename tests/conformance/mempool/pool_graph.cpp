// SPDX-License-Identifier: MIT
// Graph memory nodes draw from the device's graph pool: captured hipMallocAsync/hipFreeAsync
// and explicit allocation nodes, replays on the same address, blocks of destroyed graphs kept
// (reserved) for later graphs until hipDeviceGraphMemTrim.
#include "mempool_test.hpp"

#include <vector>

namespace {

constexpr int kN = 2048;

__global__ void fill_linear(int* out, int n, int add) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = 2 * i + add;
}

uint64_t graph_attr(hipGraphMemAttributeType attr) {
  uint64_t value = ~uint64_t{0};
  HIP_CHECK(hipDeviceGetGraphMemAttribute(hip_test::device(), attr, &value));
  return value;
}

hipMemAllocNodeParams alloc_params(size_t bytes) {
  hipMemAllocNodeParams p{};
  p.poolProps.allocType = hipMemAllocationTypePinned;
  p.poolProps.location.type = hipMemLocationTypeDevice;
  p.poolProps.location.id = hip_test::device();
  p.bytesize = bytes;
  return p;
}

}  // namespace

TEST_CASE("Unit_hipGraphMemNodes_Positive_CapturedAllocationsUseTheGraphPool") {
  if (!hip_test::kernels_supported()) return;
  HIP_CHECK(hipDeviceGraphMemTrim(hip_test::device()));
  const uint64_t used0 = graph_attr(hipGraphMemAttrUsedMemCurrent);
  const uint64_t reserved0 = graph_attr(hipGraphMemAttrReservedMemCurrent);
  REQUIRE(reserved0 == used0);  // trimmed: nothing kept

  hip_test::Stream s;
  std::vector<int> host(kN, -1);
  hipGraph_t graph = nullptr;
  int* p = nullptr;
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipMallocAsync(reinterpret_cast<void**>(&p), kN * sizeof(int), s.get()));
  HIP_LAUNCH_CHECK(fill_linear, dim3(kN / 128), dim3(128), 0, s.get(), p, kN, 11);
  HIP_CHECK(hipMemcpyAsync(host.data(), p, kN * sizeof(int), hipMemcpyDeviceToHost, s.get()));
  HIP_CHECK(hipFreeAsync(p, s.get()));
  HIP_CHECK(hipStreamEndCapture(s.get(), &graph));
  REQUIRE(p != nullptr);
  REQUIRE(graph_attr(hipGraphMemAttrUsedMemCurrent) == used0 + kN * sizeof(int));
  REQUIRE(graph_attr(hipGraphMemAttrReservedMemCurrent) == reserved0 + kN * sizeof(int));
  // Graph memory has no user pool.
  hipMemPool_t owner = reinterpret_cast<hipMemPool_t>(0x1);
  HIP_CHECK(hipPointerGetAttribute(&owner, HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, p));
  REQUIRE(owner == nullptr);

  hipGraphExec_t exec = nullptr;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  for (int replay = 0; replay < 3; ++replay) {
    std::fill(host.begin(), host.end(), -1);
    HIP_CHECK(hipGraphLaunch(exec, s.get()));
    HIP_CHECK(hipStreamSynchronize(s.get()));
    for (int i = 0; i < kN; ++i)
      if (host[i] != 2 * i + 11)
        FAIL("replay " << replay << ": element " << i << " is " << host[i]);
  }
  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
  // The block went back to the graph pool, which keeps it.
  REQUIRE(graph_attr(hipGraphMemAttrUsedMemCurrent) == used0);
  REQUIRE(graph_attr(hipGraphMemAttrReservedMemCurrent) == reserved0 + kN * sizeof(int));

  // A later allocation node of the same size gets the kept block.
  hipGraph_t second = nullptr;
  HIP_CHECK(hipGraphCreate(&second, 0));
  hipGraphNode_t node = nullptr;
  hipMemAllocNodeParams params = alloc_params(kN * sizeof(int));
  HIP_CHECK(hipGraphAddMemAllocNode(&node, second, nullptr, 0, &params));
  REQUIRE(params.dptr == p);
  REQUIRE(graph_attr(hipGraphMemAttrReservedMemCurrent) == reserved0 + kN * sizeof(int));
  REQUIRE(graph_attr(hipGraphMemAttrUsedMemHigh) >= used0 + kN * sizeof(int));
  HIP_CHECK(hipGraphDestroy(second));

  HIP_CHECK(hipDeviceGraphMemTrim(hip_test::device()));
  REQUIRE(graph_attr(hipGraphMemAttrReservedMemCurrent) == used0);
  uint64_t zero = 0;
  HIP_CHECK(
      hipDeviceSetGraphMemAttribute(hip_test::device(), hipGraphMemAttrReservedMemHigh, &zero));
  REQUIRE(graph_attr(hipGraphMemAttrReservedMemHigh) ==
          graph_attr(hipGraphMemAttrReservedMemCurrent));
}

TEST_CASE("Unit_hipGraphMemNodes_Positive_FreedOutsideTheGraph") {
  // HIP lets a program free graph memory itself; the node's later release changes nothing.
  HIP_CHECK(hipDeviceGraphMemTrim(hip_test::device()));
  const uint64_t used0 = graph_attr(hipGraphMemAttrUsedMemCurrent);
  hipGraph_t graph = nullptr;
  HIP_CHECK(hipGraphCreate(&graph, 0));
  hipGraphNode_t node = nullptr;
  hipMemAllocNodeParams params = alloc_params(4096);
  HIP_CHECK(hipGraphAddMemAllocNode(&node, graph, nullptr, 0, &params));
  HIP_CHECK(hipFree(params.dptr));
  REQUIRE(graph_attr(hipGraphMemAttrUsedMemCurrent) == used0);
  // The address may serve a new node while the first node still exists.
  hipGraphNode_t node2 = nullptr;
  hipMemAllocNodeParams params2 = alloc_params(4096);
  HIP_CHECK(hipGraphAddMemAllocNode(&node2, graph, nullptr, 0, &params2));
  REQUIRE(params2.dptr == params.dptr);
  HIP_CHECK(hipGraphDestroyNode(node));  // must not take the second node's block
  REQUIRE(graph_attr(hipGraphMemAttrUsedMemCurrent) == used0 + 4096);
  hipPointerAttribute_t attr{};
  HIP_CHECK(hipPointerGetAttributes(&attr, params2.dptr));
  REQUIRE(attr.type == hipMemoryTypeDevice);
  HIP_CHECK(hipGraphDestroy(graph));
  REQUIRE(graph_attr(hipGraphMemAttrUsedMemCurrent) == used0);
  HIP_CHECK(hipDeviceGraphMemTrim(hip_test::device()));
}
