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

#include <hip/weft/device_math.h>
#include <hip/weft/fiber_sync.h>
#include <hip/weft/kernel_abi.h>

#include <assert.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
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
// __noinline__ as AMD defines it. libstdc++ spells its own attribute __noinline__ in
// <memory> (shared_ptr_base.h) and, in C++23, <stacktrace>: those are parsed here, before the
// macro exists, so including them again later is a no-op. (<experimental/simd> and libc++
// spell it inside macros expanded at use; they cannot follow this header.)
#include <memory>
#if __cplusplus > 202002L && __has_include(<stacktrace>)
#include <stacktrace>
#endif
#ifndef __noinline__
#define __noinline__ __attribute__((noinline))
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif
#ifndef __restrict__
#define __restrict__ __restrict
#endif

namespace weft::detail {

// The type of threadIdx, blockIdx, blockDim and gridDim: plain data (so a read
// needs no initialization guard and `threadIdx.x` is an unsigned int, as printf
// and `auto` expect), convertible to dim3.
struct Uint3 {
  uint32_t x, y, z;
  operator dim3() const { return dim3(x, y, z); }
};

// threadIdx's type: a Uint3 and one word more, so that a resumed fiber takes its index
// back with one 16-byte copy from its weftFiber (become_thread).
struct ThreadIndex : Uint3 {
  uint32_t unused_;
};

}  // namespace weft::detail

// The GPU thread's coordinates are objects, as in AMD's headers (so a struct
// member named gridDim still compiles). A block runs on one OS thread, so each
// is a thread_local of the user's binary: the kernel's entry stores them (loop
// mode: threadIdx.x once per GPU thread), and a fiber that resumes rewrites
// threadIdx from its own copy (become_thread).
#if defined(WEFT_CPU_DEVICE_PASS)
// In weftcc's CPU image (a shared object) the engine state below is found through the
// image's own TLS block, once per function (the default general-dynamic model would call
// __tls_get_addr again after every fiber switch).
#define WEFT_SS_TLS_ __attribute__((tls_model("local-dynamic")))
#else
#define WEFT_SS_TLS_
#endif

#if defined(WEFT_CPU_DEVICE_PASS)
// The x86-64 device pass of weftcc (hip/weft/device/x86_64.h): threadIdx & co. are the
// shared layer's objects (hip/weft/device/builtins.h), read through the __weft_cpu_*
// markers, which read these.
namespace weft::detail {
inline __device__ thread_local WEFT_SS_TLS_ ThreadIndex t_threadIdx;
inline __device__ thread_local WEFT_SS_TLS_ Uint3 t_blockIdx;
inline __device__ thread_local WEFT_SS_TLS_ Uint3 t_blockDim;
inline __device__ thread_local WEFT_SS_TLS_ Uint3 t_gridDim;
}  // namespace weft::detail
#define WEFT_SS_THREAD_IDX_ ::weft::detail::t_threadIdx
#define WEFT_SS_BLOCK_IDX_ ::weft::detail::t_blockIdx
#define WEFT_SS_BLOCK_DIM_ ::weft::detail::t_blockDim
#define WEFT_SS_GRID_DIM_ ::weft::detail::t_gridDim
#else
inline thread_local ::weft::detail::ThreadIndex threadIdx;
inline thread_local ::weft::detail::Uint3 blockIdx;
inline thread_local ::weft::detail::Uint3 blockDim;
inline thread_local ::weft::detail::Uint3 gridDim;
#define WEFT_SS_THREAD_IDX_ ::threadIdx
#define WEFT_SS_BLOCK_IDX_ ::blockIdx
#define WEFT_SS_BLOCK_DIM_ ::blockDim
#define WEFT_SS_GRID_DIM_ ::gridDim
#endif

namespace weft::detail {

inline __device__ thread_local WEFT_SS_TLS_ weftKernelContext* t_ctx = nullptr;
// The engine's fiber block while this binary's kernel entry runs on fibers that
// may switch inline (WEFT_KERNEL_FIBER_INLINE), else null: one load tells a
// barrier which path to take.
inline __device__ thread_local WEFT_SS_TLS_ weftFiberBlock* t_fiber_block = nullptr;

inline Uint3 to_uint3(const dim3& d) { return Uint3{d.x, d.y, d.z}; }

// Wraps every engine call that may switch GPU threads: tells the engine which
// thread is calling (in loop mode only the entry's loop knows), and afterwards
// restores this thread's ids, which other GPU threads overwrote meanwhile.
class YieldPoint {
 public:
  YieldPoint() : saved_(WEFT_SS_THREAD_IDX_) {
    t_ctx->threadIdx = dim3(saved_.x, saved_.y, saved_.z);
    const Uint3& b = WEFT_SS_BLOCK_IDX_;
    t_ctx->blockIdx = dim3(b.x, b.y, b.z);
  }
  ~YieldPoint() { WEFT_SS_THREAD_IDX_ = saved_; }
  YieldPoint(const YieldPoint&) = delete;
  YieldPoint& operator=(const YieldPoint&) = delete;

 private:
  ThreadIndex saved_;
};

// The GPU thread whose fiber is `f` runs again: threadIdx becomes its own again (other
// GPU threads ran on this OS thread meanwhile). Which thread runs is the block's
// `current` (the fiber's slot, its linear thread index), which whoever switches sets.
WEFT_FIBER_INLINE void become_thread(const weftFiber* f) {
  static_assert(sizeof(ThreadIndex) == 16 &&
                offsetof(weftFiber, reserved) == offsetof(weftFiber, threadIdx) + 12);
  // threadIdx[3] and the reserved word after it, in one move.
  std::memcpy(static_cast<void*>(&WEFT_SS_THREAD_IDX_),
              reinterpret_cast<const char*>(f) + offsetof(weftFiber, threadIdx),
              sizeof(ThreadIndex));
}

// The same after an engine call, which names only the thread.
WEFT_FIBER_INLINE void resume_thread(uint32_t me) { become_thread(&t_fiber_block->fibers[me]); }

// threadIdx of the GPU thread running now (kept for code written before
// threadIdx became an object).
WEFT_FIBER_INLINE Uint3 thread_index() { return WEFT_SS_THREAD_IDX_; }

#if WEFT_INLINE_FIBER_SWITCH
// The inline switch of a wait inside the kernel: the resumed thread takes its threadIdx
// back from the fiber the switch hands it (fiber_sync.h, InlineSwitch::jump), so a
// crossing reloads neither the block from TLS nor its fiber array. An arrival that
// completes the wait does not switch and keeps its threadIdx.
struct ResumingSwitch {
  WEFT_FIBER_INLINE uint32_t operator()(weftFiber* from, weftFiber* to, uint32_t id) const {
    id = ::weft::fiber::InlineSwitch::jump(from, to, id);
    become_thread(to);
    return id;
  }
};

// The slow path of a resumed thread whose wait is not over: the engine runs other
// threads meanwhile, so threadIdx is restored again once it returns.
struct EngineWait {
  uint32_t operator()(uint32_t) const {
    const uint32_t me = weftFiberWait();
    resume_thread(me);
    return me;
  }
};
#endif

inline int engine_sync_threads(int predicate, int op) {
  if (op == WEFT_REDUCE_NONE) {
    weftSyncThreads();
    return 0;
  }
  return weftSyncThreadsReduce(predicate, op);
}

WEFT_FIBER_INLINE int sync_threads(int predicate, int op) {
#if WEFT_INLINE_FIBER_SWITCH
  if (weftFiberBlock* fb = t_fiber_block; __builtin_expect(fb != nullptr, 1)) {
    int result = 0;
    ::weft::fiber::barrier(fb, fb->current, predicate, op, &result, ResumingSwitch{}, EngineWait{});
    return result;
  }
#endif
  // Outside a kernel there is no thread to record; the engine logs the call.
  if (!t_ctx) return engine_sync_threads(predicate, op);
  YieldPoint yield;
  return engine_sync_threads(predicate, op);
}

// The end of a GPU thread in fiber mode: the thread this fiber runs next, or
// WEFT_FIBER_DONE.
WEFT_FIBER_INLINE uint32_t fiber_thread_exit(weftKernelContext* ctx) {
#if WEFT_INLINE_FIBER_SWITCH
  if (__builtin_expect(ctx->mode == WEFT_KERNEL_FIBER_INLINE, 1))
    // fiber_loop sets the ids of the thread this fiber runs next.
    return ::weft::fiber::thread_exit(
        ctx->fibers, ctx->fibers->current, ::weft::fiber::InlineSwitch{},
        [](uint32_t) { return weftFiberWait(); }, [] { return weftFiberExit(); });
#else
  (void)ctx;
#endif
  return weftFiberExit();
}

}  // namespace weft::detail

#if !defined(WEFT_CPU_DEVICE_PASS)  // the device pass has the shared layer's
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

#endif  // !WEFT_CPU_DEVICE_PASS
// ---- warp operations ----

namespace weft::detail {

inline unsigned linear_thread() {
#if WEFT_INLINE_FIBER_SWITCH
  // The running fiber's slot is its linear thread index.
  if (const weftFiberBlock* fb = t_fiber_block) return fb->current;
#endif
  return WEFT_SS_THREAD_IDX_.x +
         WEFT_SS_BLOCK_DIM_.x *
             (WEFT_SS_THREAD_IDX_.y + WEFT_SS_BLOCK_DIM_.y * WEFT_SS_THREAD_IDX_.z);
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

// The call site of a warp operation: every public warp function takes one as its
// last parameter, defaulted, so it names the line of the user's call (a default
// argument is evaluated at the caller). Lanes exchange only at the same site.
struct WarpSite {
  unsigned line;
  const char* file;
  static constexpr WarpSite here(unsigned at_line = __builtin_LINE(),
                                 const char* in_file = __builtin_FILE()) {
    return WarpSite{at_line, in_file};
  }
  uint64_t id() const { return ::weft::fiber::warp_site(line, file); }
};

// Every live lane of the warp at the same site contributes `value`; returns all
// lanes' values.
// `site` is any 64-bit key naming the call site (WarpSite::id() here; the address of the
// inlined call in weftcc's CPU image, hip/weft/device/x86_64.h).
WEFT_FIBER_INLINE ::weft::fiber::WarpExchange warp_exchange_site(uint64_t value, uint64_t site) {
#if WEFT_INLINE_FIBER_SWITCH
  if (weftFiberBlock* fb = t_fiber_block; __builtin_expect(fb != nullptr, 1)) {
    uint32_t me = fb->current;
    return ::weft::fiber::warp_exchange(fb, me, value, site, ResumingSwitch{}, EngineWait{}, [&] {
      // The engine holds this lane at its site while others run.
      uint64_t mask = 0;
      const uint64_t* values = weftWarpCollective(value, &mask, site);
      resume_thread(me);
      return ::weft::fiber::WarpExchange{values, mask};
    });
  }
#endif
  uint64_t mask = 0;
  const uint64_t* values;
  if (!t_ctx) {
    values = weftWarpCollective(value, &mask, site);  // logs: outside a kernel
  } else {
    YieldPoint yield;
    values = weftWarpCollective(value, &mask, site);
  }
  return ::weft::fiber::WarpExchange{values, mask};
}
WEFT_FIBER_INLINE const uint64_t* warp_exchange_at(uint64_t value, uint64_t* mask, uint64_t site) {
  const ::weft::fiber::WarpExchange done = warp_exchange_site(value, site);
  if (mask) *mask = done.mask;
  return done.values;
}
WEFT_FIBER_INLINE const uint64_t* warp_exchange(uint64_t value, uint64_t* mask,
                                                WarpSite where = WarpSite::here()) {
  return warp_exchange_at(value, mask, where.id());
}

// Reads lane `src` of the exchange, or keeps `var` when src is outside the
// caller's width-sized segment or did not take part.
template <typename T>
inline T shuffle(T var, int src, unsigned lane, int width, WarpSite site = WarpSite::here()) {
  unsigned segment = lane & ~unsigned(width - 1);
  uint64_t mask = 0;
  const uint64_t* values = warp_exchange(to_bits(var), &mask, site);
  if (src < int(segment) || src >= int(segment) + width || !(mask >> src & 1)) return var;
  return from_bits<T>(values[src]);
}

}  // namespace weft::detail

#if !defined(WEFT_CPU_DEVICE_PASS)
inline unsigned __lane_id() { return ::weft::detail::linear_thread() % WEFT_CPU_WARP_SIZE; }

#define WEFT_WARP_SITE ::weft::detail::WarpSite site = ::weft::detail::WarpSite::here()
template <typename T>
inline T __shfl(T var, int src_lane, int width = warpSize, WEFT_WARP_SITE) {
  unsigned lane = __lane_id();
  int segment = int(lane & ~unsigned(width - 1));
  return ::weft::detail::shuffle(var, segment + (src_lane & (width - 1)), lane, width, site);
}
template <typename T>
inline T __shfl_up(T var, unsigned delta, int width = warpSize, WEFT_WARP_SITE) {
  unsigned lane = __lane_id();
  return ::weft::detail::shuffle(var, int(lane) - int(delta), lane, width, site);
}
template <typename T>
inline T __shfl_down(T var, unsigned delta, int width = warpSize, WEFT_WARP_SITE) {
  unsigned lane = __lane_id();
  return ::weft::detail::shuffle(var, int(lane + delta), lane, width, site);
}
template <typename T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize, WEFT_WARP_SITE) {
  unsigned lane = __lane_id();
  return ::weft::detail::shuffle(var, int(lane ^ unsigned(lane_mask)), lane, width, site);
}
inline unsigned long long __ballot(int predicate, WEFT_WARP_SITE) {
  uint64_t mask = 0;
  const uint64_t* values = ::weft::detail::warp_exchange(predicate != 0, &mask, site);
  unsigned long long result = 0;
  for (int l = 0; l < WEFT_CPU_WARP_SIZE; ++l)
    if ((mask >> l & 1) && values[l]) result |= 1ull << l;
  return result;
}
inline int __any(int predicate, WEFT_WARP_SITE) { return __ballot(predicate, site) != 0; }
inline int __all(int predicate, WEFT_WARP_SITE) {
  uint64_t mask = 0;
  const uint64_t* values = ::weft::detail::warp_exchange(predicate != 0, &mask, site);
  for (int l = 0; l < WEFT_CPU_WARP_SIZE; ++l)
    if ((mask >> l & 1) && !values[l]) return 0;
  return 1;
}
inline unsigned long long __activemask(WEFT_WARP_SITE) {
  uint64_t mask = 0;
  ::weft::detail::warp_exchange(0, &mask, site);
  return mask;
}
inline void __syncwarp(unsigned long long = ~0ull, WEFT_WARP_SITE) {
  uint64_t mask = 0;
  ::weft::detail::warp_exchange(0, &mask, site);
}
// CUDA-style _sync forms; the mask is implied by the lanes that arrive.
template <typename T>
inline T __shfl_sync(unsigned long long, T var, int src, int width = warpSize, WEFT_WARP_SITE) {
  return __shfl(var, src, width, site);
}
template <typename T>
inline T __shfl_up_sync(unsigned long long, T var, unsigned d, int width = warpSize,
                        WEFT_WARP_SITE) {
  return __shfl_up(var, d, width, site);
}
template <typename T>
inline T __shfl_down_sync(unsigned long long, T var, unsigned d, int width = warpSize,
                          WEFT_WARP_SITE) {
  return __shfl_down(var, d, width, site);
}
template <typename T>
inline T __shfl_xor_sync(unsigned long long, T var, int m, int width = warpSize, WEFT_WARP_SITE) {
  return __shfl_xor(var, m, width, site);
}
inline unsigned long long __ballot_sync(unsigned long long, int p, WEFT_WARP_SITE) {
  return __ballot(p, site);
}
inline int __any_sync(unsigned long long, int p, WEFT_WARP_SITE) { return __any(p, site); }
inline int __all_sync(unsigned long long, int p, WEFT_WARP_SITE) { return __all(p, site); }
#undef WEFT_WARP_SITE
#endif  // !WEFT_CPU_DEVICE_PASS

// ---- atomics ----

#include <hip/weft/device_atomics.h>

// ---- clocks ----

#if !defined(WEFT_CPU_DEVICE_PASS)  // the device pass has the shared layer's
#include <hip/weft/device_clock.h>
#endif

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

#if !defined(WEFT_CPU_DEVICE_PASS)
#undef assert
#define assert(expr)             \
  ((expr) ? static_cast<void>(0) \
          : ::weft::detail::assert_fail(#expr, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#endif  // !WEFT_CPU_DEVICE_PASS
#endif

// ---- launching ----
//
// hipLaunchKernelGGL(kernel, ...) accepts what AMD's macro accepts: a kernel's
// name, a template kernel whose arguments are deduced from the launch's
// arguments, HIP_KERNEL_NAME(k<float, 4>), a function-pointer variable, a
// template parameter. The macro wraps the kernel expression in a closure that
// calls it (`Call`): empty when the expression names a function, so the entry
// instantiated for the site calls the kernel directly and inlines it; holding the
// pointer when it is a variable. A second closure (`probe`) tells whether the
// expression is one function of known type, so the arguments are converted to
// its parameter types at the launch (as a GPU launch copies them into its
// kernarg segment) and graph kernel nodes can rebuild them from kernelParams.

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

// Probes for the kernel expression's function type: any single function (or
// function pointer) ...
struct DeduceSignature {
  template <typename... P>
  auto operator()(void (*f)(P...)) const {
    return f;
  }
};
// ... or a template whose parameters are exactly the arguments' types.
template <typename... A>
struct ExactSignature {
  auto operator()(void (*f)(A...)) const { return f; }
};

// Calls a kernel through a pointer known only at run time.
template <typename F>
struct PointerCall {
  F function;
  template <typename... A>
  void operator()(A&... args) const {
    function(args...);
  }
};

// Calls a kernel known at compile time (CPU code objects: hip/weft/cpu_code_object.h).
template <auto Kernel>
struct ConstantCall {
  template <typename... A>
  void operator()(A&... args) const {
    Kernel(args...);
  }
};

// What a launch hands to its entry: the call and the argument values.
template <typename Call, typename Tuple>
struct LaunchBlob {
  Call call;
  Tuple args;
};

// On a fiber: this slot's GPU thread of each block of the range. Flattened: the
// kernel and everything it calls inline here, so a barrier's switch saves only
// the registers live at that point and a thread's end costs one more switch
// (docs/cpu-engine.md measures both).
template <typename Call, typename Tuple>
__attribute__((flatten, noinline)) void fiber_loop(weftKernelContext* ctx,
                                                   LaunchBlob<Call, Tuple>& local) {
  weftFiberBlock* fb = ctx->fibers;
  weftFiberBlock* inline_fb = ctx->mode == WEFT_KERNEL_FIBER_INLINE ? fb : nullptr;
  ctx->inlineFibers = &t_fiber_block;
  uint32_t me = fb->current;
  do {
    t_fiber_block = inline_fb;  // an engine call of another GPU thread may have cleared it
    WEFT_SS_BLOCK_IDX_ = to_uint3(ctx->blockIdx);
    become_thread(&fb->fibers[me]);
    std::apply(local.call, local.args);
    me = fiber_thread_exit(ctx);
  } while (me != WEFT_FIBER_DONE);
  t_fiber_block = nullptr;
}

// Runs the engine's range of blocks (kernel_abi.h): every thread as a loop
// (loop mode), or this fiber's GPU thread of each block (fiber modes).
// Instantiated per launch site in the user's binary, so the kernel body inlines
// into both loops and the thread-exit fast path.
template <typename Call, typename Tuple>
void kernel_entry(weftKernelContext* ctx, void* blob) {
  t_ctx = ctx;
  WEFT_SS_BLOCK_DIM_ = to_uint3(ctx->blockDim);
  WEFT_SS_GRID_DIM_ = to_uint3(ctx->gridDim);
  // A local copy of the arguments (each call copies them again into the kernel's
  // by-value parameters, so no thread sees another's changes): the compiler can
  // keep them in registers, where the stores to threadIdx cannot alias them.
  LaunchBlob<Call, Tuple> local = *static_cast<LaunchBlob<Call, Tuple>*>(blob);
  if (ctx->mode != WEFT_KERNEL_LOOP) return fiber_loop(ctx, local);
  t_fiber_block = nullptr;  // barriers of loop mode go to the engine
  const uint32_t gx = ctx->gridDim.x, gy = ctx->gridDim.y;
  const uint32_t bx = ctx->blockDim.x, by = ctx->blockDim.y, bz = ctx->blockDim.z;
  for (uint64_t b = ctx->blockBegin; b < ctx->blockEnd; ++b) {
    if (__atomic_load_n(ctx->stop, __ATOMIC_RELAXED)) return;  // another block failed
    WEFT_SS_BLOCK_IDX_ = Uint3{static_cast<uint32_t>(b % gx), static_cast<uint32_t>(b / gx % gy),
                               static_cast<uint32_t>(b / (uint64_t(gx) * gy))};
    for (uint32_t z = 0; z < bz; ++z)
      for (uint32_t y = 0; y < by; ++y) {
        WEFT_SS_THREAD_IDX_.y = y;
        WEFT_SS_THREAD_IDX_.z = z;
        for (uint32_t x = 0; x < bx; ++x) {
          WEFT_SS_THREAD_IDX_.x = x;  // the one store per GPU thread
          std::apply(local.call, local.args);
          // A barrier turned the block into fibers: the engine runs the rest.
          if (ctx->mode != WEFT_KERNEL_LOOP) return;
        }
      }
  }
}

#if !defined(WEFT_CPU_DEVICE_PASS)  // host-side launching: the g++ path only
template <typename Call, typename Tuple>
void destroy_blob(void* blob) {
  delete static_cast<LaunchBlob<Call, Tuple>*>(blob);
}

// A copy of a site's call when it holds nothing (the site names a function):
// graph kernel nodes and hipLaunchKernel rebuild launches of it from
// kernelParams. Set by the site's first launch, before any descriptor of it exists.
template <typename Call>
const Call& stateless_call(const Call* first = nullptr) {
  static const Call call = *first;
  return call;
}

// Builds an argument blob from HIP-style argument pointers (graph kernel nodes,
// hipLaunchKernel): argument i is *params[i], of the kernel's parameter type.
template <typename Call, typename Tuple, size_t... I>
void* pack_blob(const Call& call, void* const* params, std::index_sequence<I...>) {
  return new LaunchBlob<Call, Tuple>{
      call, Tuple(*static_cast<const std::tuple_element_t<I, Tuple>*>(params[I])...)};
}
template <typename Call, typename Tuple>
void* pack_args(void* const* params) {
  return pack_blob<Call, Tuple>(stateless_call<Call>(), params,
                                std::make_index_sequence<std::tuple_size_v<Tuple>>());
}
template <typename Call, typename Tuple>
void arg_addresses(void* blob, void** out) {
  std::apply(
      [out](auto&... arg) {
    [[maybe_unused]] size_t i = 0;
    ((out[i++] = static_cast<void*>(&arg)), ...);
      },
      static_cast<LaunchBlob<Call, Tuple>*>(blob)->args);
}

// Launches `blob` (owned from here on). `function` is the kernel when the site
// names one function, else null; argument rebuilding needs a call that holds
// nothing and parameter types that are the kernel's own.
template <typename Call, typename Tuple>
hipError_t launch_blob(const char* name, LaunchBlob<Call, Tuple>* blob, const void* function,
                       bool rebuildable, dim3 grid, dim3 block, size_t shared_bytes,
                       hipStream_t stream) {
  weftHostKernel k{WEFT_KERNEL_ABI_VERSION,
                   &kernel_entry<Call, Tuple>,
                   blob,
                   &destroy_blob<Call, Tuple>,
                   name,
                   function,
                   static_cast<uint32_t>(std::tuple_size_v<Tuple>),
                   rebuildable ? &pack_args<Call, Tuple> : nullptr,
                   &arg_addresses<Call, Tuple>};
  return weftLaunchHostKernel(&k, grid, block, shared_bytes, stream);
}

template <typename Tuple, typename Call, typename... Args>
hipError_t launch_converted(const char* name, const Call& call, const void* function, dim3 grid,
                            dim3 block, size_t shared_bytes, hipStream_t stream, Args&&... args) {
  constexpr bool rebuildable = std::is_empty_v<Call>;
  if constexpr (rebuildable) stateless_call(&call);
  auto* blob = new LaunchBlob<Call, Tuple>{call, Tuple(std::forward<Args>(args)...)};
  return launch_blob(name, blob, function, rebuildable && function, grid, block, shared_bytes,
                     stream);
}

// hipLaunchKernelGGL's site: `call(args...)` runs the kernel, `probe(p)`
// passes the kernel expression to p when that is well formed.
template <typename Call, typename Probe, typename... Args>
hipError_t launch_site(const char* name, const Call& call, const Probe& probe, dim3 grid,
                       dim3 block, size_t shared_bytes, hipStream_t stream, Args&&... args) {
  using Exact = ExactSignature<std::decay_t<Args>...>;
  if constexpr (std::is_invocable_v<const Probe&, DeduceSignature>) {
    auto f = probe(DeduceSignature{});
    using Tuple = typename KernelSignature<decltype(f)>::Tuple;
    if constexpr (std::tuple_size_v<Tuple> == sizeof...(Args)) {
      return launch_converted<Tuple>(name, call, reinterpret_cast<const void*>(f), grid, block,
                                     shared_bytes, stream, std::forward<Args>(args)...);
    } else {  // a kernel with default arguments: let the call fill them in
      return launch_converted<std::tuple<std::decay_t<Args>...>>(
          name, call, nullptr, grid, block, shared_bytes, stream, std::forward<Args>(args)...);
    }
  } else if constexpr (std::is_invocable_v<const Probe&, Exact>) {
    auto f = probe(Exact{});
    return launch_converted<std::tuple<std::decay_t<Args>...>>(
        name, call, reinterpret_cast<const void*>(f), grid, block, shared_bytes, stream,
        std::forward<Args>(args)...);
  } else {
    // A template whose deduced parameters differ from the arguments' types (or a
    // callable object): the call converts the stored arguments per GPU thread.
    return launch_converted<std::tuple<std::decay_t<Args>...>>(
        name, call, nullptr, grid, block, shared_bytes, stream, std::forward<Args>(args)...);
  }
}

// A launch through a kernel pointer whose type is known (hipLaunchKernel,
// hipExtLaunchKernelGGL, hipLaunchKernelGGL of a pointer variable goes through
// launch_site instead). Arguments come from an array of addresses.
template <typename... P>
hipError_t launch_pointer_args(void (*kernel)(P...), const char* name, dim3 grid, dim3 block,
                               void** args, size_t shared_bytes, hipStream_t stream) {
  using Tuple = std::tuple<std::decay_t<P>...>;
  using Call = PointerCall<void (*)(P...)>;
  if (!kernel) return weftLaunchFailed(name, hipErrorInvalidDeviceFunction, "null kernel");
  if constexpr (sizeof...(P) > 0) {
    if (!args)
      return weftLaunchFailed(name, hipErrorInvalidValue,
                              "the kernel takes arguments but args is null");
    for (size_t i = 0; i < sizeof...(P); ++i)
      if (!args[i]) return weftLaunchFailed(name, hipErrorInvalidValue, "an entry of args is null");
  }
  auto* blob = static_cast<LaunchBlob<Call, Tuple>*>(
      pack_blob<Call, Tuple>(Call{kernel}, args, std::index_sequence_for<P...>()));
  return launch_blob(name, blob, reinterpret_cast<const void*>(kernel), false, grid, block,
                     shared_bytes, stream);
}

template <typename... P, typename... Args>
hipError_t launch_pointer(void (*kernel)(P...), const char* name, dim3 grid, dim3 block,
                          size_t shared_bytes, hipStream_t stream, Args&&... args) {
  static_assert(sizeof...(P) == sizeof...(Args), "wrong number of kernel arguments");
  using Call = PointerCall<void (*)(P...)>;
  if (!kernel) return weftLaunchFailed(name, hipErrorInvalidDeviceFunction, "null kernel");
  return launch_converted<std::tuple<std::decay_t<P>...>>(
      name, Call{kernel}, reinterpret_cast<const void*>(kernel), grid, block, shared_bytes, stream,
      std::forward<Args>(args)...);
}

// hipLaunchCooperativeKernel with the kernel itself: the runtime packs the
// arguments (kernel_abi.h: weftLaunchCooperativeHostKernel), handing packArgs the
// address of kernel->function first, then the kernel's arguments.
template <typename Fn, typename Tuple>
void* pack_cooperative(void* const* params) {
  Fn kernel = reinterpret_cast<Fn>(*static_cast<const void* const*>(params[0]));
  return pack_blob<PointerCall<Fn>, Tuple>(PointerCall<Fn>{kernel}, params + 1,
                                           std::make_index_sequence<std::tuple_size_v<Tuple>>());
}

template <typename... P>
hipError_t launch_cooperative(void (*kernel)(P...), dim3 grid, dim3 block, void** params,
                              size_t shared_bytes, hipStream_t stream) {
  using Fn = void (*)(P...);
  using Tuple = std::tuple<std::decay_t<P>...>;
  using Call = PointerCall<Fn>;
  weftHostKernel k{WEFT_KERNEL_ABI_VERSION,
                   &kernel_entry<Call, Tuple>,
                   nullptr,
                   &destroy_blob<Call, Tuple>,
                   "<cooperative kernel>",
                   reinterpret_cast<const void*>(kernel),
                   static_cast<uint32_t>(sizeof...(P)),
                   &pack_cooperative<Fn, Tuple>,
                   &arg_addresses<Call, Tuple>};
  if (!kernel) k.entry = nullptr;  // reported as a bad kernel
  return weftLaunchCooperativeHostKernel(&k, grid, block, params, shared_bytes, stream);
}

#endif  // !WEFT_CPU_DEVICE_PASS
}  // namespace weft::detail

#if !defined(WEFT_CPU_DEVICE_PASS)

// hipLaunchCooperativeKernel(kernel, grid, block, args, shared, stream) for a
// single-source kernel: preferred over hip_runtime_api.h's template, which passes
// the kernel's address to the C function (that one only finds kernels the
// runtime already knows).
template <typename... P>
inline hipError_t hipLaunchCooperativeKernel(void (*kernel)(P...), dim3 gridDim, dim3 blockDim,
                                             void** kernelParams, unsigned int sharedMemBytes,
                                             hipStream_t stream) {
#ifdef HIP_API_PER_THREAD_DEFAULT_STREAM
  if (!stream) stream = hipStreamPerThread;
#endif
  return ::weft::detail::launch_cooperative(kernel, gridDim, blockDim, kernelParams, sharedMemBytes,
                                            stream);
}

#include <hip/weft/device/host_compat.h>

#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...)                    \
  static_cast<void>(::weft::detail::launch_site(                                              \
      #kernel, [=](auto&... weft_args_) { (kernel)(weft_args_...); },                         \
      [=](auto weft_probe_) -> decltype(weft_probe_(kernel)) { return weft_probe_(kernel); }, \
      dim3(grid), dim3(block), static_cast<size_t>(shared_bytes), stream, ##__VA_ARGS__))

// hipLaunchKernel with the kernel function itself (its parameter types are known
// here; the C entry point with a `const void*` knows single-source kernels only
// once they were launched by name, see src/api/launch_registration.cpp).
template <typename... P>
inline hipError_t hipLaunchKernel(void (*kernel)(P...), dim3 numBlocks, dim3 dimBlocks, void** args,
                                  size_t sharedMemBytes = 0, hipStream_t stream = nullptr) {
  return ::weft::detail::launch_pointer_args(kernel, "hipLaunchKernel", numBlocks, dimBlocks, args,
                                             sharedMemBytes, stream);
}

#endif  // !WEFT_CPU_DEVICE_PASS
#endif  // WEFT_HIP_SINGLE_SOURCE_H
