// SPDX-License-Identifier: MIT
// Barriers and warp operations in the x86_64 image (the CPU engine's fibers): the
// __syncthreads reductions, every shuffle form with widths, votes, __activemask,
// __syncwarp, and a warp operation inside a divergent branch followed by one of the
// whole warp (matched by call site, docs/cpu-engine.md).
#include "check.h"

#include <vector>

__global__ void reductions(int* out) {
  const int t = threadIdx.x;
  out[0 + blockIdx.x * 3] = __syncthreads_count(t % 3 == 0);
  out[1 + blockIdx.x * 3] = __syncthreads_and(t < 1000);
  out[2 + blockIdx.x * 3] = __syncthreads_or(t == 77);
}
__global__ void shuffles(int* out) {
  const int lane = threadIdx.x % warpSize, t = threadIdx.x;
  int* row = out + t * 8;
  row[0] = __shfl(t * 10, 3);
  row[1] = __shfl_up(t, 2);
  row[2] = __shfl_down(t, 5);
  row[3] = __shfl_xor(t, 1);
  row[4] = __shfl(t, lane + 1, 8);  // rotates within groups of 8
  row[5] = __shfl_down(t, 1, 16);   // the last lane of a group of 16 keeps its own
  double d = __shfl_xor(double(t) + 0.25, 16);
  row[6] = int(d * 4);
  row[7] = __shfl_sync(0xffffffffu, t + 1000, 0);
}
__global__ void votes(unsigned long long* out) {
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  unsigned long long* w = out + warp * 5;
  unsigned long long b = __ballot(lane % 4 == 1);
  int any = __any(lane == 31), all = __all(lane < 32), none = __any(lane > 100);
  unsigned long long active = __activemask();
  __syncwarp();
  if (lane == 0) {
    w[0] = b;
    w[1] = any;
    w[2] = all;
    w[3] = none;
    w[4] = active;
  }
}
// Lanes 0-3 exchange among themselves inside the branch; then the whole warp reduces.
__global__ void divergent(int* out) {
  const int lane = threadIdx.x;
  int v = lane + 1;
  if (lane < 4) v += __shfl(v, 3) * 100;
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor(v, o);
  out[lane] = v;
}

int main() {
  int* d;
  HIP_OK(hipMalloc(&d, 256 * 8 * sizeof(int)));
  reductions<<<2, 200>>>(d);
  std::vector<int> h(256 * 8);
  HIP_OK(hipMemcpy(h.data(), d, 6 * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < 2; ++b) {
    CHECK(h[b * 3 + 0] == 67);
    CHECK(h[b * 3 + 1] == 1);
    CHECK(h[b * 3 + 2] == 1);
  }

  shuffles<<<1, 64>>>(d);
  HIP_OK(hipMemcpy(h.data(), d, 64 * 8 * sizeof(int), hipMemcpyDeviceToHost));
  for (int t = 0; t < 64; ++t) {
    const int lane = t % 32, base = t - lane, *row = &h[t * 8];
    CHECK(row[0] == (base + 3) * 10);
    CHECK(row[1] == (lane >= 2 ? t - 2 : t));
    CHECK(row[2] == (lane + 5 < 32 ? t + 5 : t));
    CHECK(row[3] == (t ^ 1));
    CHECK(row[4] == base + (lane & ~7) + ((lane + 1) & 7));
    CHECK(row[5] == ((lane % 16) + 1 < 16 ? t + 1 : t));
    CHECK(row[6] == (base + (lane ^ 16)) * 4 + 1);
    CHECK(row[7] == base + 1000);
  }

  unsigned long long* v;
  HIP_OK(hipMalloc(&v, 2 * 5 * sizeof(unsigned long long)));
  votes<<<1, 64>>>(v);
  unsigned long long hv[10];
  HIP_OK(hipMemcpy(hv, v, sizeof hv, hipMemcpyDeviceToHost));
  for (int w = 0; w < 2; ++w) {
    CHECK(hv[w * 5 + 0] == 0x22222222ull);
    CHECK(hv[w * 5 + 1] == 1);
    CHECK(hv[w * 5 + 2] == 1);
    CHECK(hv[w * 5 + 3] == 0);
    CHECK(hv[w * 5 + 4] == 0xffffffffull);
  }

  divergent<<<1, 32>>>(d);
  HIP_OK(hipMemcpy(h.data(), d, 32 * sizeof(int), hipMemcpyDeviceToHost));
  int expect = 0;
  for (int lane = 0; lane < 32; ++lane) expect += lane + 1 + (lane < 4 ? 400 : 0);
  for (int lane = 0; lane < 32; ++lane) CHECK(h[lane] == expect);
  HIP_OK(hipFree(v));
  HIP_OK(hipFree(d));
  return finish("weftcc_cpu sync_warp");
}
