/* SPDX-License-Identifier: MIT */
/* The AMD GPU (amdgcn) device pass's primitive layer (README.md in this folder):
 * what weft's shared HIP-mode headers are written on, for weftcc's gfx images
 * (tools/weftcc/weftcc_lib/amd_image.py). Everything here is a clang AMDGPU
 * builtin or a function of ROCm's device libraries (OCML for math, OCKL for the
 * dispatch's sizes and the grid barrier), which weftcc links as builtin bitcode
 * the way hipcc does.
 *
 * blockDim and gridDim come from OCKL (__ockl_get_local_size/_num_groups): it
 * reads the dispatch packet under code object v4 and the implicit kernel
 * arguments (hidden_group_size_*, hidden_block_count_*) under v5, chosen by the
 * oclc_abi_version library the driver links, so one header serves both.
 * warpSize is the wavefront size (64 on gfx9, 32 by default on gfx10+). */
#ifndef WEFT_HIP_DEVICE_AMDGCN_H
#define WEFT_HIP_DEVICE_AMDGCN_H

#if !defined(__AMDGCN__) || !defined(__HIP_DEVICE_COMPILE__)
#error \
    "hip/weft/device/amdgcn.h is the AMDGPU device pass's layer (clang -x hip, amdgcn device side)"
#endif

#include <fenv.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <hip/weft/device/libm_list.h>
#include <hip/weft/kernel_abi.h>

#define WEFT_DEVICE_WARP_SIZE __AMDGCN_WAVEFRONT_SIZE
#define WEFT_AMD_FN __attribute__((device)) inline __attribute__((always_inline))
#define WEFT_AMD_PRIVATE __attribute__((address_space(5)))

extern "C" {
__attribute__((device)) __attribute__((const)) size_t __ockl_get_local_size(unsigned dim);
__attribute__((device)) __attribute__((const)) size_t __ockl_get_num_groups(unsigned dim);
__attribute__((device)) void __ockl_grid_sync(void);
__attribute__((device)) int __ockl_grid_is_valid(void);
}

/* ---- ids ---------------------------------------------------------------- */
WEFT_AMD_FN uint32_t __weft_thread_idx(uint32_t dim) {
  return dim == 0 ? __builtin_amdgcn_workitem_id_x()
       : dim == 1 ? __builtin_amdgcn_workitem_id_y()
                  : __builtin_amdgcn_workitem_id_z();
}
WEFT_AMD_FN uint32_t __weft_block_idx(uint32_t dim) {
  return dim == 0 ? __builtin_amdgcn_workgroup_id_x()
       : dim == 1 ? __builtin_amdgcn_workgroup_id_y()
                  : __builtin_amdgcn_workgroup_id_z();
}
WEFT_AMD_FN uint32_t __weft_block_dim(uint32_t dim) {
  return static_cast<uint32_t>(__ockl_get_local_size(dim));
}
WEFT_AMD_FN uint32_t __weft_grid_dim(uint32_t dim) {
  return static_cast<uint32_t>(__ockl_get_num_groups(dim));
}
WEFT_AMD_FN uint32_t __weft_lane_id() {
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
WEFT_AMD_FN void __weft_barrier() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
/* op is WEFT_REDUCE_COUNT/AND/OR (kernel_abi.h). AMD has no reducing barrier: the
 * block's threads combine into one LDS word between two barriers, and a third
 * keeps the next call's reset from racing this call's read. */
WEFT_AMD_FN int __weft_barrier_reduce(int predicate, int op) {
  __attribute__((shared)) static int word;
  bool first = __builtin_amdgcn_workitem_id_x() == 0 && __builtin_amdgcn_workitem_id_y() == 0 &&
               __builtin_amdgcn_workitem_id_z() == 0;
  if (first) word = op == WEFT_REDUCE_AND ? 1 : 0;
  __weft_barrier();
  int bit = predicate != 0;
  if (op == WEFT_REDUCE_COUNT && bit)
    __hip_atomic_fetch_add(&word, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  if (op == WEFT_REDUCE_AND && !bit)
    __hip_atomic_fetch_and(&word, 0, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  if (op == WEFT_REDUCE_OR && bit)
    __hip_atomic_fetch_or(&word, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  __weft_barrier();
  int result = word;
  __weft_barrier();
  return result;
}
/* scope: __HIP_MEMORY_SCOPE_WORKGROUP (or narrower), _AGENT, _SYSTEM (the fence
 * builtin takes its scope as a literal). */
WEFT_AMD_FN void __weft_fence(int scope) {
  if (scope == __HIP_MEMORY_SCOPE_SYSTEM) __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "");
  else if (scope == __HIP_MEMORY_SCOPE_AGENT) __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
  else __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}

/* ---- warp (wavefront) operations ----------------------------------------
 * A wavefront runs in lock step: ds_bpermute reads any lane's register through
 * the LDS crossbar (an inactive lane's register is stale, so such a source gives
 * the caller its own value), and a compare writes the active lanes' ballot. */
WEFT_AMD_FN uint64_t __weft_amd_exec() {
#if __AMDGCN_WAVEFRONT_SIZE == 64
  return __builtin_amdgcn_read_exec();
#else
  return __builtin_amdgcn_read_exec_lo();
#endif
}
WEFT_AMD_FN uint64_t __weft_warp_read(uint64_t value, uint32_t src_lane) {
  const int address = static_cast<int>((src_lane % __AMDGCN_WAVEFRONT_SIZE) << 2);
  uint32_t lo =
      static_cast<uint32_t>(__builtin_amdgcn_ds_bpermute(address, static_cast<int>(value)));
  uint32_t hi =
      static_cast<uint32_t>(__builtin_amdgcn_ds_bpermute(address, static_cast<int>(value >> 32)));
  bool live = src_lane < __AMDGCN_WAVEFRONT_SIZE && ((__weft_amd_exec() >> src_lane) & 1);
  return live ? (static_cast<uint64_t>(hi) << 32) | lo : value;
}
WEFT_AMD_FN uint64_t __weft_warp_ballot(int predicate) {
  /* v_cmp_ne_u32 into a lane mask (33 is LLVM's ICMP_NE); the upper half is 0 on wave32. */
  return __builtin_amdgcn_uicmp(static_cast<unsigned>(predicate != 0), 0u, 33);
}
WEFT_AMD_FN void __weft_warp_sync() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}

/* ---- dynamic shared memory ----------------------------------------------- */
/* Every extern __shared__ array of a code object is placed at the start of the
 * dynamic LDS (after the static), so this one names the same bytes as the user's. */
extern "C" {
// `extern` spelled out: without it the linkage specification alone makes a 1-byte shared definition.
extern __attribute__((shared))
__attribute__((aligned(16))) unsigned char __weft_dynamic_shared_base[];
}
WEFT_AMD_FN void* __weft_dynamic_shared() { return __weft_dynamic_shared_base; }

/* ---- atomics with an explicit scope --------------------------------------
 * The shared atomics (hip/weft/device_atomics.h) use clang's __atomic builtins,
 * which AMDGPU runs at system scope. HIP's plain atomics are device ("agent")
 * scope: these carry that scope (and system scope for the _system forms) into
 * the back end through clang's __hip_atomic builtins, as AMD's headers do. */
#define WEFT_AMD_ATOMIC(name, builtin)                                 \
  template <typename T>                                                \
  WEFT_AMD_FN T __weft_atomic_##name(T* p, T v) {                      \
    return builtin(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);  \
  }                                                                    \
  template <typename T>                                                \
  WEFT_AMD_FN T __weft_atomic_##name##_system(T* p, T v) {             \
    return builtin(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM); \
  }
WEFT_AMD_ATOMIC(add, __hip_atomic_fetch_add)
WEFT_AMD_ATOMIC(and, __hip_atomic_fetch_and)
WEFT_AMD_ATOMIC(or, __hip_atomic_fetch_or)
WEFT_AMD_ATOMIC(xor, __hip_atomic_fetch_xor)
WEFT_AMD_ATOMIC(min, __hip_atomic_fetch_min)
WEFT_AMD_ATOMIC(max, __hip_atomic_fetch_max)
WEFT_AMD_ATOMIC(exchange, __hip_atomic_exchange)
#undef WEFT_AMD_ATOMIC
/* Returns the old value (CUDA's atomicCAS). */
template <typename T>
WEFT_AMD_FN T __weft_atomic_cas(T* p, T expected, T desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_AGENT);
  return expected;
}
template <typename T>
WEFT_AMD_FN T __weft_atomic_cas_system(T* p, T expected, T desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_SYSTEM);
  return expected;
}
/* atomicInc/atomicDec: ((old >= limit) ? 0 : old + 1), ((old == 0 || old > limit) ? limit : old - 1). */
WEFT_AMD_FN uint32_t __weft_atomic_inc(uint32_t* p, uint32_t limit) {
  return __builtin_amdgcn_atomic_inc32(p, limit, __ATOMIC_RELAXED, "agent");
}
WEFT_AMD_FN uint32_t __weft_atomic_dec(uint32_t* p, uint32_t limit) {
  return __builtin_amdgcn_atomic_dec32(p, limit, __ATOMIC_RELAXED, "agent");
}

/* ---- clocks ------------------------------------------------------------- */
/* The shader cycle counter (s_memtime, or SHADER_CYCLES on RDNA 3). */
WEFT_AMD_FN long long __weft_clock64() {
  return static_cast<long long>(__builtin_readcyclecounter());
}
/* The constant 100 MHz "real time" counter: s_memrealtime up to RDNA 2; RDNA 3
 * reads it with s_sendmsg_rtn. */
WEFT_AMD_FN long long __weft_wall_clock64() {
#if defined(__gfx1100__) || defined(__gfx1101__) || defined(__gfx1102__) || defined(__gfx1103__)
  return static_cast<long long>(__builtin_amdgcn_s_sendmsg_rtnl(0x83));
#else
  return static_cast<long long>(__builtin_amdgcn_s_memrealtime());
#endif
}
WEFT_AMD_FN int __weft_wall_clock_khz() { return 100000; }
/* <time.h>'s clock(), which the prelude declares host+device: HIP's device clock() is the
 * shader clock, as __clock() (a kernel calling it otherwise leaves the code object an
 * undefined symbol). */
extern "C" inline __attribute__((host, device)) clock_t clock(void) noexcept {
  return static_cast<clock_t>(__weft_clock64());
}
/* s_sleep takes a constant (about 64 clocks per unit): sleep in such steps until
 * about `ns` nanoseconds of the real-time counter passed. */
WEFT_AMD_FN void __weft_sleep_ns(uint32_t ns) {
  long long end = __weft_wall_clock64() + ns / 10 + 1;
  while (__weft_wall_clock64() < end) __builtin_amdgcn_s_sleep(1);
}

/* ---- grid barrier (cooperative groups) ----------------------------------------
 * OCKL's, as AMD's headers use (every thread of the block calls it; it has the
 * block barriers inside): it works through the hidden multigrid-sync argument
 * that a cooperative launch fills. AMD's runtime does; weft's HSA driver has no
 * cooperative launches yet (docs/hsa.md), so there is_valid is false. */
WEFT_AMD_FN void __weft_grid_sync() { __ockl_grid_sync(); }
extern "C" inline __attribute__((host, device)) int weftGridIsCooperative(void) {
  return __ockl_grid_is_valid();
}

/* ---- assert ----------------------------------------------------------------
 * printf: clang lowers a device call of the C library's printf (declared here
 * host+device for a pass that did not include hip/weft/device/prelude.h first)
 * on AMDGPU to OCKL's hostcall printf (__ockl_printf_begin/append_*), served by
 * the runtime through the kernel's hidden hostcall buffer. AMD's runtime provides
 * that service; weft's HSA driver does not yet (docs/hsa.md), so there a kernel
 * that prints faults. */
extern "C" __attribute__((host, device)) int printf(const char* format, ...);
[[noreturn]] WEFT_AMD_FN void __weft_assert_fail(const char* expr, const char* file, unsigned line,
                                                 const char* function) {
  printf("%s:%u: %s: Device-side assertion `%s' failed.\n", file, line, function, expr);
  __builtin_trap();
}

/* The HIP extras below exist as __weft_libm_* (the shared math header uses them). */
#define WEFT_DEVICE_LIBM_EXTRAS 1

/* ---- libm-level math from OCML -------------------------------------------- */
#define WEFT_AMD_DECLARE(ocml, params32, params64)                       \
  extern "C" __attribute__((device)) float __ocml_##ocml##_f32 params32; \
  extern "C" __attribute__((device)) double __ocml_##ocml##_f64 params64;
#define WEFT_AMD_C_UNARY(c, nv, ocml)                                            \
  WEFT_AMD_DECLARE(ocml, (float), (double))                                      \
  extern "C" inline __attribute__((host, device)) float c##f(float x) noexcept { \
    return __ocml_##ocml##_f32(x);                                               \
  }                                                                              \
  extern "C" inline __attribute__((host, device)) double c(double x) noexcept {  \
    return __ocml_##ocml##_f64(x);                                               \
  }
#define WEFT_AMD_C_BINARY(c, nv, ocml)                                                    \
  WEFT_AMD_DECLARE(ocml, (float, float), (double, double))                                \
  extern "C" inline __attribute__((host, device)) float c##f(float x, float y) noexcept { \
    return __ocml_##ocml##_f32(x, y);                                                     \
  }                                                                                       \
  extern "C" inline __attribute__((host, device)) double c(double x, double y) noexcept { \
    return __ocml_##ocml##_f64(x, y);                                                     \
  }
#define WEFT_AMD_C_TERNARY(c, nv, ocml)                                                            \
  WEFT_AMD_DECLARE(ocml, (float, float, float), (double, double, double))                          \
  extern "C" inline __attribute__((host, device)) float c##f(float x, float y, float z) noexcept { \
    return __ocml_##ocml##_f32(x, y, z);                                                           \
  }                                                                                                \
  extern "C" inline __attribute__((host, device)) double c(double x, double y,                     \
                                                           double z) noexcept {                    \
    return __ocml_##ocml##_f64(x, y, z);                                                           \
  }
#define WEFT_AMD_HIP_UNARY(c, nv, ocml)                                            \
  WEFT_AMD_DECLARE(ocml, (float), (double))                                        \
  WEFT_AMD_FN float __weft_libm_##c##f(float x) { return __ocml_##ocml##_f32(x); } \
  WEFT_AMD_FN double __weft_libm_##c(double x) { return __ocml_##ocml##_f64(x); }
#define WEFT_AMD_HIP_BINARY(c, nv, ocml)                                                       \
  WEFT_AMD_DECLARE(ocml, (float, float), (double, double))                                     \
  WEFT_AMD_FN float __weft_libm_##c##f(float x, float y) { return __ocml_##ocml##_f32(x, y); } \
  WEFT_AMD_FN double __weft_libm_##c(double x, double y) { return __ocml_##ocml##_f64(x, y); }
#define WEFT_AMD_HIP_TERNARY(c, nv, ocml)                                 \
  WEFT_AMD_DECLARE(ocml, (float, float, float), (double, double, double)) \
  WEFT_AMD_FN float __weft_libm_##c##f(float x, float y, float z) {       \
    return __ocml_##ocml##_f32(x, y, z);                                  \
  }                                                                       \
  WEFT_AMD_FN double __weft_libm_##c(double x, double y, double z) {      \
    return __ocml_##ocml##_f64(x, y, z);                                  \
  }
WEFT_LIBM_C_UNARY(WEFT_AMD_C_UNARY)
WEFT_LIBM_C_BINARY(WEFT_AMD_C_BINARY)
WEFT_LIBM_C_TERNARY(WEFT_AMD_C_TERNARY)
WEFT_LIBM_HIP_UNARY(WEFT_AMD_HIP_UNARY)
WEFT_LIBM_HIP_BINARY(WEFT_AMD_HIP_BINARY)
WEFT_LIBM_HIP_TERNARY(WEFT_AMD_HIP_TERNARY)
#undef WEFT_AMD_DECLARE
#undef WEFT_AMD_C_UNARY
#undef WEFT_AMD_C_BINARY
#undef WEFT_AMD_C_TERNARY
#undef WEFT_AMD_HIP_UNARY
#undef WEFT_AMD_HIP_BINARY
#undef WEFT_AMD_HIP_TERNARY

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
#define WEFT_AMD_C extern "C" inline __attribute__((host, device))
WEFT_AMD_C float frexpf(float x, int* e) noexcept {
  int v;
  float r = __ocml_frexp_f32(x, (WEFT_AMD_PRIVATE int*)&v);
  *e = v;
  return r;
}
WEFT_AMD_C double frexp(double x, int* e) noexcept {
  int v;
  double r = __ocml_frexp_f64(x, (WEFT_AMD_PRIVATE int*)&v);
  *e = v;
  return r;
}
WEFT_AMD_C float modff(float x, float* i) noexcept {
  float v;
  float r = __ocml_modf_f32(x, (WEFT_AMD_PRIVATE float*)&v);
  *i = v;
  return r;
}
WEFT_AMD_C double modf(double x, double* i) noexcept {
  double v;
  double r = __ocml_modf_f64(x, (WEFT_AMD_PRIVATE double*)&v);
  *i = v;
  return r;
}
WEFT_AMD_C float remquof(float x, float y, int* q) noexcept {
  int v;
  float r = __ocml_remquo_f32(x, y, (WEFT_AMD_PRIVATE int*)&v);
  *q = v;
  return r;
}
WEFT_AMD_C double remquo(double x, double y, int* q) noexcept {
  int v;
  double r = __ocml_remquo_f64(x, y, (WEFT_AMD_PRIVATE int*)&v);
  *q = v;
  return r;
}
WEFT_AMD_C void sincosf(float x, float* s, float* c) noexcept {
  float v;
  *s = __ocml_sincos_f32(x, (WEFT_AMD_PRIVATE float*)&v);
  *c = v;
}
WEFT_AMD_C void sincos(double x, double* s, double* c) noexcept {
  double v;
  *s = __ocml_sincos_f64(x, (WEFT_AMD_PRIVATE double*)&v);
  *c = v;
}
WEFT_AMD_FN void __weft_libm_sincospif(float x, float* s, float* c) {
  float v;
  *s = __ocml_sincospi_f32(x, (WEFT_AMD_PRIVATE float*)&v);
  *c = v;
}
WEFT_AMD_FN void __weft_libm_sincospi(double x, double* s, double* c) {
  double v;
  *s = __ocml_sincospi_f64(x, (WEFT_AMD_PRIVATE double*)&v);
  *c = v;
}
WEFT_AMD_C float ldexpf(float x, int e) noexcept { return __ocml_ldexp_f32(x, e); }
WEFT_AMD_C double ldexp(double x, int e) noexcept { return __ocml_ldexp_f64(x, e); }
WEFT_AMD_C float scalbnf(float x, int e) noexcept { return __ocml_scalbn_f32(x, e); }
WEFT_AMD_C double scalbn(double x, int e) noexcept { return __ocml_scalbn_f64(x, e); }
WEFT_AMD_C float scalblnf(float x, long e) noexcept {
  return __ocml_scalbn_f32(x, static_cast<int>(e));
}
WEFT_AMD_C double scalbln(double x, long e) noexcept {
  return __ocml_scalbn_f64(x, static_cast<int>(e));
}
WEFT_AMD_C int ilogbf(float x) noexcept { return __ocml_ilogb_f32(x); }
WEFT_AMD_C int ilogb(double x) noexcept { return __ocml_ilogb_f64(x); }
WEFT_AMD_FN float __weft_libm_powif(float x, int n) { return __ocml_pown_f32(x, n); }
WEFT_AMD_FN double __weft_libm_powi(double x, int n) { return __ocml_pown_f64(x, n); }
/* C's nan(tag): the tag is an n-char-sequence read as strtoull does (decimal,
 * 0x hex or 0 octal); its low bits become the quiet NaN's payload. */
WEFT_AMD_FN uint64_t __weft_amd_nan_payload(const char* tag) {
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
WEFT_AMD_C float nanf(const char* tag) noexcept {
  return __builtin_bit_cast(
      float, 0x7fc00000u | static_cast<uint32_t>(__weft_amd_nan_payload(tag) & 0x3fffffu));
}
WEFT_AMD_C double nan(const char* tag) noexcept {
  return __builtin_bit_cast(
      double, 0x7ff8000000000000ull | (__weft_amd_nan_payload(tag) & 0x7ffffffffffffull));
}
/* OCML has no Bessel functions of order n: from j0/j1 and y0/y1 by the three-term
 * recurrence f(k+1) = (2k/x) f(k) - f(k-1). Y grows with k, so upward is stable
 * for it; J grows only while k < |x|, so beyond that J runs downward from a start
 * order past n (Miller's method) and is scaled by J0 + 2 (J2 + J4 + ...) = 1. */
WEFT_AMD_FN double __weft_amd_jn(int n, double x) {
  if (n < 0) return (n & 1) ? -__weft_amd_jn(-n, x) : __weft_amd_jn(-n, x);
  if (n == 0) return j0(x);
  if (n == 1) return j1(x);
  if (x == 0.0) return 0.0;
  const double ax = __builtin_fabs(x);
  if (ax > n) {
    double before = j0(ax), now = j1(ax);
    for (int k = 1; k < n; ++k) {
      double after = (2.0 * k / ax) * now - before;
      before = now;
      now = after;
    }
    return (x < 0 && (n & 1)) ? -now : now;
  }
  // Start far enough past n that the neglected solution has died out to double precision.
  const int start = 2 * ((n + 20 + static_cast<int>(__builtin_sqrt(60.0 * n))) / 2);
  double above = 0.0, now = 1e-30, even_sum = 0.0, at_n = 0.0;
  for (int k = start; k > 0; --k) {
    double below = (2.0 * k / ax) * now - above;  // order k - 1
    above = now;
    now = below;
    if (__builtin_fabs(now) > 1e200)
      now *= 1e-200, above *= 1e-200, even_sum *= 1e-200, at_n *= 1e-200;
    if (k - 1 == n) at_n = now;
    if (k - 1 > 0 && ((k - 1) & 1) == 0) even_sum += now;
  }
  double result = at_n / (now + 2.0 * even_sum);
  return (x < 0 && (n & 1)) ? -result : result;
}
WEFT_AMD_FN double __weft_amd_yn(int n, double x) {
  if (n < 0) return (n & 1) ? -__weft_amd_yn(-n, x) : __weft_amd_yn(-n, x);
  if (n == 0) return y0(x);
  if (n == 1 || !(x > 0.0)) return n == 1 ? y1(x) : y0(x);  // x <= 0 or NaN: y0's NaN/-inf
  double before = y0(x), now = y1(x);
  for (int k = 1; k < n && now != -__builtin_inf(); ++k) {
    double after = (2.0 * k / x) * now - before;
    before = now;
    now = after;
  }
  return now;
}
WEFT_AMD_C double jn(int n, double x) noexcept { return __weft_amd_jn(n, x); }
WEFT_AMD_C float jnf(int n, float x) noexcept { return static_cast<float>(__weft_amd_jn(n, x)); }
WEFT_AMD_C double yn(int n, double x) noexcept { return __weft_amd_yn(n, x); }
WEFT_AMD_C float ynf(int n, float x) noexcept { return static_cast<float>(__weft_amd_yn(n, x)); }
WEFT_AMD_C long lrintf(float x) noexcept { return static_cast<long>(rintf(x)); }
WEFT_AMD_C long lrint(double x) noexcept { return static_cast<long>(rint(x)); }
WEFT_AMD_C long long llrintf(float x) noexcept { return static_cast<long long>(rintf(x)); }
WEFT_AMD_C long long llrint(double x) noexcept { return static_cast<long long>(rint(x)); }
WEFT_AMD_C long lroundf(float x) noexcept { return static_cast<long>(roundf(x)); }
WEFT_AMD_C long lround(double x) noexcept { return static_cast<long>(round(x)); }
WEFT_AMD_C long long llroundf(float x) noexcept { return static_cast<long long>(roundf(x)); }
WEFT_AMD_C long long llround(double x) noexcept { return static_cast<long long>(round(x)); }

#undef WEFT_AMD_C
/* HIP's fast single-precision intrinsics: the hardware's native approximations. */
WEFT_AMD_FN float __weft_fast_sinf(float x) { return __ocml_native_sin_f32(x); }
WEFT_AMD_FN float __weft_fast_cosf(float x) { return __ocml_native_cos_f32(x); }
WEFT_AMD_FN float __weft_fast_tanf(float x) {
  return __ocml_native_sin_f32(x) * __ocml_native_recip_f32(__ocml_native_cos_f32(x));
}
WEFT_AMD_FN float __weft_fast_expf(float x) { return __ocml_native_exp_f32(x); }
WEFT_AMD_FN float __weft_fast_exp10f(float x) {
  return __ocml_native_exp2_f32(x * 3.32192809488736234787f);
}
WEFT_AMD_FN float __weft_fast_logf(float x) { return __ocml_native_log_f32(x); }
WEFT_AMD_FN float __weft_fast_log2f(float x) { return __ocml_native_log2_f32(x); }
WEFT_AMD_FN float __weft_fast_log10f(float x) { return __ocml_native_log10_f32(x); }
WEFT_AMD_FN float __weft_fast_powf(float x, float y) {
  return __ocml_native_exp2_f32(y * __ocml_native_log2_f32(x));
}
WEFT_AMD_FN float __weft_fast_fdividef(float x, float y) { return x * __ocml_native_recip_f32(y); }

/* complex * and / (__mulsc3 & co.): the GPU layers' shared definitions. */
#include <hip/weft/device/gpu_complex.h>

/* ---- arithmetic and conversions with a rounding direction ---------------------------
 * HIP's __fadd_rd, __dmul_ru, __fmaf_rz, __fsqrt_rn, __int2float_ru, __double2float_rz, ...
 * (hip/weft/device_math.h defines the host's). Debian's OCML (ROCm 5.2) has no rounded
 * operations, and the MODE register's rounding fields cannot be switched around an LLVM
 * operation (LLVM may move the operation across the switch): hip/weft/round_from_nearest.h
 * computes each from the nearest result and an exact residual (checked against the host's
 * FPU by tests/language/math/rounding.cpp). The double fma, whose residual is not one
 * operation, is one v_fma_f64 under the rounding mode, set and restored around it in the
 * same asm statement (MODE bits 3:2, the double/half rounding: 0 nearest even, 1 +inf,
 * 2 -inf, 3 toward zero). */
#include <hip/weft/round_from_nearest.h>
#define WEFT_DEVICE_ROUNDING 1
template <int Field>
WEFT_AMD_FN double __weft_amd_fma_f64_mode(double a, double b, double c) {
  double r;
  unsigned saved;
  __asm__ volatile(
      "s_getreg_b32 %1, hwreg(HW_REG_MODE, 2, 2)\n\t"
      "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 2), %5\n\t"
      "s_nop 1\n\t"
      "v_fma_f64 %0, %2, %3, %4\n\t"
      "s_setreg_b32 hwreg(HW_REG_MODE, 2, 2), %1\n\t"
      "s_nop 1"
      : "=&v"(r), "=&s"(saved)
      : "v"(a), "v"(b), "v"(c), "i"(Field));
  return r;
}
#define WEFT_AMD_ROUNDED4(name, T, params, fn, args)                                \
  WEFT_AMD_FN T __##name##_rn params { return fn(args, ::weft::rfn::kNearest); }    \
  WEFT_AMD_FN T __##name##_rz params { return fn(args, ::weft::rfn::kTowardZero); } \
  WEFT_AMD_FN T __##name##_ru params { return fn(args, ::weft::rfn::kUp); }         \
  WEFT_AMD_FN T __##name##_rd params { return fn(args, ::weft::rfn::kDown); }
#define WEFT_AMD_COMMA ,
// Macro calls without semicolons: clang-format would re-wrap this list on every run.
// clang-format off
WEFT_AMD_ROUNDED4(fadd, float, (float a, float b), ::weft::rfn::add, a WEFT_AMD_COMMA b)
WEFT_AMD_ROUNDED4(fsub, float, (float a, float b), ::weft::rfn::add, a WEFT_AMD_COMMA -b)
WEFT_AMD_ROUNDED4(fmul, float, (float a, float b), ::weft::rfn::mul, a WEFT_AMD_COMMA b)
WEFT_AMD_ROUNDED4(fdiv, float, (float a, float b), ::weft::rfn::div, a WEFT_AMD_COMMA b)
WEFT_AMD_ROUNDED4(frcp, float, (float a), ::weft::rfn::div, 1.0f WEFT_AMD_COMMA a)
WEFT_AMD_ROUNDED4(fsqrt, float, (float a), ::weft::rfn::sqrt, a)
WEFT_AMD_ROUNDED4(fmaf, float, (float a, float b, float c), ::weft::rfn::fma, a WEFT_AMD_COMMA b WEFT_AMD_COMMA c)
WEFT_AMD_ROUNDED4(dadd, double, (double a, double b), ::weft::rfn::add, a WEFT_AMD_COMMA b)
WEFT_AMD_ROUNDED4(dsub, double, (double a, double b), ::weft::rfn::add, a WEFT_AMD_COMMA -b)
WEFT_AMD_ROUNDED4(dmul, double, (double a, double b), ::weft::rfn::mul, a WEFT_AMD_COMMA b)
WEFT_AMD_ROUNDED4(ddiv, double, (double a, double b), ::weft::rfn::div, a WEFT_AMD_COMMA b)
WEFT_AMD_ROUNDED4(drcp, double, (double a), ::weft::rfn::div, 1.0 WEFT_AMD_COMMA a)
WEFT_AMD_ROUNDED4(dsqrt, double, (double a), ::weft::rfn::sqrt, a)
WEFT_AMD_ROUNDED4(int2float, float, (int x), ::weft::rfn::to_float, x)
WEFT_AMD_ROUNDED4(uint2float, float, (unsigned x), ::weft::rfn::to_float, x)
WEFT_AMD_ROUNDED4(ll2float, float, (long long x), ::weft::rfn::from_int64<float>, x)
WEFT_AMD_ROUNDED4(ull2float, float, (unsigned long long x), ::weft::rfn::from_uint64<float>, x)
WEFT_AMD_ROUNDED4(ll2double, double, (long long x), ::weft::rfn::from_int64<double>, x)
WEFT_AMD_ROUNDED4(ull2double, double, (unsigned long long x), ::weft::rfn::from_uint64<double>, x)
WEFT_AMD_ROUNDED4(double2float, float, (double x), ::weft::rfn::to_float, x)
// clang-format on
#undef WEFT_AMD_COMMA
#undef WEFT_AMD_ROUNDED4
WEFT_AMD_FN double __fma_rn(double a, double b, double c) { return __builtin_fma(a, b, c); }
WEFT_AMD_FN double __fma_ru(double a, double b, double c) {
  return __weft_amd_fma_f64_mode<1>(a, b, c);
}
WEFT_AMD_FN double __fma_rd(double a, double b, double c) {
  return __weft_amd_fma_f64_mode<2>(a, b, c);
}
WEFT_AMD_FN double __fma_rz(double a, double b, double c) {
  return __weft_amd_fma_f64_mode<3>(a, b, c);
}
WEFT_AMD_FN float __frsqrt_rn(float x) {  // as the host's: in double, rounded once more
  return static_cast<float>(1.0 / __builtin_sqrt(static_cast<double>(x)));
}
/* <fenv.h> (declared host+device by the prelude): the single-precision rounding field of
 * MODE (bits 1:0), which weft's code never leaves changed. A kernel cannot change it:
 * LLVM assumes round-to-nearest, so fesetround accepts FE_TONEAREST only. */
extern "C" inline __attribute__((host, device)) int fegetround(void) noexcept {
  // s_getreg's field: register id 1 (MODE) in bits 5:0, offset 0 in 10:6, size - 1 in 15:11.
  const unsigned field = __builtin_amdgcn_s_getreg(1 | (0 << 6) | ((2 - 1) << 11));
  return field == 1 ? FE_UPWARD
       : field == 2 ? FE_DOWNWARD
       : field == 3 ? FE_TOWARDZERO
                    : FE_TONEAREST;
}
extern "C" inline __attribute__((host, device)) int fesetround(int mode) noexcept {
  return mode == FE_TONEAREST ? 0 : 1;
}

#undef WEFT_AMD_FN
#undef WEFT_AMD_PRIVATE
#endif /* WEFT_HIP_DEVICE_AMDGCN_H */
