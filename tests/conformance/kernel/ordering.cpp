// SPDX-License-Identifier: MIT
// Stream ordering under stress: dependent launch pairs must never run out of
// order, on the null stream and on created streams (HIP-CPU lost order on the
// null stream in 12 of 50 trials).
#include "hip_test.hpp"

namespace {

__global__ void write_value(int* slot, int value) { *slot = value; }

__global__ void check_and_bump(int* slot, int expected, int* violations) {
  if (*slot != expected) atomicAdd(violations, 1);
  *slot = expected + 1;
}

int run_pairs(hipStream_t stream, int trials, int pairs) {
  hip_test::DeviceBuffer<int> slot(1), violations(1);
  HIP_CHECK(hipMemset(violations.get(), 0, sizeof(int)));
  for (int trial = 0; trial < trials; ++trial) {
    for (int i = 0; i < pairs; ++i) {
      hipLaunchKernelGGL(write_value, dim3(1), dim3(1), 0, stream, slot.get(), 2 * i);
      hipLaunchKernelGGL(check_and_bump, dim3(1), dim3(1), 0, stream, slot.get(), 2 * i,
                         violations.get());
    }
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipStreamSynchronize(stream));
  }
  int count = -1;
  HIP_CHECK(hipMemcpy(&count, violations.get(), sizeof(int), hipMemcpyDeviceToHost));
  return count;
}

}  // namespace

TEST_CASE("Unit_ordering_Positive_DependentPairsNullStream") {
  if (!hip_test::kernels_supported()) return;
  REQUIRE(run_pairs(nullptr, 50, 1000) == 0);
}

TEST_CASE("Unit_ordering_Positive_DependentPairsCreatedStream") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream stream;
  REQUIRE(run_pairs(stream.get(), 50, 1000) == 0);
}

TEST_CASE("Unit_ordering_Positive_DependentPairsNonBlockingStream") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream stream(hipStreamNonBlocking);
  REQUIRE(run_pairs(stream.get(), 50, 1000) == 0);
}
