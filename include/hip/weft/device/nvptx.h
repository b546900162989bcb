/* SPDX-License-Identifier: MIT */
/* The NVIDIA (nvptx64) device layer: the primitives weft's shared HIP-mode headers
 * are written on, for clang's HIP device pass targeting NVPTX (weftcc's sm_XY
 * images, tools/weftcc/weftcc_lib/nvidia_image.py). Everything here is a clang
 * NVVM builtin, a libdevice function (`__nv_*`, linked by weftcc as builtin
 * bitcode: only what a kernel calls survives) or a function NVIDIA's driver
 * supplies to every module (`vprintf`, `__assertfail`).
 *
 * warpSize is 32 here (the hardware's); HIP's 64-bit lane masks carry the warp in
 * their low 32 bits. */
#ifndef WEFT_HIP_DEVICE_NVPTX_H
#define WEFT_HIP_DEVICE_NVPTX_H

#if !defined(__NVPTX__) || !defined(__HIP_DEVICE_COMPILE__)
#error "hip/weft/device/nvptx.h is the NVPTX device pass's layer (clang -x hip, nvptx64 device side)"
#endif

#include <stddef.h>
#include <stdint.h>

#include <hip/weft/device/libm_list.h>

#define WEFT_DEVICE_WARP_SIZE 32
#define WEFT_DEVICE_FN static __attribute__((device)) __attribute__((always_inline)) inline

/* ---- ids ---------------------------------------------------------------- */
WEFT_DEVICE_FN uint32_t __weft_dev_thread_idx(uint32_t dim) {
  return dim == 0 ? __nvvm_read_ptx_sreg_tid_x() : dim == 1 ? __nvvm_read_ptx_sreg_tid_y() : __nvvm_read_ptx_sreg_tid_z();
}
WEFT_DEVICE_FN uint32_t __weft_dev_block_idx(uint32_t dim) {
  return dim == 0 ? __nvvm_read_ptx_sreg_ctaid_x()
                  : dim == 1 ? __nvvm_read_ptx_sreg_ctaid_y() : __nvvm_read_ptx_sreg_ctaid_z();
}
WEFT_DEVICE_FN uint32_t __weft_dev_block_dim(uint32_t dim) {
  return dim == 0 ? __nvvm_read_ptx_sreg_ntid_x() : dim == 1 ? __nvvm_read_ptx_sreg_ntid_y() : __nvvm_read_ptx_sreg_ntid_z();
}
WEFT_DEVICE_FN uint32_t __weft_dev_grid_dim(uint32_t dim) {
  return dim == 0 ? __nvvm_read_ptx_sreg_nctaid_x()
                  : dim == 1 ? __nvvm_read_ptx_sreg_nctaid_y() : __nvvm_read_ptx_sreg_nctaid_z();
}
WEFT_DEVICE_FN uint32_t __weft_dev_lane_id() { return __nvvm_read_ptx_sreg_laneid(); }

/* ---- barriers and fences ------------------------------------------------ */
/* bar.sync orders shared and global memory among the block's threads (PTX ISA,
 * "Memory consistency"), so __syncthreads needs no separate fence. */
WEFT_DEVICE_FN void __weft_dev_barrier() { __nvvm_bar_sync(0); }
/* op: 0 count, 1 and, 2 or (the CPU ABI's WEFT_REDUCE_COUNT/AND/OR order). */
WEFT_DEVICE_FN int __weft_dev_barrier_reduce(int predicate, int op) {
  return op == 0 ? __nvvm_bar0_popc(predicate) : op == 1 ? __nvvm_bar0_and(predicate) : __nvvm_bar0_or(predicate);
}
WEFT_DEVICE_FN void __weft_dev_fence_block() { __nvvm_membar_cta(); }
WEFT_DEVICE_FN void __weft_dev_fence_device() { __nvvm_membar_gl(); }
WEFT_DEVICE_FN void __weft_dev_fence_system() { __nvvm_membar_sys(); }

/* ---- warp operations ---------------------------------------------------- */
/* clang-15 has no builtin for these three PTX instructions: inline PTX. */
WEFT_DEVICE_FN uint64_t __weft_dev_active_mask() {
  uint32_t mask;
  __asm__ volatile("activemask.b32 %0;" : "=r"(mask));
  return mask;
}
/* Lane `src_lane`'s value (0..31; the shared layer computes up/down/xor/width
 * into it), among the lanes in `mask`. */
WEFT_DEVICE_FN uint32_t __weft_dev_warp_read32(uint64_t mask, uint32_t value, uint32_t src_lane) {
  return static_cast<uint32_t>(__nvvm_shfl_sync_idx_i32(static_cast<uint32_t>(mask), static_cast<int>(value),
                                                        static_cast<int>(src_lane), 0x1f));
}
WEFT_DEVICE_FN uint64_t __weft_dev_warp_read64(uint64_t mask, uint64_t value, uint32_t src_lane) {
  uint32_t lo = __weft_dev_warp_read32(mask, static_cast<uint32_t>(value), src_lane);
  uint32_t hi = __weft_dev_warp_read32(mask, static_cast<uint32_t>(value >> 32), src_lane);
  return (static_cast<uint64_t>(hi) << 32) | lo;
}
WEFT_DEVICE_FN uint64_t __weft_dev_warp_ballot(uint64_t mask, int predicate) {
  return __nvvm_vote_ballot_sync(static_cast<uint32_t>(mask), predicate != 0);
}
WEFT_DEVICE_FN int __weft_dev_warp_any(uint64_t mask, int predicate) {
  return __nvvm_vote_any_sync(static_cast<uint32_t>(mask), predicate != 0);
}
WEFT_DEVICE_FN int __weft_dev_warp_all(uint64_t mask, int predicate) {
  return __nvvm_vote_all_sync(static_cast<uint32_t>(mask), predicate != 0);
}
WEFT_DEVICE_FN void __weft_dev_warp_sync(uint64_t mask) { __nvvm_bar_warp_sync(static_cast<uint32_t>(mask)); }

/* ---- atomics -----------------------------------------------------------
 * HIP's atomics are relaxed at device scope. clang's __hip_atomic builtins lower
 * to PTX atom/red at the default .gpu scope (LLVM 15's NVPTX back end keeps no
 * other scope), which is HIP's device scope; the _system variants use the
 * NVVM atom.sys builtins (sm_60+), so host and peer agents see them atomically. */
#define WEFT_NV_ATOMIC(name, builtin)                                                   \
  template <typename T>                                                                 \
  WEFT_DEVICE_FN T __weft_dev_atomic_##name(T* p, T v) {                                \
    return builtin(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);                   \
  }
WEFT_NV_ATOMIC(add, __hip_atomic_fetch_add)
WEFT_NV_ATOMIC(and, __hip_atomic_fetch_and)
WEFT_NV_ATOMIC(or, __hip_atomic_fetch_or)
WEFT_NV_ATOMIC(xor, __hip_atomic_fetch_xor)
WEFT_NV_ATOMIC(min, __hip_atomic_fetch_min)
WEFT_NV_ATOMIC(max, __hip_atomic_fetch_max)
WEFT_NV_ATOMIC(exchange, __hip_atomic_exchange)
#undef WEFT_NV_ATOMIC
template <typename T>
WEFT_DEVICE_FN T __weft_dev_atomic_sub(T* p, T v) {
  return __hip_atomic_fetch_add(p, static_cast<T>(-v), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
/* Returns the old value (CUDA's atomicCAS). */
template <typename T>
WEFT_DEVICE_FN T __weft_dev_atomic_cas(T* p, T expected, T desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_AGENT);
  return expected;
}

/* System scope, per type: (HIP type, NVVM builtin suffix, the builtin's type). */
#define WEFT_NV_SYS(op, T, sfx, B)                                                                     \
  WEFT_DEVICE_FN T __weft_dev_atomic_##op##_system(T* p, T v) {                                        \
    return static_cast<T>(__nvvm_atom_sys_##op##_gen_##sfx(reinterpret_cast<B*>(p), static_cast<B>(v))); \
  }
#define WEFT_NV_SYS_INTEGER(op)                                                                          \
  WEFT_NV_SYS(op, int, i, int) WEFT_NV_SYS(op, unsigned, i, int) WEFT_NV_SYS(op, long long, ll, long long) \
  WEFT_NV_SYS(op, unsigned long long, ll, long long)
WEFT_NV_SYS_INTEGER(and)
WEFT_NV_SYS_INTEGER(or)
WEFT_NV_SYS_INTEGER(xor)
WEFT_NV_SYS(add, int, i, int)
WEFT_NV_SYS(add, unsigned, i, int)
WEFT_NV_SYS(add, long long, ll, long long)
WEFT_NV_SYS(add, unsigned long long, ll, long long)
WEFT_NV_SYS(add, float, f, float)
WEFT_NV_SYS(add, double, d, double)
WEFT_NV_SYS(xchg, int, i, int)
WEFT_NV_SYS(xchg, unsigned, i, int)
WEFT_NV_SYS(xchg, long long, ll, long long)
WEFT_NV_SYS(xchg, unsigned long long, ll, long long)
WEFT_NV_SYS(min, int, i, int)
WEFT_NV_SYS(min, long long, ll, long long)
WEFT_NV_SYS(max, int, i, int)
WEFT_NV_SYS(max, long long, ll, long long)
#undef WEFT_NV_SYS_INTEGER
#undef WEFT_NV_SYS
WEFT_DEVICE_FN float __weft_dev_atomic_xchg_system(float* p, float v) {
  return __builtin_bit_cast(float, __weft_dev_atomic_xchg_system(reinterpret_cast<int*>(p), __builtin_bit_cast(int, v)));
}
WEFT_DEVICE_FN double __weft_dev_atomic_xchg_system(double* p, double v) {
  return __builtin_bit_cast(double, __weft_dev_atomic_xchg_system(reinterpret_cast<long long*>(p),
                                                                  __builtin_bit_cast(long long, v)));
}
template <typename T>
WEFT_DEVICE_FN T __weft_dev_atomic_exchange_system(T* p, T v) { return __weft_dev_atomic_xchg_system(p, v); }
template <unsigned Size>
struct __weft_nv_cas_system;
template <>
struct __weft_nv_cas_system<4> {
  template <typename T>
  static __attribute__((device)) T run(T* p, T expected, T desired) {
    return __builtin_bit_cast(T, __nvvm_atom_sys_cas_gen_i(reinterpret_cast<int*>(p), __builtin_bit_cast(int, expected),
                                                           __builtin_bit_cast(int, desired)));
  }
};
template <>
struct __weft_nv_cas_system<8> {
  template <typename T>
  static __attribute__((device)) T run(T* p, T expected, T desired) {
    return __builtin_bit_cast(T, __nvvm_atom_sys_cas_gen_ll(reinterpret_cast<long long*>(p),
                                                            __builtin_bit_cast(long long, expected),
                                                            __builtin_bit_cast(long long, desired)));
  }
};
template <typename T>
WEFT_DEVICE_FN T __weft_dev_atomic_cas_system(T* p, T expected, T desired) {
  return __weft_nv_cas_system<sizeof(T)>::run(p, expected, desired);
}
/* clang-15 lowers __nvvm_atom_sys_{min,max}_gen_u* to signed PTX min/max: the
 * unsigned ones are CAS loops at system scope instead. */
#define WEFT_NV_SYS_UNSIGNED(op, T, better)                                 \
  WEFT_DEVICE_FN T __weft_dev_atomic_##op##_system(T* p, T v) {             \
    T old = *static_cast<volatile T*>(p);                                   \
    while (v better old) {                                                  \
      T seen = __weft_dev_atomic_cas_system(p, old, v);                     \
      if (seen == old) break;                                               \
      old = seen;                                                           \
    }                                                                       \
    return old;                                                             \
  }
WEFT_NV_SYS_UNSIGNED(min, unsigned, <)
WEFT_NV_SYS_UNSIGNED(min, unsigned long long, <)
WEFT_NV_SYS_UNSIGNED(max, unsigned, >)
WEFT_NV_SYS_UNSIGNED(max, unsigned long long, >)
#undef WEFT_NV_SYS_UNSIGNED
/* atomicInc/atomicDec: ((old >= limit) ? 0 : old + 1), ((old == 0 || old > limit) ? limit : old - 1). */
WEFT_DEVICE_FN uint32_t __weft_dev_atomic_inc(uint32_t* p, uint32_t limit) { return __nvvm_atom_inc_gen_ui(p, limit); }
WEFT_DEVICE_FN uint32_t __weft_dev_atomic_dec(uint32_t* p, uint32_t limit) { return __nvvm_atom_dec_gen_ui(p, limit); }

/* ---- clocks ------------------------------------------------------------- */
WEFT_DEVICE_FN uint64_t __weft_dev_clock64() { return __nvvm_read_ptx_sreg_clock64(); }
/* %globaltimer: nanoseconds (hipDeviceAttributeWallClockRate is reported as 1e6 kHz on NVIDIA). */
WEFT_DEVICE_FN uint64_t __weft_dev_wall_clock64() {
  uint64_t ns;
  __asm__ volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}
WEFT_DEVICE_FN void __weft_dev_sleep(uint32_t ns) { __asm__ volatile("nanosleep.u32 %0;" ::"r"(ns)); }

/* ---- printf and assert ---------------------------------------------------
 * clang lowers a device-side call of printf to CUDA's vprintf(format, argument
 * buffer), which NVIDIA's driver links into every module; assert's failure path
 * is the driver's __assertfail (message, file, line, function, char size). */
extern "C" __attribute__((device)) int printf(const char* format, ...);
extern "C" __attribute__((device)) __attribute__((noreturn)) void __assertfail(const char* message, const char* file,
                                                                               unsigned line, const char* function,
                                                                               size_t char_size);
WEFT_DEVICE_FN void __weft_dev_assert_fail(const char* expr, const char* file, unsigned line, const char* function) {
  __assertfail(expr, file, line, function, 1);
}
WEFT_DEVICE_FN void __weft_dev_trap() { __builtin_trap(); }

/* ---- libm-level math from libdevice ------------------------------------- */
#define WEFT_NV_UNARY(c, nv, ocml)                                                                       \
  extern "C" __attribute__((device)) float __nv_##nv##f(float);                                          \
  extern "C" __attribute__((device)) double __nv_##nv(double);                                           \
  WEFT_DEVICE_FN float c##f(float x) { return __nv_##nv##f(x); }                                         \
  WEFT_DEVICE_FN double c(double x) { return __nv_##nv(x); }
#define WEFT_NV_BINARY(c, nv, ocml)                                                                      \
  extern "C" __attribute__((device)) float __nv_##nv##f(float, float);                                   \
  extern "C" __attribute__((device)) double __nv_##nv(double, double);                                   \
  WEFT_DEVICE_FN float c##f(float x, float y) { return __nv_##nv##f(x, y); }                             \
  WEFT_DEVICE_FN double c(double x, double y) { return __nv_##nv(x, y); }
#define WEFT_NV_TERNARY(c, nv, ocml)                                                                     \
  extern "C" __attribute__((device)) float __nv_##nv##f(float, float, float);                            \
  extern "C" __attribute__((device)) double __nv_##nv(double, double, double);                           \
  WEFT_DEVICE_FN float c##f(float x, float y, float z) { return __nv_##nv##f(x, y, z); }                 \
  WEFT_DEVICE_FN double c(double x, double y, double z) { return __nv_##nv(x, y, z); }
WEFT_LIBM_UNARY(WEFT_NV_UNARY)
WEFT_LIBM_BINARY(WEFT_NV_BINARY)
WEFT_LIBM_TERNARY(WEFT_NV_TERNARY)
#undef WEFT_NV_UNARY
#undef WEFT_NV_BINARY
#undef WEFT_NV_TERNARY

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
WEFT_DEVICE_FN float frexpf(float x, int* e) { return __nv_frexpf(x, e); }
WEFT_DEVICE_FN double frexp(double x, int* e) { return __nv_frexp(x, e); }
WEFT_DEVICE_FN float modff(float x, float* i) { return __nv_modff(x, i); }
WEFT_DEVICE_FN double modf(double x, double* i) { return __nv_modf(x, i); }
WEFT_DEVICE_FN float remquof(float x, float y, int* q) { return __nv_remquof(x, y, q); }
WEFT_DEVICE_FN double remquo(double x, double y, int* q) { return __nv_remquo(x, y, q); }
WEFT_DEVICE_FN void sincosf(float x, float* s, float* c) { __nv_sincosf(x, s, c); }
WEFT_DEVICE_FN void sincos(double x, double* s, double* c) { __nv_sincos(x, s, c); }
WEFT_DEVICE_FN void sincospif(float x, float* s, float* c) { __nv_sincospif(x, s, c); }
WEFT_DEVICE_FN void sincospi(double x, double* s, double* c) { __nv_sincospi(x, s, c); }
WEFT_DEVICE_FN float ldexpf(float x, int e) { return __nv_ldexpf(x, e); }
WEFT_DEVICE_FN double ldexp(double x, int e) { return __nv_ldexp(x, e); }
WEFT_DEVICE_FN float scalbnf(float x, int e) { return __nv_scalbnf(x, e); }
WEFT_DEVICE_FN double scalbn(double x, int e) { return __nv_scalbn(x, e); }
WEFT_DEVICE_FN float scalblnf(float x, long e) { return __nv_scalbnf(x, static_cast<int>(e)); }
WEFT_DEVICE_FN double scalbln(double x, long e) { return __nv_scalbn(x, static_cast<int>(e)); }
WEFT_DEVICE_FN int ilogbf(float x) { return __nv_ilogbf(x); }
WEFT_DEVICE_FN int ilogb(double x) { return __nv_ilogb(x); }
WEFT_DEVICE_FN float powif(float x, int n) { return __nv_powif(x, n); }
WEFT_DEVICE_FN double powi(double x, int n) { return __nv_powi(x, n); }
WEFT_DEVICE_FN float jnf(int n, float x) { return __nv_jnf(n, x); }
WEFT_DEVICE_FN double jn(int n, double x) { return __nv_jn(n, x); }
WEFT_DEVICE_FN float ynf(int n, float x) { return __nv_ynf(n, x); }
WEFT_DEVICE_FN double yn(int n, double x) { return __nv_yn(n, x); }
WEFT_DEVICE_FN float nanf(const char* tag) { return __nv_nanf(reinterpret_cast<const signed char*>(tag)); }
WEFT_DEVICE_FN double nan(const char* tag) { return __nv_nan(reinterpret_cast<const signed char*>(tag)); }
WEFT_DEVICE_FN long lrintf(float x) { return static_cast<long>(rintf(x)); }
WEFT_DEVICE_FN long lrint(double x) { return static_cast<long>(rint(x)); }
WEFT_DEVICE_FN long long llrintf(float x) { return static_cast<long long>(rintf(x)); }
WEFT_DEVICE_FN long long llrint(double x) { return static_cast<long long>(rint(x)); }
WEFT_DEVICE_FN long lroundf(float x) { return static_cast<long>(roundf(x)); }
WEFT_DEVICE_FN long lround(double x) { return static_cast<long>(round(x)); }
WEFT_DEVICE_FN long long llroundf(float x) { return static_cast<long long>(roundf(x)); }
WEFT_DEVICE_FN long long llround(double x) { return static_cast<long long>(round(x)); }

/* HIP's fast single-precision intrinsics (approximate: PTX's .approx forms). */
WEFT_DEVICE_FN float __weft_dev_fast_sinf(float x) { return __nv_fast_sinf(x); }
WEFT_DEVICE_FN float __weft_dev_fast_cosf(float x) { return __nv_fast_cosf(x); }
WEFT_DEVICE_FN float __weft_dev_fast_tanf(float x) { return __nv_fast_tanf(x); }
WEFT_DEVICE_FN float __weft_dev_fast_expf(float x) { return __nv_fast_expf(x); }
WEFT_DEVICE_FN float __weft_dev_fast_exp10f(float x) { return __nv_fast_exp10f(x); }
WEFT_DEVICE_FN float __weft_dev_fast_logf(float x) { return __nv_fast_logf(x); }
WEFT_DEVICE_FN float __weft_dev_fast_log2f(float x) { return __nv_fast_log2f(x); }
WEFT_DEVICE_FN float __weft_dev_fast_log10f(float x) { return __nv_fast_log10f(x); }
WEFT_DEVICE_FN float __weft_dev_fast_powf(float x, float y) { return __nv_fast_powf(x, y); }
WEFT_DEVICE_FN float __weft_dev_fast_fdividef(float x, float y) { return __nv_fast_fdividef(x, y); }

#endif /* WEFT_HIP_DEVICE_NVPTX_H */
