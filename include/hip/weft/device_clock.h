// SPDX-License-Identifier: MIT
// Device clocks for kernels weft runs on the CPU agent (included by single_source.h).
//
// clock64() / __clock64() count CPU timestamp-counter ticks (the "shader clock": fast, per
// core, rate roughly hipDeviceAttributeClockRate). wall_clock64() counts nanoseconds of the
// monotonic clock, a constant rate the CPU agent reports as hipDeviceAttributeWallClockRate
// (wall_clock_khz below; drivers/cpu answers that attribute from the same constant).
//
// clock(): AMD's device clock() returns a long long counter, but a kernel here is host code and
// <ctime>'s ::clock() (clock_t clock(void)) is already declared with the same signature, so a
// second device overload cannot exist and a macro would break std::clock and <ctime> itself. A
// kernel's clock() is therefore <ctime>'s: the process CPU time, a monotonic 64-bit count
// (clock_t is long on LP64, as wide as AMD's long long). Programs that only take differences
// of clock() or add it to clock64() (HIP's own samples and tests) behave the same. __clock()
// is weft's and returns clock64(), as on AMD.
#ifndef WEFT_HIP_DEVICE_CLOCK_H
#define WEFT_HIP_DEVICE_CLOCK_H

#include <chrono>
#include <ctime>

namespace weft::detail {
// The rate of wall_clock64() in kHz: it counts nanoseconds.
inline constexpr int wall_clock_khz = 1000000;
}  // namespace weft::detail

inline long long clock64() {
#if defined(__x86_64__) || defined(__i386__)
  return static_cast<long long>(__builtin_ia32_rdtsc());
#else
  return static_cast<long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now().time_since_epoch())
                                    .count());
#endif
}
inline long long __clock64() { return clock64(); }
inline long long __clock() { return clock64(); }

inline long long wall_clock64() {
  static_assert(std::chrono::steady_clock::is_steady);
  return static_cast<long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now().time_since_epoch())
                                    .count());
}

#endif  // WEFT_HIP_DEVICE_CLOCK_H
