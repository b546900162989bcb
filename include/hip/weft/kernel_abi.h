// SPDX-License-Identifier: MIT
// The contract between single-source kernels compiled into a user's program by an
// ordinary C++ compiler and weft's CPU execution engine (ABI version 4).
//
// A launch hands the runtime a weftHostKernel: an entry function instantiated in
// the user's translation unit plus a heap blob holding the kernel's arguments.
// Each worker of the engine calls `entry(ctx, args)` for a range of blocks
// [ctx->blockBegin, ctx->blockEnd) (linear block ids, x fastest):
//
// - ctx->mode == WEFT_KERNEL_LOOP: the entry runs every GPU thread of every block
//   of the range itself, in order, as a plain loop. When a thread reaches a
//   barrier or a warp operation, the engine turns the block into fibers and sets
//   ctx->mode to a fiber mode; the entry then returns as soon as the kernel call
//   it is running returns, and the engine runs the rest of the range on fibers.
//   Before such a call the caller stores its threadIdx and blockIdx in ctx (the
//   inline wrappers in single_source.h do this).
// - ctx->mode == WEFT_KERNEL_FIBER or WEFT_KERNEL_FIBER_INLINE: the entry runs on
//   a fiber as GPU thread ctx->fibers->current of block ctx->blockIdx. When the
//   kernel returns it calls weftFiberExit() (or its inline fast path), which
//   returns the thread to run next on this fiber (the same slot, in the next
//   block) or WEFT_FIBER_DONE, and the entry returns.
//
// Fibers wait and hand over through weftFiberBlock, shared with the header's
// inline fast paths (hip/weft/fiber_sync.h). WEFT_KERNEL_FIBER_INLINE says the
// engine accepts fiber switches done by inline code (x86-64, no sanitizer).
#ifndef WEFT_HIP_KERNEL_ABI_H
#define WEFT_HIP_KERNEL_ABI_H

#include <hip/hip_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#define WEFT_KERNEL_ABI_VERSION 4u
#define WEFT_CPU_WARP_SIZE 32

#define WEFT_KERNEL_LOOP 0u
#define WEFT_KERNEL_FIBER 1u
#define WEFT_KERNEL_FIBER_INLINE 2u
#define WEFT_FIBER_DONE 0xffffffffu
#define WEFT_WARP_SITE_DIVERGENT 0xffffffffffffffffull

#define WEFT_REDUCE_NONE 0
#define WEFT_REDUCE_COUNT 1
#define WEFT_REDUCE_AND 2
#define WEFT_REDUCE_OR 3

#ifdef __cplusplus
extern "C" {
#endif

// One GPU thread's fiber, one cache line: where it resumes, what it waits for,
// its successors. A waiting thread may run again once *waitsOn != seen.
typedef struct weftFiber {
  void* sp;        // saved stack pointer, instruction pointer and frame
  const void* pc;  // pointer while the thread is switched out (x86-64;
  void* bp;        // other architectures keep a Boost.Context handle in sp)
  const uint32_t* waitsOn;
  uint32_t seen;
  uint32_t next;          // next thread of the block ring
  uint32_t warpNext;      // next lane of the same warp (a ring)
  uint32_t threadIdx[3];  // this thread's threadIdx
  uint32_t reserved[2];
} weftFiber;

// A warp's exchanges. Lanes exchange with the lanes at the same call site (site,
// hip/weft/fiber_sync.h): `site` is the open exchange's, or
// WEFT_WARP_SITE_DIVERGENT while the engine holds lanes waiting at other sites.
typedef struct weftWarpState {
  uint32_t alive;       // lanes that have not returned
  uint32_t arrived;     // lanes waiting at a warp operation (at any site)
  uint32_t generation;  // exchanges of the open site completed
  uint32_t reserved;
  uint64_t site;      // call site of the open exchange
  uint64_t masks[2];  // lanes that took part, by generation parity
  uint64_t values[2][WEFT_CPU_WARP_SIZE];
} weftWarpState;

typedef struct weftBarrierResult {
  uint32_t trueCount;
  uint32_t arrived;
} weftBarrierResult;

// The block running on fibers on one worker (hot state of every crossing).
typedef struct weftFiberBlock {
  weftFiber* fibers;  // by linear thread id
  weftWarpState* warps;
  uint32_t current;              // the GPU thread running now
  uint32_t alive;                // threads of the block that have not returned
  uint32_t arrived;              // threads waiting at the pending __syncthreads
  uint32_t generation;           // __syncthreads completed
  uint32_t trueCount;            // predicates true in the pending generation
  uint32_t blockSerial;          // moves on when a block ends: returned threads wait on it
  uint32_t rangeDone;            // set when the range's last block ended
  uint32_t orderedRing;          // n > 0: the rings are thread order over [0, n), next = me + 1
  weftBarrierResult results[2];  // of the last two generations (by parity)
} weftFiberBlock;

typedef struct weftKernelContext {
  dim3 threadIdx;  // in loop mode: the caller of an engine function
  dim3 blockIdx;   // the block running (fiber modes) or the caller's (loop mode)
  dim3 blockDim;
  dim3 gridDim;
  void* dynamicShared;  // per-block dynamic shared memory (NULL when none was asked for)
  size_t dynamicSharedBytes;
  uint32_t mode;  // WEFT_KERNEL_LOOP, _FIBER or _FIBER_INLINE
  uint32_t reserved;
  void* engine;         // opaque to kernels
  uint64_t blockBegin;  // the range of linear block ids this call runs
  uint64_t blockEnd;
  const uint32_t* stop;  // nonzero (read relaxed) once another block failed: stop early
  weftFiberBlock* fibers;
  // Where the entry keeps its own pointer to `fibers` (a thread_local of the
  // kernel's binary); the engine clears it when a range ends, aborted or not.
  weftFiberBlock** inlineFibers;
} weftKernelContext;

typedef void (*weftKernelEntry)(weftKernelContext* ctx, void* args);

typedef struct weftHostKernel {
  uint32_t abiVersion;  // WEFT_KERNEL_ABI_VERSION
  weftKernelEntry entry;
  void* args;  // owned by the runtime once passed to weftLaunchHostKernel
  void (*destroyArgs)(void* args);
  const char* name;  // for logs and traces; static storage
  // For graph kernel nodes (hipKernelNodeParams), where arguments travel as
  // kernelParams: argument i is at kernelParams[i]. All may be NULL.
  const void* function;  // the kernel function itself
  uint32_t argCount;
  void* (*packArgs)(void* const* kernelParams);  // a new blob for entry/destroyArgs
  void (*argAddresses)(void* args, void** out);  // out[i] = address of argument i in args
} weftHostKernel;

// Launches a single-source kernel. Takes ownership of kernel->args in every case
// (destroyed with destroyArgs after the last GPU thread ran, or at once on error).
// Fails with hipErrorNoBinaryForGpu on agents that cannot run host code.
hipError_t weftLaunchHostKernel(const weftHostKernel* kernel, dim3 grid, dim3 block,
                                size_t dynamicSharedBytes, hipStream_t stream);

// Reports a launch that the header refused before reaching the runtime (a null
// kernel, missing arguments): logs `why` under `api`'s name, sets the last
// error, and returns `error`.
hipError_t weftLaunchFailed(const char* api, hipError_t error, const char* why);
// hipLaunchCooperativeKernel for a single-source kernel: every block is resident
// at once, so blocks may wait for each other at weftGridSync. `kernel` describes
// an entry that calls the kernel through a pointer: its args are NULL, and
// packArgs takes the address of kernel->function followed by the kernel's
// argCount arguments (kernelParams[i] points at argument i). Fails with
// hipErrorCooperativeLaunchTooLarge when the grid has more blocks than the
// occupancy queries allow at once (blocks per unit x multiProcessorCount).
hipError_t weftLaunchCooperativeHostKernel(const weftHostKernel* kernel, dim3 grid, dim3 block,
                                           void** kernelParams, size_t dynamicSharedBytes,
                                           hipStream_t stream);
// grid.sync() for one GPU thread per block (its other threads wait at a block
// barrier around it): returns once every live block of the cooperative launch
// arrived. In a launch that is not cooperative, the block fails and the launch
// reports hipErrorLaunchFailure.
void weftGridSync(void);
// Nonzero while the caller runs a block of a cooperative launch (grid.is_valid()).
int weftGridIsCooperative(void);

// __syncthreads for the GPU threads of the calling block.
void weftSyncThreads(void);
// __syncthreads_count/_and/_or: a barrier that also reduces `predicate` (op is a
// WEFT_REDUCE_* value) over the block's live threads.
int weftSyncThreadsReduce(int predicate, int op);
// A warp-wide exchange at call site `site` (weft::fiber::warp_site): every live
// lane of the caller's warp at the same site contributes `value`; returns the
// WEFT_CPU_WARP_SIZE values by lane (valid until the caller's next warp operation)
// and the mask of lanes that took part.
const uint64_t* weftWarpCollective(uint64_t value, uint64_t* activeMask, uint64_t site);
// Fiber slow paths for the inline code of hip/weft/fiber_sync.h. weftFiberWait:
// the calling thread was resumed while what it waits for is still pending; returns
// (with the thread's id) once it may run. weftFiberExit: the calling thread's
// kernel returned; returns the id of the thread this fiber runs next (same slot,
// next block) or WEFT_FIBER_DONE when the range is over.
uint32_t weftFiberWait(void);
uint32_t weftFiberExit(void);
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
