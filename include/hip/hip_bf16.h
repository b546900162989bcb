// SPDX-License-Identifier: MIT
// weft's bfloat16 for ordinary C++ compilers: __hip_bfloat16 and __hip_bfloat162 (the top
// 16 bits of an IEEE binary32, and pairs of them) with the conversion, arithmetic,
// comparison and math functions of AMD's HIP 6.x header.
//
// Operations widen to double, compute there and round once to bfloat16 (round to nearest
// even unless the name says _rz, _rd or _ru); double's 53 bits exceed 2*8+2, so add, sub,
// mul, div and sqrt are correctly rounded, and fma adds with one rounding. NaN payloads
// pass through conversions unchanged. The function names overload hip_fp16.h's.
#ifndef WEFT_HIP_BF16_H
#define WEFT_HIP_BF16_H

// Host and device functions under clang's HIP mode (a no-op for g++).
#include <hip/hip_vector_types.h>
#include <hip/weft/device/hd_begin.h>
#include <hip/weft/fp_round.h>

#include <cmath>
#include <limits>
#include <type_traits>

struct __hip_bfloat16_raw {
  unsigned short x;
};

struct __hip_bfloat162_raw {
  unsigned short x;
  unsigned short y;
};

struct __hip_bfloat16 {
  // Public so that copying bytes into one draws no -Wclass-memaccess warning; use
  // __bfloat16_as_ushort instead.
  unsigned short __x;

  __hip_bfloat16() = default;
  constexpr __hip_bfloat16(const __hip_bfloat16_raw& raw) : __x(raw.x) {}
  template <typename T, typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>
  __hip_bfloat16(T v) : __x(::weft::fp::double_to_bf16_bits(double(v))) {}
  template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
  __hip_bfloat16(T v)
      : __x(std::is_signed<T>::value
                ? ::weft::fp::int_to_bf16_bits(static_cast<long long>(v))
                : ::weft::fp::uint_to_bf16_bits(static_cast<unsigned long long>(v))) {}
  __hip_bfloat16& operator=(const __hip_bfloat16_raw& raw) {
    __x = raw.x;
    return *this;
  }
  volatile __hip_bfloat16& operator=(const __hip_bfloat16_raw& raw) volatile {
    __x = raw.x;
    return *this;
  }
  template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
  __hip_bfloat16& operator=(T v) {
    return *this = __hip_bfloat16(v);
  }
  constexpr operator __hip_bfloat16_raw() const { return __hip_bfloat16_raw{__x}; }
  operator __hip_bfloat16_raw() const volatile { return __hip_bfloat16_raw{__x}; }
  template <typename T, typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>
  operator T() const {
    return T(::weft::fp::bf16_bits_to_float(__x));
  }
  // Integers take the value truncated toward zero; out-of-range values saturate, NaN gives 0.
  template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
  operator T() const {
    const float f = ::weft::fp::bf16_bits_to_float(__x);
    if constexpr (std::is_same<T, bool>::value) return f != 0.0f;
    else return ::weft::fp::to_integer<T>(f, ::weft::fp::Round::toward_zero);
  }
};

struct __hip_bfloat162 {
  __hip_bfloat16 x;
  __hip_bfloat16 y;

  __hip_bfloat162() = default;
  constexpr __hip_bfloat162(const __hip_bfloat162_raw& raw)
      : x(__hip_bfloat16_raw{raw.x}), y(__hip_bfloat16_raw{raw.y}) {}
  constexpr __hip_bfloat162(const __hip_bfloat16& lo, const __hip_bfloat16& hi) : x(lo), y(hi) {}
  __hip_bfloat162& operator=(const __hip_bfloat162_raw& raw) {
    return *this = __hip_bfloat162(raw);
  }
  constexpr operator __hip_bfloat162_raw() const { return __hip_bfloat162_raw{x.__x, y.__x}; }
  operator float2() const { return float2(float(x), float(y)); }
};

static_assert(sizeof(__hip_bfloat16) == 2 && sizeof(__hip_bfloat162) == 4, "bfloat16 storage");
static_assert(std::is_trivially_copyable<__hip_bfloat162>::value, "bfloat16 types copy as bytes");

namespace weft::bf16 {
inline unsigned short bits(__hip_bfloat16 b) { return b.__x; }
inline __hip_bfloat16 from_bits(unsigned short b) { return __hip_bfloat16(__hip_bfloat16_raw{b}); }
inline double to_double(__hip_bfloat16 b) { return double(::weft::fp::bf16_bits_to_float(b.__x)); }
inline __hip_bfloat16 from_double(double d) {
  return from_bits(::weft::fp::double_to_bf16_bits(d));
}
inline bool is_nan(__hip_bfloat16 b) { return (b.__x & 0x7fffu) > 0x7f80u; }
inline __hip_bfloat16 one() { return from_bits(0x3f80); }
}  // namespace weft::bf16

#define HIPRT_ONE_BF16 ::weft::bf16::from_bits(0x3F80U)
#define HIPRT_ZERO_BF16 ::weft::bf16::from_bits(0x0000U)
#define HIPRT_INF_BF16 ::weft::bf16::from_bits(0x7F80U)
#define HIPRT_MAX_NORMAL_BF16 ::weft::bf16::from_bits(0x7F7FU)
#define HIPRT_MIN_DENORM_BF16 ::weft::bf16::from_bits(0x0001U)
#define HIPRT_NAN_BF16 ::weft::bf16::from_bits(0x7FFFU)
#define HIPRT_NEG_ZERO_BF16 ::weft::bf16::from_bits(0x8000U)

// ---- conversions ----------------------------------------------------------------------------

inline float __bfloat162float(__hip_bfloat16 b) { return ::weft::fp::bf16_bits_to_float(b.__x); }
inline __hip_bfloat16 __float2bfloat16(float f) {
  return ::weft::bf16::from_bits(::weft::fp::float_to_bf16_bits(f));
}
inline __hip_bfloat16 __float2bfloat16_rn(float f) { return __float2bfloat16(f); }
inline __hip_bfloat16 __float2bfloat16_rz(float f) {
  return ::weft::bf16::from_bits(::weft::fp::float_to_bf16_bits(f, ::weft::fp::Round::toward_zero));
}
inline __hip_bfloat16 __float2bfloat16_rd(float f) {
  return ::weft::bf16::from_bits(::weft::fp::float_to_bf16_bits(f, ::weft::fp::Round::down));
}
inline __hip_bfloat16 __float2bfloat16_ru(float f) {
  return ::weft::bf16::from_bits(::weft::fp::float_to_bf16_bits(f, ::weft::fp::Round::up));
}
inline __hip_bfloat16 __double2bfloat16(double d) { return ::weft::bf16::from_double(d); }
inline __hip_bfloat162 __float2bfloat162_rn(float f) {
  return __hip_bfloat162(__float2bfloat16(f), __float2bfloat16(f));
}
inline __hip_bfloat162 __floats2bfloat162_rn(float lo, float hi) {
  return __hip_bfloat162(__float2bfloat16(lo), __float2bfloat16(hi));
}
inline __hip_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
inline float2 __bfloat1622float2(__hip_bfloat162 b) {
  return float2(__bfloat162float(b.x), __bfloat162float(b.y));
}
inline float __low2float(__hip_bfloat162 b) { return __bfloat162float(b.x); }
inline float __high2float(__hip_bfloat162 b) { return __bfloat162float(b.y); }
inline short __bfloat16_as_short(__hip_bfloat16 b) { return static_cast<short>(b.__x); }
inline unsigned short __bfloat16_as_ushort(__hip_bfloat16 b) { return b.__x; }
inline __hip_bfloat16 __short_as_bfloat16(short s) {
  return ::weft::bf16::from_bits(static_cast<unsigned short>(s));
}
inline __hip_bfloat16 __ushort_as_bfloat16(unsigned short s) { return ::weft::bf16::from_bits(s); }
inline int __bfloat162int_rz(__hip_bfloat16 b) {
  return ::weft::fp::to_integer<int>(__bfloat162float(b), ::weft::fp::Round::toward_zero);
}
inline int __bfloat162int_rn(__hip_bfloat16 b) {
  return ::weft::fp::to_integer<int>(__bfloat162float(b), ::weft::fp::Round::nearest_even);
}
inline __hip_bfloat16 __int2bfloat16_rn(int v) {
  return ::weft::bf16::from_bits(::weft::fp::int_to_bf16_bits(v));
}

// ---- pairs -------------------------------------------------------------------------------------

inline __hip_bfloat162 make_bfloat162(__hip_bfloat16 lo, __hip_bfloat16 hi) {
  return __hip_bfloat162(lo, hi);
}
inline __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 lo, __hip_bfloat16 hi) {
  return __hip_bfloat162(lo, hi);
}
inline __hip_bfloat162 __bfloat162bfloat162(__hip_bfloat16 b) { return __hip_bfloat162(b, b); }
inline __hip_bfloat16 __low2bfloat16(__hip_bfloat162 b) { return b.x; }
inline __hip_bfloat16 __high2bfloat16(__hip_bfloat162 b) { return b.y; }
inline __hip_bfloat162 __low2bfloat162(__hip_bfloat162 b) { return __hip_bfloat162(b.x, b.x); }
inline __hip_bfloat162 __high2bfloat162(__hip_bfloat162 b) { return __hip_bfloat162(b.y, b.y); }
inline __hip_bfloat162 __lows2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) {
  return __hip_bfloat162(a.x, b.x);
}
inline __hip_bfloat162 __highs2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) {
  return __hip_bfloat162(a.y, b.y);
}
inline __hip_bfloat162 __lowhigh2highlow(__hip_bfloat162 b) { return __hip_bfloat162(b.y, b.x); }

// ---- arithmetic --------------------------------------------------------------------------------

#define WEFT_BF16_D_(v) ::weft::bf16::to_double(v)
inline __hip_bfloat16 __hadd(__hip_bfloat16 a, __hip_bfloat16 b) {
  return ::weft::bf16::from_double(WEFT_BF16_D_(a) + WEFT_BF16_D_(b));
}
inline __hip_bfloat16 __hsub(__hip_bfloat16 a, __hip_bfloat16 b) {
  return ::weft::bf16::from_double(WEFT_BF16_D_(a) - WEFT_BF16_D_(b));
}
inline __hip_bfloat16 __hmul(__hip_bfloat16 a, __hip_bfloat16 b) {
  return ::weft::bf16::from_double(WEFT_BF16_D_(a) * WEFT_BF16_D_(b));
}
inline __hip_bfloat16 __hdiv(__hip_bfloat16 a, __hip_bfloat16 b) {
  return ::weft::bf16::from_double(WEFT_BF16_D_(a) / WEFT_BF16_D_(b));
}
inline __hip_bfloat16 __hfma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  // The product is exact in double; the sum is rounded to odd, then to bfloat16.
  return ::weft::bf16::from_double(
      ::weft::fp::sum_round_to_odd(WEFT_BF16_D_(a) * WEFT_BF16_D_(b), WEFT_BF16_D_(c)));
}
inline __hip_bfloat16 __hneg(__hip_bfloat16 a) {
  return ::weft::bf16::from_bits(static_cast<unsigned short>(a.__x ^ 0x8000u));
}
inline __hip_bfloat16 __habs(__hip_bfloat16 a) {
  return ::weft::bf16::from_bits(static_cast<unsigned short>(a.__x & 0x7fffu));
}
// __hmax/__hmin ignore a NaN operand (fmax/fmin); the _nan forms return NaN if either is.
inline __hip_bfloat16 __hmax(__hip_bfloat16 a, __hip_bfloat16 b) {
  if (::weft::bf16::is_nan(a)) return b;
  if (::weft::bf16::is_nan(b)) return a;
  if (WEFT_BF16_D_(a) != WEFT_BF16_D_(b)) return WEFT_BF16_D_(a) > WEFT_BF16_D_(b) ? a : b;
  return (a.__x & 0x8000u) ? b : a;
}
inline __hip_bfloat16 __hmin(__hip_bfloat16 a, __hip_bfloat16 b) {
  if (::weft::bf16::is_nan(a)) return b;
  if (::weft::bf16::is_nan(b)) return a;
  if (WEFT_BF16_D_(a) != WEFT_BF16_D_(b)) return WEFT_BF16_D_(a) < WEFT_BF16_D_(b) ? a : b;
  return (a.__x & 0x8000u) ? a : b;
}
inline __hip_bfloat16 __hmax_nan(__hip_bfloat16 a, __hip_bfloat16 b) {
  if (::weft::bf16::is_nan(a)) return a;
  return ::weft::bf16::is_nan(b) ? b : __hmax(a, b);
}
inline __hip_bfloat16 __hmin_nan(__hip_bfloat16 a, __hip_bfloat16 b) {
  if (::weft::bf16::is_nan(a)) return a;
  return ::weft::bf16::is_nan(b) ? b : __hmin(a, b);
}

// ---- comparisons (ordered: false with a NaN; the ...u forms: true with a NaN) ---------------

inline bool __heq(__hip_bfloat16 a, __hip_bfloat16 b) { return WEFT_BF16_D_(a) == WEFT_BF16_D_(b); }
inline bool __hne(__hip_bfloat16 a, __hip_bfloat16 b) {
  return WEFT_BF16_D_(a) < WEFT_BF16_D_(b) || WEFT_BF16_D_(a) > WEFT_BF16_D_(b);
}
inline bool __hlt(__hip_bfloat16 a, __hip_bfloat16 b) { return WEFT_BF16_D_(a) < WEFT_BF16_D_(b); }
inline bool __hle(__hip_bfloat16 a, __hip_bfloat16 b) { return WEFT_BF16_D_(a) <= WEFT_BF16_D_(b); }
inline bool __hgt(__hip_bfloat16 a, __hip_bfloat16 b) { return WEFT_BF16_D_(a) > WEFT_BF16_D_(b); }
inline bool __hge(__hip_bfloat16 a, __hip_bfloat16 b) { return WEFT_BF16_D_(a) >= WEFT_BF16_D_(b); }
inline bool __hequ(__hip_bfloat16 a, __hip_bfloat16 b) { return !__hne(a, b); }
inline bool __hneu(__hip_bfloat16 a, __hip_bfloat16 b) { return !__heq(a, b); }
inline bool __hltu(__hip_bfloat16 a, __hip_bfloat16 b) { return !__hge(a, b); }
inline bool __hleu(__hip_bfloat16 a, __hip_bfloat16 b) { return !__hgt(a, b); }
inline bool __hgtu(__hip_bfloat16 a, __hip_bfloat16 b) { return !__hle(a, b); }
inline bool __hgeu(__hip_bfloat16 a, __hip_bfloat16 b) { return !__hlt(a, b); }
inline bool __hisnan(__hip_bfloat16 a) { return ::weft::bf16::is_nan(a); }
inline bool __hisinf(__hip_bfloat16 a) { return (a.__x & 0x7fffu) == 0x7f80u; }
#undef WEFT_BF16_D_

// ---- packed forms ------------------------------------------------------------------------------

#define WEFT_BF16_LANES2_(name, scalar)                               \
  inline __hip_bfloat162 name(__hip_bfloat162 a, __hip_bfloat162 b) { \
    return __hip_bfloat162(scalar(a.x, b.x), scalar(a.y, b.y));       \
  }
WEFT_BF16_LANES2_(__hadd2, __hadd)
WEFT_BF16_LANES2_(__hsub2, __hsub)
WEFT_BF16_LANES2_(__hmul2, __hmul)
WEFT_BF16_LANES2_(__h2div, __hdiv)
WEFT_BF16_LANES2_(__hmax2, __hmax)
WEFT_BF16_LANES2_(__hmin2, __hmin)
WEFT_BF16_LANES2_(__hmax2_nan, __hmax_nan)
WEFT_BF16_LANES2_(__hmin2_nan, __hmin_nan)
#undef WEFT_BF16_LANES2_
inline __hip_bfloat162 __hfma2(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
  return __hip_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
inline __hip_bfloat162 __hneg2(__hip_bfloat162 a) {
  return __hip_bfloat162(__hneg(a.x), __hneg(a.y));
}
inline __hip_bfloat162 __habs2(__hip_bfloat162 a) {
  return __hip_bfloat162(__habs(a.x), __habs(a.y));
}

// __h..2: 1.0 or 0.0 per lane; __hb..2: whether the relation holds in both lanes.
#define WEFT_BF16_RELATION2_(rel)                                                     \
  inline __hip_bfloat162 __h##rel##2(__hip_bfloat162 a, __hip_bfloat162 b) {          \
    return __hip_bfloat162(::weft::bf16::from_bits(__h##rel(a.x, b.x) ? 0x3f80 : 0),  \
                           ::weft::bf16::from_bits(__h##rel(a.y, b.y) ? 0x3f80 : 0)); \
  }                                                                                   \
  inline bool __hb##rel##2(__hip_bfloat162 a, __hip_bfloat162 b) {                    \
    return __h##rel(a.x, b.x) && __h##rel(a.y, b.y);                                  \
  }
WEFT_BF16_RELATION2_(eq)
WEFT_BF16_RELATION2_(ne)
WEFT_BF16_RELATION2_(lt)
WEFT_BF16_RELATION2_(le)
WEFT_BF16_RELATION2_(gt)
WEFT_BF16_RELATION2_(ge)
WEFT_BF16_RELATION2_(equ)
WEFT_BF16_RELATION2_(neu)
WEFT_BF16_RELATION2_(ltu)
WEFT_BF16_RELATION2_(leu)
WEFT_BF16_RELATION2_(gtu)
WEFT_BF16_RELATION2_(geu)
#undef WEFT_BF16_RELATION2_
inline __hip_bfloat162 __hisnan2(__hip_bfloat162 a) {
  return __hip_bfloat162(::weft::bf16::from_bits(__hisnan(a.x) ? 0x3f80 : 0),
                         ::weft::bf16::from_bits(__hisnan(a.y) ? 0x3f80 : 0));
}

// ---- operators ----------------------------------------------------------------------------------

inline __hip_bfloat16 operator+(const __hip_bfloat16& a) { return a; }
inline __hip_bfloat16 operator-(const __hip_bfloat16& a) { return __hneg(a); }
inline __hip_bfloat16 operator+(const __hip_bfloat16& a, const __hip_bfloat16& b) {
  return __hadd(a, b);
}
inline __hip_bfloat16 operator-(const __hip_bfloat16& a, const __hip_bfloat16& b) {
  return __hsub(a, b);
}
inline __hip_bfloat16 operator*(const __hip_bfloat16& a, const __hip_bfloat16& b) {
  return __hmul(a, b);
}
inline __hip_bfloat16 operator/(const __hip_bfloat16& a, const __hip_bfloat16& b) {
  return __hdiv(a, b);
}
inline __hip_bfloat16& operator+=(__hip_bfloat16& a, const __hip_bfloat16& b) {
  return a = __hadd(a, b);
}
inline __hip_bfloat16& operator-=(__hip_bfloat16& a, const __hip_bfloat16& b) {
  return a = __hsub(a, b);
}
inline __hip_bfloat16& operator*=(__hip_bfloat16& a, const __hip_bfloat16& b) {
  return a = __hmul(a, b);
}
inline __hip_bfloat16& operator/=(__hip_bfloat16& a, const __hip_bfloat16& b) {
  return a = __hdiv(a, b);
}
inline __hip_bfloat16& operator++(__hip_bfloat16& a) { return a += ::weft::bf16::one(); }
inline __hip_bfloat16& operator--(__hip_bfloat16& a) { return a -= ::weft::bf16::one(); }
inline __hip_bfloat16 operator++(__hip_bfloat16& a, int) {
  const __hip_bfloat16 old = a;
  ++a;
  return old;
}
inline __hip_bfloat16 operator--(__hip_bfloat16& a, int) {
  const __hip_bfloat16 old = a;
  --a;
  return old;
}
inline bool operator==(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __heq(a, b); }
inline bool operator!=(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hneu(a, b); }
inline bool operator<(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hlt(a, b); }
inline bool operator>(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hgt(a, b); }
inline bool operator<=(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hle(a, b); }
inline bool operator>=(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hge(a, b); }

inline __hip_bfloat162 operator+(const __hip_bfloat162& a) { return a; }
inline __hip_bfloat162 operator-(const __hip_bfloat162& a) { return __hneg2(a); }
inline __hip_bfloat162 operator+(const __hip_bfloat162& a, const __hip_bfloat162& b) {
  return __hadd2(a, b);
}
inline __hip_bfloat162 operator-(const __hip_bfloat162& a, const __hip_bfloat162& b) {
  return __hsub2(a, b);
}
inline __hip_bfloat162 operator*(const __hip_bfloat162& a, const __hip_bfloat162& b) {
  return __hmul2(a, b);
}
inline __hip_bfloat162 operator/(const __hip_bfloat162& a, const __hip_bfloat162& b) {
  return __h2div(a, b);
}
inline __hip_bfloat162& operator+=(__hip_bfloat162& a, const __hip_bfloat162& b) {
  return a = __hadd2(a, b);
}
inline __hip_bfloat162& operator-=(__hip_bfloat162& a, const __hip_bfloat162& b) {
  return a = __hsub2(a, b);
}
inline __hip_bfloat162& operator*=(__hip_bfloat162& a, const __hip_bfloat162& b) {
  return a = __hmul2(a, b);
}
inline __hip_bfloat162& operator/=(__hip_bfloat162& a, const __hip_bfloat162& b) {
  return a = __h2div(a, b);
}
inline __hip_bfloat162& operator++(__hip_bfloat162& a) {
  ++a.x;
  ++a.y;
  return a;
}
inline __hip_bfloat162& operator--(__hip_bfloat162& a) {
  --a.x;
  --a.y;
  return a;
}
inline __hip_bfloat162 operator++(__hip_bfloat162& a, int) {
  const __hip_bfloat162 old = a;
  ++a;
  return old;
}
inline __hip_bfloat162 operator--(__hip_bfloat162& a, int) {
  const __hip_bfloat162 old = a;
  --a;
  return old;
}
// A relation holds for a pair when it holds for both lanes.
inline bool operator==(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hbeq2(a, b); }
inline bool operator!=(const __hip_bfloat162& a, const __hip_bfloat162& b) {
  return !__hbeq2(a, b);
}
inline bool operator<(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hblt2(a, b); }
inline bool operator>(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hbgt2(a, b); }
inline bool operator<=(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hble2(a, b); }
inline bool operator>=(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hbge2(a, b); }

// ---- math: computed in double, rounded once -----------------------------------------------------

#define WEFT_BF16_MATH_(name, name2, expr)       \
  inline __hip_bfloat16 name(__hip_bfloat16 b) { \
    const double v = ::weft::bf16::to_double(b); \
    return ::weft::bf16::from_double(expr);      \
  }                                              \
  inline __hip_bfloat162 name2(__hip_bfloat162 b) { return __hip_bfloat162(name(b.x), name(b.y)); }
WEFT_BF16_MATH_(hsqrt, h2sqrt, std::sqrt(v))
WEFT_BF16_MATH_(hrsqrt, h2rsqrt, 1.0 / std::sqrt(v))
WEFT_BF16_MATH_(hrcp, h2rcp, 1.0 / v)
WEFT_BF16_MATH_(hexp, h2exp, std::exp(v))
WEFT_BF16_MATH_(hexp2, h2exp2, std::exp2(v))
WEFT_BF16_MATH_(hexp10, h2exp10, std::pow(10.0, v))
WEFT_BF16_MATH_(hlog, h2log, std::log(v))
WEFT_BF16_MATH_(hlog2, h2log2, std::log2(v))
WEFT_BF16_MATH_(hlog10, h2log10, std::log10(v))
WEFT_BF16_MATH_(hsin, h2sin, std::sin(v))
WEFT_BF16_MATH_(hcos, h2cos, std::cos(v))
WEFT_BF16_MATH_(hceil, h2ceil, std::ceil(v))
WEFT_BF16_MATH_(hfloor, h2floor, std::floor(v))
WEFT_BF16_MATH_(htrunc, h2trunc, std::trunc(v))
WEFT_BF16_MATH_(hrint, h2rint, ::weft::fp::rint_even(v))
#undef WEFT_BF16_MATH_

inline __hip_bfloat16 __ldg(const __hip_bfloat16* p) { return *p; }
inline __hip_bfloat162 __ldg(const __hip_bfloat162* p) { return *p; }

inline __hip_bfloat16 atomicAdd(__hip_bfloat16* address, __hip_bfloat16 v) {
  return ::weft::fp::atomic_update<__hip_bfloat16, unsigned short>(
      address, [v](__hip_bfloat16 old) { return __hadd(old, v); });
}
inline __hip_bfloat162 atomicAdd(__hip_bfloat162* address, __hip_bfloat162 v) {
  return ::weft::fp::atomic_update<__hip_bfloat162, unsigned int>(
      address, [v](__hip_bfloat162 old) { return __hadd2(old, v); });
}
inline __hip_bfloat162 unsafeAtomicAdd(__hip_bfloat162* address, __hip_bfloat162 v) {
  return atomicAdd(address, v);
}

namespace std {
template <>
class numeric_limits<__hip_bfloat16> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr __hip_bfloat16 min() noexcept { return __hip_bfloat16_raw{0x0080}; }
  static constexpr __hip_bfloat16 max() noexcept { return __hip_bfloat16_raw{0x7f7f}; }
  static constexpr __hip_bfloat16 lowest() noexcept { return __hip_bfloat16_raw{0xff7f}; }
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr int radix = 2;
  static constexpr __hip_bfloat16 epsilon() noexcept { return __hip_bfloat16_raw{0x3c00}; }
  static constexpr __hip_bfloat16 round_error() noexcept { return __hip_bfloat16_raw{0x3f00}; }
  static constexpr int min_exponent = -125;
  static constexpr int min_exponent10 = -37;
  static constexpr int max_exponent = 128;
  static constexpr int max_exponent10 = 38;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr float_denorm_style has_denorm = denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr __hip_bfloat16 infinity() noexcept { return __hip_bfloat16_raw{0x7f80}; }
  static constexpr __hip_bfloat16 quiet_NaN() noexcept { return __hip_bfloat16_raw{0x7fc0}; }
  static constexpr __hip_bfloat16 signaling_NaN() noexcept { return __hip_bfloat16_raw{0x7fa0}; }
  static constexpr __hip_bfloat16 denorm_min() noexcept { return __hip_bfloat16_raw{0x0001}; }
  static constexpr bool is_iec559 = false;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;
  static constexpr float_round_style round_style = round_to_nearest;
};
}  // namespace std

#include <hip/weft/device/hd_end.h>

#endif  // WEFT_HIP_BF16_H
