// SPDX-License-Identifier: MIT
// HIP's device math API for kernels that the host compiler builds (included by
// single_source.h): integer and bit intrinsics, type punning and conversions,
// arithmetic with a chosen rounding direction, the fast `__expf`-style
// intrinsics, HIP's math functions beyond <cmath> (sincospi, rhypot, norm3d,
// erfinv, normcdfinv, ...) and the global min/max overloads.
//
// The standard functions need nothing here: <math.h> (libstdc++'s wrapper)
// brings std's float/double/integer overloads of sin, sqrt, isnan, fma, ...
// into the global namespace with using-declarations, so `isnan(x)` in a kernel
// finds the same function whether or not the program says `using namespace
// std;`. For the same reason the functions defined here have names that
// neither std nor the C library declares (the fast intrinsics excepted: glibc
// declares __expf & co. as C functions, which these define inline).
//
// Accuracy: functions are computed in a wider type (double for float, long
// double for double) and rounded once, so most are within 1 ulp. Directed
// rounding (`_rz/_ru/_rd`) is exact: the operation runs with the FPU's rounding
// mode switched for its duration.
#ifndef WEFT_HIP_DEVICE_MATH_H
#define WEFT_HIP_DEVICE_MATH_H

// Host and device functions under clang's HIP mode (a no-op for g++).
#include <hip/weft/device/hd_begin.h>
#include <math.h>

#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace weft::detail {

template <typename To, typename From>
constexpr To bit_cast(From value) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs types of one size");
  return __builtin_bit_cast(To, value);
}

// Keeps `value` as computed: the compiler may not fuse a multiply and an add
// across it (an explicitly rounded product stays rounded).
template <typename T>
inline T keep_rounded(T value) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  __asm__("" : "+x"(value));
  return value;
#else
  volatile T kept = value;
  return kept;
#endif
}

// A read the compiler cannot fold or move ahead of a rounding-mode switch.
template <typename T>
inline T opaque(T value) {
  volatile T kept = value;
  return kept;
}

// op(args...) evaluated with the rounding mode `mode`; the caller's mode is
// restored. Headers cannot count on -frounding-math, so operands and result go
// through volatile objects, which pins the operation between the two switches.
template <typename R, typename Op, typename... A>
inline R with_rounding(int mode, Op op, A... args) {
  const int saved = std::fegetround();
  std::fesetround(mode);
  volatile R result = op(opaque(args)...);
  std::fesetround(saved);
  return result;
}

// Round half to even, independent of the current rounding mode.
template <typename F>
inline F round_half_even(F x) {
  const F whole = std::trunc(x);
  if (std::fabs(x - whole) != F(0.5)) return std::round(x);
  return std::fmod(whole, F(2)) == 0 ? whole : whole + std::copysign(F(1), x);
}

// A GPU's float-to-integer conversion: saturates at the integer type's limits,
// NaN gives 0 (a plain cast would be undefined behaviour out of range).
template <typename I, typename F>
inline I saturating_int(F integral) {
  if (integral != integral) return 0;
  using U = std::make_unsigned_t<I>;
  // Both bounds are powers of two (or 0), so exact in F: [low, high) converts.
  constexpr F low = static_cast<F>(std::numeric_limits<I>::min());
  constexpr F high =
      std::is_signed_v<I> ? -low : F(2) * static_cast<F>(U(1) << (sizeof(I) * 8 - 1));
  if (integral < low) return std::numeric_limits<I>::min();
  if (integral >= high) return std::numeric_limits<I>::max();
  return static_cast<I>(integral);
}

__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

// Bessel I0 and I1 by their power series, summed in long double: every term is
// positive, so the sum keeps long double's precision up to where double overflows.
inline long double bessel_i(int order, long double x) {
  const long double ax = x < 0 ? -x : x;
  if (ax > 800)
    return std::numeric_limits<long double>::infinity() * (order == 1 && x < 0 ? -1 : 1);
  const long double q = ax * ax / 4;
  long double term = order == 0 ? 1.0L : ax / 2;
  long double sum = term;
  for (int k = 1; k < 2000 && term > sum * 1e-21L; ++k) {
    term *= q / (static_cast<long double>(k) * (k + order));
    sum += term;
  }
  return order == 1 && x < 0 ? -sum : sum;
}

// erfc^-1(q) for q in (0, 2): an estimate from the inverse of a simple
// erf approximation (about 3 significant digits), refined by Halley steps on
// erfc(y) - q, which is accurate relative to q even deep in the tail.
inline long double erfc_inverse(long double q) {
  if (q > 1) return -erfc_inverse(2 - q);
  const long double log_term = std::log(q * (2 - q));  // log(1 - x^2) with x = 1 - q
  constexpr long double a = 0.147L;
  constexpr long double pi = 3.141592653589793238462643383279502884L;
  const long double first = 2 / (pi * a) + log_term / 2;
  long double y = std::sqrt(std::sqrt(first * first - log_term / a) - first);
  const long double two_over_sqrt_pi = 1.128379167095512573896158903121545172L;
  for (int step = 0; step < 6; ++step) {
    const long double slope = -two_over_sqrt_pi * std::exp(-y * y);
    const long double t = (std::erfc(y) - q) / slope;
    const long double next = y - t / (1 + y * t);
    if (next == y) break;
    y = next;
  }
  return y;
}

// erf^-1(x) for |x| < 1. Near ±1 it solves through erfc, where 1 - |x| is exact.
inline long double erf_inverse(long double x) {
  const long double ax = x < 0 ? -x : x;
  if (ax > 0.5L) {
    const long double y = erfc_inverse(1 - ax);
    return x < 0 ? -y : y;
  }
  if (x == 0) return x;  // keeps the sign of zero
  const long double two_over_sqrt_pi = 1.128379167095512573896158903121545172L;
  long double y = x / two_over_sqrt_pi;  // erf(y) ≈ 2y/√π near 0
  for (int step = 0; step < 8; ++step) {
    const long double slope = two_over_sqrt_pi * std::exp(-y * y);
    const long double t = (std::erf(y) - x) / slope;
    const long double next = y - t / (1 + y * t);
    if (next == y) break;
    y = next;
  }
  return y;
}

// exp(x^2) * erfc(x). Beyond 50 the asymptotic series 1/(x√π) Σ (-1)^k (2k-1)!!/(2x²)^k;
// below, x² is split exactly (hi + lo) so exp(x²) keeps its precision.
inline long double scaled_erfc(long double x) {
  const long double inv_sqrt_pi = 0.564189583547756286948079451560772586L;
  if (x > 50) {
    const long double w = 1 / (2 * x * x);
    long double term = 1, sum = 1;
    for (int k = 1; k < 10; ++k) {
      term *= -(2 * k - 1) * w;
      sum += term;
    }
    return inv_sqrt_pi / x * sum;
  }
  if (x < -110) return std::numeric_limits<long double>::infinity();
  const long double hi = x * x;
  const long double lo = std::fma(x, x, -hi);
  return std::exp(hi) * std::exp(lo) * std::erfc(x);
}

// sin(πx) and cos(πx): x is reduced exactly to f in [-1/4, 1/4] plus k quarter
// turns, so integers and half-integers give exact zeros and ones.
template <typename F>
inline void sin_cos_pi(F x, F* sine, F* cosine) {
  if (!std::isfinite(x)) {
    *sine = *cosine = x - x;  // NaN
    return;
  }
  const F r = std::fmod(x, F(2));      // exact, in (-2, 2)
  const F k = round_half_even(r * 2);  // quarter turns, -4..4
  const F f = r - k / 2;               // exact
  constexpr long double pi = 3.141592653589793238462643383279502884L;
  const long double s = std::sin(pi * f), c = std::cos(pi * f);
  long double out_s, out_c;
  switch ((static_cast<int>(k) % 4 + 4) % 4) {
    case 0:
      out_s = s;
      out_c = c;
      break;
    case 1:
      out_s = c;
      out_c = -s;
      break;
    case 2:
      out_s = -s;
      out_c = -c;
      break;
    default:
      out_s = -c;
      out_c = s;
      break;
  }
  // As C23's sinpi/cospi: sin(πn) is a zero of x's sign, cos(π(n+½)) is +0.
  *sine = out_s == 0 ? std::copysign(F(0), x) : static_cast<F>(out_s);
  *cosine = out_c == 0 ? F(0) : static_cast<F>(out_c);
}

// Euclidean length of n values (hypot semantics: an infinity wins over NaN).
template <typename F>
inline long double length(int n, const F* v) {
  long double sum = 0;
  bool infinite = false;
  for (int i = 0; i < n; ++i) {
    infinite |= std::isinf(v[i]);
    sum += static_cast<long double>(v[i]) * v[i];
  }
  return infinite ? std::numeric_limits<long double>::infinity() : std::sqrt(sum);
}

}  // namespace weft::detail

// ---- type punning ----

inline int __float_as_int(float x) { return ::weft::detail::bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) { return ::weft::detail::bit_cast<unsigned>(x); }
inline float __int_as_float(int x) { return ::weft::detail::bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) { return ::weft::detail::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return ::weft::detail::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return ::weft::detail::bit_cast<double>(x); }
inline int __double2hiint(double x) {
  return static_cast<int>(static_cast<uint32_t>(::weft::detail::bit_cast<uint64_t>(x) >> 32));
}
inline int __double2loint(double x) {
  return static_cast<int>(static_cast<uint32_t>(::weft::detail::bit_cast<uint64_t>(x)));
}
inline double __hiloint2double(int hi, int lo) {
  return ::weft::detail::bit_cast<double>((static_cast<uint64_t>(static_cast<uint32_t>(hi)) << 32) |
                                          static_cast<uint32_t>(lo));
}

// ---- integer and bit intrinsics ----

inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}
// Index of the lowest set bit, or ~0u for 0 (AMD's __lastbit_u32_*).
inline unsigned __lastbit_u32_u32(unsigned x) {
  return x == 0 ? ~0u : static_cast<unsigned>(__builtin_ctz(x));
}
inline unsigned __lastbit_u32_u64(unsigned long long x) {
  return x == 0 ? ~0u : static_cast<unsigned>(__builtin_ctzll(x));
}
// Bits [offset, offset+width) of src, offset and width taken modulo the type's width.
inline unsigned __bitextract_u32(unsigned src, unsigned offset, unsigned width) {
  offset &= 31;
  width &= 31;
  return width == 0 ? 0u : (src >> offset) & ((1u << width) - 1);
}
inline uint64_t __bitextract_u64(uint64_t src, unsigned offset, unsigned width) {
  offset &= 63;
  width &= 63;
  return width == 0 ? 0u : (src >> offset) & ((uint64_t(1) << width) - 1);
}
inline unsigned __bitinsert_u32(unsigned base, unsigned insert, unsigned offset, unsigned width) {
  offset &= 31;
  width &= 31;
  const unsigned mask = ((1u << width) - 1) << offset;
  return (base & ~mask) | ((insert << offset) & mask);
}
inline uint64_t __bitinsert_u64(uint64_t base, uint64_t insert, unsigned offset, unsigned width) {
  offset &= 63;
  width &= 63;
  const uint64_t mask = ((uint64_t(1) << width) - 1) << offset;
  return (base & ~mask) | ((insert << offset) & mask);
}
// The bit position of the offset-th set bit of mask counting up from base
// (offset > 0), down from base (offset < 0), or base itself if set (offset 0);
// -1 if there is none.
inline int __fns64(unsigned long long mask, unsigned base, int offset) {
  base &= 63;
  if (offset == 0) return (mask >> base & 1) ? static_cast<int>(base) : -1;
  if (offset > 0) {
    for (int bit = static_cast<int>(base); bit < 64; ++bit)
      if ((mask >> bit & 1) && --offset == 0) return bit;
  } else {
    for (int bit = static_cast<int>(base); bit >= 0; --bit)
      if ((mask >> bit & 1) && ++offset == 0) return bit;
  }
  return -1;
}
inline int __fns32(unsigned long long mask, unsigned base, int offset) {
  return __fns64(mask, base, offset);
}
inline int __fns(unsigned mask, unsigned base, int offset) {
  return __fns64(mask, base & 31, offset);
}
// The high 32 bits of hi:lo shifted left (the low 32 of it shifted right) by
// shift mod 32, or by min(shift, 32) for the clamped _lc/_rc forms.
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  const uint64_t both = (uint64_t(hi) << 32) | lo;
  return static_cast<unsigned>((both << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  const uint64_t both = (uint64_t(hi) << 32) | lo;
  return static_cast<unsigned>((both << (shift < 32 ? shift : 32)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  const uint64_t both = (uint64_t(hi) << 32) | lo;
  return static_cast<unsigned>(both >> (shift & 31));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  const uint64_t both = (uint64_t(hi) << 32) | lo;
  return static_cast<unsigned>(both >> (shift < 32 ? shift : 32));
}
// Halving adds without intermediate overflow; the r forms round up.
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1);
}
inline unsigned __uhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned __urhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
// |x - y| + z (modulo 2^32, as the hardware adds).
inline unsigned __sad(int x, int y, unsigned z) {
  const long long diff = static_cast<long long>(x) - y;
  return static_cast<unsigned>(diff < 0 ? -diff : diff) + z;
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
// Products of the low 24 bits (sign-extended for __mul24).
inline int __mul24(int a, int b) {
  const auto low24 = [](int v) { return static_cast<int>(static_cast<unsigned>(v) << 8) >> 8; };
  return static_cast<int>(static_cast<long long>(low24(a)) * low24(b));
}
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffff) * (b & 0xffffff); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline long long __mul64hi(long long a, long long b) {
  return static_cast<long long>((static_cast<::weft::detail::int128>(a) * b) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<::weft::detail::uint128>(a) * b) >> 64);
}
// Byte i of the result is byte (s >> 4i) & 7 of the 8-byte value y:x.
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const uint64_t v = (static_cast<uint64_t>(y) << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i)
    r |= static_cast<unsigned>((v >> (((s >> (4 * i)) & 7) * 8)) & 0xff) << (8 * i);
  return r;
}

// ---- conversions: _rn nearest even, _rz toward zero, _ru up, _rd down ----
// Float to integer saturates and maps NaN to 0, as the GPU's conversions do.

#define WEFT_FLOAT_TO_INT(from, to, F, I)                                                         \
  inline I __##from##2##to##_rn(F x) {                                                            \
    return ::weft::detail::saturating_int<I>(::weft::detail::round_half_even(x));                 \
  }                                                                                               \
  inline I __##from##2##to##_rz(F x) { return ::weft::detail::saturating_int<I>(std::trunc(x)); } \
  inline I __##from##2##to##_ru(F x) { return ::weft::detail::saturating_int<I>(std::ceil(x)); }  \
  inline I __##from##2##to##_rd(F x) { return ::weft::detail::saturating_int<I>(std::floor(x)); }
WEFT_FLOAT_TO_INT(float, int, float, int)
WEFT_FLOAT_TO_INT(float, uint, float, unsigned)
WEFT_FLOAT_TO_INT(float, ll, float, long long)
WEFT_FLOAT_TO_INT(float, ull, float, unsigned long long)
WEFT_FLOAT_TO_INT(double, int, double, int)
WEFT_FLOAT_TO_INT(double, uint, double, unsigned)
WEFT_FLOAT_TO_INT(double, ll, double, long long)
WEFT_FLOAT_TO_INT(double, ull, double, unsigned long long)
#undef WEFT_FLOAT_TO_INT
#if !defined(WEFT_DEVICE_ROUNDING)  // a GPU pass's layer defines the rest (device/README.md)
// Conversions that may round, in each direction.
#define WEFT_ROUNDED_CONVERSION(name, From, To)                       \
  inline To name##_rn(From x) {                                       \
    return ::weft::detail::with_rounding<To>(                         \
        FE_TONEAREST, [](From v) { return static_cast<To>(v); }, x);  \
  }                                                                   \
  inline To name##_rz(From x) {                                       \
    return ::weft::detail::with_rounding<To>(                         \
        FE_TOWARDZERO, [](From v) { return static_cast<To>(v); }, x); \
  }                                                                   \
  inline To name##_ru(From x) {                                       \
    return ::weft::detail::with_rounding<To>(                         \
        FE_UPWARD, [](From v) { return static_cast<To>(v); }, x);     \
  }                                                                   \
  inline To name##_rd(From x) {                                       \
    return ::weft::detail::with_rounding<To>(                         \
        FE_DOWNWARD, [](From v) { return static_cast<To>(v); }, x);   \
  }
WEFT_ROUNDED_CONVERSION(__int2float, int, float)
WEFT_ROUNDED_CONVERSION(__uint2float, unsigned, float)
WEFT_ROUNDED_CONVERSION(__ll2float, long long, float)
WEFT_ROUNDED_CONVERSION(__ull2float, unsigned long long, float)
WEFT_ROUNDED_CONVERSION(__ll2double, long long, double)
WEFT_ROUNDED_CONVERSION(__ull2double, unsigned long long, double)
WEFT_ROUNDED_CONVERSION(__double2float, double, float)
#undef WEFT_ROUNDED_CONVERSION
#endif  // Exact conversions, on every target:
inline double __int2double_rn(int x) { return x; }
inline double __uint2double_rn(unsigned x) { return x; }
#if !defined(WEFT_DEVICE_ROUNDING)  // as the rounded conversions
// ---- arithmetic with a rounding direction ----
// _rn is the default mode's arithmetic, kept from fusing with its neighbours;
// the directed forms switch the FPU's mode around the one operation.

namespace weft::detail {
struct Add {
  template <typename T>
  T operator()(T a, T b) const {
    return a + b;
  }
};
struct Sub {
  template <typename T>
  T operator()(T a, T b) const {
    return a - b;
  }
};
struct Mul {
  template <typename T>
  T operator()(T a, T b) const {
    return a * b;
  }
};
struct Div {
  template <typename T>
  T operator()(T a, T b) const {
    return a / b;
  }
};
struct Rcp {
  template <typename T>
  T operator()(T a) const {
    return T(1) / a;
  }
};
struct Sqrt {
  template <typename T>
  T operator()(T a) const {
    return std::sqrt(a);
  }
};
struct Fma {
  template <typename T>
  T operator()(T a, T b, T c) const {
    return std::fma(a, b, c);
  }
};
}  // namespace weft::detail

#define WEFT_ROUNDED_OP(name, T, Op, params, args)                                      \
  inline T name##_rn params {                                                           \
    return ::weft::detail::keep_rounded<T>(::weft::detail::Op{}(args));                 \
  }                                                                                     \
  inline T name##_rz params {                                                           \
    return ::weft::detail::with_rounding<T>(FE_TOWARDZERO, ::weft::detail::Op{}, args); \
  }                                                                                     \
  inline T name##_ru params {                                                           \
    return ::weft::detail::with_rounding<T>(FE_UPWARD, ::weft::detail::Op{}, args);     \
  }                                                                                     \
  inline T name##_rd params {                                                           \
    return ::weft::detail::with_rounding<T>(FE_DOWNWARD, ::weft::detail::Op{}, args);   \
  }
#define WEFT_COMMA ,
WEFT_ROUNDED_OP(__fadd, float, Add, (float a, float b), a WEFT_COMMA b)
WEFT_ROUNDED_OP(__fsub, float, Sub, (float a, float b), a WEFT_COMMA b)
WEFT_ROUNDED_OP(__fmul, float, Mul, (float a, float b), a WEFT_COMMA b)
WEFT_ROUNDED_OP(__fdiv, float, Div, (float a, float b), a WEFT_COMMA b)
WEFT_ROUNDED_OP(__frcp, float, Rcp, (float a), a)
WEFT_ROUNDED_OP(__fsqrt, float, Sqrt, (float a), a)
WEFT_ROUNDED_OP(__fmaf, float, Fma, (float a, float b, float c), a WEFT_COMMA b WEFT_COMMA c)
WEFT_ROUNDED_OP(__dadd, double, Add, (double a, double b), a WEFT_COMMA b)
WEFT_ROUNDED_OP(__dsub, double, Sub, (double a, double b), a WEFT_COMMA b)
WEFT_ROUNDED_OP(__dmul, double, Mul, (double a, double b), a WEFT_COMMA b)
WEFT_ROUNDED_OP(__ddiv, double, Div, (double a, double b), a WEFT_COMMA b)
WEFT_ROUNDED_OP(__drcp, double, Rcp, (double a), a)
WEFT_ROUNDED_OP(__dsqrt, double, Sqrt, (double a), a)
WEFT_ROUNDED_OP(__fma, double, Fma, (double a, double b, double c), a WEFT_COMMA b WEFT_COMMA c)
#undef WEFT_COMMA
#undef WEFT_ROUNDED_OP
inline float __frsqrt_rn(float x) {
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
}
#endif  // WEFT_DEVICE_ROUNDING
#if defined(WEFT_DEVICE_LIBM_EXTRAS)
// ---- GPU passes: the vendor's functions as the target layer's __weft_fast_*/__weft_libm_* ----
inline float __expf(float x) { return __weft_fast_expf(x); }
inline float __exp10f(float x) { return __weft_fast_exp10f(x); }
inline float __logf(float x) { return __weft_fast_logf(x); }
inline float __log2f(float x) { return __weft_fast_log2f(x); }
inline float __log10f(float x) { return __weft_fast_log10f(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __sinf(float x) { return __weft_fast_sinf(x); }
inline float __cosf(float x) { return __weft_fast_cosf(x); }
inline float __tanf(float x) { return __weft_fast_tanf(x); }
inline void __sincosf(float x, float* s, float* c) {
  *s = __weft_fast_sinf(x);
  *c = __weft_fast_cosf(x);
}
inline float __fdividef(float x, float y) { return x / y; }
inline float __saturatef(float x) { return x >= 0.0f ? (x <= 1.0f ? x : 1.0f) : 0.0f; }
inline float fdividef(float x, float y) { return x / y; }
inline double fdivide(double x, double y) { return x / y; }
inline void sincospi(double x, double* s, double* c) { __weft_libm_sincospi(x, s, c); }
inline void sincospif(float x, float* s, float* c) { __weft_libm_sincospif(x, s, c); }
inline double sinpi(double x) { return __weft_libm_sinpi(x); }
inline double cospi(double x) { return __weft_libm_cospi(x); }
inline float sinpif(float x) { return __weft_libm_sinpif(x); }
inline float cospif(float x) { return __weft_libm_cospif(x); }
inline double rsqrt(double x) { return __weft_libm_rsqrt(x); }
inline float rsqrtf(float x) { return __weft_libm_rsqrtf(x); }
inline double rcbrt(double x) { return __weft_libm_rcbrt(x); }
inline float rcbrtf(float x) { return __weft_libm_rcbrtf(x); }
inline double rhypot(double x, double y) { return __weft_libm_rhypot(x, y); }
inline float rhypotf(float x, float y) { return __weft_libm_rhypotf(x, y); }
inline double norm3d(double a, double b, double c) { return __weft_libm_norm3d(a, b, c); }
inline float norm3df(float a, float b, float c) { return __weft_libm_norm3df(a, b, c); }
inline double rnorm3d(double a, double b, double c) { return __weft_libm_rnorm3d(a, b, c); }
inline float rnorm3df(float a, float b, float c) { return __weft_libm_rnorm3df(a, b, c); }
namespace weft::detail {
// sqrt(v_0^2 + ... + v_{n-1}^2) or its inverse, without overflow or underflow: floats summed in
// double (it holds any float's square), doubles scaled exactly by 2^-ilogb(largest) first.
template <typename F>
inline F gpu_length(int n, const F* v, bool inverse) {
  double largest = 0;
  for (int i = 0; i < n; ++i) largest = fmax(largest, fabs(static_cast<double>(v[i])));
  if (largest == 0 || !(largest < HUGE_VAL)) return inverse ? F(1) / F(largest) : F(largest);
  const int shift = sizeof(F) == 4 ? 0 : ilogb(largest);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum = fma(scalbn(static_cast<double>(v[i]), -shift), scalbn(double(v[i]), -shift), sum);
  return static_cast<F>(inverse ? scalbn(rsqrt(sum), -shift) : scalbn(sqrt(sum), shift));
}
}  // namespace weft::detail
inline double norm4d(double a, double b, double c, double d) {
  const double v[] = {a, b, c, d};
  return ::weft::detail::gpu_length(4, v, false);
}
inline float norm4df(float a, float b, float c, float d) {
  const float v[] = {a, b, c, d};
  return ::weft::detail::gpu_length(4, v, false);
}
inline double rnorm4d(double a, double b, double c, double d) {
  const double v[] = {a, b, c, d};
  return ::weft::detail::gpu_length(4, v, true);
}
inline float rnorm4df(float a, float b, float c, float d) {
  const float v[] = {a, b, c, d};
  return ::weft::detail::gpu_length(4, v, true);
}
inline double norm(int dim, const double* a) { return ::weft::detail::gpu_length(dim, a, false); }
inline float normf(int dim, const float* a) { return ::weft::detail::gpu_length(dim, a, false); }
inline double rnorm(int dim, const double* a) { return ::weft::detail::gpu_length(dim, a, true); }
inline float rnormf(int dim, const float* a) { return ::weft::detail::gpu_length(dim, a, true); }
inline double erfinv(double x) { return __weft_libm_erfinv(x); }
inline float erfinvf(float x) { return __weft_libm_erfinvf(x); }
inline double erfcinv(double q) { return __weft_libm_erfcinv(q); }
inline float erfcinvf(float q) { return __weft_libm_erfcinvf(q); }
inline double erfcx(double x) { return __weft_libm_erfcx(x); }
inline float erfcxf(float x) { return __weft_libm_erfcxf(x); }
inline double normcdf(double x) { return __weft_libm_normcdf(x); }
inline float normcdff(float x) { return __weft_libm_normcdff(x); }
inline double normcdfinv(double p) { return __weft_libm_normcdfinv(p); }
inline float normcdfinvf(float p) { return __weft_libm_normcdfinvf(p); }
inline double cyl_bessel_i0(double x) { return __weft_libm_cyl_bessel_i0(x); }
inline float cyl_bessel_i0f(float x) { return __weft_libm_cyl_bessel_i0f(x); }
inline double cyl_bessel_i1(double x) { return __weft_libm_cyl_bessel_i1(x); }
inline float cyl_bessel_i1f(float x) { return __weft_libm_cyl_bessel_i1f(x); }
inline double powi(double x, int n) { return __weft_libm_powi(x, n); }
inline float powif(float x, int n) { return __weft_libm_powif(x, n); }
#else  // the host's libm (g++ path, CPU image)

// ---- fast intrinsics (here as accurate as the full functions) ----
// glibc declares __expf & co. itself (its internal aliases); these inline
// definitions of the same C functions serve kernels.

inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) {
  return static_cast<float>(std::pow(10.0, static_cast<double>(x)));
}
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
inline float __fdividef(float x, float y) { return x / y; }
// Clamps to [0, 1]; NaN gives 0.
inline float __saturatef(float x) { return x >= 0.0f ? (x <= 1.0f ? x : 1.0f) : 0.0f; }

// ---- HIP's math functions beyond <cmath> ----

// Newer C libraries declare some of HIP's names themselves (C23: sinpi and
// cospi from glibc 2.41, rsqrt from 2.42); theirs are used then.
#define WEFT_LIBC_HAS_SINPI 0
#define WEFT_LIBC_HAS_RSQRT 0
#if defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#if __GLIBC_PREREQ(2, 41)
#undef WEFT_LIBC_HAS_SINPI
#define WEFT_LIBC_HAS_SINPI 1
#endif
#if __GLIBC_PREREQ(2, 42)
#undef WEFT_LIBC_HAS_RSQRT
#define WEFT_LIBC_HAS_RSQRT 1
#endif
#endif

inline float fdividef(float x, float y) { return x / y; }
inline double fdivide(double x, double y) { return x / y; }
#ifndef __USE_GNU  // glibc declares these GNU extensions itself
inline double exp10(double x) { return std::pow(10.0, x); }
inline float exp10f(float x) { return static_cast<float>(std::pow(10.0, static_cast<double>(x))); }
inline void sincos(double x, double* s, double* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
inline void sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
#endif

inline void sincospi(double x, double* s, double* c) { ::weft::detail::sin_cos_pi(x, s, c); }
inline void sincospif(float x, float* s, float* c) {
  double sd, cd;
  ::weft::detail::sin_cos_pi(static_cast<double>(x), &sd, &cd);
  *s = static_cast<float>(sd);
  *c = static_cast<float>(cd);
}
#if !WEFT_LIBC_HAS_SINPI
inline double sinpi(double x) {
  double s, c;
  sincospi(x, &s, &c);
  return s;
}
inline double cospi(double x) {
  double s, c;
  sincospi(x, &s, &c);
  return c;
}
inline float sinpif(float x) {
  float s, c;
  sincospif(x, &s, &c);
  return s;
}
inline float cospif(float x) {
  float s, c;
  sincospif(x, &s, &c);
  return c;
}
#endif
#if !WEFT_LIBC_HAS_RSQRT
inline double rsqrt(double x) {
  return static_cast<double>(1.0L / std::sqrt(static_cast<long double>(x)));
}
#endif
inline float rsqrtf(float x) { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x))); }
inline double rcbrt(double x) {
  return static_cast<double>(1.0L / std::cbrt(static_cast<long double>(x)));
}
inline float rcbrtf(float x) { return static_cast<float>(1.0 / std::cbrt(static_cast<double>(x))); }

inline double rhypot(double x, double y) {
  return static_cast<double>(1.0L /
                             std::hypot(static_cast<long double>(x), static_cast<long double>(y)));
}
inline float rhypotf(float x, float y) {
  return static_cast<float>(1.0 / std::hypot(static_cast<double>(x), static_cast<double>(y)));
}
inline double norm3d(double a, double b, double c) {
  const double v[] = {a, b, c};
  return static_cast<double>(::weft::detail::length(3, v));
}
inline float norm3df(float a, float b, float c) {
  const float v[] = {a, b, c};
  return static_cast<float>(::weft::detail::length(3, v));
}
inline double norm4d(double a, double b, double c, double d) {
  const double v[] = {a, b, c, d};
  return static_cast<double>(::weft::detail::length(4, v));
}
inline float norm4df(float a, float b, float c, float d) {
  const float v[] = {a, b, c, d};
  return static_cast<float>(::weft::detail::length(4, v));
}
inline double rnorm3d(double a, double b, double c) {
  const double v[] = {a, b, c};
  return static_cast<double>(1.0L / ::weft::detail::length(3, v));
}
inline float rnorm3df(float a, float b, float c) {
  const float v[] = {a, b, c};
  return static_cast<float>(1.0L / ::weft::detail::length(3, v));
}
inline double rnorm4d(double a, double b, double c, double d) {
  const double v[] = {a, b, c, d};
  return static_cast<double>(1.0L / ::weft::detail::length(4, v));
}
inline float rnorm4df(float a, float b, float c, float d) {
  const float v[] = {a, b, c, d};
  return static_cast<float>(1.0L / ::weft::detail::length(4, v));
}
// The length of the dim-element vector a.
inline double norm(int dim, const double* a) {
  return static_cast<double>(::weft::detail::length(dim, a));
}
inline float normf(int dim, const float* a) {
  return static_cast<float>(::weft::detail::length(dim, a));
}
inline double rnorm(int dim, const double* a) {
  return static_cast<double>(1.0L / ::weft::detail::length(dim, a));
}
inline float rnormf(int dim, const float* a) {
  return static_cast<float>(1.0L / ::weft::detail::length(dim, a));
}

inline double erfinv(double x) {
  if (!(x > -1 && x < 1)) return x == 1 || x == -1 ? std::copysign(HUGE_VAL, x) : std::nan("");
  return static_cast<double>(::weft::detail::erf_inverse(x));
}
inline float erfinvf(float x) { return static_cast<float>(erfinv(x)); }
inline double erfcinv(double q) {
  if (!(q > 0 && q < 2)) return q == 0 ? HUGE_VAL : q == 2 ? -HUGE_VAL : std::nan("");
  return static_cast<double>(::weft::detail::erfc_inverse(q));
}
inline float erfcinvf(float q) { return static_cast<float>(erfcinv(q)); }
inline double erfcx(double x) {
  if (std::isnan(x)) return x;
  return static_cast<double>(::weft::detail::scaled_erfc(x));
}
inline float erfcxf(float x) { return static_cast<float>(erfcx(x)); }
// Φ(x) = erfc(-x/√2)/2 and its inverse Φ^-1(p) = -√2 erfc^-1(2p).
inline double normcdf(double x) {
  const long double inv_sqrt2 = 0.707106781186547524400844362104849039L;
  return static_cast<double>(std::erfc(-x * inv_sqrt2) / 2);
}
inline float normcdff(float x) { return static_cast<float>(normcdf(x)); }
inline double normcdfinv(double p) {
  if (!(p > 0 && p < 1)) return p == 0 ? -HUGE_VAL : p == 1 ? HUGE_VAL : std::nan("");
  const long double sqrt2 = 1.414213562373095048801688724209698079L;
  return static_cast<double>(-sqrt2 * ::weft::detail::erfc_inverse(2.0L * p));
}
inline float normcdfinvf(float p) { return static_cast<float>(normcdfinv(p)); }
inline double cyl_bessel_i0(double x) {
  return static_cast<double>(::weft::detail::bessel_i(0, x));
}
inline float cyl_bessel_i0f(float x) { return static_cast<float>(::weft::detail::bessel_i(0, x)); }
inline double cyl_bessel_i1(double x) {
  return static_cast<double>(::weft::detail::bessel_i(1, x));
}
inline float cyl_bessel_i1f(float x) { return static_cast<float>(::weft::detail::bessel_i(1, x)); }
// x to an integer power.
inline double powi(double x, int n) { return std::pow(x, static_cast<double>(n)); }
inline float powif(float x, int n) {
  return static_cast<float>(std::pow(static_cast<double>(x), n));
}

#endif  // WEFT_DEVICE_LIBM_EXTRAS

// ---- global min/max, as HIP device code has them ----

inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline long min(long a, long b) { return a < b ? a : b; }
inline long max(long a, long b) { return a > b ? a : b; }
inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }

#include <hip/weft/device/hd_end.h>

#endif  // WEFT_HIP_DEVICE_MATH_H
