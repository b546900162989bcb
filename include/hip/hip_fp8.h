// SPDX-License-Identifier: MIT
// weft's 8-bit floating point for ordinary C++ compilers, with the names of AMD's HIP 6.x
// header: the OCP formats E4M3 (bias 7, no infinity, NaN 0x7f/0xff, largest 448) and E5M2
// (bias 15, IEEE-like with infinity 0x7c, largest 57344), and the FNUZ formats E4M3_FNUZ
// (bias 8, largest 240) and E5M2_FNUZ (bias 16, largest 57344), which have no negative
// zero and one NaN, 0x80. Every conversion is exact or rounds once to nearest even.
//
// Overflow: the value is rounded first as if the exponent range went on; a result past the
// largest finite value becomes that value under __HIP_SATFINITE, and infinity (E5M2) or NaN
// (the others) under __HIP_NOSAT. An infinite input saturates the same way; NaN stays NaN.
// The scalar, x2 and x4 types convert with __HIP_SATFINITE, as AMD's do.
#ifndef WEFT_HIP_FP8_H
#define WEFT_HIP_FP8_H

// Host and device functions under clang's HIP mode (a no-op for g++).
#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_vector_types.h>
#include <hip/weft/device/hd_begin.h>
#include <hip/weft/fp_round.h>

#include <cmath>
#include <type_traits>

#define HIP_FP8_TYPE_OCP 1
#define HIP_FP8_TYPE_FNUZ 1
#define HIP_FP8_CVT_FAST_PATH 0

enum __hip_fp8_interpretation_t {
  __HIP_E4M3 = 0,
  __HIP_E5M2 = 1,
  __HIP_E4M3_FNUZ = 2,
  __HIP_E5M2_FNUZ = 3,
};

enum __hip_saturation_t {
  __HIP_NOSAT = 0,
  __HIP_SATFINITE = 1,
};

typedef unsigned char __hip_fp8_storage_t;
typedef unsigned short int __hip_fp8x2_storage_t;
typedef unsigned int __hip_fp8x4_storage_t;

namespace weft::fp8 {

struct Spec {
  ::weft::fp::Format format;
  int bias;
  bool fnuz;
  bool has_infinity;
};

inline constexpr Spec spec(__hip_fp8_interpretation_t interp) {
  switch (interp) {
    case __HIP_E4M3: return Spec{{3, -6, 0x7e}, 7, false, false};
    case __HIP_E5M2: return Spec{{2, -14, 0x7b}, 15, false, true};
    case __HIP_E4M3_FNUZ: return Spec{{3, -7, 0x7f}, 8, true, false};
    case __HIP_E5M2_FNUZ: break;
  }
  return Spec{{2, -15, 0x7f}, 16, true, false};
}

inline __hip_fp8_storage_t encode(const ::weft::fp::Decoded& d, __hip_saturation_t sat,
                                  __hip_fp8_interpretation_t interp) {
  const Spec s = spec(interp);
  const unsigned sign = d.negative ? 0x80u : 0u;
  const unsigned nan = s.fnuz ? 0x80u : sign | 0x7fu;
  // What a value past the largest finite one becomes.
  const unsigned overflow = sat == __HIP_SATFINITE ? sign | s.format.max_code
                          : s.has_infinity         ? sign | (s.format.max_code + 1)
                                                   : nan;
  if (d.is_nan) return __hip_fp8_storage_t(nan);
  if (d.is_inf) return __hip_fp8_storage_t(overflow);
  if (d.is_zero) return __hip_fp8_storage_t(s.fnuz ? 0u : sign);
  const uint64_t code = ::weft::fp::round_magnitude(d.sig, d.exp, d.negative, s.format,
                                                    ::weft::fp::Round::nearest_even);
  if (code > s.format.max_code) return __hip_fp8_storage_t(overflow);
  if (code == 0 && s.fnuz) return 0;  // FNUZ has no -0: 0x80 is its NaN
  return __hip_fp8_storage_t(sign | unsigned(code));
}

inline bool is_nan(__hip_fp8_storage_t b, __hip_fp8_interpretation_t interp) {
  if (spec(interp).fnuz) return b == 0x80;
  return interp == __HIP_E5M2 ? (b & 0x7f) > 0x7c : (b & 0x7f) == 0x7f;
}

// Every fp8 value is exact in float (and in half and bfloat16).
inline float decode(__hip_fp8_storage_t b, __hip_fp8_interpretation_t interp) {
  const Spec s = spec(interp);
  if (is_nan(b, interp)) return std::numeric_limits<float>::quiet_NaN();
  const bool negative = (b & 0x80) != 0;
  if (s.has_infinity && (b & 0x7f) == s.format.max_code + 1)
    return negative ? -std::numeric_limits<float>::infinity()
                    : std::numeric_limits<float>::infinity();
  const int frac_bits = s.format.frac_bits;
  const unsigned e = (b & 0x7fu) >> frac_bits, m = b & ((1u << frac_bits) - 1);
  const float magnitude = e == 0
                            ? std::ldexp(float(m), s.format.min_exp - frac_bits)
                            : std::ldexp(float(m | (1u << frac_bits)), int(e) - s.bias - frac_bits);
  return negative ? -magnitude : magnitude;
}

template <typename T>
inline __hip_fp8_storage_t from_value(T v, __hip_saturation_t sat,
                                      __hip_fp8_interpretation_t interp) {
  if constexpr (std::is_integral<T>::value)
    return encode(::weft::fp::decode(double(v)), sat, interp);
  else if constexpr (std::is_same<T, float>::value)
    return encode(::weft::fp::decode(v), sat, interp);
  else return encode(::weft::fp::decode(double(v)), sat, interp);
}

template <typename I>
inline I to_integer(__hip_fp8_storage_t b, __hip_fp8_interpretation_t interp) {
  const float f = decode(b, interp);
  if constexpr (std::is_same<I, bool>::value) return f != 0.0f;
  else return ::weft::fp::to_integer<I>(f, ::weft::fp::Round::toward_zero);
}

}  // namespace weft::fp8

// ---- conversion functions ------------------------------------------------------------------

inline __hip_fp8_storage_t __hip_cvt_float_to_fp8(const float f, const __hip_saturation_t sat,
                                                  const __hip_fp8_interpretation_t interp) {
  return ::weft::fp8::from_value(f, sat, interp);
}
inline __hip_fp8_storage_t __hip_cvt_double_to_fp8(const double d, const __hip_saturation_t sat,
                                                   const __hip_fp8_interpretation_t interp) {
  return ::weft::fp8::from_value(d, sat, interp);
}
inline __hip_fp8_storage_t __hip_cvt_halfraw_to_fp8(const __half_raw h,
                                                    const __hip_saturation_t sat,
                                                    const __hip_fp8_interpretation_t interp) {
  return ::weft::fp8::from_value(::weft::fp::half_bits_to_float(h.x), sat, interp);
}
inline __hip_fp8_storage_t __hip_cvt_bfloat16raw_to_fp8(const __hip_bfloat16_raw b,
                                                        const __hip_saturation_t sat,
                                                        const __hip_fp8_interpretation_t interp) {
  return ::weft::fp8::from_value(::weft::fp::bf16_bits_to_float(b.x), sat, interp);
}
// Pairs: the first (x) value goes to the low byte.
inline __hip_fp8x2_storage_t __hip_cvt_float2_to_fp8x2(const float2 f, const __hip_saturation_t sat,
                                                       const __hip_fp8_interpretation_t interp) {
  return __hip_fp8x2_storage_t(__hip_cvt_float_to_fp8(f.x, sat, interp) |
                               (__hip_cvt_float_to_fp8(f.y, sat, interp) << 8));
}
inline __hip_fp8x2_storage_t __hip_cvt_double2_to_fp8x2(const double2 d,
                                                        const __hip_saturation_t sat,
                                                        const __hip_fp8_interpretation_t interp) {
  return __hip_fp8x2_storage_t(__hip_cvt_double_to_fp8(d.x, sat, interp) |
                               (__hip_cvt_double_to_fp8(d.y, sat, interp) << 8));
}
inline __hip_fp8x2_storage_t __hip_cvt_halfraw2_to_fp8x2(const __half2_raw h,
                                                         const __hip_saturation_t sat,
                                                         const __hip_fp8_interpretation_t interp) {
  return __hip_fp8x2_storage_t(__hip_cvt_halfraw_to_fp8(__half_raw{h.x}, sat, interp) |
                               (__hip_cvt_halfraw_to_fp8(__half_raw{h.y}, sat, interp) << 8));
}
inline __hip_fp8x2_storage_t __hip_cvt_bfloat16raw2_to_fp8x2(
    const __hip_bfloat162_raw b, const __hip_saturation_t sat,
    const __hip_fp8_interpretation_t interp) {
  return __hip_fp8x2_storage_t(
      __hip_cvt_bfloat16raw_to_fp8(__hip_bfloat16_raw{b.x}, sat, interp) |
      (__hip_cvt_bfloat16raw_to_fp8(__hip_bfloat16_raw{b.y}, sat, interp) << 8));
}
inline __half_raw __hip_cvt_fp8_to_halfraw(const __hip_fp8_storage_t x,
                                           const __hip_fp8_interpretation_t interp) {
  return __half_raw{::weft::fp::float_to_half_bits(::weft::fp8::decode(x, interp))};
}
inline __half2_raw __hip_cvt_fp8x2_to_halfraw2(const __hip_fp8x2_storage_t x,
                                               const __hip_fp8_interpretation_t interp) {
  return __half2_raw{__hip_cvt_fp8_to_halfraw(__hip_fp8_storage_t(x & 0xff), interp).x,
                     __hip_cvt_fp8_to_halfraw(__hip_fp8_storage_t(x >> 8), interp).x};
}

// ---- the types ----------------------------------------------------------------------------------

#define WEFT_FP8_SCALAR_(name, interp, we, wm)                                                     \
  struct name {                                                                                    \
    __hip_fp8_storage_t __x;                                                                       \
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;                    \
    static constexpr __hip_fp8_interpretation_t __default_interpret = interp;                      \
    static constexpr unsigned int __we = we;                                                       \
    static constexpr unsigned int __wm = wm;                                                       \
    name() = default;                                                                              \
    template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>    \
    name(const T v) : __x(::weft::fp8::from_value(v, __default_saturation, interp)) {}             \
    name(const __half h) : __x(__hip_cvt_halfraw_to_fp8(h, __default_saturation, interp)) {}       \
    name(const __hip_bfloat16 b)                                                                   \
        : __x(__hip_cvt_bfloat16raw_to_fp8(b, __default_saturation, interp)) {}                    \
    template <typename T,                                                                          \
              typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>            \
    operator T() const {                                                                           \
      return T(::weft::fp8::decode(__x, interp));                                                  \
    }                                                                                              \
    /* Integers: truncated toward zero, saturated, NaN -> 0. */                                    \
    template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>      \
    operator T() const {                                                                           \
      return ::weft::fp8::to_integer<T>(__x, interp);                                              \
    }                                                                                              \
    operator __half() const { return __half(__hip_cvt_fp8_to_halfraw(__x, interp)); }              \
    operator __hip_bfloat16() const { return __float2bfloat16(::weft::fp8::decode(__x, interp)); } \
  };                                                                                               \
  static_assert(sizeof(name) == 1, #name " is one byte")

#define WEFT_FP8_X2_(name, interp, we, wm)                                                       \
  struct name {                                                                                  \
    __hip_fp8x2_storage_t __x;                                                                   \
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;                  \
    static constexpr __hip_fp8_interpretation_t __default_interpret = interp;                    \
    static constexpr unsigned int __we = we;                                                     \
    static constexpr unsigned int __wm = wm;                                                     \
    name() = default;                                                                            \
    name(const float2 v) : __x(__hip_cvt_float2_to_fp8x2(v, __default_saturation, interp)) {}    \
    name(const double2 v) : __x(__hip_cvt_double2_to_fp8x2(v, __default_saturation, interp)) {}  \
    name(const __half2 v) : __x(__hip_cvt_halfraw2_to_fp8x2(v, __default_saturation, interp)) {} \
    name(const __hip_bfloat162 v)                                                                \
        : __x(__hip_cvt_bfloat16raw2_to_fp8x2(v, __default_saturation, interp)) {}               \
    operator __half2() const { return __half2(__hip_cvt_fp8x2_to_halfraw2(__x, interp)); }       \
    operator float2() const {                                                                    \
      return float2(::weft::fp8::decode(__hip_fp8_storage_t(__x & 0xff), interp),                \
                    ::weft::fp8::decode(__hip_fp8_storage_t(__x >> 8), interp));                 \
    }                                                                                            \
  };                                                                                             \
  static_assert(sizeof(name) == 2, #name " is two bytes")

// x4: the low pair (x, y) in the low 16 bits, the high pair (z, w) above.
#define WEFT_FP8_X4_(name, interp, we, wm)                                                         \
  struct name {                                                                                    \
    __hip_fp8x4_storage_t __x;                                                                     \
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;                    \
    static constexpr __hip_fp8_interpretation_t __default_interpret = interp;                      \
    static constexpr unsigned int __we = we;                                                       \
    static constexpr unsigned int __wm = wm;                                                       \
    name() = default;                                                                              \
    name(const float4 v)                                                                           \
        : __x(pack(__hip_cvt_float2_to_fp8x2(float2(v.x, v.y), __default_saturation, interp),      \
                   __hip_cvt_float2_to_fp8x2(float2(v.z, v.w), __default_saturation, interp))) {}  \
    name(const double4 v)                                                                          \
        : __x(pack(__hip_cvt_double2_to_fp8x2(double2(v.x, v.y), __default_saturation, interp),    \
                   __hip_cvt_double2_to_fp8x2(double2(v.z, v.w), __default_saturation, interp))) { \
    }                                                                                              \
    name(const __half2 low, const __half2 high)                                                    \
        : __x(pack(__hip_cvt_halfraw2_to_fp8x2(low, __default_saturation, interp),                 \
                   __hip_cvt_halfraw2_to_fp8x2(high, __default_saturation, interp))) {}            \
    name(const __hip_bfloat162 low, const __hip_bfloat162 high)                                    \
        : __x(pack(__hip_cvt_bfloat16raw2_to_fp8x2(low, __default_saturation, interp),             \
                   __hip_cvt_bfloat16raw2_to_fp8x2(high, __default_saturation, interp))) {}        \
    operator float4() const {                                                                      \
      return float4(::weft::fp8::decode(__hip_fp8_storage_t(__x), interp),                         \
                    ::weft::fp8::decode(__hip_fp8_storage_t(__x >> 8), interp),                    \
                    ::weft::fp8::decode(__hip_fp8_storage_t(__x >> 16), interp),                   \
                    ::weft::fp8::decode(__hip_fp8_storage_t(__x >> 24), interp));                  \
    }                                                                                              \
                                                                                                   \
   private:                                                                                        \
    static __hip_fp8x4_storage_t pack(__hip_fp8x2_storage_t low, __hip_fp8x2_storage_t high) {     \
      return __hip_fp8x4_storage_t(low) | (__hip_fp8x4_storage_t(high) << 16);                     \
    }                                                                                              \
  };                                                                                               \
  static_assert(sizeof(name) == 4, #name " is four bytes")

WEFT_FP8_SCALAR_(__hip_fp8_e4m3, __HIP_E4M3, 4, 3);
WEFT_FP8_SCALAR_(__hip_fp8_e5m2, __HIP_E5M2, 5, 2);
WEFT_FP8_SCALAR_(__hip_fp8_e4m3_fnuz, __HIP_E4M3_FNUZ, 4, 3);
WEFT_FP8_SCALAR_(__hip_fp8_e5m2_fnuz, __HIP_E5M2_FNUZ, 5, 2);
WEFT_FP8_X2_(__hip_fp8x2_e4m3, __HIP_E4M3, 4, 3);
WEFT_FP8_X2_(__hip_fp8x2_e5m2, __HIP_E5M2, 5, 2);
WEFT_FP8_X2_(__hip_fp8x2_e4m3_fnuz, __HIP_E4M3_FNUZ, 4, 3);
WEFT_FP8_X2_(__hip_fp8x2_e5m2_fnuz, __HIP_E5M2_FNUZ, 5, 2);
WEFT_FP8_X4_(__hip_fp8x4_e4m3, __HIP_E4M3, 4, 3);
WEFT_FP8_X4_(__hip_fp8x4_e5m2, __HIP_E5M2, 5, 2);
WEFT_FP8_X4_(__hip_fp8x4_e4m3_fnuz, __HIP_E4M3_FNUZ, 4, 3);
WEFT_FP8_X4_(__hip_fp8x4_e5m2_fnuz, __HIP_E5M2_FNUZ, 5, 2);
#undef WEFT_FP8_SCALAR_
#undef WEFT_FP8_X2_
#undef WEFT_FP8_X4_

#include <hip/weft/device/hd_end.h>

#endif  // WEFT_HIP_FP8_H
