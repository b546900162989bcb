// SPDX-License-Identifier: MIT
// A HIP program as hipcc users write it, built by weftcc for sm_90 (the build
// makes tests/drivers/cuda/cuda_weftcc_program): its fat binary registers with
// weft, and <<<>>> launches (a template kernel, extern __shared__, a __device__
// variable set with hipMemcpyToSymbol, __constant__ memory) run on the NVIDIA
// agent. Every result is checked on the host. Exits 77 (skip) without an NVIDIA
// agent, 1 on a wrong result.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#define CHECK_HIP(expr)                                              \
  do {                                                               \
    hipError_t e_ = (expr);                                          \
    if (e_ != hipSuccess) {                                          \
      std::printf("FAILED: %s: %s\n", #expr, hipGetErrorString(e_)); \
      return 1;                                                      \
    }                                                                \
  } while (0)

__device__ int bias;
__constant__ float weights[4];

template <typename T>
__global__ void weighted(const T* in, T* out, int n) {
  extern __shared__ float tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? float(in[i]) : 0.0f;
  __syncthreads();
  float neighbour = tile[(threadIdx.x + 1) % blockDim.x];
  if (i < n) out[i] = T(tile[threadIdx.x] * weights[i % 4] + neighbour + float(bias));
}

int main() {
  int count = 0, gpu = -1;
  CHECK_HIP(hipGetDeviceCount(&count));
  for (int d = 0; d < count && gpu < 0; ++d) {
    hipDeviceProp_t p{};
    CHECK_HIP(hipGetDeviceProperties(&p, d));
    if (std::string(p.gcnArchName).rfind("sm_", 0) == 0) gpu = d;
  }
  if (gpu < 0) {
    std::printf("SKIPPED: no NVIDIA agent\n");
    return 77;
  }
  CHECK_HIP(hipSetDevice(gpu));
  const int n = 1 << 16, block = 256;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = float(i % 1000);
  const float w[4] = {0.5f, 1.0f, 2.0f, 4.0f};
  const int b = 7;
  CHECK_HIP(hipMemcpyToSymbol(HIP_SYMBOL(weights), w, sizeof(w)));
  CHECK_HIP(hipMemcpyToSymbol(HIP_SYMBOL(bias), &b, sizeof(b)));
  float *din = nullptr, *dout = nullptr;
  CHECK_HIP(hipMalloc(&din, n * sizeof(float)));
  CHECK_HIP(hipMalloc(&dout, n * sizeof(float)));
  CHECK_HIP(hipMemcpy(din, in.data(), n * sizeof(float), hipMemcpyHostToDevice));
  weighted<float><<<n / block, block, block * sizeof(float)>>>(din, dout, n);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    int next = (i / block) * block + (i % block + 1) % block;
    float want = in[i] * w[i % 4] + in[next] + float(b);
    if (out[i] != want && bad++ < 5) std::printf("out[%d] = %g, want %g\n", i, out[i], want);
  }
  CHECK_HIP(hipFree(din));
  CHECK_HIP(hipFree(dout));
  std::printf("%s: %d of %d elements wrong\n", bad ? "FAILED" : "passed", bad, n);
  return bad ? 1 : 0;
}
