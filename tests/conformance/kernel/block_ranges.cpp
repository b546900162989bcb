// SPDX-License-Identifier: MIT
// Barrier and warp kernels over many blocks: the CPU agent runs each worker's
// share of the grid on fibers that stay inside the kernel from block to block, so
// these check that every block sees its own blockIdx, fresh barrier and warp
// state, and that exits, odd block shapes and a failing block mid-grid behave.
#include "block_sum.hpp"
#include "fault_isolation.hpp"
#include "hip_test.hpp"

#include <vector>

namespace {

using kernel_tests::block_sum;

// A 2D tile transposed through shared memory; every block checks its own index.
__global__ void transpose_tiles(int* out) {
  __shared__ int tile[16][16];
  unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
  tile[threadIdx.y][threadIdx.x] = static_cast<int>(block * 256 + threadIdx.y * 16 + threadIdx.x);
  __syncthreads();
  out[block * 256 + threadIdx.y * 16 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// The first threads of every block leave before any barrier, so the first
// thread to wait is not thread 0; odd ones leave between the barriers.
__global__ void staggered_exits(int* out) {
  __shared__ int arrived;
  if (threadIdx.x < 3) return;
  if (threadIdx.x == 3) arrived = 0;
  __syncthreads();
  atomicAdd(&arrived, 1);
  if (threadIdx.x % 2) return;
  __syncthreads();
  int second = __syncthreads_count(1);  // the even threads from 4 on
  if (threadIdx.x == 4) out[blockIdx.x] = arrived * 1000 + second;
}

// Warp sums of blocks whose last warp is partial.
__global__ void warp_sums(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  if (__lane_id() == 0) out[blockIdx.x * 4 + threadIdx.x / warpSize] = v;
}

__global__ void assert_in_block(int bad_block, int* touched) {
  __syncthreads();
  assert(!(static_cast<int>(blockIdx.x) == bad_block && threadIdx.x == 17));
  atomicAdd(touched, 1);
}

}  // namespace

TEST_CASE("Unit_syncthreads_Positive_ManyBlocksEverySize") {
  if (!hip_test::kernels_supported()) return;
  for (unsigned threads : {1u, 33u, 48u, 64u, 256u}) {
    const unsigned blocks = 1500;
    std::vector<int> in(blocks * threads);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i % 97);
    hip_test::DeviceBuffer<int> d_in(in.size()), d_out(blocks);
    HIP_CHECK(hipMemcpy(d_in.get(), in.data(), d_in.bytes(), hipMemcpyHostToDevice));
    HIP_LAUNCH_CHECK(block_sum, dim3(blocks), dim3(threads), 0, nullptr, d_in.get(), d_out.get());
    std::vector<int> out(blocks);
    HIP_CHECK(hipMemcpy(out.data(), d_out.get(), d_out.bytes(), hipMemcpyDeviceToHost));
    for (unsigned b = 0; b < blocks; ++b) {
      int expected = 0;
      for (unsigned t = 0; t < threads; ++t) expected += in[b * threads + t];
      INFO("threads " << threads << " block " << b);
      REQUIRE(out[b] == expected);
    }
  }
}

TEST_CASE("Unit_syncthreads_Positive_TwoDimensionalGridOfTiles") {
  if (!hip_test::kernels_supported()) return;
  const unsigned gx = 24, gy = 20, blocks = gx * gy;
  hip_test::DeviceBuffer<int> out(blocks * 256);
  HIP_LAUNCH_CHECK(transpose_tiles, dim3(gx, gy), dim3(16, 16), 0, nullptr, out.get());
  std::vector<int> host(blocks * 256);
  HIP_CHECK(hipMemcpy(host.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned y = 0; y < 16; ++y)
      for (unsigned x = 0; x < 16; ++x) {
        INFO("block " << b << " y " << y << " x " << x);
        REQUIRE(host[b * 256 + y * 16 + x] == static_cast<int>(b * 256 + x * 16 + y));
      }
}

TEST_CASE("Unit_syncthreads_Positive_StaggeredExitsManyBlocks") {
  if (!hip_test::kernels_supported()) return;
  const unsigned blocks = 800, threads = 70;
  hip_test::DeviceBuffer<int> out(blocks);
  HIP_LAUNCH_CHECK(staggered_exits, dim3(blocks), dim3(threads), 0, nullptr, out.get());
  std::vector<int> host(blocks);
  HIP_CHECK(hipMemcpy(host.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  // 67 threads reach the first barrier; the 33 even ones from 4 to 68 the others.
  for (unsigned b = 0; b < blocks; ++b) {
    INFO("block " << b);
    REQUIRE(host[b] == 67 * 1000 + 33);
  }
}

TEST_CASE("Unit_shfl_down_Positive_PartialWarpsManyBlocks") {
  if (!hip_test::kernels_supported()) return;
  for (unsigned threads : {40u, 96u, 100u}) {
    const unsigned blocks = 700;
    std::vector<int> in(blocks * threads);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i % 13);
    hip_test::DeviceBuffer<int> d_in(in.size()), d_out(blocks * 4);
    HIP_CHECK(hipMemcpy(d_in.get(), in.data(), d_in.bytes(), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_out.get(), 0, d_out.bytes()));
    HIP_LAUNCH_CHECK(warp_sums, dim3(blocks), dim3(threads), 0, nullptr, d_in.get(), d_out.get());
    std::vector<int> out(blocks * 4);
    HIP_CHECK(hipMemcpy(out.data(), d_out.get(), d_out.bytes(), hipMemcpyDeviceToHost));
    const unsigned warp = static_cast<unsigned>(warpSize);
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned w = 0; w * warp < threads; ++w) {
        // Replays the reduction on the host: a lane whose source lane does not
        // exist (past the end of a partial warp) gets its own value back.
        unsigned lanes = threads - w * warp < warp ? threads - w * warp : warp;
        std::vector<int> v(lanes);
        for (unsigned l = 0; l < lanes; ++l) v[l] = in[b * threads + w * warp + l];
        for (unsigned offset = warp / 2; offset > 0; offset /= 2) {
          std::vector<int> next(lanes);
          for (unsigned l = 0; l < lanes; ++l)
            next[l] = v[l] + (l + offset < lanes ? v[l + offset] : v[l]);
          v = next;
        }
        INFO("threads " << threads << " block " << b << " warp " << w);
        REQUIRE(out[b * 4 + w] == v[0]);
      }
  }
}

TEST_CASE("Unit_assert_Negative_FailureInALaterBlockOfTheGrid") {
  if (!hip_test::kernels_supported()) return;
  if (hip_test::ran_isolated()) return;  // faults the device
  hip_test::DeviceBuffer<int> touched(1);
  HIP_CHECK(hipMemset(touched.get(), 0, sizeof(int)));
  HIP_LAUNCH_CHECK(assert_in_block, dim3(600), dim3(64), 0, nullptr, -1, touched.get());
  HIP_CHECK(hipDeviceSynchronize());
  int count = 0;
  HIP_CHECK(hipMemcpy(&count, touched.get(), sizeof(int), hipMemcpyDeviceToHost));
  REQUIRE(count == 600 * 64);
  HIP_LAUNCH_CHECK(assert_in_block, dim3(600), dim3(64), 0, nullptr, 437, touched.get());
  REQUIRE(hipDeviceSynchronize() == hipErrorAssert);
  if (!hip_test::device_recovers_from_faults()) {  // a GPU: the context is lost (a child process)
    hip_test::reset_after_fault(hipErrorAssert);   // the reset answers the fault, which stays
    (void)touched.release();
    return;
  }
  HIP_CHECK(hipDeviceReset());
  (void)touched.release();  // reset freed it
  // Barrier kernels run normally afterwards, on fibers reused from the failed grid.
  const unsigned blocks = 300, threads = 64;
  std::vector<int> in(blocks * threads, 1);
  hip_test::DeviceBuffer<int> d_in(in.size()), d_out(blocks);
  HIP_CHECK(hipMemcpy(d_in.get(), in.data(), d_in.bytes(), hipMemcpyHostToDevice));
  HIP_LAUNCH_CHECK(block_sum, dim3(blocks), dim3(threads), 0, nullptr, d_in.get(), d_out.get());
  std::vector<int> out(blocks);
  HIP_CHECK(hipMemcpy(out.data(), d_out.get(), d_out.bytes(), hipMemcpyDeviceToHost));
  for (unsigned b = 0; b < blocks; ++b) REQUIRE(out[b] == static_cast<int>(threads));
}
