// SPDX-License-Identifier: MIT
// vector_add's kernels as a CPU code object (added to its bundle by tools/weft_bundle.py).
#include <hip/weft/cpu_code_object.h>

#include "vector_add_kernels.h"

WEFT_CPU_KERNEL(vector_add);
