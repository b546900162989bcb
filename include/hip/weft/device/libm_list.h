/* SPDX-License-Identifier: MIT */
/* The libm-level math functions that each GPU device layer (nvptx.h, amdgcn.h)
 * defines as __device__ functions: the C99 names (sinf/sin, powf/pow, ...) for
 * float and double, and HIP's extras that the vendors' libraries compute
 * natively. One list, so both GPU targets offer exactly the same set; the shared
 * math wrappers (C++ overloads, std::) are written on top of these names.
 *
 * Each entry: X(c_name, nv_name, ocml_name)
 *   float  c_name##f  <- __nv_<nv_name>f     /  __ocml_<ocml_name>_f32
 *   double c_name     <- __nv_<nv_name>      /  __ocml_<ocml_name>_f64
 * (NVIDIA's libdevice and ROCm's OCML both name float and double this way.)
 * A list macro takes the entry macro as its argument:
 *   WEFT_LIBM_UNARY(X)   T f(T)
 *   WEFT_LIBM_BINARY(X)  T f(T, T)
 *   WEFT_LIBM_TERNARY(X) T f(T, T, T)
 * The functions with pointer or int arguments (frexp, modf, remquo, sincos,
 * sincospi, ldexp, scalbn, ilogb, nan, powi, lrint, ...) are written out in each
 * device layer. */
#ifndef WEFT_HIP_DEVICE_LIBM_LIST_H
#define WEFT_HIP_DEVICE_LIBM_LIST_H

#define WEFT_LIBM_UNARY(X)                                                                     \
  X(acos, acos, acos) X(acosh, acosh, acosh) X(asin, asin, asin) X(asinh, asinh, asinh)        \
  X(atan, atan, atan) X(atanh, atanh, atanh) X(cbrt, cbrt, cbrt) X(ceil, ceil, ceil)           \
  X(cos, cos, cos) X(cosh, cosh, cosh) X(cospi, cospi, cospi) X(erf, erf, erf)                 \
  X(erfc, erfc, erfc) X(erfcinv, erfcinv, erfcinv) X(erfcx, erfcx, erfcx)                      \
  X(erfinv, erfinv, erfinv) X(exp, exp, exp) X(exp10, exp10, exp10) X(exp2, exp2, exp2)        \
  X(expm1, expm1, expm1) X(fabs, fabs, fabs) X(floor, floor, floor) X(lgamma, lgamma, lgamma)  \
  X(log, log, log) X(log10, log10, log10) X(log1p, log1p, log1p) X(log2, log2, log2)           \
  X(logb, logb, logb) X(nearbyint, nearbyint, nearbyint) X(rcbrt, rcbrt, rcbrt)                \
  X(rint, rint, rint) X(round, round, round) X(rsqrt, rsqrt, rsqrt) X(sin, sin, sin)           \
  X(sinh, sinh, sinh) X(sinpi, sinpi, sinpi) X(sqrt, sqrt, sqrt) X(tan, tan, tan)              \
  X(tanh, tanh, tanh) X(tgamma, tgamma, tgamma) X(trunc, trunc, trunc) X(j0, j0, j0)           \
  X(j1, j1, j1) X(y0, y0, y0) X(y1, y1, y1) X(normcdf, normcdf, ncdf)                          \
  X(normcdfinv, normcdfinv, ncdfinv) X(cyl_bessel_i0, cyl_bessel_i0, i0)                       \
  X(cyl_bessel_i1, cyl_bessel_i1, i1)

#define WEFT_LIBM_BINARY(X)                                                                    \
  X(atan2, atan2, atan2) X(copysign, copysign, copysign) X(fdim, fdim, fdim)                   \
  X(fmax, fmax, fmax) X(fmin, fmin, fmin) X(fmod, fmod, fmod) X(hypot, hypot, hypot)           \
  X(nextafter, nextafter, nextafter) X(pow, pow, pow) X(remainder, remainder, remainder)       \
  X(rhypot, rhypot, rhypot)

#define WEFT_LIBM_TERNARY(X) X(fma, fma, fma) X(norm3d, norm3d, len3) X(rnorm3d, rnorm3d, rlen3)

#endif /* WEFT_HIP_DEVICE_LIBM_LIST_H */
