// SPDX-License-Identifier: MIT
// Entry points kept for binaries of older toolchains and tools: the debugger's build
// identification (amd_dbgapi_get_*), hiprtc's precompiled-header query (__hipGetPCH),
// roctracer's activity hook (hipRegisterTracerCallback) and ROCm 5.x's out-of-line
// hipLaunchKernelGGL (hip_impl::hipLaunchKernelGGLImpl).
#include "api/api.hpp"

#include <hip/hip_version.h>

#include <atomic>

using namespace weft;

namespace {
std::atomic<const void*> g_tracer_callback{nullptr};
}  // namespace

// What the header this library was built with says (hip_version.h), as AMD reports it.
WEFT_EXPORT size_t amd_dbgapi_get_build_id() { return HIP_VERSION_BUILD_ID; }
WEFT_EXPORT const char* amd_dbgapi_get_build_name() { return HIP_VERSION_BUILD_NAME; }
WEFT_EXPORT const char* amd_dbgapi_get_git_hash() { return HIP_VERSION_GITHASH; }

// hiprtc asks for a precompiled hip_runtime.h; weft ships none, so the answer is
// "no header" (null, size 0), which hiprtc treats as "compile the headers instead".
WEFT_EXPORT void __hipGetPCH(const char** pch, unsigned int* size) {
  if (pch) *pch = nullptr;
  if (size) *size = 0;
}

// roctracer's activity callback. weft reports activity through its own timeline
// (WEFT_TRACE, docs/trace.md), not roctracer records, so the callback is kept (a later
// registration replaces it, as in AMD's runtime) but never called; the log says so.
WEFT_EXPORT void hipRegisterTracerCallback(const void* function) {
  g_tracer_callback.store(function, std::memory_order_relaxed);
  log::warning(
      "hipRegisterTracerCallback: weft produces no roctracer activity records; "
      "use WEFT_TRACE for a timeline (docs/trace.md)");
}

// ROCm 5.x's out-of-line form of hipLaunchKernelGGL (amd_detail/functional_grid_launch.hpp):
// `function_address` is the kernel's registered host handle and `kernarg` the `extra`
// array of hipModuleLaunchKernel (HIP_LAUNCH_PARAM_BUFFER_POINTER, the packed arguments,
// HIP_LAUNCH_PARAM_BUFFER_SIZE, ..., HIP_LAUNCH_PARAM_END).
namespace hip_impl {
__attribute__((visibility("default"))) void hipLaunchKernelGGLImpl(
    uintptr_t function_address, const dim3& numBlocks, const dim3& dimBlocks,
    uint32_t sharedMemBytes, hipStream_t stream, void** kernarg) {
  // Void, as in AMD's library: failures are the thread's last error (hipGetLastError),
  // and each call below logs its own.
  hipFunction_t function = nullptr;
  if (hipGetFuncBySymbol(&function, reinterpret_cast<const void*>(function_address)) != hipSuccess)
    return;
  (void)hipModuleLaunchKernel(function, numBlocks.x, numBlocks.y, numBlocks.z, dimBlocks.x,
                              dimBlocks.y, dimBlocks.z, sharedMemBytes, stream, nullptr, kernarg);
}
}  // namespace hip_impl
