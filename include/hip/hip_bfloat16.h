/* SPDX-License-Identifier: MIT */
/* weft's hip_bfloat16: the older bfloat16 type of HIP (rocBLAS, MIOpen), a trivial struct
 * holding the top 16 bits of an IEEE binary32. Construction from float rounds to nearest
 * even (or truncates, with hip_bfloat16::truncate); NaN stays NaN, and a signaling NaN
 * whose payload sits in the dropped bits keeps a nonzero payload. Arithmetic is done in
 * float and rounded back. In C the header declares only the struct. */
#ifndef WEFT_HIP_BFLOAT16_H
#define WEFT_HIP_BFLOAT16_H

// Host and device functions under clang's HIP mode (a no-op for g++).
#include <hip/weft/device/hd_begin.h>
#if !defined(__cplusplus)

#include <stdint.h>

typedef struct {
  uint16_t data;
} hip_bfloat16;

#else

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <type_traits>

struct hip_bfloat16 {
  uint16_t data;

  enum truncate_t { truncate };

  hip_bfloat16() = default;
  explicit hip_bfloat16(float f) : data(round_bits(f)) {}
  explicit hip_bfloat16(float f, truncate_t) : data(truncate_bits(f)) {}
  operator float() const {
    const uint32_t u = uint32_t(data) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }

  static hip_bfloat16 round_to_bfloat16(float f) {
    hip_bfloat16 b;
    b.data = round_bits(f);
    return b;
  }
  static hip_bfloat16 round_to_bfloat16(float f, truncate_t) {
    hip_bfloat16 b;
    b.data = truncate_bits(f);
    return b;
  }

 private:
  static uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
  }
  static bool is_nan(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
  // NaN: keep the top bits; if the payload lived only in the dropped half, set the lowest
  // kept bit so that the result is still a NaN (and still signaling).
  static uint16_t nan_bits(uint32_t u) {
    return uint16_t((u >> 16) | ((u & 0xffffu) != 0 ? 1u : 0u));
  }
  static uint16_t round_bits(float f) {
    const uint32_t u = float_bits(f);
    if (is_nan(u)) return nan_bits(u);
    // Adding just under half of the dropped range, plus the kept LSB, rounds to nearest
    // with ties to even; a carry moves into the exponent (up to infinity) by itself.
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  }
  static uint16_t truncate_bits(float f) {
    const uint32_t u = float_bits(f);
    return is_nan(u) ? nan_bits(u) : uint16_t(u >> 16);
  }
};

static_assert(std::is_standard_layout<hip_bfloat16>::value && std::is_trivial<hip_bfloat16>::value,
              "hip_bfloat16 must stay layout-compatible with the C struct");
static_assert(sizeof(hip_bfloat16) == 2 && offsetof(hip_bfloat16, data) == 0,
              "hip_bfloat16 layout");

inline std::ostream& operator<<(std::ostream& os, const hip_bfloat16& b) { return os << float(b); }

inline hip_bfloat16 operator+(hip_bfloat16 a) { return a; }
inline hip_bfloat16 operator-(hip_bfloat16 a) {
  a.data = uint16_t(a.data ^ 0x8000u);
  return a;
}
inline hip_bfloat16 operator+(hip_bfloat16 a, hip_bfloat16 b) {
  return hip_bfloat16(float(a) + float(b));
}
inline hip_bfloat16 operator-(hip_bfloat16 a, hip_bfloat16 b) {
  return hip_bfloat16(float(a) - float(b));
}
inline hip_bfloat16 operator*(hip_bfloat16 a, hip_bfloat16 b) {
  return hip_bfloat16(float(a) * float(b));
}
inline hip_bfloat16 operator/(hip_bfloat16 a, hip_bfloat16 b) {
  return hip_bfloat16(float(a) / float(b));
}
inline bool operator<(hip_bfloat16 a, hip_bfloat16 b) { return float(a) < float(b); }
inline bool operator==(hip_bfloat16 a, hip_bfloat16 b) { return float(a) == float(b); }
inline bool operator>(hip_bfloat16 a, hip_bfloat16 b) { return b < a; }
// As in AMD's header: <= and >= are the negations of > and <, so they hold with a NaN.
inline bool operator<=(hip_bfloat16 a, hip_bfloat16 b) { return !(a > b); }
inline bool operator>=(hip_bfloat16 a, hip_bfloat16 b) { return !(a < b); }
inline bool operator!=(hip_bfloat16 a, hip_bfloat16 b) { return !(a == b); }
inline hip_bfloat16& operator+=(hip_bfloat16& a, hip_bfloat16 b) { return a = a + b; }
inline hip_bfloat16& operator-=(hip_bfloat16& a, hip_bfloat16 b) { return a = a - b; }
inline hip_bfloat16& operator*=(hip_bfloat16& a, hip_bfloat16 b) { return a = a * b; }
inline hip_bfloat16& operator/=(hip_bfloat16& a, hip_bfloat16 b) { return a = a / b; }
inline hip_bfloat16& operator++(hip_bfloat16& a) { return a += hip_bfloat16(1.0f); }
inline hip_bfloat16& operator--(hip_bfloat16& a) { return a -= hip_bfloat16(1.0f); }
inline hip_bfloat16 operator++(hip_bfloat16& a, int) {
  const hip_bfloat16 old = a;
  ++a;
  return old;
}
inline hip_bfloat16 operator--(hip_bfloat16& a, int) {
  const hip_bfloat16 old = a;
  --a;
  return old;
}

// AMD's header adds these to namespace std; code written for it calls std::isnan(b).
namespace std {
constexpr bool isinf(hip_bfloat16 a) { return (a.data & 0x7fffu) == 0x7f80u; }
constexpr bool isnan(hip_bfloat16 a) { return (a.data & 0x7fffu) > 0x7f80u; }
constexpr bool iszero(hip_bfloat16 a) { return (a.data & 0x7fffu) == 0; }
}  // namespace std

#endif /* __cplusplus */

#include <hip/weft/device/hd_end.h>

#endif /* WEFT_HIP_BFLOAT16_H */
