// SPDX-License-Identifier: MIT
// Kernels whose code objects hipcc builds at build time (meson.build) for the
// kernarg layout tests. Only clang builtins are used, so the build needs no
// ROCm device library (Debian's 5.2 set lacks gfx1100) and runs with -nogpulib.
#include <hip/hip_runtime.h>

struct Pair {
  int a;
  double b;
};

extern "C" __global__ void scale(float* out, const float* in, float s, int n) {
  int i = int(__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x());
  if (i < n) out[i] = in[i] * s;
}

// Reads the implicit-argument block, so every hidden argument is described.
extern "C" __global__ void mixed(char c, Pair p, short h, long long* out) {
  extern __shared__ int lds[];
  const unsigned* implicit = static_cast<const unsigned*>(__builtin_amdgcn_implicitarg_ptr());
  lds[__builtin_amdgcn_workitem_id_x()] = c + h;
  __builtin_amdgcn_s_barrier();
  out[__builtin_amdgcn_workitem_id_x()] = p.a + static_cast<long long>(p.b) + lds[0] + implicit[1];
}

extern "C" __global__ void noargs() {}

__device__ int counter[4];
