// SPDX-License-Identifier: MIT
// libamdhip64.so.5: what a program built against ROCm 5.x headers loads (docs/abi5.md).
// ROCm 6.0 renumbered two enums without renaming the functions that take or return
// them (hipMemoryType, hipGraphNodeType); the functions kept their symbol versions,
// and only the library's soname (libamdhip64.so.5 → .so.6) told the two ABIs apart.
// This library is that soname: it defines, under the same name@node, just the entry
// points whose arguments carry those enums, translates 5.x values to weft's (6.x/7.x)
// and back, and calls weft's definitions (libamdhip64.so.7, its dependency, found with
// dlvsym(RTLD_NEXT)). Every other symbol a 5.x program imports resolves to
// libamdhip64.so.7 directly: the dynamic linker matches a versioned reference by its
// version name in any loaded object, and this library defines every version node.
// hipDeviceProp_t needs nothing here: plain hipGetDeviceProperties is the 5.x layout
// (R0000) in weft itself, as in AMD's 6.x/7.x libraries.
#include <hip/hip_runtime_api.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

#define WEFT_ABI5_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

// ROCm 5.x hipMemoryType.
enum Abi5MemoryType : int { k5Host = 0, k5Device = 1, k5Array = 2, k5Unified = 3 };

int memory_type_to_abi5(int v) {
  switch (v) {
    case hipMemoryTypeHost: return k5Host;
    case hipMemoryTypeDevice: return k5Device;
    case hipMemoryTypeManaged:
      return k5Device;  // 5.x had no managed type: device memory with isManaged
    case hipMemoryTypeArray: return k5Array;
    case hipMemoryTypeUnified: return k5Unified;
    default: return k5Host;  // hipMemoryTypeUnregistered: plain host memory
  }
}

int memory_type_from_abi5(int v) {
  switch (v) {
    case k5Host: return hipMemoryTypeHost;
    case k5Device: return hipMemoryTypeDevice;
    case k5Array: return hipMemoryTypeArray;
    case k5Unified: return hipMemoryTypeUnified;
    default: return -1;  // not a 5.x value: weft refuses it with the usual error
  }
}

// ROCm 5.x hipGraphNodeType: Kernel = 1 … EventRecord = 8, Memcpy1D = 9,
// MemcpyFromSymbol = 10, MemcpyToSymbol = 11, Count = 12.
int graph_node_type_to_abi5(int v) {
  switch (v) {
    case hipGraphNodeTypeKernel: return 1;
    case hipGraphNodeTypeMemcpy: return 2;
    case hipGraphNodeTypeMemset: return 3;
    case hipGraphNodeTypeHost: return 4;
    case hipGraphNodeTypeGraph: return 5;
    case hipGraphNodeTypeEmpty: return 6;
    case hipGraphNodeTypeWaitEvent: return 7;
    case hipGraphNodeTypeEventRecord: return 8;
    case hipGraphNodeTypeMemcpyFromSymbol: return 10;
    case hipGraphNodeTypeMemcpyToSymbol: return 11;
    default: return 12;  // kinds 5.x cannot name (memory, semaphore, batch nodes): its Count
  }
}

// weft's definition of `name` in version node `node`; exits with a message if the
// library below is not weft's (a broken install), as the dynamic linker would.
void* real(const char* name, const char* node) {
  void* f = dlvsym(RTLD_NEXT, name, node);
  if (!f) {
    std::fprintf(stderr, "libamdhip64.so.5 (weft): %s@%s is missing from libamdhip64.so.7\n", name,
                 node);
    std::abort();
  }
  return f;
}

template <typename F>
F resolve(const char* name, const char* node) {
  return reinterpret_cast<F>(real(name, node));
}

hip_Memcpy2D to_current(const hip_Memcpy2D& p) {
  hip_Memcpy2D out = p;
  out.srcMemoryType =
      static_cast<hipMemoryType>(memory_type_from_abi5(static_cast<int>(p.srcMemoryType)));
  out.dstMemoryType =
      static_cast<hipMemoryType>(memory_type_from_abi5(static_cast<int>(p.dstMemoryType)));
  return out;
}

HIP_MEMCPY3D to_current(const HIP_MEMCPY3D& p) {
  HIP_MEMCPY3D out = p;
  out.srcMemoryType =
      static_cast<hipMemoryType>(memory_type_from_abi5(static_cast<int>(p.srcMemoryType)));
  out.dstMemoryType =
      static_cast<hipMemoryType>(memory_type_from_abi5(static_cast<int>(p.dstMemoryType)));
  return out;
}

}  // namespace

WEFT_ABI5_EXPORT hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes,
                                                    const void* ptr) {
  static auto f = resolve<hipError_t (*)(hipPointerAttribute_t*, const void*)>(
      "hipPointerGetAttributes", "hip_4.2");
  hipError_t rc = f(attributes, ptr);
  if (rc == hipSuccess && attributes) {
    // 5.x answered hipErrorInvalidValue for memory HIP does not know (7.0 made it success).
    if (attributes->type == hipMemoryTypeUnregistered) return hipErrorInvalidValue;
    attributes->type = static_cast<hipMemoryType>(memory_type_to_abi5(attributes->type));
  }
  return rc;
}

WEFT_ABI5_EXPORT hipError_t hipPointerGetAttribute(void* data, hipPointer_attribute attribute,
                                                   hipDeviceptr_t ptr) {
  static auto f = resolve<hipError_t (*)(void*, hipPointer_attribute, hipDeviceptr_t)>(
      "hipPointerGetAttribute", "hip_5.0");
  hipError_t rc = f(data, attribute, ptr);
  if (rc == hipSuccess && data && attribute == HIP_POINTER_ATTRIBUTE_MEMORY_TYPE)
    *static_cast<unsigned*>(data) =
        static_cast<unsigned>(memory_type_to_abi5(static_cast<int>(*static_cast<unsigned*>(data))));
  return rc;
}

WEFT_ABI5_EXPORT hipError_t hipDrvPointerGetAttributes(unsigned int count,
                                                       hipPointer_attribute* attributes,
                                                       void** data, hipDeviceptr_t ptr) {
  static auto f = resolve<hipError_t (*)(unsigned, hipPointer_attribute*, void**, hipDeviceptr_t)>(
      "hipDrvPointerGetAttributes", "hip_5.0");
  hipError_t rc = f(count, attributes, data, ptr);
  if (rc == hipSuccess && attributes && data)
    for (unsigned i = 0; i < count; ++i)
      if (attributes[i] == HIP_POINTER_ATTRIBUTE_MEMORY_TYPE && data[i])
        *static_cast<unsigned*>(data[i]) = static_cast<unsigned>(
            memory_type_to_abi5(static_cast<int>(*static_cast<unsigned*>(data[i]))));
  return rc;
}

WEFT_ABI5_EXPORT hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType* type) {
  static auto f =
      resolve<hipError_t (*)(hipGraphNode_t, hipGraphNodeType*)>("hipGraphNodeGetType", "hip_4.5");
  hipError_t rc = f(node, type);
  if (rc == hipSuccess && type)
    *type = static_cast<hipGraphNodeType>(graph_node_type_to_abi5(*type));
  return rc;
}

WEFT_ABI5_EXPORT hipError_t hipMemcpyParam2D(const hip_Memcpy2D* p) {
  static auto f = resolve<hipError_t (*)(const hip_Memcpy2D*)>("hipMemcpyParam2D", "hip_4.2");
  if (!p) return f(p);
  hip_Memcpy2D current = to_current(*p);
  return f(&current);
}

WEFT_ABI5_EXPORT hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D* p, hipStream_t stream) {
  static auto f =
      resolve<hipError_t (*)(const hip_Memcpy2D*, hipStream_t)>("hipMemcpyParam2DAsync", "hip_4.2");
  if (!p) return f(p, stream);
  hip_Memcpy2D current = to_current(*p);
  return f(&current, stream);
}

WEFT_ABI5_EXPORT hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D* p) {
  static auto f =
      resolve<hipError_t (*)(const hip_Memcpy2D*)>("hipDrvMemcpy2DUnaligned", "hip_4.3");
  if (!p) return f(p);
  hip_Memcpy2D current = to_current(*p);
  return f(&current);
}

WEFT_ABI5_EXPORT hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D* p) {
  static auto f = resolve<hipError_t (*)(const HIP_MEMCPY3D*)>("hipDrvMemcpy3D", "hip_4.2");
  if (!p) return f(p);
  HIP_MEMCPY3D current = to_current(*p);
  return f(&current);
}

WEFT_ABI5_EXPORT hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D* p, hipStream_t stream) {
  static auto f =
      resolve<hipError_t (*)(const HIP_MEMCPY3D*, hipStream_t)>("hipDrvMemcpy3DAsync", "hip_4.2");
  if (!p) return f(p, stream);
  HIP_MEMCPY3D current = to_current(*p);
  return f(&current, stream);
}

WEFT_ABI5_EXPORT hipError_t hipDrvGraphAddMemcpyNode(hipGraphNode_t* node, hipGraph_t graph,
                                                     const hipGraphNode_t* deps, size_t count,
                                                     const HIP_MEMCPY3D* p, hipCtx_t ctx) {
  static auto f =
      resolve<hipError_t (*)(hipGraphNode_t*, hipGraph_t, const hipGraphNode_t*, size_t,
                             const HIP_MEMCPY3D*, hipCtx_t)>("hipDrvGraphAddMemcpyNode", "hip_5.6");
  if (!p) return f(node, graph, deps, count, p, ctx);
  HIP_MEMCPY3D current = to_current(*p);
  return f(node, graph, deps, count, &current, ctx);
}
