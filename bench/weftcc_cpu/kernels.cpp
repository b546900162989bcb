// SPDX-License-Identifier: MIT
// The same kernels built two ways, to compare weftcc's x86_64 image with the g++
// single-source path (compare.py builds this file with both and prints the ratio):
// vectorAdd (no barrier: loop mode), block sum (barriers: fibers), warp sum (shuffles),
// SGEMM with shared tiles. Each row: median milliseconds of 9 runs, and a result check.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK_HIP(expr)                                               \
  do {                                                                \
    hipError_t e_ = (expr);                                           \
    if (e_ != hipSuccess) {                                           \
      std::fprintf(stderr, "%s: %s\n", #expr, hipGetErrorString(e_)); \
      return 2;                                                       \
    }                                                                 \
  } while (0)

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void block_sum(const float* in, float* out) {
  __shared__ float partial[256];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}
__global__ void warp_sum(const float* in, float* out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
  if (__lane_id() == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / warpSize] = v;
}
constexpr int kTile = 16;
__global__ void sgemm(const float* A, const float* B, float* C, int n) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0;
  for (int k0 = 0; k0 < n; k0 += kTile) {
    As[threadIdx.y][threadIdx.x] = A[row * n + k0 + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

template <typename F>
double median_ms(F&& body) {
  std::vector<double> t;
  body();
  for (int i = 0; i < 9; ++i) {
    auto a = std::chrono::steady_clock::now();
    body();
    t.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  // Optional: run only the rows whose name starts with argv[1]; argv[2] = log2 of n.
  auto wanted = [&](const char* row) {
    return argc < 2 || std::strncmp(row, argv[1], std::strlen(argv[1])) == 0;
  };
  const int n = 1 << (argc > 2 ? std::atoi(argv[2]) : 24), threads = 256, blocks = n / threads;
  std::vector<float> ha(n), hb(n);
  for (int i = 0; i < n; ++i) {
    ha[i] = float(i % 1000) * 0.5f;
    hb[i] = float(i % 7);
  }
  float *a, *b, *c;
  CHECK_HIP(hipMalloc(&a, n * sizeof(float)));
  CHECK_HIP(hipMalloc(&b, n * sizeof(float)));
  CHECK_HIP(hipMalloc(&c, n * sizeof(float)));
  CHECK_HIP(hipMemcpy(a, ha.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(b, hb.data(), n * sizeof(float), hipMemcpyHostToDevice));
  bool all_ok = true, ok = true;
  double t = 0;
  std::vector<float> hc(n);

  if (wanted("vectorAdd")) {
    t = median_ms([&] {
      hipLaunchKernelGGL(vector_add, dim3(blocks), dim3(threads), 0, 0, a, b, c, n);
      (void)hipDeviceSynchronize();
    });
    CHECK_HIP(hipMemcpy(hc.data(), c, n * sizeof(float), hipMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < n; ++i) ok &= hc[i] == ha[i] + hb[i];
    std::printf("vectorAdd %.3f %s\n", t, ok ? "ok" : "WRONG");
    all_ok &= ok;
  }

  if (wanted("block_sum")) {
    t = median_ms([&] {
      hipLaunchKernelGGL(block_sum, dim3(blocks), dim3(threads), 0, 0, a, c);
      (void)hipDeviceSynchronize();
    });
    CHECK_HIP(hipMemcpy(hc.data(), c, blocks * sizeof(float), hipMemcpyDeviceToHost));
    ok = true;
    for (int bl = 0; bl < blocks; bl += 997) {
      double s = 0;
      for (int k = 0; k < threads; ++k) s += ha[bl * threads + k];
      ok &= std::fabs(hc[bl] - s) <= 1e-3 * s;
    }
    std::printf("block_sum %.3f %s\n", t, ok ? "ok" : "WRONG");
    all_ok &= ok;
  }

  if (wanted("warp_sum")) {
    t = median_ms([&] {
      hipLaunchKernelGGL(warp_sum, dim3(blocks), dim3(threads), 0, 0, a, c);
      (void)hipDeviceSynchronize();
    });
    CHECK_HIP(hipMemcpy(hc.data(), c, n / 32 * sizeof(float), hipMemcpyDeviceToHost));
    ok = true;
    for (int w = 0; w < n / 32; w += 4099) {
      double s = 0;
      for (int k = 0; k < 32; ++k) s += ha[w * 32 + k];
      ok &= std::fabs(hc[w] - s) <= 1e-3 * s + 1e-3;
    }
    std::printf("warp_sum %.3f %s\n", t, ok ? "ok" : "WRONG");
    all_ok &= ok;
  }

  if (wanted("sgemm")) {
    const int m = 256;
    t = median_ms([&] {
      hipLaunchKernelGGL(sgemm, dim3(m / kTile, m / kTile), dim3(kTile, kTile), 0, 0, a, b, c, m);
      (void)hipDeviceSynchronize();
    });
    CHECK_HIP(hipMemcpy(hc.data(), c, m * m * sizeof(float), hipMemcpyDeviceToHost));
    ok = true;
    for (int r = 0; r < m; r += 37)
      for (int col = 0; col < m; col += 41) {
        double s = 0;
        for (int k = 0; k < m; ++k) s += double(ha[r * m + k]) * hb[k * m + col];
        ok &= std::fabs(hc[r * m + col] - s) <= 1e-3 * std::fabs(s) + 1e-2;
      }
    std::printf("sgemm_256 %.3f %s\n", t, ok ? "ok" : "WRONG");
    all_ok &= ok;
  }
  CHECK_HIP(hipFree(a));
  CHECK_HIP(hipFree(b));
  CHECK_HIP(hipFree(c));
  return all_ok ? 0 : 1;
}
