// SPDX-License-Identifier: MIT
// The start of every translation unit in clang's HIP mode (weftcc passes
// `-include hip/weft/device/prelude.h` to the host pass and every device pass, as clang's
// HIP driver force-includes its own runtime wrapper; hip/hip_runtime.h includes it too).
//
// It includes the C and C++ libraries inside a `force_cuda_host_device` region, so their
// functions are callable from kernels (std::sqrt, memcpy, printf, std::min, ...). This must
// come first: clang refuses a host+device redeclaration of a function that an earlier,
// plain include already declared host-only (and the reverse), so the region cannot open
// after the user's own `#include <cmath>`. Headers included here are no-ops later.
#ifndef WEFT_HIP_DEVICE_PRELUDE_H
#define WEFT_HIP_DEVICE_PRELUDE_H

#if !defined(__HIP__)
#error "hip/weft/device/prelude.h is for clang's HIP mode (weftcc)"
#endif

#ifdef __cplusplus
// Outside the region: clang declares the global operator new/delete itself (host-only
// and device-only) and <new>'s redeclarations must match them; <exception> and <typeinfo>
// hold virtual classes that every exception type of the library derives from, and an
// override cannot differ in target from what it overrides. Placement new gets device
// overloads (a device function may overload a host one).
#include <exception>
#include <limits>
#include <new>
#include <type_traits>
#include <typeinfo>
#include <utility>
// libstdc++'s <cmath> (inside, below) includes its algorithm base for the special
// functions; that base is shared with every container and algorithm header, so it comes
// first, outside (its constexpr functions, std::min/max & co., are callable anyway).
#if __has_include(<bits/stl_algobase.h>)
#include <bits/stl_algobase.h>
#endif
__attribute__((device)) inline void* operator new(__SIZE_TYPE__, void* place) noexcept {
  return place;
}
__attribute__((device)) inline void* operator new[](__SIZE_TYPE__, void* place) noexcept {
  return place;
}
__attribute__((device)) inline void operator delete(void*, void*) noexcept {}
__attribute__((device)) inline void operator delete[](void*, void*) noexcept {}
#endif

// Inside: the C library (math, printf, memcpy, malloc, ...) and <cmath>'s overloads, which
// hipcc's wrapper headers also give kernels.
#pragma clang force_cuda_host_device begin
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>
#ifdef __cplusplus
#include <cassert>
#include <cctype>
#include <cerrno>
#include <cfenv>
#include <cfloat>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cwchar>
#endif
#pragma clang force_cuda_host_device end

#ifdef __cplusplus
// std::complex's functions are callable from kernels as under hipcc (whose wrapper headers
// also include <complex> in such a region). It includes <sstream>, whose stream classes
// are virtual and must stay host-only: included first, outside.
#include <sstream>
#if defined(__HIP_DEVICE_COMPILE__) && (defined(__NVPTX__) || defined(__AMDGCN__))
// A GPU has no C99 complex library (cexp, csqrt, cabs, ...): libstdc++ then takes its own
// implementations on the real functions (as clang's HIP/CUDA wrapper for <complex> does).
// The host pass and the x86_64 pass keep glibc's.
#pragma push_macro("_GLIBCXX_USE_C99_COMPLEX")
#pragma push_macro("_GLIBCXX_USE_C99_COMPLEX_TR1")
#undef _GLIBCXX_USE_C99_COMPLEX
#undef _GLIBCXX_USE_C99_COMPLEX_TR1
#define _GLIBCXX_USE_C99_COMPLEX 0
#define _GLIBCXX_USE_C99_COMPLEX_TR1 0
#define WEFT_PRELUDE_NO_C99_COMPLEX 1
#endif
#pragma clang force_cuda_host_device begin
#include <complex>
#pragma clang force_cuda_host_device end
#ifdef WEFT_PRELUDE_NO_C99_COMPLEX
#pragma pop_macro("_GLIBCXX_USE_C99_COMPLEX_TR1")
#pragma pop_macro("_GLIBCXX_USE_C99_COMPLEX")
#undef WEFT_PRELUDE_NO_C99_COMPLEX
#endif
#endif

#ifdef __cplusplus
// Outside again: the rest of the C++ library that weft's headers use. As under hipcc, its
// constexpr functions are callable from kernels, the others are host functions.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <thread>
#include <tuple>
#endif

#ifdef __cplusplus
// clang's x86-64 conversion of an unsigned 64-bit integer to double adds the halves through
// two magic constants, ((2^84 + hi * 2^32) - (2^84 + 2^52)) + (2^52 + lo), which is -0 for 0
// under FE_DOWNWARD. hip/weft/device_math.h's __ull2double_rd & co. (the host pass's and the
// CPU image's: they convert under the switched mode) take this overload for their one
// unsigned long long operand: an integer zero converts to +0 in every mode, as g++ has it.
#include <hip/weft/device/hd_begin.h>
namespace weft::detail {
template <typename R, typename Op>
inline R with_rounding(int mode, Op op, unsigned long long value) {
  if (value == 0) return R(0);
  const int saved = std::fegetround();
  std::fesetround(mode);
  volatile unsigned long long operand = value;
  volatile R result = op(operand);
  std::fesetround(saved);
  return result;
}
}  // namespace weft::detail
#include <hip/weft/device/hd_end.h>
#endif

#include <hip/weft/device/qualifiers.h>

#endif  // WEFT_HIP_DEVICE_PRELUDE_H
