// SPDX-License-Identifier: MIT
// variables' kernels and variables as a CPU code object.
#include <hip/weft/cpu_code_object.h>

#include "variables_kernels.h"

WEFT_CPU_KERNEL(use_variables);
