// SPDX-License-Identifier: MIT
// Cooperative groups in the x86_64 image: thread_block, static and dynamic tiles with
// their shuffles and votes, coalesced_threads, and grid.sync() in a cooperative launch.
#include "check.h"

#include <hip/hip_cooperative_groups.h>

#include <vector>

namespace cg = cooperative_groups;

__global__ void tiles(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int v = int(block.thread_rank());
  for (int o = 8; o > 0; o /= 2) v += tile.shfl_xor(v, o);
  out[block.thread_rank() * 4 + 0] = v;
  out[block.thread_rank() * 4 + 1] = int(tile.ballot(tile.thread_rank() % 2 == 0));
  cg::thread_group dyn = cg::tiled_partition(block, 8);
  out[block.thread_rank() * 4 + 2] = int(dyn.size() * 100 + dyn.thread_rank());
  block.sync();
  if (block.thread_rank() % 3 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    out[block.thread_rank() * 4 + 3] = int(active.size());
  } else {
    out[block.thread_rank() * 4 + 3] = -1;
  }
}

__global__ void grid_total(const int* in, int* partial, int* total) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  static __shared__ int sum;
  if (block.thread_rank() == 0) sum = 0;
  block.sync();
  atomicAdd(&sum, in[grid.thread_rank()]);
  block.sync();
  if (block.thread_rank() == 0) partial[blockIdx.x] = sum;
  grid.sync();
  if (grid.thread_rank() == 0) {
    int s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) s += partial[b];
    *total = s;
  }
}

int main() {
  int* d;
  HIP_OK(hipMalloc(&d, 64 * 4 * sizeof(int)));
  tiles<<<1, 64>>>(d);
  std::vector<int> h(64 * 4);
  HIP_OK(hipMemcpy(h.data(), d, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int t = 0; t < 64; ++t) {
    int base = t / 16 * 16, sum = 0;
    for (int k = 0; k < 16; ++k) sum += base + k;
    CHECK(h[t * 4 + 0] == sum);
    CHECK(h[t * 4 + 1] == 0x5555);
    CHECK(h[t * 4 + 2] == 800 + t % 8);
    // lanes with rank % 3 == 0 of this thread's warp of 32
    int w = t / 32 * 32, active = 0;
    for (int k = w; k < w + 32; ++k) active += k % 3 == 0;
    CHECK(h[t * 4 + 3] == (t % 3 == 0 ? active : -1));
  }

  int blocks = 0;
  HIP_OK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, grid_total, 64, 0));
  int units = 0;
  HIP_OK(hipDeviceGetAttribute(&units, hipDeviceAttributeMultiprocessorCount, 0));
  const int grid = blocks * units < 4 ? blocks * units : 4, n = grid * 64;
  std::vector<int> in(n);
  long expect = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = i % 13;
    expect += in[i];
  }
  int *din, *partial, *total;
  HIP_OK(hipMalloc(&din, n * sizeof(int)));
  HIP_OK(hipMalloc(&partial, grid * sizeof(int)));
  HIP_OK(hipMalloc(&total, sizeof(int)));
  HIP_OK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  void* args[] = {&din, &partial, &total};
  HIP_OK(hipLaunchCooperativeKernel(reinterpret_cast<const void*>(&grid_total), dim3(grid),
                                    dim3(64), args, 0, nullptr));
  int got = 0;
  HIP_OK(hipMemcpy(&got, total, sizeof got, hipMemcpyDeviceToHost));
  CHECK(got == expect);
  HIP_OK(hipFree(total));
  HIP_OK(hipFree(partial));
  HIP_OK(hipFree(din));
  HIP_OK(hipFree(d));
  return finish("weftcc_cpu coop");
}
