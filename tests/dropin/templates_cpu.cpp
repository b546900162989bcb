// SPDX-License-Identifier: MIT
// templates' kernel instances as a CPU code object.
#include <hip/weft/cpu_code_object.h>

#include "templates_kernels.h"

WEFT_CPU_KERNEL(scale<float>);
WEFT_CPU_KERNEL(scale<double>);
WEFT_CPU_KERNEL(fill_pattern<int, 3>);
