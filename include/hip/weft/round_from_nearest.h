// SPDX-License-Identifier: MIT
// Arithmetic and conversions rounded in a chosen direction, computed from the target's
// round-to-nearest operations: for GPU targets that have no per-instruction rounding modes
// in their math library (the AMDGPU layer, hip/weft/device/amdgcn.h, builds HIP's __fadd_rd,
// __ddiv_ru, __ll2float_rz, ... on these). Plain C++ (host and device), so the host tests it
// against its FPU's rounding modes (tests/language/math/rounding.cpp).
//
// One idea throughout: c = the correctly rounded (nearest) result of the exact value t, and
// cmp = sign(c - t), found exactly. Then t rounded down is c, or the value below c when
// c > t; up is c, or the value above c when c < t; toward zero is down for t > 0, up for
// t < 0. (Directed results need c only to be one of the two values around t.) cmp comes from
// an error-free residual: for float operands, the same operation in double with its exact
// error; for double, the TwoSum error of a sum, the fma residual of a product, quotient or
// square root, with the operands scaled by powers of two where the residual could underflow.
// Exact cases (NaN, infinities, zeros) have cmp 0; an overflow to infinity has cmp = the sign
// of c (t is finite); an exact zero sum is -0 when rounded down (IEEE 754), +0 otherwise.
#ifndef WEFT_ROUND_FROM_NEAREST_H
#define WEFT_ROUND_FROM_NEAREST_H

// Host and device functions under clang's HIP mode (a no-op for g++).
#include <hip/weft/device/hd_begin.h>
#include <stdint.h>

// Residuals must be computed as written: no fused multiply-add that the source does not ask
// for (HIP compiles with -ffp-contract=fast), at the start of each function body.
#if defined(__clang__)
#define WEFT_RFN_EXACT _Pragma("clang fp contract(off)")
#else
#define WEFT_RFN_EXACT
#endif

namespace weft::rfn {

enum Mode : int { kNearest = 0, kTowardZero = 1, kUp = 2, kDown = 3 };

template <typename F>
struct Bits;
template <>
struct Bits<float> {
  using U = uint32_t;
};
template <>
struct Bits<double> {
  using U = uint64_t;
};

// The next representable value above x (+inf and NaN stay).
template <typename F>
inline F next_up(F x) {
  using U = typename Bits<F>::U;
  if (x != x || x == __builtin_huge_valf()) return x;
  if (x == F(0)) return __builtin_bit_cast(F, U(1));  // the smallest subnormal
  const U u = __builtin_bit_cast(U, x);
  return __builtin_bit_cast(F, x > F(0) ? U(u + 1) : U(u - 1));
}
template <typename F>
inline F next_down(F x) {
  return -next_up(-x);
}

inline int sign(double v) { return (v > 0) - (v < 0); }  // 0 for zero and NaN

// t rounded in `mode`, from c = t rounded to nearest and cmp = sign(c - t).
template <typename F>
inline F from_nearest(F c, int cmp, int mode) {
  if (cmp == 0 || mode == kNearest) return c;
  if (mode == kTowardZero) mode = (c > F(0) || (c == F(0) && cmp < 0)) ? kDown : kUp;
  if (mode == kDown) return cmp > 0 ? next_down(c) : c;
  return cmp < 0 ? next_up(c) : c;
}

// An exact zero sum p + q (zero addends given as such): -0 rounded down unless both are +0.
template <typename F>
inline F zero_sum(F c, int mode, bool both_zero, bool both_positive) {
  if (mode != kDown) return c;
  return both_zero && both_positive ? F(0) : -F(0);
}

// The error of the nearest sum c = x + y: x + y = c + err exactly (TwoSum; c finite).
inline double sum_error(double x, double y, double c) {
  WEFT_RFN_EXACT
  const double bv = c - x;
  return (x - (c - bv)) + (y - bv);
}

// cmp for a float result c whose exact value is s + e (s the nearest double, e its error or
// only its sign): no double lies strictly between s and t, so c != s decides alone.
inline int cmp_via_double(float c, double s, double e) {
  const double cd = c;
  if (cd != s) return sign(cd - s);
  return -sign(e);
}

// ---- float, through double ----

inline float add(float x, float y, int mode) {
  WEFT_RFN_EXACT
  const float c = x + y;
  if (mode == kNearest) return c;
  const double xd = x, yd = y, s = xd + yd;
  const int cmp = cmp_via_double(c, s, sum_error(xd, yd, s));
  if (c == 0.0f && cmp == 0)
    return zero_sum(c, mode, x == 0.0f && y == 0.0f,
                    !__builtin_signbit(x) && !__builtin_signbit(y));
  return from_nearest(c, cmp, mode);
}
inline float mul(float x, float y, int mode) {
  WEFT_RFN_EXACT
  const float c = x * y;
  if (mode == kNearest) return c;
  const double s = static_cast<double>(x) * static_cast<double>(y);  // exact
  return from_nearest(c, cmp_via_double(c, s, 0.0), mode);
}
inline float fma(float x, float y, float z, int mode) {
  WEFT_RFN_EXACT
  const float c = __builtin_fmaf(x, y, z);
  if (mode == kNearest) return c;
  const double p = static_cast<double>(x) * static_cast<double>(y);  // exact
  const double zd = z, s = p + zd;
  const int cmp = cmp_via_double(c, s, sum_error(p, zd, s));
  if (c == 0.0f && cmp == 0) {
    const bool product_zero = x == 0.0f || y == 0.0f;
    return zero_sum(c, mode, product_zero && z == 0.0f,
                    __builtin_signbit(x) == __builtin_signbit(y) && !__builtin_signbit(z));
  }
  return from_nearest(c, cmp, mode);
}
inline float div(float x, float y, int mode) {
  WEFT_RFN_EXACT
  const float c = x / y;
  if (mode == kNearest) return c;
  const double xd = x, yd = y, s = xd / yd;
  const double r = __builtin_fma(-s, yd, xd);  // xd - s*yd, exact for float operands
  return from_nearest(c, cmp_via_double(c, s, r * (y < 0.0f ? -1.0 : 1.0)), mode);
}
inline float sqrt(float x, int mode) {
  WEFT_RFN_EXACT
  const float c = __builtin_sqrtf(x);
  if (mode == kNearest) return c;
  const double xd = x, s = __builtin_sqrt(xd);
  return from_nearest(c, cmp_via_double(c, s, __builtin_fma(-s, s, xd)), mode);
}

// ---- double ----

inline double add(double x, double y, int mode) {
  WEFT_RFN_EXACT
  const double c = x + y;
  if (mode == kNearest) return c;
  int cmp = 0;
  if (__builtin_isfinite(c)) cmp = -sign(sum_error(x, y, c));
  else if (__builtin_isfinite(x) && __builtin_isfinite(y)) cmp = sign(c);  // overflow
  if (c == 0.0 && cmp == 0)
    return zero_sum(c, mode, x == 0.0 && y == 0.0, !__builtin_signbit(x) && !__builtin_signbit(y));
  return from_nearest(c, cmp, mode);
}
inline double mul(double x, double y, int mode) {
  WEFT_RFN_EXACT
  const double c = x * y;
  if (mode == kNearest) return c;
  int cmp = 0;
  if (!__builtin_isfinite(x) || !__builtin_isfinite(y) || x == 0.0 || y == 0.0) {
    cmp = 0;  // exact: NaN, infinity or zero
  } else if (!__builtin_isfinite(c)) {
    cmp = sign(c);  // overflow
  } else if (c == 0.0) {
    cmp = __builtin_signbit(x) == __builtin_signbit(y) ? -1 : 1;  // t != 0 underflowed
  } else {
    // x*y - c is exact unless the product is tiny: then the smaller operand (< 2^-450) and c
    // are scaled up by 2^600 (exactly), which keeps every bit of the residual.
    double xs = x, ys = y, cs = c;
    if (__builtin_fabs(c) < 0x1p-900) {
      if (__builtin_fabs(xs) < __builtin_fabs(ys)) xs *= 0x1p600;
      else ys *= 0x1p600;
      cs *= 0x1p600;
    }
    cmp = -sign(__builtin_fma(xs, ys, -cs));
  }
  return from_nearest(c, cmp, mode);
}
inline double div(double x, double y, int mode) {
  WEFT_RFN_EXACT
  const double c = x / y;
  if (mode == kNearest) return c;
  int cmp = 0;
  if (!__builtin_isfinite(x) || !__builtin_isfinite(y) || x == 0.0 || y == 0.0) {
    cmp = 0;  // exact: NaN, infinity or zero
  } else if (!__builtin_isfinite(c)) {
    cmp = sign(c);  // overflow
  } else if (c == 0.0) {
    cmp = __builtin_signbit(x) == __builtin_signbit(y) ? -1 : 1;
  } else {
    // t - c = (x - c*y) / y. The residual is exact unless x is tiny: then x and c are scaled
    // by 2^600 (c <= 2^-900 / 2^-1074 = 2^174 there, so it cannot overflow).
    double xs = x, cs = c;
    if (__builtin_fabs(x) < 0x1p-900) {
      xs *= 0x1p600;
      cs *= 0x1p600;
    }
    const double r = __builtin_fma(-cs, y, xs);
    cmp = -sign(r) * (y < 0.0 ? -1 : 1);
  }
  return from_nearest(c, cmp, mode);
}
inline double sqrt(double x, int mode) {
  WEFT_RFN_EXACT
  const double c = __builtin_sqrt(x);
  if (mode == kNearest) return c;
  int cmp = 0;
  if (__builtin_isfinite(x) && x > 0.0) {
    // t - c has the sign of x - c*c; below 2^-900 both are scaled (x by 2^600, c by 2^300).
    double xs = x, cs = c;
    if (x < 0x1p-900) {
      xs *= 0x1p600;
      cs *= 0x1p300;
    }
    cmp = -sign(__builtin_fma(-cs, cs, xs));
  }
  return from_nearest(c, cmp, mode);
}

// ---- conversions ----

inline float to_float(int x, int mode) {
  const float c = static_cast<float>(x);
  return from_nearest(c, sign(static_cast<double>(c) - static_cast<double>(x)), mode);
}
inline float to_float(unsigned x, int mode) {
  const float c = static_cast<float>(x);
  return from_nearest(c, sign(static_cast<double>(c) - static_cast<double>(x)), mode);
}
// The nearest F of a 64-bit integer and its comparison with it (the conversion back is exact
// below 2^63 / 2^64, where every F is an integer).
template <typename F>
inline F from_int64(long long x, int mode) {
  const F c = static_cast<F>(x);
  int cmp = 1;  // c = 2^63 > x
  if (c < F(0x1p63)) {
    const long long back = static_cast<long long>(c);
    cmp = (back > x) - (back < x);
  }
  return from_nearest(c, cmp, mode);
}
template <typename F>
inline F from_uint64(unsigned long long x, int mode) {
  const F c = static_cast<F>(x);
  int cmp = 1;  // c = 2^64 > x
  if (c < F(0x1p64)) {
    const unsigned long long back = static_cast<unsigned long long>(c);
    cmp = (back > x) - (back < x);
  }
  return from_nearest(c, cmp, mode);
}
inline float to_float(double x, int mode) {
  const float c = static_cast<float>(x);
  return from_nearest(c, sign(static_cast<double>(c) - x), mode);
}

}  // namespace weft::rfn

#undef WEFT_RFN_EXACT
#include <hip/weft/device/hd_end.h>

#endif  // WEFT_ROUND_FROM_NEAREST_H
