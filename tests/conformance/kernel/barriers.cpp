// SPDX-License-Identifier: MIT
// Block-level semantics of single-source kernels: __shared__, __syncthreads and
// its reducing forms, shared-memory atomics, divergent exits, device assert.
#include "block_sum.hpp"
#include "fault_isolation.hpp"
#include "hip_test.hpp"

#include <numeric>
#include <vector>

namespace {

using kernel_tests::block_sum;

__global__ void reduce_forms(const int* flags, int* out) {
  int mine = flags[threadIdx.x];
  int count = __syncthreads_count(mine);
  int all = __syncthreads_and(mine);
  int any = __syncthreads_or(mine);
  if (threadIdx.x == 0) {
    out[0] = count;
    out[1] = all;
    out[2] = any;
  }
}

__global__ void shared_atomics(int* out, float* out_f) {
  __shared__ int counter;
  __shared__ float total;
  __shared__ unsigned maximum;
  if (threadIdx.x == 0) {
    counter = 0;
    total = 0.0f;
    maximum = 0;
  }
  __syncthreads();
  atomicAdd(&counter, 1);
  atomicAdd(&total, 0.5f);
  atomicMax(&maximum, threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    out[blockIdx.x * 2] = counter;
    out[blockIdx.x * 2 + 1] = static_cast<int>(maximum);
    out_f[blockIdx.x] = total;
  }
}

// Half the threads leave before the barrier: the rest must not wait for them.
__global__ void early_exit(int* out) {
  if (threadIdx.x % 2) return;
  __shared__ int seen;
  if (threadIdx.x == 0) seen = 0;
  __syncthreads();
  atomicAdd(&seen, 1);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = seen;
}

__global__ void assert_on_thread(int bad_thread, int* touched) {
  assert(static_cast<int>(threadIdx.x) != bad_thread);
  atomicAdd(touched, 1);
}

// Even threads wait at __syncthreads, odd ones in a warp exchange: neither can
// ever complete, which the engine must report instead of hanging.
__global__ void divergent_barriers(int* out) {
  if (threadIdx.x % 2 == 0) {
    __syncthreads();
  } else {
    __syncwarp();
  }
  out[threadIdx.x] = 1;
}

__global__ void barrier_in_2d_block(int* out) {
  __shared__ int tile[8][8];
  tile[threadIdx.y][threadIdx.x] = threadIdx.y * 8 + threadIdx.x;
  __syncthreads();
  // Transposed read needs every thread's write.
  out[threadIdx.y * 8 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

}  // namespace

TEST_CASE("Unit_syncthreads_Positive_BlockSumAllSizes") {
  if (!hip_test::kernels_supported()) return;
  for (unsigned threads : {1u, 32u, 64u, 256u, 1024u}) {
    const unsigned blocks = 7;
    std::vector<int> in(blocks * threads);
    std::iota(in.begin(), in.end(), 1);
    hip_test::DeviceBuffer<int> d_in(in.size()), d_out(blocks);
    HIP_CHECK(hipMemcpy(d_in.get(), in.data(), d_in.bytes(), hipMemcpyHostToDevice));
    HIP_LAUNCH_CHECK(block_sum, dim3(blocks), dim3(threads), 0, nullptr, d_in.get(), d_out.get());
    std::vector<int> out(blocks);
    HIP_CHECK(hipMemcpy(out.data(), d_out.get(), d_out.bytes(), hipMemcpyDeviceToHost));
    for (unsigned b = 0; b < blocks; ++b) {
      long long expected = 0;
      for (unsigned t = 0; t < threads; ++t) expected += in[b * threads + t];
      INFO("threads " << threads << " block " << b);
      REQUIRE(out[b] == expected);
    }
  }
}

TEST_CASE("Unit_syncthreads_Positive_TwoDimensionalBlock") {
  if (!hip_test::kernels_supported()) return;
  hip_test::DeviceBuffer<int> out(64);
  HIP_LAUNCH_CHECK(barrier_in_2d_block, dim3(1), dim3(8, 8), 0, nullptr, out.get());
  std::vector<int> host(64);
  HIP_CHECK(hipMemcpy(host.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) REQUIRE(host[y * 8 + x] == x * 8 + y);
}

TEST_CASE("Unit_syncthreads_count_and_or_Positive") {
  if (!hip_test::kernels_supported()) return;
  const int n = 128;
  hip_test::DeviceBuffer<int> flags(n), out(3);
  std::vector<int> host(n, 0);
  for (int i = 0; i < n; i += 3) host[i] = 1;
  int expected_count = (n + 2) / 3;
  HIP_CHECK(hipMemcpy(flags.get(), host.data(), flags.bytes(), hipMemcpyHostToDevice));
  HIP_LAUNCH_CHECK(reduce_forms, dim3(1), dim3(n), 0, nullptr, flags.get(), out.get());
  int result[3];
  HIP_CHECK(hipMemcpy(result, out.get(), sizeof(result), hipMemcpyDeviceToHost));
  REQUIRE(result[0] == expected_count);
  REQUIRE(result[1] == 0);
  REQUIRE(result[2] == 1);

  std::fill(host.begin(), host.end(), 1);
  HIP_CHECK(hipMemcpy(flags.get(), host.data(), flags.bytes(), hipMemcpyHostToDevice));
  HIP_LAUNCH_CHECK(reduce_forms, dim3(1), dim3(n), 0, nullptr, flags.get(), out.get());
  HIP_CHECK(hipMemcpy(result, out.get(), sizeof(result), hipMemcpyDeviceToHost));
  REQUIRE(result[0] == n);
  REQUIRE(result[1] == 1);
  REQUIRE(result[2] == 1);
}

TEST_CASE("Unit_atomics_Positive_SharedMemory") {
  if (!hip_test::kernels_supported()) return;
  const int blocks = 5, threads = 256;
  hip_test::DeviceBuffer<int> out(blocks * 2);
  hip_test::DeviceBuffer<float> out_f(blocks);
  HIP_LAUNCH_CHECK(shared_atomics, dim3(blocks), dim3(threads), 0, nullptr, out.get(), out_f.get());
  std::vector<int> host(blocks * 2);
  std::vector<float> host_f(blocks);
  HIP_CHECK(hipMemcpy(host.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(host_f.data(), out_f.get(), out_f.bytes(), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    REQUIRE(host[b * 2] == threads);
    REQUIRE(host[b * 2 + 1] == threads - 1);
    REQUIRE(host_f[b] == threads * 0.5f);
  }
}

TEST_CASE("Unit_syncthreads_Positive_ExitedThreadsDoNotBlock") {
  if (!hip_test::kernels_supported()) return;
  hip_test::DeviceBuffer<int> out(3);
  HIP_LAUNCH_CHECK(early_exit, dim3(3), dim3(64), 0, nullptr, out.get());
  int host[3];
  HIP_CHECK(hipMemcpy(host, out.get(), sizeof(host), hipMemcpyDeviceToHost));
  for (int v : host) REQUIRE(v == 32);
}

TEST_CASE("Unit_assert_Negative_FailingDeviceAssertReportsHipErrorAssert") {
  if (!hip_test::kernels_supported()) return;
  if (hip_test::ran_isolated()) return;  // faults the device
  hip_test::DeviceBuffer<int> touched(1);
  HIP_CHECK(hipMemset(touched.get(), 0, sizeof(int)));
  // A passing assert changes nothing.
  HIP_LAUNCH_CHECK(assert_on_thread, dim3(2), dim3(64), 0, nullptr, -1, touched.get());
  HIP_CHECK(hipDeviceSynchronize());
  int count = 0;
  HIP_CHECK(hipMemcpy(&count, touched.get(), sizeof(int), hipMemcpyDeviceToHost));
  REQUIRE(count == 128);
  // A failing one ends the launch with hipErrorAssert instead of aborting the process,
  // and the error sticks to the device: until hipDeviceReset on the CPU agent, until the
  // process ends on a GPU (CUDA's context is lost; this case runs in a child process there).
  HIP_LAUNCH_CHECK(assert_on_thread, dim3(2), dim3(64), 0, nullptr, 5, touched.get());
  REQUIRE(hipDeviceSynchronize() == hipErrorAssert);
  void* p = nullptr;
  REQUIRE(hipMalloc(&p, 4) == hipErrorAssert);
  if (!hip_test::device_recovers_from_faults()) {  // a GPU: the context is lost (a child process)
    hip_test::reset_after_fault(hipErrorAssert);   // the reset answers the fault, which stays
    (void)touched.release();
    return;
  }
  HIP_CHECK(hipDeviceReset());
  HIP_CHECK(hipDeviceSynchronize());
  (void)touched.release();  // reset freed it
}

TEST_CASE("Unit_syncthreads_Negative_DivergentBarriersReportLaunchFailure") {
  if (!hip_test::kernels_supported()) return;
  const std::string arch = hip_test::props().gcnArchName;
  if (arch != "x86_64" && arch != "aarch64") {
    // CUDA and HIP: a barrier some threads of the block skip is undefined (it may hang).
    hip_test::skip("divergent __syncthreads is undefined on a GPU; only the CPU agent reports it");
    return;
  }
  if (hip_test::ran_isolated()) return;  // faults the device
  hip_test::DeviceBuffer<int> out(64);
  HIP_LAUNCH_CHECK(divergent_barriers, dim3(2), dim3(64), 0, nullptr, out.get());
  REQUIRE(hipDeviceSynchronize() == hipErrorLaunchFailure);
  HIP_CHECK(hipDeviceReset());
  HIP_CHECK(hipDeviceSynchronize());
  (void)out.release();  // reset freed it
  // The device works again, barriers included.
  hip_test::DeviceBuffer<int> flags(64), result(3);
  HIP_CHECK(hipMemset(flags.get(), 0, flags.bytes()));
  HIP_LAUNCH_CHECK(reduce_forms, dim3(1), dim3(64), 0, nullptr, flags.get(), result.get());
  int host[3];
  HIP_CHECK(hipMemcpy(host, result.get(), sizeof(host), hipMemcpyDeviceToHost));
  REQUIRE(host[0] == 0);
  REQUIRE(host[1] == 0);
  REQUIRE(host[2] == 0);
}
