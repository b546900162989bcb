// SPDX-License-Identifier: MIT
// Warp operations in divergent code exchange only with the lanes at the same
// operation, as on a GPU: lanes inside a branch, in the extra iterations of a loop
// with a lane-dependent trip count, or left after early returns form their own
// group, and the whole warp meets again at the operation after the branch.
// Every result is compared with a host model of the exec-mask semantics.
#include "hip_test.hpp"

#include <hip/hip_runtime.h>

#include <cstdint>
#include <vector>

namespace {

constexpr int kWarp = 32;
constexpr int kThreads = 64;  // two warps per block
constexpr int kBlocks = 3;
constexpr int kTotal = kThreads * kBlocks;

int start_value(int global_thread) { return 7 * global_thread + 3; }

// Lanes 0-3 shuffle inside a branch, then the whole warp reduces.
__global__ void branch_then_reduce(int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(__lane_id());
  int v = 7 * t + 3;
  if (lane < 4) v = __shfl(v, 3);
  for (int offset = kWarp / 2; offset > 0; offset /= 2) v += __shfl_xor(v, offset);
  out[t] = v;
}

// The branch holds the later lanes, and the first lanes wait after it.
__global__ void late_lanes_branch(int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(__lane_id());
  int v = 7 * t + 3;
  if (lane >= 4) v = __shfl_down(v, 1);
  int sum = v;
  for (int offset = 1; offset < kWarp; offset *= 2) {
    int up = __shfl_up(sum, static_cast<unsigned>(offset));
    if (lane >= offset) sum += up;
  }
  out[t] = sum;  // inclusive prefix sum over the warp
}

// Votes inside a branch see only the branch's lanes.
__global__ void votes_in_branch(unsigned long long* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(__lane_id());
  unsigned long long ballot = 0, active = 0, synced = 0;
  int any = -1, all = -1;
  if (lane % 3 == 0) {
    ballot = __ballot(lane % 2 == 0);
    any = __any(lane == 9);
    all = __all(lane < 30);
    __syncwarp();
    synced = __activemask();
    active = __ballot_sync(~0ull, 1);
  }
  const unsigned long long everyone = __activemask();
  __syncwarp();
  const int any_after = __any_sync(~0ull, lane == 31);
  const int all_after = __all_sync(~0ull, lane >= 0);
  unsigned long long* o = out + t * 8;
  o[0] = ballot;
  o[1] = static_cast<unsigned long long>(any);
  o[2] = static_cast<unsigned long long>(all);
  o[3] = synced;
  o[4] = active;
  o[5] = everyone;
  o[6] = static_cast<unsigned long long>(any_after);
  o[7] = static_cast<unsigned long long>(all_after);
}

// Lane l runs l % 4 + 1 iterations; each iteration exchanges among the lanes still
// looping; then the whole warp meets again.
__global__ void loop_trip_counts(int* out, unsigned long long* masks) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(__lane_id());
  int v = 7 * t + 3;
  const int trips = lane % 4 + 1;
  for (int i = 0; i < trips; ++i) {
    v += __shfl_xor(v, 1);
    masks[t * 5 + i] = __activemask();
  }
  masks[t * 5 + 4] = __ballot(v % 2 == 0);
  out[t] = __shfl(v, 0);
}

// Lanes leave at different points: some inside a branch after its exchange.
__global__ void early_returns(int* out, unsigned long long* masks) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(__lane_id());
  int v = 7 * t + 3;
  out[t] = -1;
  masks[t] = 0;
  if (lane < 8) {
    v = __shfl_up(v, 1);
    if (lane == 2) {
      out[t] = v;
      return;
    }
  }
  if (lane % 5 == 4) return;
  for (int offset = kWarp / 2; offset > 0; offset /= 2) v += __shfl_xor(v, offset);
  masks[t] = __activemask();
  out[t] = v;
}

// hipLaunchKernelGGL takes the kernel as a template argument.
template <typename T, void (*Kernel)(T*)>
std::vector<T> run(size_t per_thread) {
  hip_test::DeviceBuffer<T> d(kTotal * per_thread);
  HIP_LAUNCH_CHECK(Kernel, dim3(kBlocks), dim3(kThreads), 0, nullptr, d.get());
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<T> h(kTotal * per_thread);
  HIP_CHECK(hipMemcpy(h.data(), d.get(), d.bytes(), hipMemcpyDeviceToHost));
  return h;
}

// The values of one warp (first global thread `base`).
std::vector<int> warp_values(int base) {
  std::vector<int> v(kWarp);
  for (int l = 0; l < kWarp; ++l) v[l] = start_value(base + l);
  return v;
}

}  // namespace

TEST_CASE("Language_warp_sites_BranchShuffleThenReduction") {
  if (!hip_test::kernels_supported()) return;
  const std::vector<int> got = run<int, branch_then_reduce>(1);
  for (int base = 0; base < kTotal; base += kWarp) {
    std::vector<int> v = warp_values(base);
    for (int l = 0; l < 4; ++l) v[l] = v[3];  // the branch's lanes read lane 3
    int sum = 0;
    for (int l = 0; l < kWarp; ++l) sum += v[l];
    for (int l = 0; l < kWarp; ++l) {
      INFO("thread " << base + l);
      REQUIRE(got[base + l] == sum);
    }
  }
}

TEST_CASE("Language_warp_sites_LateLanesBranchThenScan") {
  if (!hip_test::kernels_supported()) return;
  const std::vector<int> got = run<int, late_lanes_branch>(1);
  for (int base = 0; base < kTotal; base += kWarp) {
    const std::vector<int> before = warp_values(base);
    std::vector<int> v = before;
    // Lanes 4-31 shift down among themselves; lane 31's source is outside the warp.
    for (int l = 4; l < kWarp - 1; ++l) v[l] = before[l + 1];
    int sum = 0;
    for (int l = 0; l < kWarp; ++l) {
      sum += v[l];
      INFO("thread " << base + l);
      REQUIRE(got[base + l] == sum);
    }
  }
}

TEST_CASE("Language_warp_sites_VotesAndSyncwarpInBranch") {
  if (!hip_test::kernels_supported()) return;
  const std::vector<unsigned long long> got = run<unsigned long long, votes_in_branch>(8);
  unsigned long long branch = 0, even = 0;
  for (int l = 0; l < kWarp; ++l) {
    if (l % 3 == 0) branch |= 1ull << l;
    if (l % 2 == 0) even |= 1ull << l;
  }
  const unsigned long long full = kWarp == 64 ? ~0ull : (1ull << kWarp) - 1;
  for (int t = 0; t < kTotal; ++t) {
    const int lane = t % kWarp;
    const unsigned long long* o = &got[t * 8];
    INFO("thread " << t);
    if (lane % 3 == 0) {
      REQUIRE(o[0] == (branch & even));
      REQUIRE(o[1] == 1u);  // lane 9 is in the branch
      REQUIRE(o[2] == 0u);  // lane 30 is too
      REQUIRE(o[3] == branch);
      REQUIRE(o[4] == branch);
    } else {
      REQUIRE(o[0] == 0u);
      REQUIRE(o[3] == 0u);
    }
    REQUIRE(o[5] == full);
    REQUIRE(o[6] == 1u);
    REQUIRE(o[7] == 1u);
  }
}

TEST_CASE("Language_warp_sites_LoopWithLaneTripCounts") {
  if (!hip_test::kernels_supported()) return;
  hip_test::DeviceBuffer<int> d_out(kTotal);
  hip_test::DeviceBuffer<unsigned long long> d_masks(kTotal * 5);
  HIP_CHECK(hipMemset(d_masks.get(), 0, d_masks.bytes()));
  HIP_LAUNCH_CHECK(loop_trip_counts, dim3(kBlocks), dim3(kThreads), 0, nullptr, d_out.get(),
                   d_masks.get());
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<int> out(kTotal);
  std::vector<unsigned long long> masks(kTotal * 5);
  HIP_CHECK(hipMemcpy(out.data(), d_out.get(), d_out.bytes(), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(masks.data(), d_masks.get(), d_masks.bytes(), hipMemcpyDeviceToHost));
  for (int base = 0; base < kTotal; base += kWarp) {
    std::vector<int> v = warp_values(base);
    std::vector<unsigned long long> active(4, 0);
    for (int i = 0; i < 4; ++i) {
      for (int l = 0; l < kWarp; ++l)
        if (l % 4 + 1 > i) active[i] |= 1ull << l;
      const std::vector<int> before = v;
      for (int l = 0; l < kWarp; ++l) {
        if (!(active[i] >> l & 1)) continue;
        const int partner = l ^ 1;
        v[l] += (active[i] >> partner & 1) ? before[partner] : before[l];
      }
    }
    unsigned long long even = 0;
    for (int l = 0; l < kWarp; ++l)
      if (v[l] % 2 == 0) even |= 1ull << l;
    for (int l = 0; l < kWarp; ++l) {
      const int t = base + l;
      INFO("thread " << t);
      for (int i = 0; i < l % 4 + 1; ++i) REQUIRE(masks[t * 5 + i] == active[i]);
      REQUIRE(masks[t * 5 + 4] == even);
      REQUIRE(out[t] == v[0]);
    }
  }
}

TEST_CASE("Language_warp_sites_EarlyReturns") {
  if (!hip_test::kernels_supported()) return;
  hip_test::DeviceBuffer<int> d_out(kTotal);
  hip_test::DeviceBuffer<unsigned long long> d_masks(kTotal);
  HIP_LAUNCH_CHECK(early_returns, dim3(kBlocks), dim3(kThreads), 0, nullptr, d_out.get(),
                   d_masks.get());
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<int> out(kTotal);
  std::vector<unsigned long long> masks(kTotal);
  HIP_CHECK(hipMemcpy(out.data(), d_out.get(), d_out.bytes(), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(masks.data(), d_masks.get(), d_masks.bytes(), hipMemcpyDeviceToHost));
  for (int base = 0; base < kTotal; base += kWarp) {
    const std::vector<int> before = warp_values(base);
    std::vector<int> v = before;
    for (int l = 1; l < 8; ++l) v[l] = before[l - 1];  // lanes 0-7 shift up; lane 0 keeps its own
    unsigned long long stay = 0;
    for (int l = 0; l < kWarp; ++l)
      if (l != 2 && l % 5 != 4) stay |= 1ull << l;
    // The butterfly among the lanes left: a lane whose partner returned adds its own value.
    for (int offset = kWarp / 2; offset > 0; offset /= 2) {
      const std::vector<int> step = v;
      for (int l = 0; l < kWarp; ++l) {
        const int partner = l ^ offset;
        v[l] += (stay >> partner & 1) ? step[partner] : step[l];
      }
    }
    for (int l = 0; l < kWarp; ++l) {
      const int t = base + l;
      INFO("thread " << t);
      if (l == 2) {
        REQUIRE(out[t] == before[1]);
      } else if (l % 5 == 4) {
        REQUIRE(out[t] == -1);
      } else {
        REQUIRE(out[t] == v[l]);
        REQUIRE(masks[t] == stay);
      }
    }
  }
}
