// SPDX-License-Identifier: MIT
// Reference rounding for the fp_types tests, written independently of weft/fp_round.h:
// a format's finite non-negative values are enumerated from their bit patterns (value =
// formula over the fields, via ldexp), and a real x is rounded by finding its neighbours
// lo <= x < hi in that table and comparing 2x with lo + hi, which double holds exactly.
#ifndef WEFT_TESTS_FP_TYPES_REFERENCE_HPP
#define WEFT_TESTS_FP_TYPES_REFERENCE_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace fp_ref {

enum class Mode { nearest_even, toward_zero, down, up };

// A format with `frac_bits` fraction bits, `exp_bits` exponent bits and exponent bias `bias`;
// codes 0..max_code are its finite non-negative values (in increasing order).
struct Table {
  int frac_bits;
  int bias;
  unsigned max_code;
  std::vector<double> values;  // values[code]

  Table(int frac, int bias_, unsigned max) : frac_bits(frac), bias(bias_), max_code(max) {
    for (unsigned code = 0; code <= max_code; ++code) values.push_back(decode(code));
  }
  double decode(unsigned code) const {
    const unsigned e = code >> frac_bits, m = code & ((1u << frac_bits) - 1);
    if (e == 0) return std::ldexp(double(m), 1 - bias - frac_bits);
    return std::ldexp(double(m + (1u << frac_bits)), int(e) - bias - frac_bits);
  }
  // Rounds |x| (finite, x given with its sign) to a code; returns max_code + 1 for overflow.
  unsigned round(double x, Mode mode) const {
    const bool negative = std::signbit(x);
    const double a = std::fabs(x);
    if (mode == Mode::down && negative) mode = Mode::up;
    else if (mode == Mode::down) mode = Mode::toward_zero;
    else if (mode == Mode::up && negative) mode = Mode::toward_zero;
    const double max = values[max_code];
    if (a > max) {
      const double next = max + (max - values[max_code - 1]);  // the first value past the end
      if (mode == Mode::toward_zero) return max_code;
      if (mode == Mode::up) return max_code + 1;
      // Rounding as if the exponent range went on: a tie goes to whichever code is even.
      if (2 * a != max + next) return 2 * a > max + next ? max_code + 1 : max_code;
      return (max_code & 1) ? max_code + 1 : max_code;
    }
    const unsigned lo =
        unsigned(std::upper_bound(values.begin(), values.end(), a) - values.begin()) - 1;
    if (values[lo] == a || mode == Mode::toward_zero) return lo;
    if (mode == Mode::up) return lo + 1;
    const double hi = lo + 1 <= max_code ? values[lo + 1] : 2 * max;
    const double twice = 2 * a, sum = values[lo] + hi;
    if (twice < sum) return lo;
    if (twice > sum) return lo + 1;
    return (lo & 1) ? lo + 1 : lo;
  }
};

}  // namespace fp_ref

// The exhaustive loops run millions of checks: FP_CHECK costs a comparison while it passes
// and only on a failure builds the message (a local lambda fp_context()) and REQUIREs.
#define FP_CHECK(...)       \
  do {                      \
    if (!(__VA_ARGS__)) {   \
      INFO(fp_context());   \
      REQUIRE(__VA_ARGS__); \
    }                       \
  } while (0)

#endif
