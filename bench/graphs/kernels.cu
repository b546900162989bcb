// SPDX-License-Identifier: MIT
// bench/graphs on an NVIDIA GPU: the chain's kernel, built by nvcc into
// graph_kernels.cubin and loaded by both the weft and the CUDA-driver paths.
extern "C" __global__ void tick(int* counter) {
  if (threadIdx.x == 0) ++*counter;
}
