// SPDX-License-Identifier: MIT
// weft's half precision for ordinary C++ compilers: __half and __half2 (IEEE binary16 and
// pairs of it) with HIP's conversion, arithmetic, comparison and math functions.
//
// The CPU has no binary16 arithmetic, so every operation widens to float (or double),
// computes there and rounds once back to binary16, round to nearest even unless the name
// says otherwise (_rz, _rd, _ru). float's 24 bits are at least 2*11+2, so add, sub,
// mul, div and sqrt done in float and rounded to binary16 equal the correctly rounded
// binary16 results; fma multiplies exactly in double and adds with one rounding.
// Conversions handle subnormals, infinities and NaN bit-exactly (weft/fp_round.h); NaN
// payloads pass through unchanged.
//
// Defining __HIP_NO_HALF_CONVERSIONS__ or __HIP_NO_HALF_OPERATORS__ removes the implicit
// conversions or the C++ operators, as with AMD's header.
#ifndef WEFT_HIP_FP16_H
#define WEFT_HIP_FP16_H

// Host and device functions under clang's HIP mode (a no-op for g++).
#include <hip/hip_vector_types.h>
#include <hip/weft/device/hd_begin.h>
#include <hip/weft/fp_round.h>

#include <cmath>
#include <limits>
#include <type_traits>

struct __half_raw {
  unsigned short x;
};

struct __half2_raw {
  unsigned short x;
  unsigned short y;
};

struct __half;
namespace weft::fp16 {
inline float to_float(__half h);
inline __half from_float(float f);
}  // namespace weft::fp16

struct __half {
  // Public (AMD's is protected) so that copying bytes into a __half, as warp shuffles and
  // users' memcpy do, draws no -Wclass-memaccess warning. Use __half_as_ushort instead.
  unsigned short __x;

  __half() = default;
  constexpr __half(const __half_raw& raw) : __x(raw.x) {}
  __half& operator=(const __half_raw& raw) {
    __x = raw.x;
    return *this;
  }
  volatile __half& operator=(const __half_raw& raw) volatile {
    __x = raw.x;
    return *this;
  }
  constexpr operator __half_raw() const { return __half_raw{__x}; }
  operator __half_raw() const volatile { return __half_raw{__x}; }

#if !defined(__HIP_NO_HALF_CONVERSIONS__)
  template <typename T, typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>
  __half(T v) : __x(::weft::fp::double_to_half_bits(double(v))) {}
  template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
  __half(T v)
      : __x(std::is_signed<T>::value
                ? ::weft::fp::int_to_half_bits(static_cast<long long>(v),
                                               ::weft::fp::Round::nearest_even)
                : ::weft::fp::uint_to_half_bits(static_cast<unsigned long long>(v), false,
                                                ::weft::fp::Round::nearest_even)) {}
  template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
  __half& operator=(T v) {
    return *this = __half(v);
  }
  template <typename T, typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>
  operator T() const {
    return T(::weft::fp::half_bits_to_float(__x));
  }
  // Integers take the value truncated toward zero, as C++ converts float; out-of-range
  // values saturate instead of being undefined, NaN gives 0.
  template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
  operator T() const {
    const float f = ::weft::fp::half_bits_to_float(__x);
    if constexpr (std::is_same<T, bool>::value) return f != 0.0f;
    else return ::weft::fp::to_integer<T>(f, ::weft::fp::Round::toward_zero);
  }
#endif

#if !defined(__HIP_NO_HALF_OPERATORS__)
  __half& operator+=(const __half& o) {
    return *this =
               ::weft::fp16::from_float(::weft::fp16::to_float(*this) + ::weft::fp16::to_float(o));
  }
  __half& operator-=(const __half& o) {
    return *this =
               ::weft::fp16::from_float(::weft::fp16::to_float(*this) - ::weft::fp16::to_float(o));
  }
  __half& operator*=(const __half& o) {
    return *this =
               ::weft::fp16::from_float(::weft::fp16::to_float(*this) * ::weft::fp16::to_float(o));
  }
  __half& operator/=(const __half& o) {
    return *this =
               ::weft::fp16::from_float(::weft::fp16::to_float(*this) / ::weft::fp16::to_float(o));
  }
  __half& operator++() { return *this += __half(__half_raw{0x3c00}); }
  __half& operator--() { return *this -= __half(__half_raw{0x3c00}); }
  __half operator++(int) {
    __half old = *this;
    ++*this;
    return old;
  }
  __half operator--(int) {
    __half old = *this;
    --*this;
    return old;
  }
  __half operator+() const { return *this; }
  __half operator-() const {
    return __half(__half_raw{static_cast<unsigned short>(__x ^ 0x8000u)});
  }
#endif
};

namespace weft::fp16 {
inline unsigned short bits(__half h) { return static_cast<__half_raw>(h).x; }
inline __half from_bits(unsigned short b) { return __half(__half_raw{b}); }
inline float to_float(__half h) { return ::weft::fp::half_bits_to_float(bits(h)); }
inline __half from_float(float f) { return from_bits(::weft::fp::float_to_half_bits(f)); }
inline __half from_double(double d) { return from_bits(::weft::fp::double_to_half_bits(d)); }
inline bool is_nan(__half h) { return (bits(h) & 0x7fffu) > 0x7c00u; }
}  // namespace weft::fp16

#if !defined(__HIP_NO_HALF_OPERATORS__)
inline __half operator+(const __half& a, const __half& b) {
  __half r = a;
  return r += b;
}
inline __half operator-(const __half& a, const __half& b) {
  __half r = a;
  return r -= b;
}
inline __half operator*(const __half& a, const __half& b) {
  __half r = a;
  return r *= b;
}
inline __half operator/(const __half& a, const __half& b) {
  __half r = a;
  return r /= b;
}
inline bool operator==(const __half& a, const __half& b) {
  return ::weft::fp16::to_float(a) == ::weft::fp16::to_float(b);
}
inline bool operator!=(const __half& a, const __half& b) {
  return ::weft::fp16::to_float(a) != ::weft::fp16::to_float(b);
}
inline bool operator<(const __half& a, const __half& b) {
  return ::weft::fp16::to_float(a) < ::weft::fp16::to_float(b);
}
inline bool operator>(const __half& a, const __half& b) {
  return ::weft::fp16::to_float(a) > ::weft::fp16::to_float(b);
}
inline bool operator<=(const __half& a, const __half& b) {
  return ::weft::fp16::to_float(a) <= ::weft::fp16::to_float(b);
}
inline bool operator>=(const __half& a, const __half& b) {
  return ::weft::fp16::to_float(a) >= ::weft::fp16::to_float(b);
}
#endif

// A pair of halves; x is the low half in memory. Arithmetic scalars convert implicitly to a
// pair of equal halves, so `h2 += 1` and `h2 != 0` work.
struct __half2 {
  __half x;
  __half y;

  __half2() = default;
  constexpr __half2(const __half2_raw& raw) : x(__half_raw{raw.x}), y(__half_raw{raw.y}) {}
  constexpr __half2(const __half& lo, const __half& hi) : x(lo), y(hi) {}
  constexpr __half2(const __half& both) : x(both), y(both) {}
#if !defined(__HIP_NO_HALF_CONVERSIONS__)
  template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
  __half2(T v) : x(v), y(x) {}
#endif
  __half2& operator=(const __half2_raw& raw) { return *this = __half2(raw); }
  constexpr operator __half2_raw() const {
    return __half2_raw{static_cast<__half_raw>(x).x, static_cast<__half_raw>(y).x};
  }

#if !defined(__HIP_NO_HALF_OPERATORS__)
  __half2& operator+=(const __half2& o) {
    x += o.x;
    y += o.y;
    return *this;
  }
  __half2& operator-=(const __half2& o) {
    x -= o.x;
    y -= o.y;
    return *this;
  }
  __half2& operator*=(const __half2& o) {
    x *= o.x;
    y *= o.y;
    return *this;
  }
  __half2& operator/=(const __half2& o) {
    x /= o.x;
    y /= o.y;
    return *this;
  }
  __half2& operator++() {
    ++x;
    ++y;
    return *this;
  }
  __half2& operator--() {
    --x;
    --y;
    return *this;
  }
  __half2 operator++(int) {
    __half2 old = *this;
    ++*this;
    return old;
  }
  __half2 operator--(int) {
    __half2 old = *this;
    --*this;
    return old;
  }
  __half2 operator+() const { return *this; }
  __half2 operator-() const { return __half2(-x, -y); }
#endif
};

#if !defined(__HIP_NO_HALF_OPERATORS__)
inline __half2 operator+(const __half2& a, const __half2& b) {
  __half2 r = a;
  return r += b;
}
inline __half2 operator-(const __half2& a, const __half2& b) {
  __half2 r = a;
  return r -= b;
}
inline __half2 operator*(const __half2& a, const __half2& b) {
  __half2 r = a;
  return r *= b;
}
inline __half2 operator/(const __half2& a, const __half2& b) {
  __half2 r = a;
  return r /= b;
}
// As in AMD's header: a relation holds for a pair when it holds for both lanes.
inline bool operator==(const __half2& a, const __half2& b) { return a.x == b.x && a.y == b.y; }
inline bool operator!=(const __half2& a, const __half2& b) { return !(a == b); }
inline bool operator<(const __half2& a, const __half2& b) { return a.x < b.x && a.y < b.y; }
inline bool operator>(const __half2& a, const __half2& b) { return b < a; }
inline bool operator<=(const __half2& a, const __half2& b) { return !(b < a); }
inline bool operator>=(const __half2& a, const __half2& b) { return !(a < b); }
#endif

static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "__half is binary16 storage");
static_assert(sizeof(__half2) == 4, "__half2 is two binary16 values");
static_assert(std::is_trivially_copyable<__half>::value &&
                  std::is_trivially_copyable<__half2>::value,
              "half types copy as bytes (kernel arguments, warp shuffles)");

// ---- conversions ----------------------------------------------------------------------------

#define WEFT_FP16_ROUND_(mode) ::weft::fp::Round::mode
inline __half __float2half(float f) { return ::weft::fp16::from_float(f); }
inline __half __float2half_rn(float f) { return ::weft::fp16::from_float(f); }
inline __half __float2half_rz(float f) {
  return ::weft::fp16::from_bits(::weft::fp::float_to_half_bits(f, WEFT_FP16_ROUND_(toward_zero)));
}
inline __half __float2half_rd(float f) {
  return ::weft::fp16::from_bits(::weft::fp::float_to_half_bits(f, WEFT_FP16_ROUND_(down)));
}
inline __half __float2half_ru(float f) {
  return ::weft::fp16::from_bits(::weft::fp::float_to_half_bits(f, WEFT_FP16_ROUND_(up)));
}
inline __half __double2half(double d) { return ::weft::fp16::from_double(d); }
inline float __half2float(__half h) { return ::weft::fp16::to_float(h); }
inline __half2 __float2half2_rn(float f) { return __half2(__float2half(f)); }
inline __half2 __floats2half2_rn(float lo, float hi) {
  return __half2(__float2half(lo), __float2half(hi));
}
inline __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }
inline float2 __half22float2(__half2 h) { return float2(__half2float(h.x), __half2float(h.y)); }
inline float __low2float(__half2 h) { return __half2float(h.x); }
inline float __high2float(__half2 h) { return __half2float(h.y); }

// half -> integer in each rounding mode (saturating, NaN -> 0) and integer -> half.
#define WEFT_FP16_INT_CONVERSIONS_(name, type, signed_)                                         \
  inline type __half2##name##_rn(__half h) {                                                    \
    return ::weft::fp::to_integer<type>(__half2float(h), WEFT_FP16_ROUND_(nearest_even));       \
  }                                                                                             \
  inline type __half2##name##_rz(__half h) {                                                    \
    return ::weft::fp::to_integer<type>(__half2float(h), WEFT_FP16_ROUND_(toward_zero));        \
  }                                                                                             \
  inline type __half2##name##_rd(__half h) {                                                    \
    return ::weft::fp::to_integer<type>(__half2float(h), WEFT_FP16_ROUND_(down));               \
  }                                                                                             \
  inline type __half2##name##_ru(__half h) {                                                    \
    return ::weft::fp::to_integer<type>(__half2float(h), WEFT_FP16_ROUND_(up));                 \
  }                                                                                             \
  inline __half __##name##2half_rn(type v) {                                                    \
    return ::weft::fp16::from_bits(                                                             \
        ::weft::fp16::int_bits<signed_>(v, WEFT_FP16_ROUND_(nearest_even)));                    \
  }                                                                                             \
  inline __half __##name##2half_rz(type v) {                                                    \
    return ::weft::fp16::from_bits(                                                             \
        ::weft::fp16::int_bits<signed_>(v, WEFT_FP16_ROUND_(toward_zero)));                     \
  }                                                                                             \
  inline __half __##name##2half_rd(type v) {                                                    \
    return ::weft::fp16::from_bits(::weft::fp16::int_bits<signed_>(v, WEFT_FP16_ROUND_(down))); \
  }                                                                                             \
  inline __half __##name##2half_ru(type v) {                                                    \
    return ::weft::fp16::from_bits(::weft::fp16::int_bits<signed_>(v, WEFT_FP16_ROUND_(up)));   \
  }

namespace weft::fp16 {
template <bool is_signed, typename T>
inline unsigned short int_bits(T v, ::weft::fp::Round mode) {
  if constexpr (is_signed) return ::weft::fp::int_to_half_bits(static_cast<long long>(v), mode);
  else return ::weft::fp::uint_to_half_bits(static_cast<unsigned long long>(v), false, mode);
}
}  // namespace weft::fp16

WEFT_FP16_INT_CONVERSIONS_(int, int, true)
WEFT_FP16_INT_CONVERSIONS_(uint, unsigned int, false)
WEFT_FP16_INT_CONVERSIONS_(short, short, true)
WEFT_FP16_INT_CONVERSIONS_(ushort, unsigned short, false)
WEFT_FP16_INT_CONVERSIONS_(ll, long long, true)
WEFT_FP16_INT_CONVERSIONS_(ull, unsigned long long, false)
#undef WEFT_FP16_INT_CONVERSIONS_
inline signed char __half2char_rz(__half h) {
  return ::weft::fp::to_integer<signed char>(__half2float(h), WEFT_FP16_ROUND_(toward_zero));
}
inline unsigned char __half2uchar_rz(__half h) {
  return ::weft::fp::to_integer<unsigned char>(__half2float(h), WEFT_FP16_ROUND_(toward_zero));
}

inline short __half_as_short(__half h) { return static_cast<short>(::weft::fp16::bits(h)); }
inline unsigned short __half_as_ushort(__half h) { return ::weft::fp16::bits(h); }
inline __half __short_as_half(short s) {
  return ::weft::fp16::from_bits(static_cast<unsigned short>(s));
}
inline __half __ushort_as_half(unsigned short s) { return ::weft::fp16::from_bits(s); }

// ---- building and taking apart pairs ---------------------------------------------------------

inline __half2 make_half2(__half lo, __half hi) { return __half2(lo, hi); }
inline __half2 __halves2half2(__half lo, __half hi) { return __half2(lo, hi); }
inline __half2 __half2half2(__half h) { return __half2(h, h); }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
inline __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
inline __half2 __lowhigh2highlow(__half2 h) { return __half2(h.y, h.x); }

// ---- arithmetic --------------------------------------------------------------------------------

namespace weft::fp16 {
// _sat: the result clamped to [0, 1]; NaN becomes +0.
inline __half saturate(__half h) {
  const float f = to_float(h);
  if (!(f > 0.0f)) return from_bits(0);
  return f > 1.0f ? from_bits(0x3c00) : h;
}
inline __half fma(__half a, __half b, __half c) {
  // The product of two halves is exact in double; the sum is rounded to odd, then to half.
  return from_double(
      ::weft::fp::sum_round_to_odd(double(to_float(a)) * double(to_float(b)), double(to_float(c))));
}
}  // namespace weft::fp16

inline __half __hadd(__half a, __half b) {
  return ::weft::fp16::from_float(__half2float(a) + __half2float(b));
}
inline __half __hsub(__half a, __half b) {
  return ::weft::fp16::from_float(__half2float(a) - __half2float(b));
}
inline __half __hmul(__half a, __half b) {
  return ::weft::fp16::from_float(__half2float(a) * __half2float(b));
}
inline __half __hdiv(__half a, __half b) {
  return ::weft::fp16::from_float(__half2float(a) / __half2float(b));
}
inline __half __hadd_rn(__half a, __half b) { return __hadd(a, b); }
inline __half __hsub_rn(__half a, __half b) { return __hsub(a, b); }
inline __half __hmul_rn(__half a, __half b) { return __hmul(a, b); }
inline __half __hfma(__half a, __half b, __half c) { return ::weft::fp16::fma(a, b, c); }
// fma in kernels: three halves stay in half (one rounding); an integral (or bool) addend
// promotes the operation to float, as arithmetic mixing __half with an integer does, instead
// of being ambiguous between the float, double and long double overloads.
inline __half fma(__half a, __half b, __half c) { return __hfma(a, b, c); }
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
inline float fma(__half a, __half b, T c) {
  return std::fma(__half2float(a), __half2float(b), static_cast<float>(c));
}
inline __half __hadd_sat(__half a, __half b) { return ::weft::fp16::saturate(__hadd(a, b)); }
inline __half __hsub_sat(__half a, __half b) { return ::weft::fp16::saturate(__hsub(a, b)); }
inline __half __hmul_sat(__half a, __half b) { return ::weft::fp16::saturate(__hmul(a, b)); }
inline __half __hfma_sat(__half a, __half b, __half c) {
  return ::weft::fp16::saturate(__hfma(a, b, c));
}
inline __half __hneg(__half a) {
  return ::weft::fp16::from_bits(static_cast<unsigned short>(::weft::fp16::bits(a) ^ 0x8000u));
}
inline __half __habs(__half a) {
  return ::weft::fp16::from_bits(static_cast<unsigned short>(::weft::fp16::bits(a) & 0x7fffu));
}

// __hmax/__hmin ignore a NaN operand (fmax/fmin); the _nan forms return NaN if either is.
inline __half __hmax(__half a, __half b) {
  if (::weft::fp16::is_nan(a)) return b;
  if (::weft::fp16::is_nan(b)) return a;
  const float fa = __half2float(a), fb = __half2float(b);
  if (fa != fb) return fa > fb ? a : b;
  return (::weft::fp16::bits(a) & 0x8000u) ? b : a;  // +0 is the larger zero
}
inline __half __hmin(__half a, __half b) {
  if (::weft::fp16::is_nan(a)) return b;
  if (::weft::fp16::is_nan(b)) return a;
  const float fa = __half2float(a), fb = __half2float(b);
  if (fa != fb) return fa < fb ? a : b;
  return (::weft::fp16::bits(a) & 0x8000u) ? a : b;  // -0 is the smaller zero
}
inline __half __hmax_nan(__half a, __half b) {
  if (::weft::fp16::is_nan(a)) return a;
  return ::weft::fp16::is_nan(b) ? b : __hmax(a, b);
}
inline __half __hmin_nan(__half a, __half b) {
  if (::weft::fp16::is_nan(a)) return a;
  return ::weft::fp16::is_nan(b) ? b : __hmin(a, b);
}

// ---- comparisons (ordered: false with a NaN; the ...u forms: true with a NaN) ---------------

inline bool __heq(__half a, __half b) { return __half2float(a) == __half2float(b); }
inline bool __hne(__half a, __half b) {
  return __half2float(a) < __half2float(b) || __half2float(a) > __half2float(b);
}
inline bool __hlt(__half a, __half b) { return __half2float(a) < __half2float(b); }
inline bool __hle(__half a, __half b) { return __half2float(a) <= __half2float(b); }
inline bool __hgt(__half a, __half b) { return __half2float(a) > __half2float(b); }
inline bool __hge(__half a, __half b) { return __half2float(a) >= __half2float(b); }
inline bool __hequ(__half a, __half b) { return !__hne(a, b); }
inline bool __hneu(__half a, __half b) { return !__heq(a, b); }
inline bool __hltu(__half a, __half b) { return !__hge(a, b); }
inline bool __hleu(__half a, __half b) { return !__hgt(a, b); }
inline bool __hgtu(__half a, __half b) { return !__hle(a, b); }
inline bool __hgeu(__half a, __half b) { return !__hlt(a, b); }
inline bool __hisnan(__half a) { return ::weft::fp16::is_nan(a); }
inline bool __hisinf(__half a) { return (::weft::fp16::bits(a) & 0x7fffu) == 0x7c00u; }

// ---- packed forms: each lane on its own -------------------------------------------------------

#define WEFT_FP16_LANES2_(name, scalar) \
  inline __half2 name(__half2 a, __half2 b) { return __half2(scalar(a.x, b.x), scalar(a.y, b.y)); }
WEFT_FP16_LANES2_(__hadd2, __hadd)
WEFT_FP16_LANES2_(__hsub2, __hsub)
WEFT_FP16_LANES2_(__hmul2, __hmul)
WEFT_FP16_LANES2_(__h2div, __hdiv)
WEFT_FP16_LANES2_(__hadd2_rn, __hadd)
WEFT_FP16_LANES2_(__hsub2_rn, __hsub)
WEFT_FP16_LANES2_(__hmul2_rn, __hmul)
WEFT_FP16_LANES2_(__hadd2_sat, __hadd_sat)
WEFT_FP16_LANES2_(__hsub2_sat, __hsub_sat)
WEFT_FP16_LANES2_(__hmul2_sat, __hmul_sat)
WEFT_FP16_LANES2_(__hmax2, __hmax)
WEFT_FP16_LANES2_(__hmin2, __hmin)
WEFT_FP16_LANES2_(__hmax2_nan, __hmax_nan)
WEFT_FP16_LANES2_(__hmin2_nan, __hmin_nan)
#undef WEFT_FP16_LANES2_
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
inline __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
inline __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
inline __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }

// Lane-wise relations: __h..2 give 1.0 or 0.0 per lane, __h..2_mask 0xffff or 0 per lane
// (low lane in the low bits), __hb..2 whether the relation holds in both lanes.
#define WEFT_FP16_RELATION2_(rel)                                                         \
  inline __half2 __h##rel##2(__half2 a, __half2 b) {                                      \
    return __half2(::weft::fp16::from_bits(__h##rel(a.x, b.x) ? 0x3c00 : 0),              \
                   ::weft::fp16::from_bits(__h##rel(a.y, b.y) ? 0x3c00 : 0));             \
  }                                                                                       \
  inline unsigned __h##rel##2_mask(__half2 a, __half2 b) {                                \
    return (__h##rel(a.x, b.x) ? 0xffffu : 0u) | (__h##rel(a.y, b.y) ? 0xffff0000u : 0u); \
  }                                                                                       \
  inline bool __hb##rel##2(__half2 a, __half2 b) {                                        \
    return __h##rel(a.x, b.x) && __h##rel(a.y, b.y);                                      \
  }
WEFT_FP16_RELATION2_(eq)
WEFT_FP16_RELATION2_(ne)
WEFT_FP16_RELATION2_(lt)
WEFT_FP16_RELATION2_(le)
WEFT_FP16_RELATION2_(gt)
WEFT_FP16_RELATION2_(ge)
WEFT_FP16_RELATION2_(equ)
WEFT_FP16_RELATION2_(neu)
WEFT_FP16_RELATION2_(ltu)
WEFT_FP16_RELATION2_(leu)
WEFT_FP16_RELATION2_(gtu)
WEFT_FP16_RELATION2_(geu)
#undef WEFT_FP16_RELATION2_
inline __half2 __hisnan2(__half2 a) {
  return __half2(::weft::fp16::from_bits(__hisnan(a.x) ? 0x3c00 : 0),
                 ::weft::fp16::from_bits(__hisnan(a.y) ? 0x3c00 : 0));
}
inline __half2 __hisinf2(__half2 a) {
  return __half2(::weft::fp16::from_bits(__hisinf(a.x) ? 0x3c00 : 0),
                 ::weft::fp16::from_bits(__hisinf(a.y) ? 0x3c00 : 0));
}

// ---- math: computed in double, rounded once -----------------------------------------------------

namespace weft::fp16 {
template <typename F>
inline __half apply(__half h, F f) {
  return from_double(f(double(to_float(h))));
}
}  // namespace weft::fp16

#define WEFT_FP16_MATH_(name, name2, expr)                        \
  inline __half name(__half h) {                                  \
    return ::weft::fp16::apply(h, [](double v) { return expr; }); \
  }                                                               \
  inline __half2 name2(__half2 h) { return __half2(name(h.x), name(h.y)); }
WEFT_FP16_MATH_(hsqrt, h2sqrt, std::sqrt(v))
WEFT_FP16_MATH_(hrsqrt, h2rsqrt, 1.0 / std::sqrt(v))
WEFT_FP16_MATH_(hrcp, h2rcp, 1.0 / v)
WEFT_FP16_MATH_(hexp, h2exp, std::exp(v))
WEFT_FP16_MATH_(hexp2, h2exp2, std::exp2(v))
WEFT_FP16_MATH_(hexp10, h2exp10, std::pow(10.0, v))
WEFT_FP16_MATH_(hlog, h2log, std::log(v))
WEFT_FP16_MATH_(hlog2, h2log2, std::log2(v))
WEFT_FP16_MATH_(hlog10, h2log10, std::log10(v))
WEFT_FP16_MATH_(hsin, h2sin, std::sin(v))
WEFT_FP16_MATH_(hcos, h2cos, std::cos(v))
WEFT_FP16_MATH_(htanh, h2tanh, std::tanh(v))
WEFT_FP16_MATH_(hceil, h2ceil, std::ceil(v))
WEFT_FP16_MATH_(hfloor, h2floor, std::floor(v))
WEFT_FP16_MATH_(htrunc, h2trunc, std::trunc(v))
WEFT_FP16_MATH_(hrint, h2rint, ::weft::fp::rint_even(v))
#undef WEFT_FP16_MATH_
#undef WEFT_FP16_ROUND_

// ---- loads (plain loads: the CPU agent has one cache hierarchy) --------------------------------

inline __half __ldg(const __half* p) { return *p; }
inline __half2 __ldg(const __half2* p) { return *p; }
inline __half __ldcg(const __half* p) { return *p; }
inline __half2 __ldcg(const __half2* p) { return *p; }
inline __half __ldca(const __half* p) { return *p; }
inline __half2 __ldca(const __half2* p) { return *p; }
inline __half __ldcs(const __half* p) { return *p; }
inline __half2 __ldcs(const __half2* p) { return *p; }

// ---- atomics: compare-and-swap loops on the 16- or 32-bit storage ------------------------------

inline __half atomicAdd(__half* address, __half v) {
  return ::weft::fp::atomic_update<__half, unsigned short>(
      address, [v](__half old) { return __hadd(old, v); });
}
inline __half2 atomicAdd(__half2* address, __half2 v) {
  return ::weft::fp::atomic_update<__half2, unsigned int>(
      address, [v](__half2 old) { return __hadd2(old, v); });
}
inline __half2 unsafeAtomicAdd(__half2* address, __half2 v) { return atomicAdd(address, v); }

// ---- limits -------------------------------------------------------------------------------------

namespace std {
template <>
class numeric_limits<__half> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr __half min() noexcept { return __half_raw{0x0400}; }
  static constexpr __half max() noexcept { return __half_raw{0x7bff}; }
  static constexpr __half lowest() noexcept { return __half_raw{0xfbff}; }
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr int radix = 2;
  static constexpr __half epsilon() noexcept { return __half_raw{0x1400}; }
  static constexpr __half round_error() noexcept { return __half_raw{0x3800}; }
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr float_denorm_style has_denorm = denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr __half infinity() noexcept { return __half_raw{0x7c00}; }
  static constexpr __half quiet_NaN() noexcept { return __half_raw{0x7e00}; }
  static constexpr __half signaling_NaN() noexcept { return __half_raw{0x7d00}; }
  static constexpr __half denorm_min() noexcept { return __half_raw{0x0001}; }
  static constexpr bool is_iec559 = true;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;
  static constexpr float_round_style round_style = round_to_nearest;
};
}  // namespace std

#include <hip/weft/device/hd_end.h>

#endif  // WEFT_HIP_FP16_H

// The short names come with an explicit #include <hip/hip_fp16.h> (as with AMD's header),
// not when hip_runtime.h pulls the types in, so programs that only include hip_runtime.h
// keep the names `half` and `half2` to themselves.
#if !defined(WEFT_HIP_FP16_ALIASES) && !defined(HIP_NO_HALF) && \
    !defined(WEFT_HIP_RUNTIME_INCLUDES_FP16)
#define WEFT_HIP_FP16_ALIASES
using half = __half;
using half2 = __half2;

#endif
