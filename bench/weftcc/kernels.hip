// SPDX-License-Identifier: MIT
// The compile-time benchmark's input (bench/weftcc): a ~200-line HIP file of the usual
// kinds of kernels (element-wise templates, shared-memory reductions and tiles, atomics,
// warp shuffles, math) and the host code that launches them. Written against the HIP API
// only, so that hipcc with AMD's headers and weftcc with weft's compile it unchanged.
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK(expr)                                                     \
  do {                                                                  \
    hipError_t err_ = (expr);                                           \
    if (err_ != hipSuccess) {                                           \
      std::fprintf(stderr, "%s: %s\n", #expr, hipGetErrorString(err_)); \
      return 1;                                                         \
    }                                                                   \
  } while (0)

constexpr int kTile = 16;
constexpr int kBlock = 256;

__constant__ float c_coeffs[5];
__device__ unsigned int d_launches;

template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

template <typename T, typename Op>
__global__ void transform(const T* in, T* out, int n, Op op) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = op(in[i]);
}

struct Softplus {
  __device__ float operator()(float v) const { return logf(1.0f + expf(v)); }
};

struct Polynomial {
  __device__ float operator()(float v) const {
    float r = 0.0f;
    for (int k = 4; k >= 0; --k) r = r * v + c_coeffs[k];
    return r;
  }
};

__device__ inline float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  return v;
}

__global__ void reduce_sum(const float* in, float* out, int n) {
  __shared__ float partial[kBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

__global__ void reduce_sum_warp(const float* in, float* out, int n) {
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v += in[i];
  v = warp_sum(v);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
}

__global__ void histogram(const unsigned char* data, unsigned int* bins, int n) {
  extern __shared__ unsigned int local_bins[];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local_bins[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local_bins[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local_bins[b]);
  if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(&d_launches, 1u);
}

__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[kTile][kTile];
  __shared__ float tb[kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (n + kTile - 1) / kTile; ++t) {
    int ac = t * kTile + threadIdx.x, br = t * kTile + threadIdx.y;
    ta[threadIdx.y][threadIdx.x] = (row < n && ac < n) ? a[row * n + ac] : 0.0f;
    tb[threadIdx.y][threadIdx.x] = (br < n && col < n) ? b[br * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = acc;
}

__global__ void stencil_2d(const float* in, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= 0 || y <= 0 || x >= w - 1 || y >= h - 1) return;
  float centre = in[y * w + x];
  float around = in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x];
  out[y * w + x] = 0.5f * centre + 0.125f * around;
}

__global__ void rotate_points(float2* p, float angle, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s, c;
  sincosf(angle, &s, &c);
  float2 v = p[i];
  p[i] = make_float2(c * v.x - s * v.y, s * v.x + c * v.y);
}

__global__ void normalise(float4* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 q = v[i];
  float inv = rsqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w + 1e-12f);
  v[i] = make_float4(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}

__global__ void prefix_scan_block(const int* in, int* out, int n) {
  __shared__ int buf[kBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    int add = threadIdx.x >= offset ? buf[threadIdx.x - offset] : 0;
    __syncthreads();
    buf[threadIdx.x] += add;
    __syncthreads();
  }
  if (i < n) out[i] = buf[threadIdx.x];
}

int main() {
  const int n = 1 << 16, m = 64;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = std::sin(0.001f * i);
  float *x, *y, *sum, *ma, *mb, *mc;
  CHECK(hipMalloc(&x, n * sizeof(float)));
  CHECK(hipMalloc(&y, n * sizeof(float)));
  CHECK(hipMalloc(&sum, sizeof(float)));
  CHECK(hipMalloc(&ma, m * m * sizeof(float)));
  CHECK(hipMalloc(&mb, m * m * sizeof(float)));
  CHECK(hipMalloc(&mc, m * m * sizeof(float)));
  CHECK(hipMemcpy(x, h.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(y, h.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemset(sum, 0, sizeof(float)));
  const float coeffs[5] = {1.0f, 0.5f, 0.25f, 0.125f, 0.0625f};
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(c_coeffs), coeffs, sizeof coeffs));

  const int blocks = (n + kBlock - 1) / kBlock;
  axpy<float><<<blocks, kBlock>>>(2.0f, x, y, n);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(transform<float, Softplus>), dim3(blocks), dim3(kBlock), 0, 0,
                     x, y, n, Softplus{});
  hipLaunchKernelGGL(HIP_KERNEL_NAME(transform<float, Polynomial>), dim3(blocks), dim3(kBlock), 0,
                     0, x, y, n, Polynomial{});
  reduce_sum<<<blocks, kBlock>>>(y, sum, n);
  reduce_sum_warp<<<64, kBlock>>>(y, sum, n);
  matmul_tiled<<<dim3(m / kTile, m / kTile), dim3(kTile, kTile)>>>(ma, mb, mc, m);
  stencil_2d<<<dim3(16, 16), dim3(16, 16)>>>(x, y, 256, 256);
  rotate_points<<<blocks / 2, kBlock>>>(reinterpret_cast<float2*>(x), 0.3f, n / 2);
  normalise<<<blocks / 4, kBlock>>>(reinterpret_cast<float4*>(y), n / 4);

  unsigned char* bytes;
  unsigned int* bins;
  int *scan_in, *scan_out;
  CHECK(hipMalloc(&bytes, n));
  CHECK(hipMalloc(&bins, 256 * sizeof(unsigned int)));
  CHECK(hipMalloc(&scan_in, n * sizeof(int)));
  CHECK(hipMalloc(&scan_out, n * sizeof(int)));
  CHECK(hipMemset(bytes, 7, n));
  CHECK(hipMemset(bins, 0, 256 * sizeof(unsigned int)));
  CHECK(hipMemset(scan_in, 0, n * sizeof(int)));
  histogram<<<32, kBlock, 256 * sizeof(unsigned int)>>>(bytes, bins, n);
  prefix_scan_block<<<blocks, kBlock>>>(scan_in, scan_out, n);
  CHECK(hipDeviceSynchronize());

  float total = 0.0f;
  CHECK(hipMemcpy(&total, sum, sizeof total, hipMemcpyDeviceToHost));
  std::printf("sum %g\n", total);
  for (void* p : {(void*)x, (void*)y, (void*)sum, (void*)ma, (void*)mb, (void*)mc, (void*)bytes,
                  (void*)bins, (void*)scan_in, (void*)scan_out})
    CHECK(hipFree(p));
  return 0;
}
