// SPDX-License-Identifier: MIT
// Built by Debian's hipcc against AMD's ROCm 5.2 headers: the enum values this
// program reads and passes are 5.x's (hipMemoryTypeHost = 0, Device = 1;
// hipGraphNodeTypeKernel = 1 … EventRecord = 8), and hipDeviceProp_t is the 5.x
// (792-byte) layout. weft's libamdhip64.so.5 translates them (docs/abi5.md).
// Prints "PASS enum_abi" when every value is the 5.x one.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

static int failures = 0;
#define EXPECT(cond)                                                \
  do {                                                              \
    if (!(cond)) {                                                  \
      std::printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                   \
    }                                                               \
  } while (0)

static void host_fn(void*) {}

int main() {
  static_assert(sizeof(hipDeviceProp_t) == 792, "the 5.x layout");
  static_assert(hipMemoryTypeDevice == 1 && hipGraphNodeTypeKernel == 1, "5.x headers");
  hipDeviceProp_t props;
  std::memset(&props, 0, sizeof props);
  EXPECT(hipGetDeviceProperties(&props, 0) == hipSuccess);
  std::printf("device 0: %s, arch %s\n", props.name, props.gcnArchName);
  EXPECT(props.gcnArchName[0] != '\0');
  EXPECT(props.maxThreadsPerBlock > 0);

  void* device = nullptr;
  void* pinned = nullptr;
  EXPECT(hipMalloc(&device, 4096) == hipSuccess);
  EXPECT(hipHostMalloc(&pinned, 4096, 0) == hipSuccess);
  hipPointerAttribute_t attributes;
  EXPECT(hipPointerGetAttributes(&attributes, device) == hipSuccess);
  EXPECT(attributes.memoryType == hipMemoryTypeDevice);
  EXPECT(hipPointerGetAttributes(&attributes, pinned) == hipSuccess);
  EXPECT(attributes.memoryType == hipMemoryTypeHost);
  unsigned type = 99;
  EXPECT(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, device) == hipSuccess);
  EXPECT(type == hipMemoryTypeDevice);

  // hip_Memcpy2D with 5.x memory types.
  std::vector<unsigned char> src(256), back(256, 0);
  for (int i = 0; i < 256; ++i) src[i] = static_cast<unsigned char>(i);
  hip_Memcpy2D copy;
  std::memset(&copy, 0, sizeof copy);
  copy.srcMemoryType = hipMemoryTypeHost;
  copy.srcHost = src.data();
  copy.srcPitch = 16;
  copy.dstMemoryType = hipMemoryTypeDevice;
  copy.dstDevice = device;
  copy.dstPitch = 64;
  copy.WidthInBytes = 16;
  copy.Height = 16;
  EXPECT(hipMemcpyParam2D(&copy) == hipSuccess);
  EXPECT(hipMemcpy2D(back.data(), 16, device, 64, 16, 16, hipMemcpyDeviceToHost) == hipSuccess);
  EXPECT(back == src);

  hipGraph_t graph = nullptr;
  EXPECT(hipGraphCreate(&graph, 0) == hipSuccess);
  hipGraphNode_t empty = nullptr, memset_node = nullptr, host = nullptr;
  EXPECT(hipGraphAddEmptyNode(&empty, graph, nullptr, 0) == hipSuccess);
  hipMemsetParams memset_params;
  std::memset(&memset_params, 0, sizeof memset_params);
  memset_params.dst = device;
  memset_params.elementSize = 1;
  memset_params.width = 64;
  memset_params.height = 1;
  memset_params.pitch = 64;
  EXPECT(hipGraphAddMemsetNode(&memset_node, graph, &empty, 1, &memset_params) == hipSuccess);
  hipHostNodeParams host_params = {host_fn, nullptr};
  EXPECT(hipGraphAddHostNode(&host, graph, &memset_node, 1, &host_params) == hipSuccess);
  hipGraphNodeType node_type = hipGraphNodeTypeCount;
  EXPECT(hipGraphNodeGetType(empty, &node_type) == hipSuccess);
  EXPECT(node_type == hipGraphNodeTypeEmpty);
  EXPECT(static_cast<int>(node_type) == 6);
  EXPECT(hipGraphNodeGetType(memset_node, &node_type) == hipSuccess);
  EXPECT(node_type == hipGraphNodeTypeMemset);
  EXPECT(hipGraphNodeGetType(host, &node_type) == hipSuccess);
  EXPECT(node_type == hipGraphNodeTypeHost);
  EXPECT(hipGraphDestroy(graph) == hipSuccess);

  EXPECT(hipFree(device) == hipSuccess);
  EXPECT(hipHostFree(pinned) == hipSuccess);
  if (failures == 0) std::printf("PASS enum_abi\n");
  return failures == 0 ? 0 : 1;
}
