// SPDX-License-Identifier: MIT
// HIP's device math API (sincospi, erfinv, rhypot, __fadd_rz, __float2int_rd,
// the fast __expf-style intrinsics, ...) plus <math.h>'s functions with their
// float overloads in the global namespace. See hip/weft/device_math.h.
#ifndef WEFT_HIP_MATH_FUNCTIONS_H
#define WEFT_HIP_MATH_FUNCTIONS_H

#include <hip/weft/device_math.h>

#endif  // WEFT_HIP_MATH_FUNCTIONS_H
