// SPDX-License-Identifier: MIT
// The contract between single-source kernels compiled into a user's program by an
// ordinary C++ compiler and weft's CPU execution engine (ABI version 2).
//
// A launch hands the runtime a weftHostKernel: an entry function instantiated in
// the user's translation unit plus a heap blob holding the kernel's arguments.
// The engine calls `entry(ctx, args)` once per block with ctx->mode ==
// WEFT_KERNEL_LOOP: the entry then runs every GPU thread of the block itself, in
// order (x fastest), as a plain loop. Only when a thread reaches a barrier or a
// warp operation does the engine switch the block to fibers: it sets ctx->mode
// to WEFT_KERNEL_SINGLE, the entry returns after the thread it is running, and
// each later thread gets its own call on its own stack with ctx->threadIdx set.
//
// Functions that may switch GPU threads (barriers, warp operations) must be told
// which thread calls them: the caller stores its threadIdx in ctx->threadIdx first
// (the inline wrappers in single_source.h do this).
#ifndef WEFT_HIP_KERNEL_ABI_H
#define WEFT_HIP_KERNEL_ABI_H

#include <hip/hip_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#define WEFT_KERNEL_ABI_VERSION 2u
#define WEFT_CPU_WARP_SIZE 32

#define WEFT_KERNEL_LOOP 0u
#define WEFT_KERNEL_SINGLE 1u

#define WEFT_REDUCE_NONE 0
#define WEFT_REDUCE_COUNT 1
#define WEFT_REDUCE_AND 2
#define WEFT_REDUCE_OR 3

#ifdef __cplusplus
extern "C" {
#endif

typedef struct weftKernelContext {
  dim3 threadIdx;
  dim3 blockIdx;
  dim3 blockDim;
  dim3 gridDim;
  void* dynamicShared;  // per-block dynamic shared memory (NULL when none was asked for)
  size_t dynamicSharedBytes;
  uint32_t mode;        // WEFT_KERNEL_LOOP or WEFT_KERNEL_SINGLE
  uint32_t reserved;
  void* engine;         // opaque to kernels
} weftKernelContext;

typedef void (*weftKernelEntry)(weftKernelContext* ctx, void* args);

typedef struct weftHostKernel {
  uint32_t abiVersion;  // WEFT_KERNEL_ABI_VERSION
  weftKernelEntry entry;
  void* args;           // owned by the runtime once passed to weftLaunchHostKernel
  void (*destroyArgs)(void* args);
  const char* name;     // for logs and traces; static storage
  // For graph kernel nodes (hipKernelNodeParams), where arguments travel as
  // kernelParams: argument i is at kernelParams[i]. All may be NULL.
  const void* function;                            // the kernel function itself
  uint32_t argCount;
  void* (*packArgs)(void* const* kernelParams);    // a new blob for entry/destroyArgs
  void (*argAddresses)(void* args, void** out);    // out[i] = address of argument i in args
} weftHostKernel;

// Launches a single-source kernel. Takes ownership of kernel->args in every case
// (destroyed with destroyArgs after the last GPU thread ran, or at once on error).
// Fails with hipErrorNoBinaryForGpu on agents that cannot run host code.
hipError_t weftLaunchHostKernel(const weftHostKernel* kernel, dim3 grid, dim3 block,
                                size_t dynamicSharedBytes, hipStream_t stream);

// __syncthreads for the GPU threads of the calling block.
void weftSyncThreads(void);
// __syncthreads_count/_and/_or: a barrier that also reduces `predicate` (op is a
// WEFT_REDUCE_* value) over the block's live threads.
int weftSyncThreadsReduce(int predicate, int op);
// A warp-wide exchange: every live lane of the caller's warp contributes `value`;
// returns the WEFT_CPU_WARP_SIZE values by lane (valid until the caller's next
// warp operation) and the mask of lanes that took part.
const uint64_t* weftWarpCollective(uint64_t value, uint64_t* activeMask);
// A failed device-side assert: stops the block; the launch reports hipErrorAssert.
void weftKernelAssertFail(const char* expression, const char* file, unsigned line,
                          const char* function);

// The calling worker's kernel context (NULL outside a kernel).
weftKernelContext* weftGetKernelContext(void);
// Dynamic shared memory of the calling block (HIP_DYNAMIC_SHARED).
void* weftDynamicShared(void);

#ifdef __cplusplus
}
#endif

#endif  // WEFT_HIP_KERNEL_ABI_H
