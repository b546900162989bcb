// SPDX-License-Identifier: MIT
// A CPU code object for the hipCtxCreate + module launch flow of context.cpp.
#include <hip/weft/cpu_code_object.h>

// b[i] = a[i] for one block of n threads.
extern "C" __global__ void copy_floats(const float* a, float* b) {
  b[threadIdx.x] = a[threadIdx.x];
}

WEFT_CPU_KERNEL(copy_floats);
