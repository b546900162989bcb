// SPDX-License-Identifier: MIT
// A source whose first include is a weft header other than hip_runtime.h, followed by
// C++ library headers that hip_runtime.h's prelude would have included first: every
// device pass must still see the library's functions declared once, host+device where
// the prelude makes them so (check_images.py builds it for sm_90 and gfx90a).
#include <hip/hip_vector_types.h>

#include <exception>
#include <string>
#include <utility>

#include <hip/hip_runtime.h>

extern "C" __global__ void swap_halves(float2* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 p = v[i];
    v[i] = make_float2(p.y, p.x);
  }
}
