// SPDX-License-Identifier: MIT
// Rounding of real values into weft's narrow floating-point storage formats (binary16,
// bfloat16, the OCP and FNUZ fp8 formats). The CPU agent computes half-precision
// arithmetic in float or double and rounds the result once with these helpers, so every
// conversion is bit-exact: correctly rounded in the requested mode, subnormals kept,
// overflow to infinity or the largest finite value as the mode says, NaN payloads kept.
//
// One algorithm serves every format: a finite nonzero value sig * 2^exp (sig an integer)
// is rounded to frac_bits fraction bits with the exponent bounded below by the format's
// smallest normal exponent (which produces subnormals) and unbounded above; the result is
// the format's magnitude code. Codes above the largest finite code mean overflow, which
// each format resolves its own way.
#ifndef WEFT_FP_ROUND_H
#define WEFT_FP_ROUND_H

// Host and device functions under clang's HIP mode (a no-op for g++).
#include <hip/weft/device/hd_begin.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace weft::fp {

enum class Round { nearest_even, toward_zero, down, up };

struct Format {
  int frac_bits;      // stored fraction bits
  int min_exp;        // unbiased exponent of the smallest normal number
  uint32_t max_code;  // magnitude code (bits without the sign) of the largest finite number
};

inline constexpr Format binary16{10, -14, 0x7bff};
inline constexpr Format bfloat16{7, -126, 0x7f7f};

template <typename To, typename From>
inline To bits_as(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bits_as needs types of one size");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

constexpr int bit_length(uint64_t v) { return v == 0 ? 0 : 64 - __builtin_clzll(v); }

// Rounds the magnitude sig * 2^exp (sig != 0) of a value of the given sign; see the file
// comment. The code packs (quantum exponent - smallest quantum exponent) above the kept
// significand, so a carry out of the significand moves into the exponent field by itself.
constexpr uint64_t round_magnitude(uint64_t sig, int exp, bool negative, Format fmt, Round mode) {
  const int min_quantum = fmt.min_exp - fmt.frac_bits;
  const int top = exp + bit_length(sig) - 1;
  const int quantum = top >= fmt.min_exp ? top - fmt.frac_bits : min_quantum;
  const int shift = quantum - exp;
  uint64_t kept = 0;
  bool inexact = false, above_half = false, at_half = false;
  if (shift <= 0) {
    kept = sig << -shift;
  } else if (shift >= 64) {
    inexact = true;
    above_half = shift == 64 && sig > (uint64_t{1} << 63);
    at_half = shift == 64 && sig == (uint64_t{1} << 63);
  } else {
    kept = sig >> shift;
    const uint64_t rest = sig & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    inexact = rest != 0;
    above_half = rest > half;
    at_half = rest == half;
  }
  bool increment = false;
  switch (mode) {
    case Round::nearest_even: increment = above_half || (at_half && (kept & 1)); break;
    case Round::toward_zero: break;
    case Round::down: increment = inexact && negative; break;
    case Round::up: increment = inexact && !negative; break;
  }
  return (uint64_t(quantum - min_quantum) << fmt.frac_bits) + kept + (increment ? 1 : 0);
}

// Overflow in an IEEE format with infinities (infinity's code is max_code + 1): round to
// nearest and rounding away from zero give infinity, the others the largest finite value.
constexpr uint32_t ieee_overflow(Format fmt, bool negative, Round mode) {
  const bool to_infinity = mode == Round::nearest_even || (mode == Round::up && !negative) ||
                           (mode == Round::down && negative);
  return to_infinity ? fmt.max_code + 1 : fmt.max_code;
}

// The parts of a float or double: sign, and for a finite nonzero value sig * 2^exp.
struct Decoded {
  bool negative;
  bool is_zero;
  bool is_inf;
  bool is_nan;
  uint64_t sig;  // for NaN: the fraction field (the payload)
  int exp;
};

inline Decoded decode(float f) {
  const uint32_t u = bits_as<uint32_t>(f);
  const uint32_t e = (u >> 23) & 0xff, m = u & 0x7fffff;
  Decoded d{(u >> 31) != 0, e == 0 && m == 0, e == 0xff && m == 0, e == 0xff && m != 0, m, 0};
  if (e != 0xff && !d.is_zero) {
    d.sig = e != 0 ? (m | 0x800000u) : m;
    d.exp = (e != 0 ? int(e) : 1) - 150;
  }
  return d;
}

inline Decoded decode(double v) {
  const uint64_t u = bits_as<uint64_t>(v);
  const uint64_t e = (u >> 52) & 0x7ff, m = u & 0xfffffffffffffull;
  Decoded d{(u >> 63) != 0, e == 0 && m == 0, e == 0x7ff && m == 0, e == 0x7ff && m != 0, m, 0};
  if (e != 0x7ff && !d.is_zero) {
    d.sig = e != 0 ? (m | 0x10000000000000ull) : m;
    d.exp = (e != 0 ? int(e) : 1) - 1075;
  }
  return d;
}

// Rounds a decoded value into a 16-bit IEEE format with infinities (binary16, bfloat16)
// and returns its bits. NaN keeps its sign and the payload's top bits; when those are all
// zero the quiet bit is set, so a NaN never turns into an infinity.
inline uint16_t round_ieee16(const Decoded& d, int source_frac_bits, Format fmt, Round mode) {
  const uint32_t sign_bit = d.negative ? 0x8000u : 0u;
  const uint32_t inf = fmt.max_code + 1;
  if (d.is_zero) return uint16_t(sign_bit);
  if (d.is_inf) return uint16_t(sign_bit | inf);
  if (d.is_nan) {
    const uint32_t payload = uint32_t(d.sig >> (source_frac_bits - fmt.frac_bits));
    return uint16_t(sign_bit | inf | (payload != 0 ? payload : uint32_t{1} << (fmt.frac_bits - 1)));
  }
  const uint64_t code = round_magnitude(d.sig, d.exp, d.negative, fmt, mode);
  return uint16_t(sign_bit |
                  (code <= fmt.max_code ? uint32_t(code) : ieee_overflow(fmt, d.negative, mode)));
}

inline uint16_t float_to_half_bits(float f, Round mode = Round::nearest_even) {
  return round_ieee16(decode(f), 23, binary16, mode);
}
inline uint16_t double_to_half_bits(double v, Round mode = Round::nearest_even) {
  return round_ieee16(decode(v), 52, binary16, mode);
}
inline uint16_t float_to_bf16_bits(float f, Round mode = Round::nearest_even) {
  return round_ieee16(decode(f), 23, bfloat16, mode);
}
inline uint16_t double_to_bf16_bits(double v, Round mode = Round::nearest_even) {
  return round_ieee16(decode(v), 52, bfloat16, mode);
}

// Integers are exact sig * 2^0 values.
inline uint16_t uint_to_half_bits(uint64_t v, bool negative, Round mode) {
  if (v == 0) return 0;
  const uint64_t code = round_magnitude(v, 0, negative, binary16, mode);
  const uint32_t sign = negative ? 0x8000u : 0u;
  return uint16_t(sign | (code <= binary16.max_code ? uint32_t(code)
                                                    : ieee_overflow(binary16, negative, mode)));
}
inline uint16_t int_to_half_bits(int64_t v, Round mode) {
  const bool negative = v < 0;
  return uint_to_half_bits(negative ? 0 - uint64_t(v) : uint64_t(v), negative, mode);
}
inline uint16_t int_to_bf16_bits(int64_t v, Round mode = Round::nearest_even) {
  if (v == 0) return 0;
  const bool negative = v < 0;
  const uint64_t mag = negative ? 0 - uint64_t(v) : uint64_t(v);
  const uint64_t code = round_magnitude(mag, 0, negative, bfloat16, mode);  // never overflows
  return uint16_t((negative ? 0x8000u : 0u) | uint32_t(code));
}
inline uint16_t uint_to_bf16_bits(uint64_t v) {
  return v == 0 ? 0 : uint16_t(round_magnitude(v, 0, false, bfloat16, Round::nearest_even));
}

// binary16 widens exactly to float: NaN payloads (signaling ones too) are kept bit for bit,
// so float_to_half_bits(half_bits_to_float(h)) == h for every h.
inline float half_bits_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1f) return bits_as<float>(sign | 0x7f800000u | (m << 13));
  if (e == 0) {
    const float magnitude = float(m) * 0x1p-24f;  // exact: m has at most 10 bits
    return bits_as<float>(sign | bits_as<uint32_t>(magnitude));
  }
  return bits_as<float>(sign | ((e + 112) << 23) | (m << 13));
}

inline float bf16_bits_to_float(uint16_t b) { return bits_as<float>(uint32_t(b) << 16); }

// p + c rounded to double "to odd" (truncated, last bit set when inexact). Rounding that
// once more to a format of at most 51 bits gives the correctly rounded p + c; a plain
// double sum could land exactly on a midpoint of the narrow format and round wrongly.
inline double sum_round_to_odd(double p, double c) {
  const double s = p + c;
  const double cv = s - p;
  const double error = (p - (s - cv)) + (c - cv);  // TwoSum: s + error == p + c exactly
  if (error == 0 || !std::isfinite(s)) return s;
  if (bits_as<uint64_t>(s) & 1) return s;
  return std::nextafter(s, error > 0 ? INFINITY : -INFINITY);
}

// Round to nearest integer, ties to even, whatever the thread's rounding mode.
inline double rint_even(double v) {
  const double down = std::floor(v);
  const double rest = v - down;  // exact
  const bool up = rest > 0.5 || (rest == 0.5 && std::fmod(down, 2.0) != 0);
  return std::copysign(up ? down + 1 : down, v);  // -0.4 rounds to -0
}

inline double round_integral(double v, Round mode) {
  switch (mode) {
    case Round::nearest_even: return rint_even(v);
    case Round::toward_zero: return std::trunc(v);
    case Round::down: return std::floor(v);
    case Round::up: return std::ceil(v);
  }
  return v;
}

// Rounds v to an integer in the mode and converts it to I, saturating at I's limits; NaN
// gives 0 (as CUDA documents for its half-to-integer conversions).
template <typename I>
inline I to_integer(double v, Round mode) {
  if (v != v) return 0;
  const double r = round_integral(v, mode);
  if (r <= double(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (r >= double(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return I(r);
}

// Atomic read-modify-write of a 2- or 4-byte floating-point value (device memory is host
// memory on the CPU agent): a compare-and-swap loop on its storage bits. Returns the old value.
template <typename T, typename Bits, typename F>
inline T atomic_update(T* address, F update) {
  static_assert(sizeof(T) == sizeof(Bits), "atomic_update works on the storage bits");
  Bits* raw = reinterpret_cast<Bits*>(address);
  Bits expected = __atomic_load_n(raw, __ATOMIC_RELAXED);
  for (;;) {
    const T old = bits_as<T>(expected);
    const Bits desired = bits_as<Bits>(update(old));
    if (__atomic_compare_exchange_n(raw, &expected, desired, false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_RELAXED))
      return old;
  }
}

}  // namespace weft::fp

#include <hip/weft/device/hd_end.h>

#endif  // WEFT_FP_ROUND_H
