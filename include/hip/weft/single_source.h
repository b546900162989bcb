// SPDX-License-Identifier: MIT
// The HIP kernel language for ordinary C++ compilers: kernels are plain C++
// functions that weft's CPU agent runs, one call per GPU thread.
//
// How it is fast: hipLaunchKernelGGL instantiates, in the user's own translation
// unit, an entry that runs all threads of a block as a loop around the kernel
// body (which the compiler can inline). threadIdx & co. live in a thread_local
// of the user's binary. Only a barrier or a warp operation makes the engine give
// GPU threads their own stacks (see kernel_abi.h).
//
// What a kernel sees: threadIdx/blockIdx/blockDim/gridDim, warpSize, __shared__
// (thread_local: a block runs on one OS thread, so its GPU threads share it),
// HIP_DYNAMIC_SHARED, __syncthreads (+ _count/_and/_or), warp shuffles, votes
// and __syncwarp, atomics, fences, bit operations, clock64, device math, printf
// and assert (a failed assert ends the launch with hipErrorAssert).
// `extern __shared__` arrays need a device compiler; use HIP_DYNAMIC_SHARED.
#ifndef WEFT_HIP_SINGLE_SOURCE_H
#define WEFT_HIP_SINGLE_SOURCE_H

#include <hip/weft/fiber_sync.h>
#include <hip/weft/kernel_abi.h>
#include <hip/weft/device_math.h>

#include <assert.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
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

struct Uint3 {
  uint32_t x, y, z;
  operator dim3() const { return dim3(x, y, z); }
};

struct ThreadIds {
  Uint3 thread, block, block_dim, grid_dim;
};

// Read by the threadIdx/blockIdx/blockDim/gridDim macros. Plain data, so
// accesses need no initialization guard.
inline thread_local ThreadIds t_ids;
inline thread_local weftKernelContext* t_ctx = nullptr;
// In fiber mode: the linear id of the GPU thread running now (its fiber slot).
inline thread_local uint32_t t_self = 0;
// The engine's fiber block while this binary's kernel entry runs on fibers that
// may switch inline (WEFT_KERNEL_FIBER_INLINE), else null: one load tells a
// barrier which path to take.
inline thread_local weftFiberBlock* t_fiber_block = nullptr;

inline Uint3 to_uint3(const dim3& d) { return Uint3{d.x, d.y, d.z}; }

// Wraps every engine call that may switch GPU threads: tells the engine which
// thread is calling (in loop mode only the entry's loop knows), and afterwards
// restores this thread's ids, which other GPU threads overwrote meanwhile.
class YieldPoint {
 public:
  YieldPoint() : saved_(t_ids.thread) {
    t_ctx->threadIdx = dim3(saved_.x, saved_.y, saved_.z);
    const Uint3& b = t_ids.block;
    t_ctx->blockIdx = dim3(b.x, b.y, b.z);
  }
  ~YieldPoint() {
    t_ids.thread = saved_;
    t_self = t_ctx->fibers->current;
  }
  YieldPoint(const YieldPoint&) = delete;
  YieldPoint& operator=(const YieldPoint&) = delete;

 private:
  Uint3 saved_;
};

// After an inline switch: `me` runs again. Its threadIdx needs no restoring:
// while t_fiber_block is set, thread_index() reads it from the thread's fiber.
WEFT_FIBER_INLINE void resume_thread(uint32_t me) { t_self = me; }

// threadIdx of the GPU thread running now. In loop mode the entry stores it in
// t_ids (and t_fiber_block is null, which the compiler sees); on fibers that
// switch inline it is the fiber's copy, so a barrier crossing does not rewrite it.
WEFT_FIBER_INLINE Uint3 thread_index() {
#if WEFT_INLINE_FIBER_SWITCH
  if (const weftFiberBlock* fb = t_fiber_block) {
    const uint32_t* index = fb->fibers[t_self].threadIdx;
    return Uint3{index[0], index[1], index[2]};
  }
#endif
  return t_ids.thread;
}

#if WEFT_INLINE_FIBER_SWITCH
struct EngineWait {
  uint32_t operator()(uint32_t) const { return weftFiberWait(); }
};
#endif

WEFT_FIBER_INLINE int sync_threads(int predicate, int op) {
#if WEFT_INLINE_FIBER_SWITCH
  if (weftFiberBlock* fb = t_fiber_block; __builtin_expect(fb != nullptr, 1)) {
    int result = 0;
    uint32_t me = ::weft::fiber::barrier(fb, t_self, predicate, op, &result,
                                         ::weft::fiber::InlineSwitch{}, EngineWait{});
    resume_thread(me);
    return result;
  }
#endif
  // Outside a kernel there is no thread to record; the engine logs the call.
  std::optional<YieldPoint> yield;
  if (t_ctx) yield.emplace();
  if (op == WEFT_REDUCE_NONE) {
    weftSyncThreads();
    return 0;
  }
  return weftSyncThreadsReduce(predicate, op);
}

// The end of a GPU thread in fiber mode: the thread this fiber runs next, or
// WEFT_FIBER_DONE.
WEFT_FIBER_INLINE uint32_t fiber_thread_exit(weftKernelContext* ctx) {
#if WEFT_INLINE_FIBER_SWITCH
  if (__builtin_expect(ctx->mode == WEFT_KERNEL_FIBER_INLINE, 1))
    return ::weft::fiber::thread_exit(ctx->fibers, t_self, ::weft::fiber::InlineSwitch{},
                                      EngineWait{}, [] { return weftFiberExit(); });
#else
  (void)ctx;
#endif
  return weftFiberExit();
}

}  // namespace weft::detail


// The CPU agent's wavefront width (hipDeviceProp_t::warpSize reports the same).
inline constexpr int warpSize = WEFT_CPU_WARP_SIZE;

// Like AMD's macro, it is a complete declaration: no ';' needed after it.
#define HIP_DYNAMIC_SHARED(type, var) \
  type* var = static_cast<type*>(::weft::detail::t_ctx->dynamicShared);
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#define HIP_KERNEL_NAME(...) __VA_ARGS__

// ---- barriers and fences ----

inline void __syncthreads() { ::weft::detail::sync_threads(0, WEFT_REDUCE_NONE); }
inline int __syncthreads_count(int predicate) {
  return ::weft::detail::sync_threads(predicate, WEFT_REDUCE_COUNT);
}
inline int __syncthreads_and(int predicate) {
  return ::weft::detail::sync_threads(predicate, WEFT_REDUCE_AND);
}
inline int __syncthreads_or(int predicate) {
  return ::weft::detail::sync_threads(predicate, WEFT_REDUCE_OR);
}
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// ---- warp operations ----

namespace weft::detail {

inline unsigned linear_thread() {
#if WEFT_INLINE_FIBER_SWITCH
  if (t_fiber_block) return t_self;  // a fiber's id is its linear thread index
#endif
  const ThreadIds& ids = t_ids;
  return ids.thread.x + ids.block_dim.x * (ids.thread.y + ids.block_dim.y * ids.thread.z);
}

template <typename T>
inline uint64_t to_bits(T value) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>,
                "warp operations take values of at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

template <typename T>
inline T from_bits(uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

// Every live lane of the warp contributes `value`; returns all lanes' values.
WEFT_FIBER_INLINE const uint64_t* warp_exchange(uint64_t value, uint64_t* mask) {
#if WEFT_INLINE_FIBER_SWITCH
  if (weftFiberBlock* fb = t_fiber_block; __builtin_expect(fb != nullptr, 1)) {
    uint32_t me = t_self;
    const uint64_t* values = ::weft::fiber::warp_exchange(fb, me, value, mask,
                                                          ::weft::fiber::InlineSwitch{}, EngineWait{});
    resume_thread(me);
    return values;
  }
#endif
  weftKernelContext* ctx = t_ctx;
  if (!ctx) return weftWarpCollective(value, mask);  // logs: outside a kernel
  YieldPoint yield;
  return weftWarpCollective(value, mask);
}

// Reads lane `src` of the exchange, or keeps `var` when src is outside the
// caller's width-sized segment or did not take part.
template <typename T>
inline T shuffle(T var, int src, unsigned lane, int width) {
  unsigned segment = lane & ~unsigned(width - 1);
  uint64_t mask = 0;
  const uint64_t* values = warp_exchange(to_bits(var), &mask);
  if (src < int(segment) || src >= int(segment) + width || !(mask >> src & 1)) return var;
  return from_bits<T>(values[src]);
}

}  // namespace weft::detail

inline unsigned __lane_id() { return ::weft::detail::linear_thread() % WEFT_CPU_WARP_SIZE; }

template <typename T>
inline T __shfl(T var, int src_lane, int width = warpSize) {
  unsigned lane = __lane_id();
  int segment = int(lane & ~unsigned(width - 1));
  return ::weft::detail::shuffle(var, segment + (src_lane & (width - 1)), lane, width);
}
template <typename T>
inline T __shfl_up(T var, unsigned delta, int width = warpSize) {
  unsigned lane = __lane_id();
  return ::weft::detail::shuffle(var, int(lane) - int(delta), lane, width);
}
template <typename T>
inline T __shfl_down(T var, unsigned delta, int width = warpSize) {
  unsigned lane = __lane_id();
  return ::weft::detail::shuffle(var, int(lane + delta), lane, width);
}
template <typename T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize) {
  unsigned lane = __lane_id();
  return ::weft::detail::shuffle(var, int(lane ^ unsigned(lane_mask)), lane, width);
}
inline unsigned long long __ballot(int predicate) {
  uint64_t mask = 0;
  const uint64_t* values = ::weft::detail::warp_exchange(predicate != 0, &mask);
  unsigned long long result = 0;
  for (int l = 0; l < WEFT_CPU_WARP_SIZE; ++l)
    if ((mask >> l & 1) && values[l]) result |= 1ull << l;
  return result;
}
inline int __any(int predicate) { return __ballot(predicate) != 0; }
inline int __all(int predicate) {
  uint64_t mask = 0;
  const uint64_t* values = ::weft::detail::warp_exchange(predicate != 0, &mask);
  for (int l = 0; l < WEFT_CPU_WARP_SIZE; ++l)
    if ((mask >> l & 1) && !values[l]) return 0;
  return 1;
}
inline unsigned long long __activemask() {
  uint64_t mask = 0;
  ::weft::detail::warp_exchange(0, &mask);
  return mask;
}
inline void __syncwarp(unsigned long long = ~0ull) {
  uint64_t mask = 0;
  ::weft::detail::warp_exchange(0, &mask);
}
// CUDA-style _sync forms; the mask is implied by the lanes that arrive.
template <typename T>
inline T __shfl_sync(unsigned long long, T var, int src, int width = warpSize) { return __shfl(var, src, width); }
template <typename T>
inline T __shfl_up_sync(unsigned long long, T var, unsigned d, int width = warpSize) { return __shfl_up(var, d, width); }
template <typename T>
inline T __shfl_down_sync(unsigned long long, T var, unsigned d, int width = warpSize) { return __shfl_down(var, d, width); }
template <typename T>
inline T __shfl_xor_sync(unsigned long long, T var, int m, int width = warpSize) { return __shfl_xor(var, m, width); }
inline unsigned long long __ballot_sync(unsigned long long, int p) { return __ballot(p); }
inline int __any_sync(unsigned long long, int p) { return __any(p); }
inline int __all_sync(unsigned long long, int p) { return __all(p); }

// ---- atomics (global and shared memory are both plain host memory here) ----

// GCC/Clang __atomic builtins rather than std::atomic_ref, so the header works in
// C++17 (g++'s default); floating-point read-modify-writes use a CAS loop.
namespace weft::detail {
template <typename T, typename F>
inline T atomic_update(T* address, F update) {
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T desired = update(old);
  while (!__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
    desired = update(old);
  return old;
}
}  // namespace weft::detail

template <typename T>
inline T atomicAdd(T* address, T value) {
  if constexpr (std::is_integral_v<T>) return __atomic_fetch_add(address, value, __ATOMIC_SEQ_CST);
  else return ::weft::detail::atomic_update(address, [value](T old) { return old + value; });
}
template <typename T>
inline T atomicSub(T* address, T value) {
  if constexpr (std::is_integral_v<T>) return __atomic_fetch_sub(address, value, __ATOMIC_SEQ_CST);
  else return ::weft::detail::atomic_update(address, [value](T old) { return old - value; });
}
template <typename T>
inline T atomicExch(T* address, T value) {
  T old;
  __atomic_exchange(address, &value, &old, __ATOMIC_SEQ_CST);
  return old;
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
inline T atomicAnd(T* address, T value) { return __atomic_fetch_and(address, value, __ATOMIC_SEQ_CST); }
template <typename T>
inline T atomicOr(T* address, T value) { return __atomic_fetch_or(address, value, __ATOMIC_SEQ_CST); }
template <typename T>
inline T atomicXor(T* address, T value) { return __atomic_fetch_xor(address, value, __ATOMIC_SEQ_CST); }
template <typename T>
inline T atomicCAS(T* address, T compare, T value) {
  __atomic_compare_exchange(address, &compare, &value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return compare;
}
inline unsigned atomicInc(unsigned* address, unsigned limit) {
  return ::weft::detail::atomic_update(address, [limit](unsigned old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned atomicDec(unsigned* address, unsigned limit) {
  return ::weft::detail::atomic_update(
      address, [limit](unsigned old) { return (old == 0 || old > limit) ? limit : old - 1; });
}
template <typename T>
inline T atomicAdd_system(T* a, T v) { return atomicAdd(a, v); }
template <typename T>
inline T atomicCAS_system(T* a, T c, T v) { return atomicCAS(a, c, v); }
template <typename T>
inline T atomicExch_system(T* a, T v) { return atomicExch(a, v); }

// ---- clocks ----

inline long long clock64() {
#if defined(__x86_64__) || defined(__i386__)
  return static_cast<long long>(__builtin_ia32_rdtsc());
#else
  return static_cast<long long>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}
inline long long wall_clock64() { return clock64(); }

// ---- assert: inside a kernel a failure ends the launch (hipErrorAssert) ----

#ifndef NDEBUG
namespace weft::detail {
[[noreturn]] inline void assert_fail(const char* expression, const char* file, unsigned line,
                                     const char* function) {
  if (t_ctx) {
    YieldPoint here;  // records which GPU thread failed
    weftKernelAssertFail(expression, file, line, function);
  }
  __assert_fail(expression, file, line, function);
}
}  // namespace weft::detail

#undef assert
#define assert(expr) \
  ((expr) ? static_cast<void>(0) : ::weft::detail::assert_fail(#expr, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#endif

// ---- launching ----

namespace weft::detail {

template <typename F>
struct KernelSignature;
template <typename... P>
struct KernelSignature<void (*)(P...)> {
  using Tuple = std::tuple<std::decay_t<P>...>;
};
template <typename... P>
struct KernelSignature<void (*)(P...) noexcept> {
  using Tuple = std::tuple<std::decay_t<P>...>;
};

// On a fiber: this slot's GPU thread of each block of the range. Flattened: the
// kernel and everything it calls inline here, so a barrier's switch saves only
// the registers live at that point and a thread's end costs one more switch
// (docs/cpu-engine.md measures both).
template <auto Kernel, typename Tuple>
__attribute__((flatten, noinline)) void fiber_loop(weftKernelContext* ctx, Tuple& local) {
  ThreadIds& ids = t_ids;
  weftFiberBlock* fb = ctx->fibers;
  weftFiberBlock* inline_fb = ctx->mode == WEFT_KERNEL_FIBER_INLINE ? fb : nullptr;
  ctx->inlineFibers = &t_fiber_block;
  uint32_t me = fb->current;
  do {
    t_fiber_block = inline_fb;  // an engine call of another GPU thread may have cleared it
    ids.block = to_uint3(ctx->blockIdx);
    resume_thread(me);
    const uint32_t* index = fb->fibers[me].threadIdx;  // for engine-switched fibers
    ids.thread = Uint3{index[0], index[1], index[2]};
    std::apply(Kernel, local);
    me = fiber_thread_exit(ctx);
  } while (me != WEFT_FIBER_DONE);
  t_fiber_block = nullptr;
}

// Runs the engine's range of blocks (kernel_abi.h): every thread as a loop
// (loop mode), or this fiber's GPU thread of each block (fiber modes).
// Instantiated per kernel in the user's binary, so the kernel body inlines into
// both loops and the thread-exit fast path.
template <auto Kernel, typename Tuple>
void kernel_entry(weftKernelContext* ctx, void* blob) {
  t_ctx = ctx;
  ThreadIds& ids = t_ids;
  ids.block_dim = to_uint3(ctx->blockDim);
  ids.grid_dim = to_uint3(ctx->gridDim);
  // A local copy of the arguments (each call copies them again into the kernel's
  // by-value parameters, so no thread sees another's changes): the compiler can
  // keep them in registers, where the stores to threadIdx cannot alias them.
  Tuple local = *static_cast<Tuple*>(blob);
  if (ctx->mode != WEFT_KERNEL_LOOP) return fiber_loop<Kernel>(ctx, local);
  t_fiber_block = nullptr;  // barriers of loop mode go to the engine
  const uint32_t gx = ctx->gridDim.x, gy = ctx->gridDim.y;
  const uint32_t bx = ctx->blockDim.x, by = ctx->blockDim.y, bz = ctx->blockDim.z;
  for (uint64_t b = ctx->blockBegin; b < ctx->blockEnd; ++b) {
    if (__atomic_load_n(ctx->stop, __ATOMIC_RELAXED)) return;  // another block failed
    ids.block = Uint3{static_cast<uint32_t>(b % gx), static_cast<uint32_t>(b / gx % gy),
                      static_cast<uint32_t>(b / (uint64_t(gx) * gy))};
    for (uint32_t z = 0; z < bz; ++z)
      for (uint32_t y = 0; y < by; ++y) {
        ids.thread.y = y;
        ids.thread.z = z;
        for (uint32_t x = 0; x < bx; ++x) {
          ids.thread.x = x;  // the one store per GPU thread
          std::apply(Kernel, local);
          // A barrier turned the block into fibers: the engine runs the rest.
          if (ctx->mode != WEFT_KERNEL_LOOP) return;
        }
      }
  }
}

template <typename Tuple>
void destroy_blob(void* blob) {
  delete static_cast<Tuple*>(blob);
}

// Builds an argument blob from HIP-style argument pointers (graph kernel nodes).
template <typename Tuple, size_t... I>
void* pack_blob(void* const* params, std::index_sequence<I...>) {
  return new Tuple(*static_cast<const std::tuple_element_t<I, Tuple>*>(params[I])...);
}
template <typename Tuple>
void* pack_args(void* const* params) {
  return pack_blob<Tuple>(params, std::make_index_sequence<std::tuple_size_v<Tuple>>());
}
template <typename Tuple>
void arg_addresses(void* blob, void** out) {
  std::apply([out](auto&... arg) {
    [[maybe_unused]] size_t i = 0;
    ((out[i++] = static_cast<void*>(&arg)), ...);
  }, *static_cast<Tuple*>(blob));
}

template <auto Kernel, typename... Args>
hipError_t launch(const char* name, dim3 grid, dim3 block, size_t shared_bytes,
                  hipStream_t stream, Args&&... args) {
  using Tuple = typename KernelSignature<decltype(Kernel)>::Tuple;
  static_assert(sizeof...(Args) == std::tuple_size_v<Tuple>,
                "hipLaunchKernelGGL: wrong number of kernel arguments");
  // Arguments are copied now, as a GPU launch copies them into its kernarg segment.
  auto* blob = new Tuple(std::forward<Args>(args)...);
  weftHostKernel k{WEFT_KERNEL_ABI_VERSION, &kernel_entry<Kernel, Tuple>, blob, &destroy_blob<Tuple>,
                   name, reinterpret_cast<const void*>(Kernel),
                   static_cast<uint32_t>(std::tuple_size_v<Tuple>), &pack_args<Tuple>,
                   &arg_addresses<Tuple>};
  return weftLaunchHostKernel(&k, grid, block, shared_bytes, stream);
}

}  // namespace weft::detail

#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...)                     \
  static_cast<void>(::weft::detail::launch<kernel>(#kernel, dim3(grid), dim3(block),          \
                                                   static_cast<size_t>(shared_bytes), stream, \
                                                   ##__VA_ARGS__))

// Defined last: the code above uses weftKernelContext's fields of the same names.
#define threadIdx (::weft::detail::thread_index())
#define blockIdx (::weft::detail::t_ids.block)
#define blockDim (::weft::detail::t_ids.block_dim)
#define gridDim (::weft::detail::t_ids.grid_dim)

#endif  // WEFT_HIP_SINGLE_SOURCE_H
