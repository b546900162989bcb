// SPDX-License-Identifier: MIT
// The contract between single-source kernels compiled into a user's program by an
// ordinary C++ compiler and weft's CPU execution engine.
//
// A launch hands the runtime a weftHostKernel: an entry function instantiated in
// the user's translation unit plus a heap blob holding the kernel's arguments.
// The engine calls `entry(ctx, args)` once per GPU thread; before each call (and
// after every switch between GPU threads) it updates `*ctx`, which the kernel
// reads through threadIdx/blockIdx/blockDim/gridDim. `ctx` belongs to one worker
// thread and stays valid for the whole block.
//
// Versioned by WEFT_KERNEL_ABI_VERSION; the runtime rejects other versions.
#ifndef WEFT_HIP_KERNEL_ABI_H
#define WEFT_HIP_KERNEL_ABI_H

#include <hip/hip_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#define WEFT_KERNEL_ABI_VERSION 1u

#ifdef __cplusplus
extern "C" {
#endif

typedef struct weftKernelContext {
  dim3 threadIdx;
  dim3 blockIdx;
  dim3 blockDim;
  dim3 gridDim;
  void* dynamicShared;   // per-block dynamic shared memory (NULL when none was asked for)
  size_t dynamicSharedBytes;
  void* engine;          // opaque to kernels
} weftKernelContext;

typedef void (*weftKernelEntry)(weftKernelContext* ctx, void* args);

typedef struct weftHostKernel {
  uint32_t abiVersion;       // WEFT_KERNEL_ABI_VERSION
  weftKernelEntry entry;
  void* args;                // owned by the runtime once passed to weftLaunchHostKernel
  void (*destroyArgs)(void* args);
  const char* name;          // for logs and traces; static storage
} weftHostKernel;

// Launches a single-source kernel. Takes ownership of kernel->args in every case
// (destroyed with destroyArgs after the last GPU thread ran, or at once on error).
// Fails with hipErrorNoBinaryForGpu on agents that cannot run host code.
hipError_t weftLaunchHostKernel(const weftHostKernel* kernel, dim3 grid, dim3 block,
                                size_t dynamicSharedBytes, hipStream_t stream);

// Barrier for the GPU threads of the calling block (__syncthreads).
void weftSyncThreads(void);

// The calling worker's kernel context (NULL outside a kernel).
weftKernelContext* weftGetKernelContext(void);

// Dynamic shared memory of the calling block (HIP_DYNAMIC_SHARED).
void* weftDynamicShared(void);

#ifdef __cplusplus
}
#endif

#endif  // WEFT_HIP_KERNEL_ABI_H
