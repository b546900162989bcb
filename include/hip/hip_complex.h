/* SPDX-License-Identifier: MIT */
/* weft: HIP's complex numbers (the cuComplex-style API), in C and C++.
 *
 * hipFloatComplex is float2 and hipDoubleComplex is double2 (x = real, y = imaginary), as on
 * AMD, so their layout is the vector types'. In C++ this header also gives them complex * and /
 * (and *=, /=) as non-template overloads, which win over hip_vector_types.h's component-wise
 * templates: exactly as with AMD's header, float2 * float2 is a complex product in a translation
 * unit that includes hip_complex.h. + - == != and scalar * are component-wise either way. */
#ifndef HIP_INCLUDE_HIP_HIP_COMPLEX_H
#define HIP_INCLUDE_HIP_HIP_COMPLEX_H

// Host and device functions under clang's HIP mode (a no-op for g++).
#include <hip/hip_common.h>
#include <hip/hip_vector_types.h>
#include <hip/weft/device/hd_begin.h>

#ifdef __cplusplus
#include <cmath>
#define WEFT_CPLX_SQRTF_ std::sqrt
#define WEFT_CPLX_SQRT_ std::sqrt
#else
#include <math.h>
#define WEFT_CPLX_SQRTF_ sqrtf
#define WEFT_CPLX_SQRT_ sqrt
#endif

typedef float2 hipFloatComplex;
typedef double2 hipDoubleComplex;
typedef hipFloatComplex hipComplex;

/* One precision's functions: suffix f (float) or nothing (double), as cuComplex names them.
 * Division scales by |q|^2 like AMD's and CUDA's cuCdiv (no overflow-avoiding rescale). */
#define WEFT_CPLX_FUNCS_(C, R, sfx, SQRT)                                                   \
  static inline __host__ __device__ R hipCreal##sfx(C z) { return z.x; }                    \
  static inline __host__ __device__ R hipCimag##sfx(C z) { return z.y; }                    \
  static inline __host__ __device__ C hipConj##sfx(C z) {                                   \
    C r;                                                                                    \
    r.x = z.x;                                                                              \
    r.y = -z.y;                                                                             \
    return r;                                                                               \
  }                                                                                         \
  static inline __host__ __device__ R hipCsqabs##sfx(C z) { return z.x * z.x + z.y * z.y; } \
  static inline __host__ __device__ R hipCabs##sfx(C z) { return SQRT(hipCsqabs##sfx(z)); } \
  static inline __host__ __device__ C hipCadd##sfx(C p, C q) {                              \
    C r;                                                                                    \
    r.x = p.x + q.x;                                                                        \
    r.y = p.y + q.y;                                                                        \
    return r;                                                                               \
  }                                                                                         \
  static inline __host__ __device__ C hipCsub##sfx(C p, C q) {                              \
    C r;                                                                                    \
    r.x = p.x - q.x;                                                                        \
    r.y = p.y - q.y;                                                                        \
    return r;                                                                               \
  }                                                                                         \
  static inline __host__ __device__ C hipCmul##sfx(C p, C q) {                              \
    C r;                                                                                    \
    r.x = p.x * q.x - p.y * q.y;                                                            \
    r.y = p.x * q.y + p.y * q.x;                                                            \
    return r;                                                                               \
  }                                                                                         \
  static inline __host__ __device__ C hipCdiv##sfx(C p, C q) {                              \
    R d = hipCsqabs##sfx(q);                                                                \
    C r;                                                                                    \
    r.x = (p.x * q.x + p.y * q.y) / d;                                                      \
    r.y = (p.y * q.x - p.x * q.y) / d;                                                      \
    return r;                                                                               \
  }                                                                                         \
  /* p * q + r */                                                                           \
  static inline __host__ __device__ C hipCfma##sfx(C p, C q, C r) {                         \
    C s;                                                                                    \
    s.x = p.x * q.x - p.y * q.y + r.x;                                                      \
    s.y = p.x * q.y + p.y * q.x + r.y;                                                      \
    return s;                                                                               \
  }

WEFT_CPLX_FUNCS_(hipFloatComplex, float, f, WEFT_CPLX_SQRTF_)
WEFT_CPLX_FUNCS_(hipDoubleComplex, double, , WEFT_CPLX_SQRT_)

static inline __host__ __device__ hipFloatComplex make_hipFloatComplex(float re, float im) {
  hipFloatComplex z;
  z.x = re;
  z.y = im;
  return z;
}
static inline __host__ __device__ hipDoubleComplex make_hipDoubleComplex(double re, double im) {
  hipDoubleComplex z;
  z.x = re;
  z.y = im;
  return z;
}
static inline __host__ __device__ hipComplex make_hipComplex(float re, float im) {
  return make_hipFloatComplex(re, im);
}
static inline __host__ __device__ hipFloatComplex hipComplexDoubleToFloat(hipDoubleComplex z) {
  return make_hipFloatComplex((float)z.x, (float)z.y);
}
static inline __host__ __device__ hipDoubleComplex hipComplexFloatToDouble(hipFloatComplex z) {
  return make_hipDoubleComplex((double)z.x, (double)z.y);
}

#ifdef __cplusplus
#define WEFT_CPLX_OPS_(C, sfx)                                            \
  static inline __host__ __device__ C operator*(const C& p, const C& q) { \
    return hipCmul##sfx(p, q);                                            \
  }                                                                       \
  static inline __host__ __device__ C operator/(const C& p, const C& q) { \
    return hipCdiv##sfx(p, q);                                            \
  }                                                                       \
  static inline __host__ __device__ C& operator*=(C& p, const C& q) {     \
    return p = hipCmul##sfx(p, q);                                        \
  }                                                                       \
  static inline __host__ __device__ C& operator/=(C& p, const C& q) {     \
    return p = hipCdiv##sfx(p, q);                                        \
  }
WEFT_CPLX_OPS_(hipFloatComplex, f)
WEFT_CPLX_OPS_(hipDoubleComplex, )
#undef WEFT_CPLX_OPS_
#endif

#undef WEFT_CPLX_FUNCS_
#undef WEFT_CPLX_SQRT_
#undef WEFT_CPLX_SQRTF_

#include <hip/weft/device/hd_end.h>

#endif /* HIP_INCLUDE_HIP_HIP_COMPLEX_H */
