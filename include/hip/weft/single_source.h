// SPDX-License-Identifier: MIT
// The HIP kernel language for ordinary C++ compilers: kernels are plain C++
// functions that weft's CPU agent runs once per GPU thread.
//
// What a kernel sees: threadIdx/blockIdx/blockDim/gridDim (read from the
// worker's weftKernelContext), __shared__ (thread_local: a block runs on one OS
// thread, so its GPU threads share it), __syncthreads, HIP_DYNAMIC_SHARED,
// atomics and fences. `extern __shared__` arrays need device-compiler support and
// are not available here; use HIP_DYNAMIC_SHARED.
#ifndef WEFT_HIP_SINGLE_SOURCE_H
#define WEFT_HIP_SINGLE_SOURCE_H

#include <hip/weft/kernel_abi.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <type_traits>
#include <utility>

#ifndef __global__
#define __global__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __host__
#define __host__
#endif
#ifndef __shared__
#define __shared__ thread_local
#endif
#ifndef __constant__
#define __constant__
#endif
#ifndef __managed__
#define __managed__
#endif
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif
// __noinline__ is deliberately not defined: libstdc++ spells its own attribute
// __attribute__((__noinline__)), which such a macro would break.
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif
#ifndef __restrict__
#define __restrict__ __restrict
#endif

namespace weft::detail {
// Set by the entry wrapper below (in the user's own binary, so reads are cheap).
inline thread_local weftKernelContext* t_ctx = nullptr;
}  // namespace weft::detail

#define threadIdx (::weft::detail::t_ctx->threadIdx)
#define blockIdx (::weft::detail::t_ctx->blockIdx)
#define blockDim (::weft::detail::t_ctx->blockDim)
#define gridDim (::weft::detail::t_ctx->gridDim)

// The CPU agent's wavefront width (hipDeviceProp_t::warpSize reports the same).
inline constexpr int warpSize = 32;

#define HIP_DYNAMIC_SHARED(type, var) \
  type* var = static_cast<type*>(::weft::detail::t_ctx->dynamicShared)
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#define HIP_KERNEL_NAME(...) __VA_ARGS__

inline void __syncthreads() { weftSyncThreads(); }
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// ---- atomics (global and shared memory are both plain host memory here) ----
namespace weft::detail {
template <typename T>
inline std::atomic_ref<T> atomic(T* address) {
  return std::atomic_ref<T>(*address);
}
template <typename T, typename F>
inline T atomic_update(T* address, F update) {
  auto ref = atomic(address);
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, update(old), std::memory_order_seq_cst)) {
  }
  return old;
}
}  // namespace weft::detail

template <typename T>
inline T atomicAdd(T* address, T value) {
  return ::weft::detail::atomic(address).fetch_add(value);
}
template <typename T>
inline T atomicSub(T* address, T value) {
  return ::weft::detail::atomic(address).fetch_sub(value);
}
template <typename T>
inline T atomicExch(T* address, T value) {
  return ::weft::detail::atomic(address).exchange(value);
}
template <typename T>
inline T atomicMin(T* address, T value) {
  return ::weft::detail::atomic_update(address, [value](T old) { return value < old ? value : old; });
}
template <typename T>
inline T atomicMax(T* address, T value) {
  return ::weft::detail::atomic_update(address, [value](T old) { return value > old ? value : old; });
}
template <typename T>
inline T atomicAnd(T* address, T value) {
  return ::weft::detail::atomic(address).fetch_and(value);
}
template <typename T>
inline T atomicOr(T* address, T value) {
  return ::weft::detail::atomic(address).fetch_or(value);
}
template <typename T>
inline T atomicXor(T* address, T value) {
  return ::weft::detail::atomic(address).fetch_xor(value);
}
template <typename T>
inline T atomicCAS(T* address, T compare, T value) {
  ::weft::detail::atomic(address).compare_exchange_strong(compare, value);
  return compare;
}
inline unsigned atomicInc(unsigned* address, unsigned limit) {
  return ::weft::detail::atomic_update(address, [limit](unsigned old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned atomicDec(unsigned* address, unsigned limit) {
  return ::weft::detail::atomic_update(
      address, [limit](unsigned old) { return (old == 0 || old > limit) ? limit : old - 1; });
}

// ---- launching ----
namespace weft::detail {

template <typename... Params>
struct KernelBlob {
  void (*kernel)(Params...);
  std::tuple<std::decay_t<Params>...> args;
};

template <typename Blob>
void kernel_entry(weftKernelContext* ctx, void* blob) {
  t_ctx = ctx;
  auto* b = static_cast<Blob*>(blob);
  std::apply(b->kernel, b->args);
}

template <typename Blob>
void destroy_blob(void* blob) {
  delete static_cast<Blob*>(blob);
}

template <typename... Params, typename... Args>
hipError_t launch(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block,
                  size_t shared_bytes, hipStream_t stream, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "hipLaunchKernelGGL: wrong number of kernel arguments");
  using Blob = KernelBlob<Params...>;
  // Arguments are copied now, as a GPU launch copies them into its kernarg segment.
  auto* blob = new Blob{kernel, std::tuple<std::decay_t<Params>...>(std::forward<Args>(args)...)};
  weftHostKernel k{WEFT_KERNEL_ABI_VERSION, &kernel_entry<Blob>, blob, &destroy_blob<Blob>, name};
  return weftLaunchHostKernel(&k, grid, block, shared_bytes, stream);
}

}  // namespace weft::detail

#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...)                    \
  static_cast<void>(::weft::detail::launch(#kernel, kernel, dim3(grid), dim3(block),          \
                                           static_cast<size_t>(shared_bytes), stream,         \
                                           ##__VA_ARGS__))

#endif  // WEFT_HIP_SINGLE_SOURCE_H
