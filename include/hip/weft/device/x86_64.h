// SPDX-License-Identifier: MIT
// The x86-64 device pass's primitive layer (README.md in this folder): weftcc's CPU image.
//
// Kernels run on the CPU engine exactly as the g++ single-source path runs them
// (docs/cpu-engine.md): the image's entry (x86_64_image.h) loops over a block's threads
// and falls back to fibers at the first barrier or warp operation, and the fast paths of
// both are the inline ones of hip/weft/fiber_sync.h, through hip/weft/single_source.h's
// engine part. Every GPU built-in is one of the __weft_cpu_* markers
// (hip/weft/cpu_device_abi.h), defined here always_inline, so that the block-loop pass
// sees them as calls and, without it, they inline to what the g++ path runs.
#ifndef WEFT_HIP_DEVICE_X86_64_H
#define WEFT_HIP_DEVICE_X86_64_H

#if !defined(WEFT_CPU_DEVICE_PASS)
#error "hip/weft/device/x86_64.h is the x86-64 device pass of weftcc (the CPU image)"
#endif

#include <hip/weft/cpu_device_abi.h>
#include <hip/weft/kernel_abi.h>
#include <hip/weft/single_source.h>

#include <time.h>

#define WEFT_DEVICE_WARP_SIZE WEFT_CPU_WARP_SIZE

namespace weft::cpu_image {

WEFT_FIBER_INLINE uint32_t coordinate(const ::weft::detail::Uint3& v, uint32_t dim) {
  return dim == 0 ? v.x : dim == 1 ? v.y : v.z;
}

// The call site of a warp operation: the address of this instruction in the inlined copy.
// Every lane runs the same code, so lanes at one operation of the source meet at one
// address; the engine completes divergent groups lowest address first, which is the
// code laid out first (docs/cpu-engine.md: matched by call site).
WEFT_FIBER_INLINE uint64_t call_site() {
  const void* pc;
  __asm__ volatile("leaq 0(%%rip), %0" : "=r"(pc));
  return reinterpret_cast<uintptr_t>(pc);
}

// The block's dynamic shared memory: one per worker thread, as large as the CPU agent
// allows (drivers/cpu: 64 KiB per block). extern __shared__ arrays are bound to it (the
// image aliases their symbols to this one), so every form names the same bytes.
inline constexpr size_t kDynamicSharedBytes = 64 * 1024;
extern "C" {
// (constant-initialized: no C++ thread_local init hook is referenced)
extern __device__ thread_local __attribute__((aligned(64), visibility("hidden"),
                                              require_constant_initialization)) unsigned char
    __weft_cpu_dynamic_shared_storage[kDynamicSharedBytes];
}

}  // namespace weft::cpu_image

extern "C" {
WEFT_FIBER_INLINE uint32_t __weft_cpu_thread_idx(uint32_t dim) {
  return ::weft::cpu_image::coordinate(::weft::detail::t_threadIdx, dim);
}
WEFT_FIBER_INLINE uint32_t __weft_cpu_block_idx(uint32_t dim) {
  return ::weft::cpu_image::coordinate(::weft::detail::t_blockIdx, dim);
}
WEFT_FIBER_INLINE uint32_t __weft_cpu_block_dim(uint32_t dim) {
  return ::weft::cpu_image::coordinate(::weft::detail::t_blockDim, dim);
}
WEFT_FIBER_INLINE uint32_t __weft_cpu_grid_dim(uint32_t dim) {
  return ::weft::cpu_image::coordinate(::weft::detail::t_gridDim, dim);
}
WEFT_FIBER_INLINE void __weft_cpu_barrier(void) {
  ::weft::detail::sync_threads(0, WEFT_REDUCE_NONE);
}
WEFT_FIBER_INLINE int __weft_cpu_barrier_reduce(int predicate, int op) {
  return ::weft::detail::sync_threads(predicate, op);
}
WEFT_FIBER_INLINE uint64_t __weft_cpu_warp_read(uint64_t value, uint32_t src_lane) {
  uint64_t mask = 0;
  const uint64_t* values =
      ::weft::detail::warp_exchange_at(value, &mask, ::weft::cpu_image::call_site());
  return src_lane < WEFT_CPU_WARP_SIZE && (mask >> src_lane & 1) ? values[src_lane] : value;
}
WEFT_FIBER_INLINE uint64_t __weft_cpu_warp_ballot(int predicate) {
  uint64_t mask = 0;
  const uint64_t* values = ::weft::detail::warp_exchange_at(uint64_t(predicate != 0), &mask,
                                                            ::weft::cpu_image::call_site());
  uint64_t result = 0;
  for (int lane = 0; lane < WEFT_CPU_WARP_SIZE; ++lane)
    if ((mask >> lane & 1) && values[lane]) result |= uint64_t(1) << lane;
  return result;
}
WEFT_FIBER_INLINE void __weft_cpu_warp_sync(void) {
  uint64_t mask = 0;
  ::weft::detail::warp_exchange_at(0, &mask, ::weft::cpu_image::call_site());
}
WEFT_FIBER_INLINE void* __weft_cpu_dynamic_shared(void) {
  return ::weft::cpu_image::__weft_cpu_dynamic_shared_storage;
}
// The block-loop pass folds these to 1 for the kernels it turned into whole blocks
// (ranges of them; one block: entries that ask only is_whole_block).
WEFT_FIBER_INLINE int __weft_cpu_kernel_is_whole_block(const void*) { return 0; }
WEFT_FIBER_INLINE int __weft_cpu_kernel_runs_block_ranges(const void*) { return 0; }
// What a kernel rewritten for ranges calls (x86_64_image.h's entry has set t_ctx).
WEFT_FIBER_INLINE uint64_t __weft_cpu_block_range(uint32_t which) {
  return which == 0 ? ::weft::detail::t_ctx->blockBegin : ::weft::detail::t_ctx->blockEnd;
}
WEFT_FIBER_INLINE int __weft_cpu_block_enter(uint32_t x, uint32_t y, uint32_t z) {
  weftKernelContext* ctx = ::weft::detail::t_ctx;
  if (__atomic_load_n(ctx->stop, __ATOMIC_RELAXED)) return 1;  // another block failed
  ::weft::detail::t_blockIdx = ::weft::detail::Uint3{x, y, z};
  ctx->blockIdx = dim3(x, y, z);
  return 0;
}
}  // extern "C"

// ---- the primitive layer ----

WEFT_FIBER_INLINE uint32_t __weft_thread_idx(uint32_t dim) { return __weft_cpu_thread_idx(dim); }
WEFT_FIBER_INLINE uint32_t __weft_block_idx(uint32_t dim) { return __weft_cpu_block_idx(dim); }
WEFT_FIBER_INLINE uint32_t __weft_block_dim(uint32_t dim) { return __weft_cpu_block_dim(dim); }
WEFT_FIBER_INLINE uint32_t __weft_grid_dim(uint32_t dim) { return __weft_cpu_grid_dim(dim); }
// A fiber's lane is its linear thread id modulo the warp width, as in the g++ path.
WEFT_FIBER_INLINE uint32_t __weft_lane_id() {
  const uint32_t x = __weft_cpu_thread_idx(0), y = __weft_cpu_thread_idx(1),
                 z = __weft_cpu_thread_idx(2);
  return (x + __weft_cpu_block_dim(0) * (y + __weft_cpu_block_dim(1) * z)) % WEFT_CPU_WARP_SIZE;
}
WEFT_FIBER_INLINE void __weft_barrier() { __weft_cpu_barrier(); }
WEFT_FIBER_INLINE int __weft_barrier_reduce(int predicate, int op) {
  return __weft_cpu_barrier_reduce(predicate, op);
}
// Global and shared memory are one coherence domain on the host: every scope is a full fence.
WEFT_FIBER_INLINE void __weft_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
WEFT_FIBER_INLINE uint64_t __weft_warp_read(uint64_t value, uint32_t src_lane) {
  return __weft_cpu_warp_read(value, src_lane);
}
WEFT_FIBER_INLINE uint64_t __weft_warp_ballot(int predicate) {
  return __weft_cpu_warp_ballot(predicate);
}
WEFT_FIBER_INLINE void __weft_warp_sync() { __weft_cpu_warp_sync(); }
WEFT_FIBER_INLINE void* __weft_dynamic_shared() { return __weft_cpu_dynamic_shared(); }
// The timestamp counter, as the g++ path's clock64 (hip/weft/device_clock.h).
WEFT_FIBER_INLINE long long __weft_clock64() {
  uint32_t low, high;  // rdtsc, spelled out: the builtin is a host-only target builtin here
  __asm__ volatile("rdtsc" : "=a"(low), "=d"(high));
  return static_cast<long long>(uint64_t(high) << 32 | low);
}
WEFT_FIBER_INLINE long long __weft_wall_clock64() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<long long>(now.tv_sec) * 1000000000ll + now.tv_nsec;
}
WEFT_FIBER_INLINE int __weft_wall_clock_khz() { return 1000000; }

// grid.sync(): the g++ path's algorithm (hip_cooperative_groups.h). A block of a cooperative
// launch owns its worker thread, so this counts the grid syncs of the block running here;
// every GPU thread reads it before the first barrier, the first one past it arrives for
// the block at the engine's grid barrier.
namespace weft::cpu_image {
inline __device__ thread_local WEFT_SS_TLS_ unsigned t_grid_syncs = 0;
}
inline void __weft_grid_sync() {
  const unsigned seen = ::weft::cpu_image::t_grid_syncs;
  __weft_cpu_barrier();
  if (::weft::cpu_image::t_grid_syncs == seen) {
    ::weft::cpu_image::t_grid_syncs = seen + 1;
    weftGridSync();
  }
  __weft_cpu_barrier();
}
// Records which GPU thread failed, then stops its block: the launch reports hipErrorAssert.
[[noreturn]] inline void __weft_assert_fail(const char* expression, const char* file, unsigned line,
                                            const char* function) {
  if (::weft::detail::t_ctx) {
    ::weft::detail::YieldPoint here;
    weftKernelAssertFail(expression, file, line, function);
  }
  __assert_fail(expression, file, line, function);
}

#endif  // WEFT_HIP_DEVICE_X86_64_H
