// SPDX-License-Identifier: MIT
// HIP's device functions: the integer and bit intrinsics and conversions
// (__popc, __brev, __byte_perm, __float2int_rd, ...), with the barriers, warp
// operations and atomics they come with in AMD's header. With an ordinary C++
// compiler they are part of the single-source kernel language, so this header
// is <hip/hip_runtime.h>.
#ifndef WEFT_HIP_DEVICE_FUNCTIONS_H
#define WEFT_HIP_DEVICE_FUNCTIONS_H

#include <hip/hip_runtime.h>

#endif  // WEFT_HIP_DEVICE_FUNCTIONS_H
