/* SPDX-License-Identifier: MIT */
/* The AMD GPU (amdgcn) device layer: the primitives weft's shared HIP-mode headers
 * are written on, for clang's HIP device pass targeting AMDGPU (weftcc's gfx
 * images, tools/weftcc/weftcc_lib/amd_image.py). Everything here is a clang
 * AMDGPU builtin or a function of ROCm's device libraries (OCML for math, OCKL for
 * the dispatch's sizes), which weftcc links as builtin bitcode the way hipcc does.
 *
 * blockDim and gridDim come from OCKL (__ockl_get_local_size/_num_groups): it
 * reads the dispatch packet under code object v4 and the implicit kernel
 * arguments (hidden_group_size_*, hidden_block_count_*) under v5, chosen by the
 * oclc_abi_version library the driver links, so one header serves both.
 * warpSize is the wavefront size (64 on gfx9, 32 by default on gfx10+). */
#ifndef WEFT_HIP_DEVICE_AMDGCN_H
#define WEFT_HIP_DEVICE_AMDGCN_H

#if !defined(__AMDGCN__) || !defined(__HIP_DEVICE_COMPILE__)
#error "hip/weft/device/amdgcn.h is the AMDGPU device pass's layer (clang -x hip, amdgcn device side)"
#endif

#include <stddef.h>
#include <stdint.h>

#include <hip/weft/device/libm_list.h>

#define WEFT_DEVICE_WARP_SIZE __AMDGCN_WAVEFRONT_SIZE
#define WEFT_DEVICE_FN static __attribute__((device)) __attribute__((always_inline)) inline
#define WEFT_AMD_PRIVATE __attribute__((address_space(5)))

extern "C" {
__attribute__((device)) __attribute__((const)) size_t __ockl_get_local_size(unsigned dim);
__attribute__((device)) __attribute__((const)) size_t __ockl_get_num_groups(unsigned dim);
}

/* ---- ids ---------------------------------------------------------------- */
WEFT_DEVICE_FN uint32_t __weft_dev_thread_idx(uint32_t dim) {
  return dim == 0 ? __builtin_amdgcn_workitem_id_x()
                  : dim == 1 ? __builtin_amdgcn_workitem_id_y() : __builtin_amdgcn_workitem_id_z();
}
WEFT_DEVICE_FN uint32_t __weft_dev_block_idx(uint32_t dim) {
  return dim == 0 ? __builtin_amdgcn_workgroup_id_x()
                  : dim == 1 ? __builtin_amdgcn_workgroup_id_y() : __builtin_amdgcn_workgroup_id_z();
}
WEFT_DEVICE_FN uint32_t __weft_dev_block_dim(uint32_t dim) { return static_cast<uint32_t>(__ockl_get_local_size(dim)); }
WEFT_DEVICE_FN uint32_t __weft_dev_grid_dim(uint32_t dim) { return static_cast<uint32_t>(__ockl_get_num_groups(dim)); }
WEFT_DEVICE_FN uint32_t __weft_dev_lane_id() {
#if __AMDGCN_WAVEFRONT_SIZE == 64
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
#else
  return __builtin_amdgcn_mbcnt_lo(~0u, 0u);
#endif
}

/* ---- barriers and fences ------------------------------------------------ */
/* s_barrier only synchronises execution: the workgroup-scope release/acquire
 * around it makes each thread's earlier LDS and global writes visible to the
 * others (HIP's __syncthreads semantics). */
WEFT_DEVICE_FN void __weft_dev_barrier() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
/* op: 0 count, 1 and, 2 or (the CPU ABI's WEFT_REDUCE_COUNT/AND/OR order). AMD has
 * no reducing barrier: the block's threads combine into one LDS word between two
 * barriers, and a third keeps the next call's reset from racing this call's read. */
WEFT_DEVICE_FN int __weft_dev_barrier_reduce(int predicate, int op) {
  __attribute__((shared)) static int word;
  bool first = __builtin_amdgcn_workitem_id_x() == 0 && __builtin_amdgcn_workitem_id_y() == 0 &&
               __builtin_amdgcn_workitem_id_z() == 0;
  if (first) word = op == 1 ? 1 : 0;
  __weft_dev_barrier();
  int bit = predicate != 0;
  if (op == 0 && bit) __hip_atomic_fetch_add(&word, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  if (op == 1 && !bit) __hip_atomic_fetch_and(&word, 0, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  if (op == 2 && bit) __hip_atomic_fetch_or(&word, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  __weft_dev_barrier();
  int result = word;
  __weft_dev_barrier();
  return result;
}
WEFT_DEVICE_FN void __weft_dev_fence_block() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup"); }
WEFT_DEVICE_FN void __weft_dev_fence_device() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent"); }
WEFT_DEVICE_FN void __weft_dev_fence_system() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, ""); }

/* ---- warp (wavefront) operations ----------------------------------------
 * A wavefront runs in lock step, so the masks of the _sync forms only select
 * lanes; ds_bpermute reads any lane's register through the LDS crossbar. */
WEFT_DEVICE_FN uint64_t __weft_dev_active_mask() {
#if __AMDGCN_WAVEFRONT_SIZE == 64
  return __builtin_amdgcn_read_exec();
#else
  return __builtin_amdgcn_read_exec_lo();
#endif
}
WEFT_DEVICE_FN uint32_t __weft_dev_warp_read32(uint64_t mask, uint32_t value, uint32_t src_lane) {
  (void)mask;
  return static_cast<uint32_t>(__builtin_amdgcn_ds_bpermute(static_cast<int>(src_lane << 2), static_cast<int>(value)));
}
WEFT_DEVICE_FN uint64_t __weft_dev_warp_read64(uint64_t mask, uint64_t value, uint32_t src_lane) {
  uint32_t lo = __weft_dev_warp_read32(mask, static_cast<uint32_t>(value), src_lane);
  uint32_t hi = __weft_dev_warp_read32(mask, static_cast<uint32_t>(value >> 32), src_lane);
  return (static_cast<uint64_t>(hi) << 32) | lo;
}
WEFT_DEVICE_FN uint64_t __weft_dev_warp_ballot(uint64_t mask, int predicate) {
  /* v_cmp_ne_u32 into a lane mask (33 is LLVM's ICMP_NE); the upper half is 0 on wave32. */
  return __builtin_amdgcn_uicmp(static_cast<unsigned>(predicate != 0), 0u, 33) & mask;
}
WEFT_DEVICE_FN int __weft_dev_warp_any(uint64_t mask, int predicate) {
  return __weft_dev_warp_ballot(mask, predicate) != 0;
}
WEFT_DEVICE_FN int __weft_dev_warp_all(uint64_t mask, int predicate) {
  uint64_t lanes = mask & __weft_dev_active_mask();
  return __weft_dev_warp_ballot(lanes, predicate) == lanes;
}
WEFT_DEVICE_FN void __weft_dev_warp_sync(uint64_t mask) {
  (void)mask;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}

/* ---- atomics -----------------------------------------------------------
 * HIP's atomics are device ("agent") scope and relaxed; clang's __hip_atomic
 * builtins carry that scope into the AMDGPU back end (float add becomes the
 * native instruction where the target has it, else a CAS loop). */
#define WEFT_AMD_ATOMIC(name, builtin)                                                  \
  template <typename T>                                                                 \
  WEFT_DEVICE_FN T __weft_dev_atomic_##name(T* p, T v) {                                \
    return builtin(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);                   \
  }                                                                                     \
  template <typename T>                                                                 \
  WEFT_DEVICE_FN T __weft_dev_atomic_##name##_system(T* p, T v) {                       \
    return builtin(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);                  \
  }
WEFT_AMD_ATOMIC(add, __hip_atomic_fetch_add)
WEFT_AMD_ATOMIC(and, __hip_atomic_fetch_and)
WEFT_AMD_ATOMIC(or, __hip_atomic_fetch_or)
WEFT_AMD_ATOMIC(xor, __hip_atomic_fetch_xor)
WEFT_AMD_ATOMIC(min, __hip_atomic_fetch_min)
WEFT_AMD_ATOMIC(max, __hip_atomic_fetch_max)
WEFT_AMD_ATOMIC(exchange, __hip_atomic_exchange)
#undef WEFT_AMD_ATOMIC
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
template <typename T>
WEFT_DEVICE_FN T __weft_dev_atomic_cas_system(T* p, T expected, T desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_SYSTEM);
  return expected;
}
/* atomicInc/atomicDec: ((old >= limit) ? 0 : old + 1), ((old == 0 || old > limit) ? limit : old - 1). */
WEFT_DEVICE_FN uint32_t __weft_dev_atomic_inc(uint32_t* p, uint32_t limit) {
  return __builtin_amdgcn_atomic_inc32(p, limit, __ATOMIC_RELAXED, "agent");
}
WEFT_DEVICE_FN uint32_t __weft_dev_atomic_dec(uint32_t* p, uint32_t limit) {
  return __builtin_amdgcn_atomic_dec32(p, limit, __ATOMIC_RELAXED, "agent");
}

/* ---- clocks ------------------------------------------------------------- */
/* The shader cycle counter (s_memtime, or SHADER_CYCLES on RDNA 3). */
WEFT_DEVICE_FN uint64_t __weft_dev_clock64() { return __builtin_readcyclecounter(); }
/* The constant-rate "real time" counter (hipDeviceAttributeWallClockRate kHz):
 * s_memrealtime up to RDNA 2; RDNA 3 reads it with s_sendmsg_rtn. */
WEFT_DEVICE_FN uint64_t __weft_dev_wall_clock64() {
#if defined(__gfx1100__) || defined(__gfx1101__) || defined(__gfx1102__) || defined(__gfx1103__)
  return __builtin_amdgcn_s_sendmsg_rtnl(0x83);
#else
  return __builtin_amdgcn_s_memrealtime();
#endif
}
/* s_sleep takes a constant (units of 64 clocks): sleep in such steps until about
 * `ns` nanoseconds of the real-time counter (100 MHz on current parts) passed. */
WEFT_DEVICE_FN void __weft_dev_sleep(uint32_t ns) {
  uint64_t end = __weft_dev_wall_clock64() + ns / 10 + 1;
  while (__weft_dev_wall_clock64() < end) __builtin_amdgcn_s_sleep(1);
}

/* ---- printf and assert ---------------------------------------------------
 * clang lowers a device-side printf on AMDGPU to OCKL's hostcall printf
 * (__ockl_printf_begin/append_*), served by the runtime through the kernel's
 * hidden hostcall buffer: AMD's runtime provides it; weft's HSA driver does not
 * yet (docs/hsa.md), so there a kernel that prints faults. */
extern "C" __attribute__((device)) int printf(const char* format, ...);
WEFT_DEVICE_FN void __weft_dev_trap() { __builtin_trap(); }
WEFT_DEVICE_FN void __weft_dev_assert_fail(const char* expr, const char* file, unsigned line, const char* function) {
  printf("%s:%u: %s: Device-side assertion `%s' failed.\n", file, line, function, expr);
  __builtin_trap();
}

/* ---- libm-level math from OCML -------------------------------------------- */
#define WEFT_AMD_UNARY(c, nv, ocml)                                                                      \
  extern "C" __attribute__((device)) float __ocml_##ocml##_f32(float);                                   \
  extern "C" __attribute__((device)) double __ocml_##ocml##_f64(double);                                 \
  WEFT_DEVICE_FN float c##f(float x) { return __ocml_##ocml##_f32(x); }                                  \
  WEFT_DEVICE_FN double c(double x) { return __ocml_##ocml##_f64(x); }
#define WEFT_AMD_BINARY(c, nv, ocml)                                                                     \
  extern "C" __attribute__((device)) float __ocml_##ocml##_f32(float, float);                            \
  extern "C" __attribute__((device)) double __ocml_##ocml##_f64(double, double);                         \
  WEFT_DEVICE_FN float c##f(float x, float y) { return __ocml_##ocml##_f32(x, y); }                      \
  WEFT_DEVICE_FN double c(double x, double y) { return __ocml_##ocml##_f64(x, y); }
#define WEFT_AMD_TERNARY(c, nv, ocml)                                                                    \
  extern "C" __attribute__((device)) float __ocml_##ocml##_f32(float, float, float);                     \
  extern "C" __attribute__((device)) double __ocml_##ocml##_f64(double, double, double);                 \
  WEFT_DEVICE_FN float c##f(float x, float y, float z) { return __ocml_##ocml##_f32(x, y, z); }          \
  WEFT_DEVICE_FN double c(double x, double y, double z) { return __ocml_##ocml##_f64(x, y, z); }
WEFT_LIBM_UNARY(WEFT_AMD_UNARY)
WEFT_LIBM_BINARY(WEFT_AMD_BINARY)
WEFT_LIBM_TERNARY(WEFT_AMD_TERNARY)
#undef WEFT_AMD_UNARY
#undef WEFT_AMD_BINARY
#undef WEFT_AMD_TERNARY

/* OCML writes its extra results through private (scratch, address space 5)
 * pointers: results land in a local first, then go where the caller said. */
extern "C" {
__attribute__((device)) float __ocml_frexp_f32(float, WEFT_AMD_PRIVATE int*);
__attribute__((device)) double __ocml_frexp_f64(double, WEFT_AMD_PRIVATE int*);
__attribute__((device)) float __ocml_modf_f32(float, WEFT_AMD_PRIVATE float*);
__attribute__((device)) double __ocml_modf_f64(double, WEFT_AMD_PRIVATE double*);
__attribute__((device)) float __ocml_remquo_f32(float, float, WEFT_AMD_PRIVATE int*);
__attribute__((device)) double __ocml_remquo_f64(double, double, WEFT_AMD_PRIVATE int*);
__attribute__((device)) float __ocml_sincos_f32(float, WEFT_AMD_PRIVATE float*);
__attribute__((device)) double __ocml_sincos_f64(double, WEFT_AMD_PRIVATE double*);
__attribute__((device)) float __ocml_sincospi_f32(float, WEFT_AMD_PRIVATE float*);
__attribute__((device)) double __ocml_sincospi_f64(double, WEFT_AMD_PRIVATE double*);
__attribute__((device)) float __ocml_ldexp_f32(float, int);
__attribute__((device)) double __ocml_ldexp_f64(double, int);
__attribute__((device)) float __ocml_scalbn_f32(float, int);
__attribute__((device)) double __ocml_scalbn_f64(double, int);
__attribute__((device)) int __ocml_ilogb_f32(float);
__attribute__((device)) int __ocml_ilogb_f64(double);
__attribute__((device)) float __ocml_pown_f32(float, int);
__attribute__((device)) double __ocml_pown_f64(double, int);
__attribute__((device)) float __ocml_native_sin_f32(float);
__attribute__((device)) float __ocml_native_cos_f32(float);
__attribute__((device)) float __ocml_native_exp_f32(float);
__attribute__((device)) float __ocml_native_exp2_f32(float);
__attribute__((device)) float __ocml_native_log_f32(float);
__attribute__((device)) float __ocml_native_log2_f32(float);
__attribute__((device)) float __ocml_native_log10_f32(float);
__attribute__((device)) float __ocml_native_recip_f32(float);
}
WEFT_DEVICE_FN float frexpf(float x, int* e) {
  int v;
  float r = __ocml_frexp_f32(x, (WEFT_AMD_PRIVATE int*)&v);
  *e = v;
  return r;
}
WEFT_DEVICE_FN double frexp(double x, int* e) {
  int v;
  double r = __ocml_frexp_f64(x, (WEFT_AMD_PRIVATE int*)&v);
  *e = v;
  return r;
}
WEFT_DEVICE_FN float modff(float x, float* i) {
  float v;
  float r = __ocml_modf_f32(x, (WEFT_AMD_PRIVATE float*)&v);
  *i = v;
  return r;
}
WEFT_DEVICE_FN double modf(double x, double* i) {
  double v;
  double r = __ocml_modf_f64(x, (WEFT_AMD_PRIVATE double*)&v);
  *i = v;
  return r;
}
WEFT_DEVICE_FN float remquof(float x, float y, int* q) {
  int v;
  float r = __ocml_remquo_f32(x, y, (WEFT_AMD_PRIVATE int*)&v);
  *q = v;
  return r;
}
WEFT_DEVICE_FN double remquo(double x, double y, int* q) {
  int v;
  double r = __ocml_remquo_f64(x, y, (WEFT_AMD_PRIVATE int*)&v);
  *q = v;
  return r;
}
WEFT_DEVICE_FN void sincosf(float x, float* s, float* c) {
  float v;
  *s = __ocml_sincos_f32(x, (WEFT_AMD_PRIVATE float*)&v);
  *c = v;
}
WEFT_DEVICE_FN void sincos(double x, double* s, double* c) {
  double v;
  *s = __ocml_sincos_f64(x, (WEFT_AMD_PRIVATE double*)&v);
  *c = v;
}
WEFT_DEVICE_FN void sincospif(float x, float* s, float* c) {
  float v;
  *s = __ocml_sincospi_f32(x, (WEFT_AMD_PRIVATE float*)&v);
  *c = v;
}
WEFT_DEVICE_FN void sincospi(double x, double* s, double* c) {
  double v;
  *s = __ocml_sincospi_f64(x, (WEFT_AMD_PRIVATE double*)&v);
  *c = v;
}
WEFT_DEVICE_FN float ldexpf(float x, int e) { return __ocml_ldexp_f32(x, e); }
WEFT_DEVICE_FN double ldexp(double x, int e) { return __ocml_ldexp_f64(x, e); }
WEFT_DEVICE_FN float scalbnf(float x, int e) { return __ocml_scalbn_f32(x, e); }
WEFT_DEVICE_FN double scalbn(double x, int e) { return __ocml_scalbn_f64(x, e); }
WEFT_DEVICE_FN float scalblnf(float x, long e) { return __ocml_scalbn_f32(x, static_cast<int>(e)); }
WEFT_DEVICE_FN double scalbln(double x, long e) { return __ocml_scalbn_f64(x, static_cast<int>(e)); }
WEFT_DEVICE_FN int ilogbf(float x) { return __ocml_ilogb_f32(x); }
WEFT_DEVICE_FN int ilogb(double x) { return __ocml_ilogb_f64(x); }
WEFT_DEVICE_FN float powif(float x, int n) { return __ocml_pown_f32(x, n); }
WEFT_DEVICE_FN double powi(double x, int n) { return __ocml_pown_f64(x, n); }
/* C's nan(tag): the tag is an n-char-sequence read as strtoull does (decimal,
 * 0x hex or 0 octal); its low bits become the quiet NaN's payload. */
WEFT_DEVICE_FN uint64_t __weft_dev_nan_payload(const char* tag) {
  uint64_t value = 0;
  unsigned base = 10;
  if (tag[0] == '0' && (tag[1] == 'x' || tag[1] == 'X')) base = 16, tag += 2;
  else if (tag[0] == '0') base = 8;
  for (; *tag; ++tag) {
    unsigned c = static_cast<unsigned char>(*tag), digit;
    if (c >= '0' && c <= '9') digit = c - '0';
    else if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    else return 0;  // not an n-char-sequence strtoull reads: payload 0
    if (digit >= base) return 0;
    value = value * base + digit;
  }
  return value;
}
WEFT_DEVICE_FN float nanf(const char* tag) {
  return __builtin_bit_cast(float, 0x7fc00000u | static_cast<uint32_t>(__weft_dev_nan_payload(tag) & 0x3fffffu));
}
WEFT_DEVICE_FN double nan(const char* tag) {
  return __builtin_bit_cast(double, 0x7ff8000000000000ull | (__weft_dev_nan_payload(tag) & 0x7ffffffffffffull));
}
WEFT_DEVICE_FN long lrintf(float x) { return static_cast<long>(rintf(x)); }
WEFT_DEVICE_FN long lrint(double x) { return static_cast<long>(rint(x)); }
WEFT_DEVICE_FN long long llrintf(float x) { return static_cast<long long>(rintf(x)); }
WEFT_DEVICE_FN long long llrint(double x) { return static_cast<long long>(rint(x)); }
WEFT_DEVICE_FN long lroundf(float x) { return static_cast<long>(roundf(x)); }
WEFT_DEVICE_FN long lround(double x) { return static_cast<long>(round(x)); }
WEFT_DEVICE_FN long long llroundf(float x) { return static_cast<long long>(roundf(x)); }
WEFT_DEVICE_FN long long llround(double x) { return static_cast<long long>(round(x)); }

/* HIP's fast single-precision intrinsics: the hardware's native approximations. */
WEFT_DEVICE_FN float __weft_dev_fast_sinf(float x) { return __ocml_native_sin_f32(x); }
WEFT_DEVICE_FN float __weft_dev_fast_cosf(float x) { return __ocml_native_cos_f32(x); }
WEFT_DEVICE_FN float __weft_dev_fast_tanf(float x) { return __ocml_native_sin_f32(x) * __ocml_native_recip_f32(__ocml_native_cos_f32(x)); }
WEFT_DEVICE_FN float __weft_dev_fast_expf(float x) { return __ocml_native_exp_f32(x); }
WEFT_DEVICE_FN float __weft_dev_fast_exp10f(float x) { return __ocml_native_exp2_f32(x * 3.32192809488736234787f); }
WEFT_DEVICE_FN float __weft_dev_fast_logf(float x) { return __ocml_native_log_f32(x); }
WEFT_DEVICE_FN float __weft_dev_fast_log2f(float x) { return __ocml_native_log2_f32(x); }
WEFT_DEVICE_FN float __weft_dev_fast_log10f(float x) { return __ocml_native_log10_f32(x); }
WEFT_DEVICE_FN float __weft_dev_fast_powf(float x, float y) { return __ocml_native_exp2_f32(y * __ocml_native_log2_f32(x)); }
WEFT_DEVICE_FN float __weft_dev_fast_fdividef(float x, float y) { return x * __ocml_native_recip_f32(y); }

#endif /* WEFT_HIP_DEVICE_AMDGCN_H */
