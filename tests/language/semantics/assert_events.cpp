// SPDX-License-Identifier: MIT
// A failed device assert is reported by an event recorded after the failing
// kernel (hipEventSynchronize and hipEventQuery), not only by a device or stream
// synchronize; it is then the device's sticky error until hipDeviceReset.
#include "fault_isolation.hpp"
#include "hip_test.hpp"

#include <hip/hip_runtime.h>

#include <cassert>

namespace {

__global__ void assert_in_thread(int failing_thread, int* touched) {
  const int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  assert(t != failing_thread);
  atomicAdd(touched, 1);
}

// Launches the failing kernel on a new stream, records an event after it and
// returns the event (the stream and event go with the reset).
hipEvent_t record_after_failure(int* touched) {
  hipStream_t stream = nullptr;
  hipEvent_t event = nullptr;
  HIP_CHECK(hipStreamCreate(&stream));
  HIP_CHECK(hipEventCreate(&event));
  HIP_LAUNCH_CHECK(assert_in_thread, dim3(4), dim3(64), 0, stream, 77, touched);
  HIP_CHECK(hipEventRecord(event, stream));
  return event;
}

}  // namespace

TEST_CASE("Language_assert_events_EventSynchronizeReportsAssert") {
  if (!hip_test::kernels_supported()) return;
  if (hip_test::ran_isolated()) return;  // faults the device
  hip_test::DeviceBuffer<int> touched(1);
  HIP_CHECK(hipMemset(touched.get(), 0, sizeof(int)));
  hipEvent_t event = record_after_failure(touched.get());
  REQUIRE(hipEventSynchronize(event) == hipErrorAssert);
  void* p = nullptr;
  REQUIRE(hipMalloc(&p, 4) == hipErrorAssert);     // sticky, as after a device synchronize
  if (!hip_test::device_recovers_from_faults()) {  // a GPU: the context is lost (a child process)
    hip_test::reset_after_fault(hipErrorAssert);   // the reset answers the fault, which stays
    (void)touched.release();
    return;
  }
  HIP_CHECK(hipDeviceReset());
  (void)touched.release();  // reset freed it
}

TEST_CASE("Language_assert_events_EventQueryReportsAssert") {
  if (!hip_test::kernels_supported()) return;
  if (hip_test::ran_isolated()) return;  // faults the device
  hip_test::DeviceBuffer<int> touched(1);
  HIP_CHECK(hipMemset(touched.get(), 0, sizeof(int)));
  hipEvent_t event = record_after_failure(touched.get());
  hipError_t query = hipErrorNotReady;
  while ((query = hipEventQuery(event)) == hipErrorNotReady) hip_test::sleep_ms(1);
  REQUIRE(query == hipErrorAssert);
  if (!hip_test::device_recovers_from_faults()) {  // a GPU: the context is lost (a child process)
    hip_test::reset_after_fault(hipErrorAssert);   // the reset answers the fault, which stays
    (void)touched.release();
    return;
  }
  HIP_CHECK(hipDeviceReset());
  (void)touched.release();
}
