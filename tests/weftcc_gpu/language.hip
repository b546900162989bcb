// SPDX-License-Identifier: MIT
// HIP-language kernels through weft's own headers in clang's HIP mode: the shared
// device layer (threadIdx, __shfl*, votes, atomics, __syncthreads*, <cmath>) on
// the NVIDIA and AMD primitive layers. check_images.py builds it for sm_90 and
// gfx90a; cuda_weftcc runs the sm_90 image and checks it against the host.
#include <hip/hip_runtime.h>

#include <cmath>

// Sum of in[0..n) into *out: warp shuffles, then one partial per warp in dynamic
// shared memory, then one atomicAdd per block (blockDim a multiple of warpSize).
template <typename T>
__global__ void block_sum(const T* in, T* out, int n) {
  extern __shared__ unsigned char partials_raw[];
  T* partials = reinterpret_cast<T*>(partials_raw);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = i < n ? in[i] : T(0);
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_xor(v, offset);
  if (threadIdx.x % warpSize == 0) partials[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    T total = 0;
    for (unsigned w = 0; w < blockDim.x / warpSize; ++w) total += partials[w];
    atomicAdd(out, total);
  }
}
template __global__ void block_sum<float>(const float*, float*, int);

// 6 results per element from <cmath>'s overloads and the C names.
extern "C" __global__ void std_math(const float* xf, float* yf, const double* xd, double* yd,
                                    int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = xf[i];
  yf[i * 3 + 0] = std::sin(x) + std::cos(x);
  yf[i * 3 + 1] = std::exp(x) / std::sqrt(x);
  yf[i * 3 + 2] = sinf(x) * fabsf(-x) + std::floor(x);
  double y = xd[i];
  yd[i * 3 + 0] = std::log(y) + std::pow(y, 2.5);
  yd[i * 3 + 1] = std::atan2(y, 1.0) + std::tanh(y);
  yd[i * 3 + 2] = std::hypot(y, 3.0) + std::fmod(y, 0.7);
}

// Per thread (one block of 64, so NVIDIA has two warps): [0] ballot of odd lanes
// (low 32 bits), [1] any(lane == 3), [2] all(lane < warpSize), [3] shfl_up by 1
// in 8-wide segments of the lane id, [4] shfl_down by 2 of the lane id,
// [5] __shfl(lane * 10, 5).
extern "C" __global__ void votes(unsigned* out) {
  unsigned lane = __lane_id();
  unsigned* o = out + threadIdx.x * 6;
  o[0] = static_cast<unsigned>(__ballot(lane & 1));
  o[1] = __any(lane == 3);
  o[2] = __all(lane < static_cast<unsigned>(warpSize));
  o[3] = __shfl_up(lane, 1, 8);
  o[4] = __shfl_down(lane, 2);
  o[5] = __shfl(lane * 10, 5);
}

// c: [0] atomicAdd 1, [1] atomicMax of the thread id, [2] atomicInc limit 99,
// [3] atomicCAS-loop add 3, [4] atomicExch (any id), [5] __syncthreads_count of
// even threads (block 0 writes), [6] atomicSub 1 (starts at the thread count),
// [7] atomicOr of 1 << (id % 32); f: [0] atomicAdd 0.25.
extern "C" __global__ void counters(int* c, unsigned* u, float* f) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&c[0], 1);
  atomicMax(&c[1], id);
  atomicInc(&u[0], 99u);
  int seen = c[3];
  for (;;) {
    int old = atomicCAS(&c[3], seen, seen + 3);
    if (old == seen) break;
    seen = old;
  }
  atomicExch(&c[4], id);
  int even = __syncthreads_count(threadIdx.x % 2 == 0);
  if (blockIdx.x == 0 && threadIdx.x == 0) c[5] = even;
  atomicSub(&c[6], 1);
  atomicOr(&u[1], 1u << (id % 32));
  atomicAdd(&f[0], 0.25f);
}

// Every device clock HIP programs read: clock() (<time.h>'s, which the GPU layers define
// as the shader clock), clock64(), __clock(), __clock64() and wall_clock64(). t[0..5).
extern "C" __global__ void clocks(long long* t) {
  t[0] = clock();
  t[1] = clock64();
  t[2] = __clock();
  t[3] = __clock64();
  t[4] = wall_clock64();
}
