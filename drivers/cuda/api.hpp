// SPDX-License-Identifier: MIT
// The CUDA driver API as a table of function pointers, filled from libcuda.so.1
// with dlopen/dlsym at first use. Every cu* function the driver calls is listed
// once in WEFT_CUDA_SYMBOLS. cuda.h maps many names to versioned ABI symbols
// (cuMemAlloc → cuMemAlloc_v2); the table follows that mapping, so members and
// dlsym names are always the versions this header declares.
//
// Tests swap in a fake table with set_api_for_testing(). The table is immutable
// once published; thread-safe to read.
#pragma once

#include <cuda.h>

#include <string>

namespace weft::cuda {

// X(name): a required symbol. O(name): optional (null when the driver lacks it).
#define WEFT_CUDA_SYMBOLS(X, O)         \
  X(cuGetErrorName)                     \
  X(cuGetErrorString)                   \
  X(cuInit)                             \
  X(cuDriverGetVersion)                 \
  X(cuDeviceGetCount)                   \
  X(cuDeviceGet)                        \
  X(cuDeviceGetName)                    \
  X(cuDeviceGetUuid)                    \
  X(cuDeviceTotalMem)                   \
  X(cuDeviceGetAttribute)               \
  X(cuDeviceCanAccessPeer)              \
  X(cuDevicePrimaryCtxRetain)           \
  X(cuDevicePrimaryCtxRelease)          \
  X(cuCtxGetCurrent)                    \
  X(cuCtxSetCurrent)                    \
  X(cuCtxGetStreamPriorityRange)        \
  X(cuCtxEnablePeerAccess)              \
  X(cuCtxDisablePeerAccess)             \
  X(cuMemGetInfo)                       \
  X(cuMemAlloc)                         \
  X(cuMemFree)                          \
  X(cuMemHostAlloc)                     \
  X(cuMemFreeHost)                      \
  X(cuMemAllocManaged)                  \
  X(cuMemHostRegister)                  \
  X(cuMemHostUnregister)                \
  X(cuMemHostGetDevicePointer)          \
  X(cuMemGetAddressRange)               \
  X(cuMemcpyAsync)                      \
  X(cuMemcpy2DAsync)                    \
  X(cuMemsetD8Async)                    \
  X(cuMemsetD16Async)                   \
  X(cuMemsetD32Async)                   \
  X(cuMemsetD2D8Async)                  \
  X(cuMemsetD2D16Async)                 \
  X(cuMemsetD2D32Async)                 \
  X(cuStreamCreateWithPriority)         \
  X(cuStreamDestroy)                    \
  X(cuStreamSynchronize)                \
  X(cuStreamQuery)                      \
  X(cuStreamWaitEvent)                  \
  X(cuLaunchHostFunc)                   \
  O(cuStreamWaitValue32)                \
  O(cuMemFreeAsync)                     \
  X(cuEventCreate)                      \
  X(cuEventDestroy)                     \
  X(cuEventRecord)                      \
  X(cuEventQuery)                       \
  X(cuEventSynchronize)                 \
  X(cuEventElapsedTime)                 \
  X(cuModuleLoadData)                   \
  X(cuModuleUnload)                     \
  X(cuModuleGetFunction)                \
  X(cuModuleGetGlobal)                  \
  X(cuFuncGetAttribute)                 \
  X(cuFuncSetAttribute)                 \
  O(cuFuncGetParamInfo)                 \
  X(cuLaunchKernel)                     \
  O(cuLaunchCooperativeKernel)          \
  O(cuCtxSetLimit)                      \
  O(cuCtxGetLimit)                      \
  X(cuIpcGetMemHandle)                  \
  X(cuIpcOpenMemHandle)                 \
  X(cuIpcCloseMemHandle)                \
  X(cuIpcGetEventHandle)                \
  X(cuIpcOpenEventHandle)               \
  O(cuPointerGetAttribute)              \
  O(cuGraphCreate)                      \
  O(cuGraphDestroy)                     \
  O(cuGraphAddKernelNode)               \
  O(cuGraphAddMemcpyNode)               \
  O(cuGraphAddMemsetNode)               \
  O(cuGraphAddEventRecordNode)          \
  O(cuGraphAddEventWaitNode)            \
  O(cuGraphInstantiateWithFlags)        \
  O(cuGraphExecDestroy)                 \
  O(cuGraphLaunch)                      \
  O(cuGraphExecKernelNodeSetParams)     \
  O(cuGraphExecMemcpyNodeSetParams)     \
  O(cuGraphExecMemsetNodeSetParams)     \
  O(cuGraphExecEventRecordNodeSetEvent) \
  O(cuGraphExecEventWaitNodeSetEvent)   \
  O(cuGraphNodeSetEnabled)              \
  O(cuMemGetAllocationGranularity)      \
  O(cuMemCreate)                        \
  O(cuMemRelease)                       \
  O(cuMemAddressReserve)                \
  O(cuMemAddressFree)                   \
  O(cuMemMap)                           \
  O(cuMemUnmap)                         \
  O(cuMemSetAccess)                     \
  O(cuMemExportToShareableHandle)       \
  O(cuMemImportFromShareableHandle)     \
  O(cuImportExternalMemory)             \
  O(cuExternalMemoryGetMappedBuffer)    \
  O(cuDestroyExternalMemory)            \
  O(cuImportExternalSemaphore)          \
  O(cuSignalExternalSemaphoresAsync)    \
  O(cuWaitExternalSemaphoresAsync)      \
  O(cuDestroyExternalSemaphore)         \
  O(cuArray3DCreate)                    \
  O(cuArrayDestroy)                     \
  O(cuMipmappedArrayCreate)             \
  O(cuMipmappedArrayDestroy)            \
  O(cuMipmappedArrayGetLevel)           \
  O(cuMemcpy3DAsync)                    \
  O(cuTexObjectCreate)                  \
  O(cuTexObjectDestroy)                 \
  O(cuSurfObjectCreate)                 \
  O(cuSurfObjectDestroy)

struct Api {
#define WEFT_CUDA_MEMBER(name) decltype(&::name) name = nullptr;
  WEFT_CUDA_SYMBOLS(WEFT_CUDA_MEMBER, WEFT_CUDA_MEMBER)
#undef WEFT_CUDA_MEMBER
};

// The library name dlopen looks for.
inline constexpr const char* kLibraryName = "libcuda.so.1";

// The table, loaded on first call; null when libcuda.so.1 or a required symbol
// is missing, with the reason in load_error(). Thread-safe.
const Api* api();
const std::string& load_error();

// Replaces the table for tests; null simulates a machine without libcuda.
// reset_api_for_testing() goes back to the real library. Call only while no
// driver object is in use.
void set_api_for_testing(const Api* fake);
void reset_api_for_testing();

}  // namespace weft::cuda
