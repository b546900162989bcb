// SPDX-License-Identifier: MIT
// A kernel the GPU tests compile first, to see whether a target can be built here.
#include <hip/hip_runtime.h>
__global__ void probe(int* p) { p[threadIdx.x] = 1; }
