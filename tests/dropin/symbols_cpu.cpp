// SPDX-License-Identifier: MIT
// symbols' kernel and variables as a CPU code object.
#include <hip/weft/cpu_code_object.h>

#include "symbols_kernels.h"

WEFT_CPU_KERNEL(apply_lut);
