// SPDX-License-Identifier: MIT
// A block reduction through __shared__ memory and __syncthreads, shared by the
// kernel conformance tests: one value per block, for any block size.
#pragma once

#include "hip_test.hpp"

namespace kernel_tests {

inline __global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[1024];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  // Fold the upper part onto the lower one until one value is left.
  for (unsigned size = blockDim.x; size > 1;) {
    unsigned half = (size + 1) / 2;
    if (t < size - half) partial[t] += partial[t + half];
    __syncthreads();
    size = half;
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

}  // namespace kernel_tests
