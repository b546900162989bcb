// SPDX-License-Identifier: MIT
// Warp-level operations of single-source kernels: shuffles (all four forms and
// sub-warp widths), votes, ballots with divergent lanes, __syncwarp, lane ids.
#include "hip_test.hpp"

#include <vector>

namespace {

__global__ void shuffles(int* out) {
  int lane = static_cast<int>(__lane_id());
  int v = lane * 10;
  int t = threadIdx.x;
  out[t * 5 + 0] = __shfl(v, 3);       // everyone reads lane 3
  out[t * 5 + 1] = __shfl_up(v, 1);    // lane 0 keeps its own
  out[t * 5 + 2] = __shfl_down(v, 2);  // the last two keep their own
  out[t * 5 + 3] = __shfl_xor(v, 1);   // pairs swap
  out[t * 5 + 4] = __shfl(v, 0, 8);    // first lane of each 8-lane segment
}

__global__ void warp_sum(const float* in, float* out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  if (__lane_id() == 0) atomicAdd(out, v);
}

__global__ void votes(const int* pred, unsigned long long* ballots, int* any_all) {
  int p = pred[threadIdx.x];
  unsigned long long b = __ballot(p);
  int any = __any(p);
  int all = __all(p);
  if (__lane_id() == 0) {
    int w = threadIdx.x / warpSize;
    ballots[w] = b;
    any_all[w * 2] = any;
    any_all[w * 2 + 1] = all;
  }
}

// Odd lanes leave early: the warp's remaining lanes still exchange values.
__global__ void divergent_ballot(unsigned long long* out, double* shuffled) {
  if (threadIdx.x % 2) return;
  unsigned long long b = __ballot(1);
  double v = __shfl(static_cast<double>(threadIdx.x) + 0.5, 2);
  if (threadIdx.x == 0) out[0] = b;
  shuffled[threadIdx.x] = v;
}

__global__ void syncwarp_handoff(int* data) {
  __shared__ int slots[64];
  slots[threadIdx.x] = threadIdx.x * 3;
  __syncwarp();
  int lane = __lane_id();
  int partner = (threadIdx.x / warpSize) * warpSize + (warpSize - 1 - lane);
  data[threadIdx.x] = slots[partner];
}

// Warp operations and block barriers mixed in one kernel.
__global__ void mixed(int* out) {
  __shared__ int warp_totals[8];
  int v = __shfl_xor(static_cast<int>(threadIdx.x), 1);
  int sum = v;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_down(sum, offset);
  if (__lane_id() == 0) warp_totals[threadIdx.x / warpSize] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (unsigned w = 0; w < blockDim.x / warpSize; ++w) total += warp_totals[w];
    out[blockIdx.x] = total;
  }
}

}  // namespace

TEST_CASE("Unit_warpSize_Positive_MatchesDeviceProperty") {
  REQUIRE(warpSize == hip_test::props().warpSize);
}

TEST_CASE("Unit_shfl_Positive_AllForms") {
  if (!hip_test::kernels_supported()) return;
  const int threads = 64;
  hip_test::DeviceBuffer<int> out(threads * 5);
  HIP_LAUNCH_CHECK(shuffles, dim3(1), dim3(threads), 0, nullptr, out.get());
  std::vector<int> h(threads * 5);
  HIP_CHECK(hipMemcpy(h.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  const int W = warpSize;
  for (int t = 0; t < threads; ++t) {
    int lane = t % W;
    INFO("thread " << t);
    REQUIRE(h[t * 5 + 0] == 30);
    REQUIRE(h[t * 5 + 1] == (lane == 0 ? 0 : (lane - 1) * 10));
    REQUIRE(h[t * 5 + 2] == (lane + 2 < W ? (lane + 2) * 10 : lane * 10));
    REQUIRE(h[t * 5 + 3] == (lane ^ 1) * 10);
    REQUIRE(h[t * 5 + 4] == (lane / 8) * 8 * 10);
  }
}

TEST_CASE("Unit_shfl_down_Positive_WarpReduction") {
  if (!hip_test::kernels_supported()) return;
  const int blocks = 16, threads = 256, n = blocks * threads;
  std::vector<float> in(n, 1.0f);
  hip_test::DeviceBuffer<float> d_in(n), d_out(1);
  HIP_CHECK(hipMemcpy(d_in.get(), in.data(), d_in.bytes(), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(d_out.get(), 0, sizeof(float)));
  HIP_LAUNCH_CHECK(warp_sum, dim3(blocks), dim3(threads), 0, nullptr, d_in.get(), d_out.get());
  float total = 0;
  HIP_CHECK(hipMemcpy(&total, d_out.get(), sizeof(float), hipMemcpyDeviceToHost));
  REQUIRE(total == static_cast<float>(n));
}

TEST_CASE("Unit_ballot_any_all_Positive") {
  if (!hip_test::kernels_supported()) return;
  const int threads = 96;  // three warps of 32, or one and a half of 64
  const int warps = (threads + warpSize - 1) / warpSize;
  std::vector<int> pred(threads, 0);
  for (int t = 0; t < threads; ++t) pred[t] = (t % 5 == 0) || (t >= warpSize && t < 2 * warpSize);
  hip_test::DeviceBuffer<int> d_pred(threads), d_any_all(warps * 2);
  hip_test::DeviceBuffer<unsigned long long> d_ballots(warps);
  HIP_CHECK(hipMemcpy(d_pred.get(), pred.data(), d_pred.bytes(), hipMemcpyHostToDevice));
  HIP_LAUNCH_CHECK(votes, dim3(1), dim3(threads), 0, nullptr, d_pred.get(), d_ballots.get(),
                   d_any_all.get());
  std::vector<unsigned long long> ballots(warps);
  std::vector<int> any_all(warps * 2);
  HIP_CHECK(hipMemcpy(ballots.data(), d_ballots.get(), d_ballots.bytes(), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(any_all.data(), d_any_all.get(), d_any_all.bytes(), hipMemcpyDeviceToHost));
  for (int w = 0; w < warps; ++w) {
    unsigned long long expected = 0;
    bool all = true;
    for (int l = 0; l < warpSize && w * warpSize + l < threads; ++l) {
      if (pred[w * warpSize + l]) expected |= 1ull << l;
      else all = false;
    }
    INFO("warp " << w);
    REQUIRE(ballots[w] == expected);
    REQUIRE(any_all[w * 2] == (expected != 0));
    REQUIRE(any_all[w * 2 + 1] == static_cast<int>(all));
  }
}

TEST_CASE("Unit_ballot_Positive_DivergentLanesExited") {
  if (!hip_test::kernels_supported()) return;
  const int threads = warpSize;
  hip_test::DeviceBuffer<unsigned long long> out(1);
  hip_test::DeviceBuffer<double> shuffled(threads);
  HIP_LAUNCH_CHECK(divergent_ballot, dim3(1), dim3(threads), 0, nullptr, out.get(), shuffled.get());
  unsigned long long ballot = 0;
  std::vector<double> h(threads);
  HIP_CHECK(hipMemcpy(&ballot, out.get(), sizeof(ballot), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(h.data(), shuffled.get(), shuffled.bytes(), hipMemcpyDeviceToHost));
  unsigned long long even = 0;
  for (int l = 0; l < threads; l += 2) even |= 1ull << l;
  REQUIRE(ballot == even);
  for (int l = 0; l < threads; l += 2) REQUIRE(h[l] == 2.5);
}

TEST_CASE("Unit_syncwarp_Positive_SharedHandoff") {
  if (!hip_test::kernels_supported()) return;
  const int threads = 64;
  hip_test::DeviceBuffer<int> data(threads);
  HIP_LAUNCH_CHECK(syncwarp_handoff, dim3(1), dim3(threads), 0, nullptr, data.get());
  std::vector<int> h(threads);
  HIP_CHECK(hipMemcpy(h.data(), data.get(), data.bytes(), hipMemcpyDeviceToHost));
  for (int t = 0; t < threads; ++t) {
    int lane = t % warpSize;
    int partner = (t / warpSize) * warpSize + (warpSize - 1 - lane);
    REQUIRE(h[t] == partner * 3);
  }
}

TEST_CASE("Unit_warp_Positive_MixedWithBlockBarrier") {
  if (!hip_test::kernels_supported()) return;
  const int blocks = 4, threads = 256;
  hip_test::DeviceBuffer<int> out(blocks);
  HIP_LAUNCH_CHECK(mixed, dim3(blocks), dim3(threads), 0, nullptr, out.get());
  std::vector<int> h(blocks);
  HIP_CHECK(hipMemcpy(h.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) REQUIRE(h[b] == threads * (threads - 1) / 2);
}
