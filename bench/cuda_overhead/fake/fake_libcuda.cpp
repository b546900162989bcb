// SPDX-License-Identifier: MIT
// A stand-in libcuda.so.1 for counting weft's own instructions per call
// (bench/cuda_overhead/percall_count.sh): the tests' fake CUDA device
// (tests/drivers/cuda/fake_cuda.cpp) behind the exported cu* symbols that
// weft's loader binds with dlsym, so the whole HIP runtime runs on one fake
// sm_90 device in any process that finds this library first on
// LD_LIBRARY_PATH. Each exported symbol is one indirect jump through a
// pointer filled when the library loads; the calls the per-call loops repeat
// (cuLaunchKernel, cuEventRecord, cuEventSynchronize,
// cuGraphExecKernelNodeSetParams) return CUDA_SUCCESS at once instead of
// recording, and the graph entry points are minimal fakes (handles only), so
// graph plans lower to native CUgraphs as on a GPU. Symbols the fake lacks
// answer CUDA_ERROR_NOT_SUPPORTED. Not thread-safe beyond what the fake is.
#include <atomic>
#include <cstdint>

#include "api.hpp"
#include "fake_cuda.hpp"

namespace {

std::atomic<uintptr_t> g_next_handle{0x9000};
template <typename T>
T next_handle() {
  return reinterpret_cast<T>(g_next_handle.fetch_add(0x10));
}

CUresult unsupported() { return CUDA_ERROR_NOT_SUPPORTED; }

CUresult launch(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                CUstream, void**, void**) {
  return CUDA_SUCCESS;
}
CUresult event_record(CUevent, CUstream) { return CUDA_SUCCESS; }
CUresult event_sync(CUevent) { return CUDA_SUCCESS; }
CUresult event_elapsed(float* ms, CUevent, CUevent) {
  *ms = 0;
  return CUDA_SUCCESS;
}

CUresult graph_create(CUgraph* g, unsigned) {
  *g = next_handle<CUgraph>();
  return CUDA_SUCCESS;
}
CUresult graph_destroy(CUgraph) { return CUDA_SUCCESS; }
CUresult add_kernel_node(CUgraphNode* n, CUgraph, const CUgraphNode*, size_t,
                         const CUDA_KERNEL_NODE_PARAMS*) {
  *n = next_handle<CUgraphNode>();
  return CUDA_SUCCESS;
}
CUresult add_memcpy_node(CUgraphNode* n, CUgraph, const CUgraphNode*, size_t, const CUDA_MEMCPY3D*,
                         CUcontext) {
  *n = next_handle<CUgraphNode>();
  return CUDA_SUCCESS;
}
CUresult add_memset_node(CUgraphNode* n, CUgraph, const CUgraphNode*, size_t,
                         const CUDA_MEMSET_NODE_PARAMS*, CUcontext) {
  *n = next_handle<CUgraphNode>();
  return CUDA_SUCCESS;
}
CUresult add_event_node(CUgraphNode* n, CUgraph, const CUgraphNode*, size_t, CUevent) {
  *n = next_handle<CUgraphNode>();
  return CUDA_SUCCESS;
}
CUresult instantiate(CUgraphExec* e, CUgraph, unsigned long long) {
  *e = next_handle<CUgraphExec>();
  return CUDA_SUCCESS;
}
CUresult exec_destroy(CUgraphExec) { return CUDA_SUCCESS; }
CUresult graph_launch(CUgraphExec, CUstream) { return CUDA_SUCCESS; }
CUresult exec_kernel_set(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS*) {
  return CUDA_SUCCESS;
}
CUresult exec_memcpy_set(CUgraphExec, CUgraphNode, const CUDA_MEMCPY3D*, CUcontext) {
  return CUDA_SUCCESS;
}
CUresult exec_memset_set(CUgraphExec, CUgraphNode, const CUDA_MEMSET_NODE_PARAMS*, CUcontext) {
  return CUDA_SUCCESS;
}
CUresult exec_event_set(CUgraphExec, CUgraphNode, CUevent) { return CUDA_SUCCESS; }
CUresult node_enable(CUgraphExec, CUgraphNode, unsigned) { return CUDA_SUCCESS; }
// Every pointer is this device's memory (the loops pass no host pointers).
CUresult pointer_attribute(void* data, CUpointer_attribute attribute, CUdeviceptr) {
  if (attribute == CU_POINTER_ATTRIBUTE_MEMORY_TYPE) {
    *static_cast<unsigned*>(data) = CU_MEMORYTYPE_DEVICE;
    return CUDA_SUCCESS;
  }
  if (attribute == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL) {
    *static_cast<int*>(data) = 0;
    return CUDA_SUCCESS;
  }
  return CUDA_ERROR_INVALID_VALUE;
}

}  // namespace

// One pointer per symbol, jumped through by the exported trampolines below.
extern "C" {
#define WEFT_FAKE_POINTER(name) __attribute__((visibility("hidden"), used)) void* weft_fake_##name;
WEFT_CUDA_SYMBOLS(WEFT_FAKE_POINTER, WEFT_FAKE_POINTER)
#undef WEFT_FAKE_POINTER
}

#define WEFT_FAKE_STR_(x) #x
#define WEFT_FAKE_STR(x) WEFT_FAKE_STR_(x)
// `abi`: the name cuda.h maps the symbol to (cuMemAlloc -> "cuMemAlloc_v2"), which
// is what the trampoline exports; `plain`: the name its pointer is kept under.
// clang-format off
#define WEFT_FAKE_ASM(abi, plain)             \
  asm(".globl " abi "\n"                      \
      ".type " abi ", @function\n"            \
      abi ":\n"                               \
      "  jmp *weft_fake_" plain "(%rip)\n"    \
      ".size " abi ", .-" abi "\n");
#define WEFT_FAKE_TRAMPOLINE(name) WEFT_FAKE_ASM(WEFT_FAKE_STR(name), #name)
// clang-format on
WEFT_CUDA_SYMBOLS(WEFT_FAKE_TRAMPOLINE, WEFT_FAKE_TRAMPOLINE)
#undef WEFT_FAKE_TRAMPOLINE
#undef WEFT_FAKE_ASM

namespace {

__attribute__((constructor)) void install() {
  auto* fake = new fake_cuda::FakeCuda();  // never destroyed: the process uses it to the end
  // The launch limits the loops' shapes are checked against (the tests' fake
  // leaves them 0).
  fake_cuda::set_sm90_launch_limits();
  auto& attributes = fake_cuda::state().attributes;
  attributes[CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING] = 1;
  weft::cuda::Api api = fake->api();
  api.cuLaunchKernel = launch;
  api.cuEventRecord = event_record;
  api.cuEventSynchronize = event_sync;
  api.cuEventElapsedTime = event_elapsed;
  api.cuGraphCreate = graph_create;
  api.cuGraphDestroy = graph_destroy;
  api.cuGraphAddKernelNode = add_kernel_node;
  api.cuGraphAddMemcpyNode = add_memcpy_node;
  api.cuGraphAddMemsetNode = add_memset_node;
  api.cuGraphAddEventRecordNode = add_event_node;
  api.cuGraphAddEventWaitNode = add_event_node;
  api.cuGraphInstantiateWithFlags = instantiate;
  api.cuGraphExecDestroy = exec_destroy;
  api.cuGraphLaunch = graph_launch;
  api.cuGraphExecKernelNodeSetParams = exec_kernel_set;
  api.cuGraphExecMemcpyNodeSetParams = exec_memcpy_set;
  api.cuGraphExecMemsetNodeSetParams = exec_memset_set;
  api.cuGraphExecEventRecordNodeSetEvent = exec_event_set;
  api.cuGraphExecEventWaitNodeSetEvent = exec_event_set;
  api.cuGraphNodeSetEnabled = node_enable;
  api.cuPointerGetAttribute = pointer_attribute;
#define WEFT_FAKE_FILL(name) \
  weft_fake_##name =         \
      api.name ? reinterpret_cast<void*>(api.name) : reinterpret_cast<void*>(&unsupported);
  WEFT_CUDA_SYMBOLS(WEFT_FAKE_FILL, WEFT_FAKE_FILL)
#undef WEFT_FAKE_FILL
}

}  // namespace
