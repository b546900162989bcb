// SPDX-License-Identifier: MIT
// Names and messages of hipError_t values, as hipGetErrorName / hipGetErrorString and their
// hipDrv* forms report them.
//
// Contract: pure functions over static storage; thread-safe, never allocate, never fail. Every
// returned pointer is a NUL-terminated string literal that lives for the whole program.
#pragma once

#include <hip/hip_runtime_api.h>

namespace weft {

// The enumerator's spelling, e.g. "hipErrorInvalidValue". Where HIP has aliases
// (hipErrorOutOfMemory / hipErrorMemoryAllocation, ...) the current name is returned. Values that
// are not hipError_t enumerators give "hipErrorUnknown", as AMD's runtime does.
const char* error_name(hipError_t error) noexcept;

// A short lower-case description in the wording HIP 6.x/7.x uses (CUDA's), e.g. "invalid argument".
// Unknown values give "unknown error".
const char* error_string(hipError_t error) noexcept;

// True if `error` is one of the hipError_t enumerators (hipDrvGetErrorName/String reject others
// with hipErrorInvalidValue).
bool error_is_known(hipError_t error) noexcept;

}  // namespace weft
