/* SPDX-License-Identifier: MIT */
/* Complex multiply and divide for the GPU device passes (included by nvptx.h and amdgcn.h,
 * after they define the C math functions): clang lowers `_Complex` * and / (and so
 * std::complex<float/double>'s operators) to calls of __mulsc3/__muldc3/__divsc3/__divdc3,
 * which no GPU library provides. C99 Annex G's algorithms: the plain formulas, and where
 * both parts come out NaN, the infinities recovered (an infinite operand gives an infinite
 * result); the division scales the divisor by a power of two (logb/scalbn) so that c*c + d*d
 * neither overflows nor underflows. Weak definitions in every module that includes this
 * header: clang emits the calls at code generation, after the front end chose what to emit. */
#ifndef WEFT_HIP_DEVICE_GPU_COMPLEX_H
#define WEFT_HIP_DEVICE_GPU_COMPLEX_H

#if !defined(__HIP_DEVICE_COMPILE__) || !(defined(__NVPTX__) || defined(__AMDGCN__))
#error "hip/weft/device/gpu_complex.h is for the GPU device passes (nvptx.h, amdgcn.h)"
#endif

#ifdef __cplusplus
#define WEFT_CX_FN __attribute__((device)) inline __attribute__((always_inline))

WEFT_CX_FN float __weft_cx_logb(float v) { return logbf(v); }
WEFT_CX_FN double __weft_cx_logb(double v) { return logb(v); }
WEFT_CX_FN float __weft_cx_scalbn(float v, int e) { return scalbnf(v, e); }
WEFT_CX_FN double __weft_cx_scalbn(double v, int e) { return scalbn(v, e); }
template <typename T>
WEFT_CX_FN T __weft_cx_box(T v) {  // copysign(isinf(v) ? 1 : 0, v)
  return __builtin_copysign(__builtin_isinf(v) ? T(1) : T(0), v);
}
template <typename T>
WEFT_CX_FN T __weft_cx_unnan(T v) {  // copysign(0, v) for a NaN, else v
  return __builtin_isnan(v) ? __builtin_copysign(T(0), v) : v;
}
template <typename T>
WEFT_CX_FN void __weft_cx_mul(T a, T b, T c, T d, T* re, T* im) {
  const T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  T x = ac - bd, y = ad + bc;
  if (__builtin_isnan(x) && __builtin_isnan(y)) {
    bool again = false;
    if (__builtin_isinf(a) || __builtin_isinf(b)) {
      a = __weft_cx_box(a), b = __weft_cx_box(b), c = __weft_cx_unnan(c), d = __weft_cx_unnan(d);
      again = true;
    }
    if (__builtin_isinf(c) || __builtin_isinf(d)) {
      c = __weft_cx_box(c), d = __weft_cx_box(d), a = __weft_cx_unnan(a), b = __weft_cx_unnan(b);
      again = true;
    }
    if (!again && (__builtin_isinf(ac) || __builtin_isinf(bd) || __builtin_isinf(ad) ||
                   __builtin_isinf(bc))) {
      a = __weft_cx_unnan(a), b = __weft_cx_unnan(b), c = __weft_cx_unnan(c),
      d = __weft_cx_unnan(d);
      again = true;
    }
    if (again) {
      const T inf = __builtin_huge_valf();
      x = inf * (a * c - b * d);
      y = inf * (a * d + b * c);
    }
  }
  *re = x, *im = y;
}
template <typename T>
WEFT_CX_FN void __weft_cx_div(T a, T b, T c, T d, T* re, T* im) {
  const T logbw = __weft_cx_logb(__builtin_fmax(__builtin_fabs(c), __builtin_fabs(d)));
  int scale = 0;
  if (__builtin_isfinite(logbw)) {
    scale = static_cast<int>(logbw);
    c = __weft_cx_scalbn(c, -scale);
    d = __weft_cx_scalbn(d, -scale);
  }
  const T denom = c * c + d * d;
  T x = __weft_cx_scalbn((a * c + b * d) / denom, -scale);
  T y = __weft_cx_scalbn((b * c - a * d) / denom, -scale);
  if (__builtin_isnan(x) && __builtin_isnan(y)) {
    const T inf = __builtin_huge_valf();
    if (denom == T(0) && (!__builtin_isnan(a) || !__builtin_isnan(b))) {
      x = __builtin_copysign(inf, c) * a;
      y = __builtin_copysign(inf, c) * b;
    } else if ((__builtin_isinf(a) || __builtin_isinf(b)) && __builtin_isfinite(c) &&
               __builtin_isfinite(d)) {
      a = __weft_cx_box(a), b = __weft_cx_box(b);
      x = inf * (a * c + b * d);
      y = inf * (b * c - a * d);
    } else if (__builtin_isinf(logbw) && logbw > T(0) && __builtin_isfinite(a) &&
               __builtin_isfinite(b)) {
      c = __weft_cx_box(c), d = __weft_cx_box(d);
      x = T(0) * (a * c + b * d);
      y = T(0) * (b * c - a * d);
    }
  }
  *re = x, *im = y;
}
#define WEFT_CX_HELPER(name, T, op)                                              \
  extern "C" __attribute__((device, weak)) _Complex T name(T a, T b, T c, T d) { \
    T re, im;                                                                    \
    __weft_cx_##op(a, b, c, d, &re, &im);                                        \
    _Complex T z;                                                                \
    __real__ z = re;                                                             \
    __imag__ z = im;                                                             \
    return z;                                                                    \
  }
WEFT_CX_HELPER(__mulsc3, float, mul)
WEFT_CX_HELPER(__muldc3, double, mul)
WEFT_CX_HELPER(__divsc3, float, div)
WEFT_CX_HELPER(__divdc3, double, div)
#undef WEFT_CX_HELPER
#undef WEFT_CX_FN
#endif /* __cplusplus */

#endif /* WEFT_HIP_DEVICE_GPU_COMPLEX_H */
