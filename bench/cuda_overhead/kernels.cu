// SPDX-License-Identifier: MIT
// The benchmark's kernels, built by nvcc into kernels.cubin (loaded by the
// driver-API and weft paths). cudart_side.cu holds the same kernel for cudart.
extern "C" __global__ void bench_kernel(float* p, int n) {
  if (p && threadIdx.x + blockIdx.x * blockDim.x < unsigned(n)) p[threadIdx.x] += 1.0f;
}
