/* SPDX-License-Identifier: MIT */
/* The libm-level math functions that each GPU device layer (nvptx.h, amdgcn.h)
 * defines, from one list so both GPU targets offer exactly the same set.
 *
 * Each entry: X(name, nv_name, ocml_name)
 *   float  <name>f  <- __nv_<nv_name>f     /  __ocml_<ocml_name>_f32
 *   double <name>   <- __nv_<nv_name>      /  __ocml_<ocml_name>_f64
 * (NVIDIA's libdevice and ROCm's OCML both name float and double this way.)
 *
 * WEFT_LIBM_C_*: the C library's own functions (glibc declares every one). The
 *   layers define them under their C names, extern "C" __host__ __device__, so the
 *   declarations hip/weft/device/prelude.h makes callable from device code have a
 *   device definition; <cmath>'s std:: overloads reach them too, because weftcc's
 *   GPU passes run with -fmath-errno (libstdc++ writes them as __builtin_sinf & co.,
 *   which clang then emits as calls of sinf & co. rather than as LLVM intrinsics
 *   that the NVPTX and AMDGPU back ends cannot select).
 * WEFT_LIBM_HIP_*: HIP's functions beyond C (rsqrt, erfinv, normcdf, ...). The
 *   layers define them as __weft_libm_<name>f / __weft_libm_<name>, for the shared
 *   math header (hip/weft/device_math.h) to give them HIP's names with the
 *   vendor libraries' accuracy.
 * List macros take the entry macro:  *_UNARY T f(T),  *_BINARY T f(T, T),
 * *_TERNARY T f(T, T, T). Functions with pointer or int arguments (frexp, modf,
 * remquo, sincos, ldexp, scalbn, ilogb, nan, jn, lrint, sincospi, powi, ...) are
 * written out in each layer. */
#ifndef WEFT_HIP_DEVICE_LIBM_LIST_H
#define WEFT_HIP_DEVICE_LIBM_LIST_H

// Macro calls without semicolons: clang-format would re-wrap this list on every run.
// clang-format off
#define WEFT_LIBM_C_UNARY(X)                                                                   \
  X(acos, acos, acos) X(acosh, acosh, acosh) X(asin, asin, asin) X(asinh, asinh, asinh)        \
  X(atan, atan, atan) X(atanh, atanh, atanh) X(cbrt, cbrt, cbrt) X(ceil, ceil, ceil)           \
  X(cos, cos, cos) X(cosh, cosh, cosh) X(erf, erf, erf) X(erfc, erfc, erfc)                    \
  X(exp, exp, exp) X(exp10, exp10, exp10) X(exp2, exp2, exp2) X(expm1, expm1, expm1)           \
  X(fabs, fabs, fabs) X(floor, floor, floor) X(lgamma, lgamma, lgamma) X(log, log, log)        \
  X(log10, log10, log10) X(log1p, log1p, log1p) X(log2, log2, log2) X(logb, logb, logb)        \
  X(nearbyint, nearbyint, nearbyint) X(rint, rint, rint) X(round, round, round)                \
  X(sin, sin, sin) X(sinh, sinh, sinh) X(sqrt, sqrt, sqrt) X(tan, tan, tan)                    \
  X(tanh, tanh, tanh) X(tgamma, tgamma, tgamma) X(trunc, trunc, trunc) X(j0, j0, j0)           \
  X(j1, j1, j1) X(y0, y0, y0) X(y1, y1, y1)

#define WEFT_LIBM_C_BINARY(X)                                                                  \
  X(atan2, atan2, atan2) X(copysign, copysign, copysign) X(fdim, fdim, fdim)                   \
  X(fmax, fmax, fmax) X(fmin, fmin, fmin) X(fmod, fmod, fmod) X(hypot, hypot, hypot)           \
  X(nextafter, nextafter, nextafter) X(pow, pow, pow) X(remainder, remainder, remainder)

#define WEFT_LIBM_C_TERNARY(X) X(fma, fma, fma)

#define WEFT_LIBM_HIP_UNARY(X)                                                                 \
  X(cospi, cospi, cospi) X(sinpi, sinpi, sinpi) X(erfcinv, erfcinv, erfcinv)                   \
  X(erfcx, erfcx, erfcx) X(erfinv, erfinv, erfinv) X(rcbrt, rcbrt, rcbrt)                      \
  X(rsqrt, rsqrt, rsqrt) X(normcdf, normcdf, ncdf) X(normcdfinv, normcdfinv, ncdfinv)          \
  X(cyl_bessel_i0, cyl_bessel_i0, i0) X(cyl_bessel_i1, cyl_bessel_i1, i1)

#define WEFT_LIBM_HIP_BINARY(X) X(rhypot, rhypot, rhypot)

#define WEFT_LIBM_HIP_TERNARY(X) X(norm3d, norm3d, len3) X(rnorm3d, rnorm3d, rlen3)
// clang-format on

#endif /* WEFT_HIP_DEVICE_LIBM_LIST_H */
