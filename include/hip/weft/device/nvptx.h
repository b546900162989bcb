/* SPDX-License-Identifier: MIT */
/* The NVIDIA (nvptx64) device pass's primitive layer (README.md in this folder):
 * what weft's shared HIP-mode headers are written on, for weftcc's sm_XY images
 * (tools/weftcc/weftcc_lib/nvidia_image.py). Everything here is a clang NVVM
 * builtin, a line of PTX, a libdevice function (`__nv_*`, linked by weftcc as
 * builtin bitcode: only what a kernel calls survives) or a function NVIDIA's
 * driver supplies to every module (`vprintf`, which clang's printf lowering
 * calls, and `__assertfail`).
 *
 * warpSize is 32 (the hardware's); HIP's 64-bit lane masks hold the warp in their
 * low 32 bits. Warp operations run among the lanes active at the call
 * (activemask), which is what HIP's mask-less forms mean. */
#ifndef WEFT_HIP_DEVICE_NVPTX_H
#define WEFT_HIP_DEVICE_NVPTX_H

#if !defined(__NVPTX__) || !defined(__HIP_DEVICE_COMPILE__)
#error \
    "hip/weft/device/nvptx.h is the NVPTX device pass's layer (clang -x hip, nvptx64 device side)"
#endif

#include <fenv.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <hip/weft/device/libm_list.h>
#include <hip/weft/kernel_abi.h>

#define WEFT_DEVICE_WARP_SIZE 32
#define WEFT_NV_FN __attribute__((device)) inline __attribute__((always_inline))

/* ---- ids ---------------------------------------------------------------- */
WEFT_NV_FN uint32_t __weft_thread_idx(uint32_t dim) {
  return dim == 0 ? __nvvm_read_ptx_sreg_tid_x()
       : dim == 1 ? __nvvm_read_ptx_sreg_tid_y()
                  : __nvvm_read_ptx_sreg_tid_z();
}
WEFT_NV_FN uint32_t __weft_block_idx(uint32_t dim) {
  return dim == 0 ? __nvvm_read_ptx_sreg_ctaid_x()
       : dim == 1 ? __nvvm_read_ptx_sreg_ctaid_y()
                  : __nvvm_read_ptx_sreg_ctaid_z();
}
WEFT_NV_FN uint32_t __weft_block_dim(uint32_t dim) {
  return dim == 0 ? __nvvm_read_ptx_sreg_ntid_x()
       : dim == 1 ? __nvvm_read_ptx_sreg_ntid_y()
                  : __nvvm_read_ptx_sreg_ntid_z();
}
WEFT_NV_FN uint32_t __weft_grid_dim(uint32_t dim) {
  return dim == 0 ? __nvvm_read_ptx_sreg_nctaid_x()
       : dim == 1 ? __nvvm_read_ptx_sreg_nctaid_y()
                  : __nvvm_read_ptx_sreg_nctaid_z();
}
WEFT_NV_FN uint32_t __weft_lane_id() { return __nvvm_read_ptx_sreg_laneid(); }

/* ---- barriers and fences ------------------------------------------------ */
/* bar.sync orders the block's shared and global memory accesses (PTX ISA,
 * memory consistency model), so __syncthreads needs no separate fence. */
WEFT_NV_FN void __weft_barrier() { __nvvm_bar_sync(0); }
/* op is WEFT_REDUCE_COUNT/AND/OR (kernel_abi.h): bar.red does it in hardware. */
WEFT_NV_FN int __weft_barrier_reduce(int predicate, int op) {
  return op == WEFT_REDUCE_AND ? __nvvm_bar0_and(predicate)
       : op == WEFT_REDUCE_OR  ? __nvvm_bar0_or(predicate)
                               : __nvvm_bar0_popc(predicate);
}
/* scope: __HIP_MEMORY_SCOPE_WORKGROUP (or narrower), _AGENT, _SYSTEM. */
WEFT_NV_FN void __weft_fence(int scope) {
  if (scope == __HIP_MEMORY_SCOPE_SYSTEM) __nvvm_membar_sys();
  else if (scope == __HIP_MEMORY_SCOPE_AGENT) __nvvm_membar_gl();
  else __nvvm_membar_cta();
}

/* ---- warp operations ---------------------------------------------------- */
/* clang-15 has no builtin for activemask, %globaltimer or nanosleep: inline PTX. */
WEFT_NV_FN uint32_t __weft_nv_active_mask() {
  uint32_t mask;
  __asm__ volatile("activemask.b32 %0;" : "=r"(mask));
  return mask;
}
/* Every active lane takes part in the shuffle (shfl.sync needs all lanes of its
 * mask); a lane whose source is inactive or out of range keeps its own value. */
WEFT_NV_FN uint64_t __weft_warp_read(uint64_t value, uint32_t src_lane) {
  const uint32_t mask = __weft_nv_active_mask();
  const int src = static_cast<int>(src_lane & 31);
  uint32_t lo =
      static_cast<uint32_t>(__nvvm_shfl_sync_idx_i32(mask, static_cast<int>(value), src, 0x1f));
  uint32_t hi = static_cast<uint32_t>(
      __nvvm_shfl_sync_idx_i32(mask, static_cast<int>(value >> 32), src, 0x1f));
  bool live = src_lane < 32 && ((mask >> src_lane) & 1u);
  return live ? (static_cast<uint64_t>(hi) << 32) | lo : value;
}
WEFT_NV_FN uint64_t __weft_warp_ballot(int predicate) {
  return __nvvm_vote_ballot_sync(__weft_nv_active_mask(), predicate != 0);
}
WEFT_NV_FN void __weft_warp_sync() { __nvvm_bar_warp_sync(__weft_nv_active_mask()); }

/* ---- dynamic shared memory ----------------------------------------------- */
/* Every extern __shared__ array of a PTX module starts at the dynamic shared
 * window, so this one names the same bytes as the user's. */
extern "C" {
// `extern` spelled out: without it the linkage specification alone makes a 1-byte shared definition.
extern __attribute__((shared))
__attribute__((aligned(16))) unsigned char __weft_dynamic_shared_base[];
}
WEFT_NV_FN void* __weft_dynamic_shared() { return __weft_dynamic_shared_base; }

/* ---- clocks ------------------------------------------------------------- */
WEFT_NV_FN long long __weft_clock64() {
  return static_cast<long long>(__nvvm_read_ptx_sreg_clock64());
}
/* %globaltimer counts nanoseconds: a 1 GHz (10^6 kHz) wall clock. */
WEFT_NV_FN long long __weft_wall_clock64() {
  uint64_t ns;
  __asm__ volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return static_cast<long long>(ns);
}
WEFT_NV_FN int __weft_wall_clock_khz() { return 1000000; }
/* <time.h>'s clock(), which the prelude declares host+device: HIP's device clock() is the
 * shader clock, as __clock() (a kernel calling it otherwise leaves ptxas an unresolved
 * extern). */
extern "C" inline __attribute__((host, device)) clock_t clock(void) noexcept {
  return static_cast<clock_t>(__weft_clock64());
}
WEFT_NV_FN void __weft_sleep_ns(uint32_t ns) { __asm__ volatile("nanosleep.u32 %0;" ::"r"(ns)); }

/* ---- atomics with an explicit scope --------------------------------------
 * The shared atomics (hip/weft/device_atomics.h) use clang's __atomic builtins,
 * which NVPTX lowers to atom/red at the default .gpu scope: HIP's device scope.
 * The _system forms need PTX's .sys scope (host and peer GPUs see the update
 * atomically): these are the NVVM atom.sys builtins (sm_60+), per type. The
 * device-scope forms are there too, so both GPU layers offer one set. */
#define WEFT_NV_ATOMIC(name, builtin)                                 \
  template <typename T>                                               \
  WEFT_NV_FN T __weft_atomic_##name(T* p, T v) {                      \
    return builtin(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT); \
  }
WEFT_NV_ATOMIC(add, __hip_atomic_fetch_add)
WEFT_NV_ATOMIC(and, __hip_atomic_fetch_and)
WEFT_NV_ATOMIC(or, __hip_atomic_fetch_or)
WEFT_NV_ATOMIC(xor, __hip_atomic_fetch_xor)
WEFT_NV_ATOMIC(min, __hip_atomic_fetch_min)
WEFT_NV_ATOMIC(max, __hip_atomic_fetch_max)
WEFT_NV_ATOMIC(exchange, __hip_atomic_exchange)
#undef WEFT_NV_ATOMIC
/* Returns the old value (CUDA's atomicCAS). */
template <typename T>
WEFT_NV_FN T __weft_atomic_cas(T* p, T expected, T desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_AGENT);
  return expected;
}
#define WEFT_NV_SYS(name, op, T, sfx, B)                                               \
  WEFT_NV_FN T __weft_atomic_##name##_system(T* p, T v) {                              \
    return static_cast<T>(                                                             \
        __nvvm_atom_sys_##op##_gen_##sfx(reinterpret_cast<B*>(p), static_cast<B>(v))); \
  }
// Macro calls without semicolons: clang-format would re-wrap this list on every run.
// clang-format off
#define WEFT_NV_SYS_INTEGERS(name, op)                                                                 \
  WEFT_NV_SYS(name, op, int, i, int) WEFT_NV_SYS(name, op, unsigned, i, int)                           \
  WEFT_NV_SYS(name, op, long long, ll, long long) WEFT_NV_SYS(name, op, unsigned long long, ll, long long)
// clang-format on
WEFT_NV_SYS_INTEGERS(add, add)
WEFT_NV_SYS_INTEGERS(and, and)
WEFT_NV_SYS_INTEGERS(or, or)
WEFT_NV_SYS_INTEGERS(xor, xor)
WEFT_NV_SYS_INTEGERS(exchange, xchg)
WEFT_NV_SYS(add, add, float, f, float)
WEFT_NV_SYS(add, add, double, d, double)
WEFT_NV_SYS(min, min, int, i, int)
WEFT_NV_SYS(min, min, long long, ll, long long)
WEFT_NV_SYS(max, max, int, i, int)
WEFT_NV_SYS(max, max, long long, ll, long long)
#undef WEFT_NV_SYS_INTEGERS
#undef WEFT_NV_SYS
WEFT_NV_FN int __weft_atomic_cas_system(int* p, int expected, int desired) {
  return __nvvm_atom_sys_cas_gen_i(p, expected, desired);
}
WEFT_NV_FN unsigned __weft_atomic_cas_system(unsigned* p, unsigned expected, unsigned desired) {
  return static_cast<unsigned>(__nvvm_atom_sys_cas_gen_i(
      reinterpret_cast<int*>(p), static_cast<int>(expected), static_cast<int>(desired)));
}
WEFT_NV_FN long long __weft_atomic_cas_system(long long* p, long long expected, long long desired) {
  return __nvvm_atom_sys_cas_gen_ll(p, expected, desired);
}
WEFT_NV_FN unsigned long long __weft_atomic_cas_system(unsigned long long* p,
                                                       unsigned long long expected,
                                                       unsigned long long desired) {
  return static_cast<unsigned long long>(
      __nvvm_atom_sys_cas_gen_ll(reinterpret_cast<long long*>(p), static_cast<long long>(expected),
                                 static_cast<long long>(desired)));
}
WEFT_NV_FN float __weft_atomic_exchange_system(float* p, float v) {
  return __builtin_bit_cast(
      float, __weft_atomic_exchange_system(reinterpret_cast<int*>(p), __builtin_bit_cast(int, v)));
}
WEFT_NV_FN double __weft_atomic_exchange_system(double* p, double v) {
  return __builtin_bit_cast(double,
                            __weft_atomic_exchange_system(reinterpret_cast<long long*>(p),
                                                          __builtin_bit_cast(long long, v)));
}
/* clang-15 lowers __nvvm_atom_sys_{min,max}_gen_u* to *signed* PTX min/max: the
 * unsigned ones are system-scope CAS loops. */
#define WEFT_NV_SYS_UNSIGNED(op, T, better)             \
  WEFT_NV_FN T __weft_atomic_##op##_system(T* p, T v) { \
    T old = *static_cast<volatile T*>(p);               \
    while (v better old) {                              \
      T seen = __weft_atomic_cas_system(p, old, v);     \
      if (seen == old) break;                           \
      old = seen;                                       \
    }                                                   \
    return old;                                         \
  }
WEFT_NV_SYS_UNSIGNED(min, unsigned, <)
WEFT_NV_SYS_UNSIGNED(min, unsigned long long, <)
WEFT_NV_SYS_UNSIGNED(max, unsigned, >)
WEFT_NV_SYS_UNSIGNED(max, unsigned long long, >)
#undef WEFT_NV_SYS_UNSIGNED
/* Atomic loads and stores with an ordering: clang-15's NVPTX back end selects only relaxed
 * ones ("Cannot select: AtomicLoad<(load acquire ...)>"). HIP's builtins are redirected here:
 * the relaxed access with PTX fences around it as C++'s mapping to PTX places them (acquire
 * load: load, fence; release store: fence, store; seq_cst: a fence before as well). membar
 * at the call's scope is PTX's fence.sc, at least as strong as acq_rel. */
template <typename T>
__attribute__((host, device)) inline T __weft_nv_atomic_load(T* p, int order, int scope) {
  if (order == __ATOMIC_SEQ_CST) __weft_fence(scope);
  T value = __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
  if (order != __ATOMIC_RELAXED) __weft_fence(scope);
  return value;
}
template <typename T, typename U>
__attribute__((host, device)) inline void __weft_nv_atomic_store(T* p, U value, int order,
                                                                 int scope) {
  if (order != __ATOMIC_RELAXED) __weft_fence(scope);
  __hip_atomic_store(p, static_cast<T>(value), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}
#define __hip_atomic_load(p, order, scope) __weft_nv_atomic_load((p), (order), (scope))
#define __hip_atomic_store(p, value, order, scope) \
  __weft_nv_atomic_store((p), (value), (order), (scope))
/* atomicInc/atomicDec: ((old >= limit) ? 0 : old + 1), ((old == 0 || old > limit) ? limit : old - 1). */
WEFT_NV_FN unsigned __weft_atomic_inc(unsigned* p, unsigned limit) {
  return __nvvm_atom_inc_gen_ui(p, limit);
}
WEFT_NV_FN unsigned __weft_atomic_dec(unsigned* p, unsigned limit) {
  return __nvvm_atom_dec_gen_ui(p, limit);
}

/* ---- grid barrier (cooperative groups) -------------------------------------
 * grid.sync(), called by every thread of the block: a block barrier, then one
 * thread per block arrives at a sense-reversing barrier on a counter of this
 * module, then a block barrier. A cooperative launch has every block resident
 * (weft's core refuses grids larger than the occupancy allows), so waiting
 * blocks cannot starve the ones still to arrive. NVIDIA tells a kernel nothing
 * about how it was launched: grid.is_valid() is true in every launch. */
__attribute__((device)) static unsigned __weft_nv_grid_arrived;
__attribute__((device)) static volatile unsigned __weft_nv_grid_generation;
WEFT_NV_FN void __weft_nv_grid_arrive() {
  const unsigned blocks = __weft_grid_dim(0) * __weft_grid_dim(1) * __weft_grid_dim(2);
  const unsigned generation = __weft_nv_grid_generation;
  __nvvm_membar_gl();
  if (__nvvm_atom_add_gen_i(reinterpret_cast<int*>(&__weft_nv_grid_arrived), 1) + 1 ==
      static_cast<int>(blocks)) {
    __weft_nv_grid_arrived = 0;
    __nvvm_membar_gl();
    __nvvm_atom_add_gen_i(reinterpret_cast<int*>(const_cast<unsigned*>(&__weft_nv_grid_generation)),
                          1);
  } else {
    while (__weft_nv_grid_generation == generation) __weft_sleep_ns(32);
  }
  __nvvm_membar_gl();
}
WEFT_NV_FN void __weft_grid_sync() {
  __weft_barrier();
  if (__weft_thread_idx(0) == 0 && __weft_thread_idx(1) == 0 && __weft_thread_idx(2) == 0)
    __weft_nv_grid_arrive();
  __weft_barrier();
}
extern "C" inline __attribute__((host, device)) int weftGridIsCooperative(void) { return 1; }

/* ---- assert ----------------------------------------------------------------
 * printf: clang lowers a device call of the C library's printf to
 * vprintf(format, argument buffer); declared here host+device for a pass that did
 * not include hip/weft/device/prelude.h first. */
extern "C" __attribute__((host, device)) int printf(const char* format, ...);
extern "C" __attribute__((device)) void __assertfail(const char* message, const char* file,
                                                     unsigned line, const char* function,
                                                     size_t char_size);
[[noreturn]] WEFT_NV_FN void __weft_assert_fail(const char* expr, const char* file, unsigned line,
                                                const char* function) {
  __assertfail(expr, file, line, function, 1);
  __builtin_trap();  // __assertfail stops the kernel; this tells the compiler so
}
/* glibc's assert() calls __assert_fail: a source that includes <assert.h> (or <cassert>)
 * after the HIP headers redefines assert to that host function, which ptxas then cannot
 * resolve. Its device overload reports through __assertfail as above. */
extern "C" __attribute__((noreturn)) WEFT_NV_FN void __assert_fail(const char* expr,
                                                                   const char* file, unsigned line,
                                                                   const char* function) noexcept {
  __weft_assert_fail(expr, file, line, function);
}

/* The HIP extras below exist as __weft_libm_* (the shared math header uses them). */
#define WEFT_DEVICE_LIBM_EXTRAS 1

/* ---- libm-level math from libdevice ------------------------------------- */
#define WEFT_NV_C_UNARY(c, nv, ocml)                                             \
  extern "C" __attribute__((device)) float __nv_##nv##f(float);                  \
  extern "C" __attribute__((device)) double __nv_##nv(double);                   \
  extern "C" inline __attribute__((host, device)) float c##f(float x) noexcept { \
    return __nv_##nv##f(x);                                                      \
  }                                                                              \
  extern "C" inline __attribute__((host, device)) double c(double x) noexcept {  \
    return __nv_##nv(x);                                                         \
  }
#define WEFT_NV_C_BINARY(c, nv, ocml)                                                     \
  extern "C" __attribute__((device)) float __nv_##nv##f(float, float);                    \
  extern "C" __attribute__((device)) double __nv_##nv(double, double);                    \
  extern "C" inline __attribute__((host, device)) float c##f(float x, float y) noexcept { \
    return __nv_##nv##f(x, y);                                                            \
  }                                                                                       \
  extern "C" inline __attribute__((host, device)) double c(double x, double y) noexcept { \
    return __nv_##nv(x, y);                                                               \
  }
#define WEFT_NV_C_TERNARY(c, nv, ocml)                                                             \
  extern "C" __attribute__((device)) float __nv_##nv##f(float, float, float);                      \
  extern "C" __attribute__((device)) double __nv_##nv(double, double, double);                     \
  extern "C" inline __attribute__((host, device)) float c##f(float x, float y, float z) noexcept { \
    return __nv_##nv##f(x, y, z);                                                                  \
  }                                                                                                \
  extern "C" inline __attribute__((host, device)) double c(double x, double y,                     \
                                                           double z) noexcept {                    \
    return __nv_##nv(x, y, z);                                                                     \
  }
#define WEFT_NV_HIP_UNARY(c, nv, ocml)                                     \
  extern "C" __attribute__((device)) float __nv_##nv##f(float);            \
  extern "C" __attribute__((device)) double __nv_##nv(double);             \
  WEFT_NV_FN float __weft_libm_##c##f(float x) { return __nv_##nv##f(x); } \
  WEFT_NV_FN double __weft_libm_##c(double x) { return __nv_##nv(x); }
#define WEFT_NV_HIP_BINARY(c, nv, ocml)                                                \
  extern "C" __attribute__((device)) float __nv_##nv##f(float, float);                 \
  extern "C" __attribute__((device)) double __nv_##nv(double, double);                 \
  WEFT_NV_FN float __weft_libm_##c##f(float x, float y) { return __nv_##nv##f(x, y); } \
  WEFT_NV_FN double __weft_libm_##c(double x, double y) { return __nv_##nv(x, y); }
#define WEFT_NV_HIP_TERNARY(c, nv, ocml)                                                           \
  extern "C" __attribute__((device)) float __nv_##nv##f(float, float, float);                      \
  extern "C" __attribute__((device)) double __nv_##nv(double, double, double);                     \
  WEFT_NV_FN float __weft_libm_##c##f(float x, float y, float z) { return __nv_##nv##f(x, y, z); } \
  WEFT_NV_FN double __weft_libm_##c(double x, double y, double z) { return __nv_##nv(x, y, z); }
/* libdevice's sqrtf, hypotf and norm3df take an approximate square root (1-2 ulp) unless
 * __nvvm_reflect("__CUDA_PREC_SQRT") answers 1, which clang-15's NVVMReflect never does (it
 * knows __CUDA_FTZ and __CUDA_ARCH only). HIP's sqrtf is correctly rounded: PTX's
 * sqrt.rn.f32; hypotf and norm3df are libdevice's double functions rounded to float (no
 * overflow inside). The list below names them through these macros. */
extern "C" {
__attribute__((device)) double __nv_hypot(double, double);
__attribute__((device)) double __nv_norm3d(double, double, double);
__attribute__((device)) inline float __weft_nv_sqrtf(float x) { return __nvvm_sqrt_rn_f(x); }
__attribute__((device)) inline float __weft_nv_hypotf(float x, float y) {
  return static_cast<float>(__nv_hypot(x, y));
}
__attribute__((device)) inline float __weft_nv_norm3df(float a, float b, float c) {
  return static_cast<float>(__nv_norm3d(a, b, c));
}
/* libdevice's erfinvf is off by more than its documented 2 ulp near -1 (the H200 at
 * -0.999996): the double function rounded to float. */
__attribute__((device)) double __nv_erfinv(double);
__attribute__((device)) inline float __weft_nv_erfinvf(float x) {
  return static_cast<float>(__nv_erfinv(x));
}
}
#define __nv_erfinvf __weft_nv_erfinvf
#define __nv_sqrtf __weft_nv_sqrtf
#define __nv_hypotf __weft_nv_hypotf
#define __nv_norm3df __weft_nv_norm3df
WEFT_LIBM_C_UNARY(WEFT_NV_C_UNARY)
WEFT_LIBM_C_BINARY(WEFT_NV_C_BINARY)
WEFT_LIBM_C_TERNARY(WEFT_NV_C_TERNARY)
WEFT_LIBM_HIP_UNARY(WEFT_NV_HIP_UNARY)
WEFT_LIBM_HIP_BINARY(WEFT_NV_HIP_BINARY)
WEFT_LIBM_HIP_TERNARY(WEFT_NV_HIP_TERNARY)
#undef WEFT_NV_C_UNARY
#undef WEFT_NV_C_BINARY
#undef WEFT_NV_C_TERNARY
#undef WEFT_NV_HIP_UNARY
#undef WEFT_NV_HIP_BINARY
#undef WEFT_NV_HIP_TERNARY

extern "C" {
__attribute__((device)) float __nv_frexpf(float, int*);
__attribute__((device)) double __nv_frexp(double, int*);
__attribute__((device)) float __nv_modff(float, float*);
__attribute__((device)) double __nv_modf(double, double*);
__attribute__((device)) float __nv_remquof(float, float, int*);
__attribute__((device)) double __nv_remquo(double, double, int*);
__attribute__((device)) void __nv_sincosf(float, float*, float*);
__attribute__((device)) void __nv_sincos(double, double*, double*);
__attribute__((device)) void __nv_sincospif(float, float*, float*);
__attribute__((device)) void __nv_sincospi(double, double*, double*);
__attribute__((device)) float __nv_ldexpf(float, int);
__attribute__((device)) double __nv_ldexp(double, int);
__attribute__((device)) float __nv_scalbnf(float, int);
__attribute__((device)) double __nv_scalbn(double, int);
__attribute__((device)) int __nv_ilogbf(float);
__attribute__((device)) int __nv_ilogb(double);
__attribute__((device)) float __nv_powif(float, int);
__attribute__((device)) double __nv_powi(double, int);
__attribute__((device)) float __nv_jnf(int, float);
__attribute__((device)) double __nv_jn(int, double);
__attribute__((device)) float __nv_ynf(int, float);
__attribute__((device)) double __nv_yn(int, double);
__attribute__((device)) float __nv_nanf(const signed char*);
__attribute__((device)) double __nv_nan(const signed char*);
__attribute__((device)) float __nv_fast_sinf(float);
__attribute__((device)) float __nv_fast_cosf(float);
__attribute__((device)) float __nv_fast_tanf(float);
__attribute__((device)) float __nv_fast_expf(float);
__attribute__((device)) float __nv_fast_exp10f(float);
__attribute__((device)) float __nv_fast_logf(float);
__attribute__((device)) float __nv_fast_log2f(float);
__attribute__((device)) float __nv_fast_log10f(float);
__attribute__((device)) float __nv_fast_powf(float, float);
__attribute__((device)) float __nv_fast_fdividef(float, float);
}
#define WEFT_NV_C __attribute__((host, device)) inline
extern "C" {
WEFT_NV_C float frexpf(float x, int* e) noexcept { return __nv_frexpf(x, e); }
WEFT_NV_C double frexp(double x, int* e) noexcept { return __nv_frexp(x, e); }
WEFT_NV_C float modff(float x, float* i) noexcept { return __nv_modff(x, i); }
WEFT_NV_C double modf(double x, double* i) noexcept { return __nv_modf(x, i); }
WEFT_NV_C float remquof(float x, float y, int* q) noexcept { return __nv_remquof(x, y, q); }
WEFT_NV_C double remquo(double x, double y, int* q) noexcept { return __nv_remquo(x, y, q); }
WEFT_NV_C void sincosf(float x, float* s, float* c) noexcept { __nv_sincosf(x, s, c); }
WEFT_NV_C void sincos(double x, double* s, double* c) noexcept { __nv_sincos(x, s, c); }
WEFT_NV_C float ldexpf(float x, int e) noexcept { return __nv_ldexpf(x, e); }
WEFT_NV_C double ldexp(double x, int e) noexcept { return __nv_ldexp(x, e); }
WEFT_NV_C float scalbnf(float x, int e) noexcept { return __nv_scalbnf(x, e); }
WEFT_NV_C double scalbn(double x, int e) noexcept { return __nv_scalbn(x, e); }
WEFT_NV_C float scalblnf(float x, long e) noexcept {
  return __nv_scalbnf(x, e > 100000 ? 100000 : e < -100000 ? -100000 : static_cast<int>(e));
}
WEFT_NV_C double scalbln(double x, long e) noexcept {
  return __nv_scalbn(x, e > 100000 ? 100000 : e < -100000 ? -100000 : static_cast<int>(e));
}
WEFT_NV_C int ilogbf(float x) noexcept { return __nv_ilogbf(x); }
WEFT_NV_C int ilogb(double x) noexcept { return __nv_ilogb(x); }
}
// libdevice's jn(n, x) is NaN for n > 1 and tiny x (its recurrence divides by x; the H200
// answered NaN at 0, 1e-45 and 1e-38). Below 2^-20 the series' first two terms are exact to
// double precision: J_n(x) = (x/2)^n / n! (1 - (x/2)^2 / (n + 1)), J_-n = (-1)^n J_n.
template <typename T>
__attribute__((device)) inline T __weft_nv_jn_small(int n, T x) {
  const int m = n < 0 ? -n : n;
  const T half = x / 2;
  T term = 1;
  for (int k = 1; k <= m; ++k) term *= half / T(k);
  term *= 1 - half * half / T(m + 1);
  return n < 0 && (m & 1) ? -term : term;
}
extern "C" {
WEFT_NV_C float jnf(int n, float x) noexcept {
  return __builtin_fabsf(x) < 0x1p-20f ? __weft_nv_jn_small(n, x) : __nv_jnf(n, x);
}
WEFT_NV_C double jn(int n, double x) noexcept {
  return __builtin_fabs(x) < 0x1p-20 ? __weft_nv_jn_small(n, x) : __nv_jn(n, x);
}
WEFT_NV_C float ynf(int n, float x) noexcept { return __nv_ynf(n, x); }
WEFT_NV_C double yn(int n, double x) noexcept { return __nv_yn(n, x); }
WEFT_NV_C float nanf(const char* tag) noexcept {
  return __nv_nanf(reinterpret_cast<const signed char*>(tag));
}
WEFT_NV_C double nan(const char* tag) noexcept {
  return __nv_nan(reinterpret_cast<const signed char*>(tag));
}
WEFT_NV_C long lrintf(float x) noexcept { return static_cast<long>(rintf(x)); }
WEFT_NV_C long lrint(double x) noexcept { return static_cast<long>(rint(x)); }
WEFT_NV_C long long llrintf(float x) noexcept { return static_cast<long long>(rintf(x)); }
WEFT_NV_C long long llrint(double x) noexcept { return static_cast<long long>(rint(x)); }
WEFT_NV_C long lroundf(float x) noexcept { return static_cast<long>(roundf(x)); }
WEFT_NV_C long lround(double x) noexcept { return static_cast<long>(round(x)); }
WEFT_NV_C long long llroundf(float x) noexcept { return static_cast<long long>(roundf(x)); }
WEFT_NV_C long long llround(double x) noexcept { return static_cast<long long>(round(x)); }
}
#undef WEFT_NV_C
WEFT_NV_FN void __weft_libm_sincospif(float x, float* s, float* c) { __nv_sincospif(x, s, c); }
WEFT_NV_FN void __weft_libm_sincospi(double x, double* s, double* c) { __nv_sincospi(x, s, c); }
WEFT_NV_FN float __weft_libm_powif(float x, int n) { return __nv_powif(x, n); }
WEFT_NV_FN double __weft_libm_powi(double x, int n) { return __nv_powi(x, n); }

/* HIP's fast single-precision intrinsics (__sinf & co.): PTX's .approx forms. */
WEFT_NV_FN float __weft_fast_sinf(float x) { return __nv_fast_sinf(x); }
WEFT_NV_FN float __weft_fast_cosf(float x) { return __nv_fast_cosf(x); }
WEFT_NV_FN float __weft_fast_tanf(float x) { return __nv_fast_tanf(x); }
WEFT_NV_FN float __weft_fast_expf(float x) { return __nv_fast_expf(x); }
WEFT_NV_FN float __weft_fast_exp10f(float x) { return __nv_fast_exp10f(x); }
WEFT_NV_FN float __weft_fast_logf(float x) { return __nv_fast_logf(x); }
WEFT_NV_FN float __weft_fast_log2f(float x) { return __nv_fast_log2f(x); }
WEFT_NV_FN float __weft_fast_log10f(float x) { return __nv_fast_log10f(x); }
WEFT_NV_FN float __weft_fast_powf(float x, float y) { return __nv_fast_powf(x, y); }
WEFT_NV_FN float __weft_fast_fdividef(float x, float y) { return __nv_fast_fdividef(x, y); }

/* complex * and / (__mulsc3 & co.): the GPU layers' shared definitions. */
#include <hip/weft/device/gpu_complex.h>

/* ---- arithmetic and conversions with a rounding direction ---------------------------
 * HIP's __fadd_rd, __dmul_ru, __fmaf_rz, __fsqrt_rn, __int2float_ru, __double2float_rz, ...
 * (hip/weft/device_math.h defines the host's): libdevice's functions of the same names, each
 * one PTX instruction with its rounding modifier (add.rm.f32, fma.rz.f64, cvt.rp.f32.s32, ...),
 * without .ftz: subnormals are kept, as on the host. A GPU has no dynamic rounding mode. */
#define WEFT_DEVICE_ROUNDING 1
#define WEFT_NV_ROUNDED(name, T, params, args)             \
  extern "C" __attribute__((device)) T __nv_##name params; \
  WEFT_NV_FN T __##name params { return __nv_##name args; }
#define WEFT_NV_ROUNDED4(name, T, params, args) \
  WEFT_NV_ROUNDED(name##_rn, T, params, args)   \
  WEFT_NV_ROUNDED(name##_rz, T, params, args)   \
  WEFT_NV_ROUNDED(name##_ru, T, params, args)   \
  WEFT_NV_ROUNDED(name##_rd, T, params, args)
/* The integer-to-float _rz forms are PTX of their own: LLVM 15 selects libdevice's
 * llvm.nvvm.*2f.rz / *2d.rz intrinsics as the .rn conversion (the H200 read __uint2float_rz
 * (0xffffffff) as 2^32). */
#define WEFT_NV_ROUNDED3(name, T, params, args) \
  WEFT_NV_ROUNDED(name##_rn, T, params, args)   \
  WEFT_NV_ROUNDED(name##_ru, T, params, args)   \
  WEFT_NV_ROUNDED(name##_rd, T, params, args)
#define WEFT_NV_CVT_RZ(name, T, I, out, in, ptx)            \
  WEFT_NV_FN T __##name##_rz(I x) {                         \
    T r;                                                    \
    __asm__("cvt.rz." ptx " %0, %1;" : "=" out(r) : in(x)); \
    return r;                                               \
  }
// Macro calls without semicolons: clang-format would re-wrap this list on every run.
// clang-format off
WEFT_NV_ROUNDED4(fadd, float, (float a, float b), (a, b))
WEFT_NV_ROUNDED4(fsub, float, (float a, float b), (a, b))
WEFT_NV_ROUNDED4(fmul, float, (float a, float b), (a, b))
WEFT_NV_ROUNDED4(fdiv, float, (float a, float b), (a, b))
WEFT_NV_ROUNDED4(frcp, float, (float a), (a))
WEFT_NV_ROUNDED4(fsqrt, float, (float a), (a))
WEFT_NV_ROUNDED4(fmaf, float, (float a, float b, float c), (a, b, c))
WEFT_NV_ROUNDED4(dadd, double, (double a, double b), (a, b))
WEFT_NV_ROUNDED4(dsub, double, (double a, double b), (a, b))
WEFT_NV_ROUNDED4(dmul, double, (double a, double b), (a, b))
WEFT_NV_ROUNDED4(ddiv, double, (double a, double b), (a, b))
WEFT_NV_ROUNDED4(drcp, double, (double a), (a))
WEFT_NV_ROUNDED4(dsqrt, double, (double a), (a))
WEFT_NV_ROUNDED4(fma, double, (double a, double b, double c), (a, b, c))
WEFT_NV_ROUNDED3(int2float, float, (int x), (x))
WEFT_NV_ROUNDED3(uint2float, float, (unsigned x), (x))
WEFT_NV_ROUNDED3(ll2float, float, (long long x), (x))
WEFT_NV_ROUNDED3(ull2float, float, (unsigned long long x), (x))
WEFT_NV_ROUNDED3(ll2double, double, (long long x), (x))
WEFT_NV_ROUNDED3(ull2double, double, (unsigned long long x), (x))
WEFT_NV_ROUNDED4(double2float, float, (double x), (x))
WEFT_NV_ROUNDED(frsqrt_rn, float, (float x), (x))
WEFT_NV_CVT_RZ(int2float, float, int, "f", "r", "f32.s32")
WEFT_NV_CVT_RZ(uint2float, float, unsigned, "f", "r", "f32.u32")
WEFT_NV_CVT_RZ(ll2float, float, long long, "f", "l", "f32.s64")
WEFT_NV_CVT_RZ(ull2float, float, unsigned long long, "f", "l", "f32.u64")
WEFT_NV_CVT_RZ(ll2double, double, long long, "d", "l", "f64.s64")
WEFT_NV_CVT_RZ(ull2double, double, unsigned long long, "d", "l", "f64.u64")
// clang-format on
#undef WEFT_NV_CVT_RZ
#undef WEFT_NV_ROUNDED3
#undef WEFT_NV_ROUNDED4
#undef WEFT_NV_ROUNDED
/* <fenv.h> (declared host+device by the prelude): every rounding on NVIDIA GPUs is the
 * instruction's own; the mode a kernel sees is round-to-nearest, which cannot be changed. */
extern "C" inline __attribute__((host, device)) int fegetround(void) noexcept {
  return FE_TONEAREST;
}
extern "C" inline __attribute__((host, device)) int fesetround(int mode) noexcept {
  return mode == FE_TONEAREST ? 0 : 1;
}

#undef WEFT_NV_FN
#endif /* WEFT_HIP_DEVICE_NVPTX_H */
