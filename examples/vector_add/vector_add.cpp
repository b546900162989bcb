// SPDX-License-Identifier: MIT
// Vector add through the HIP API: the program every HIP tutorial starts with.
// Built by plain g++ against weft's headers; runs on device 0 (a GPU when weft
// finds one, otherwise the CPU agent) or on the device named by argv[1].
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                              \
  do {                                                                           \
    hipError_t err_ = (call);                                                    \
    if (err_ != hipSuccess) {                                                    \
      std::fprintf(stderr, "%s failed: %s (%s)\n", #call, hipGetErrorName(err_), \
                   hipGetErrorString(err_));                                     \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
  int device = argc > 1 ? std::atoi(argv[1]) : 0;
  CHECK(hipSetDevice(device));
  hipDeviceProp_t props;
  CHECK(hipGetDeviceProperties(&props, device));
  std::printf("device %d: %s (%s), %d compute units, warp size %d\n", device, props.name,
              props.gcnArchName, props.multiProcessorCount, props.warpSize);

  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 2.0f * static_cast<float>(i) + 1.0f;
  }

  float *d_a, *d_b, *d_c;
  CHECK(hipMalloc(&d_a, bytes));
  CHECK(hipMalloc(&d_b, bytes));
  CHECK(hipMalloc(&d_c, bytes));
  CHECK(hipMemcpy(d_a, a.data(), bytes, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(d_b, b.data(), bytes, hipMemcpyHostToDevice));

  int threads = 256, blocks = (n + threads - 1) / threads;
  hipLaunchKernelGGL(vectorAdd, dim3(blocks), dim3(threads), 0, 0, d_a, d_b, d_c, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(c.data(), d_c, bytes, hipMemcpyDeviceToHost));
  CHECK(hipFree(d_a));
  CHECK(hipFree(d_b));
  CHECK(hipFree(d_c));

  for (int i = 0; i < n; ++i) {
    if (std::fabs(c[i] - (a[i] + b[i])) > 0.0f) {
      std::printf("FAILED at %d: %f != %f\n", i, c[i], a[i] + b[i]);
      return 1;
    }
  }
  std::printf("vector_add: %d elements, PASSED\n", n);
  return 0;
}
