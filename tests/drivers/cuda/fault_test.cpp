// SPDX-License-Identifier: MIT
// A kernel that faults (illegal address) on the NVIDIA agent: the error shows up
// at the next synchronization as hipErrorIllegalAddress, sticks to the device
// (every later call on it fails the same way), and the process keeps running.
// Its own binary: the CUDA context is unusable afterwards.
//
// The faulting kernel is launched through a driver instance of the test's own;
// it shares the process's primary context with the HIP runtime, which is what a
// hipModuleLaunchKernel of the same cubin would do.
#include "gpu_support.hpp"

using gpu_test::ArgPacker;
using gpu_test::value_of;

TEST_CASE("Cuda_Fault_IllegalAddress_IsStickyAndProcessSurvives") {
  auto* d = gpu_test::gpu();
  if (!d) return;
  auto fault = gpu_test::kernel("fault");
  if (!fault) return;
  // The HIP device that is this GPU (same PCI location).
  hipDeviceProp_tR0600 want{};
  d->properties(want);
  int count = 0, ordinal = -1;
  HIP_CHECK(hipGetDeviceCount(&count));
  for (int i = 0; i < count && ordinal < 0; ++i) {
    hipDeviceProp_t p{};
    HIP_CHECK(hipGetDeviceProperties(&p, i));
    if (p.pciBusID == want.pciBusID && p.pciDomainID == want.pciDomainID &&
        p.pciDeviceID == want.pciDeviceID && std::string(p.gcnArchName) == want.gcnArchName)
      ordinal = i;
  }
  REQUIRE(ordinal >= 0);
  HIP_CHECK(hipSetDevice(ordinal));
  hipStream_t stream = nullptr;
  HIP_CHECK(hipStreamCreate(&stream));
  void* ok_before = nullptr;
  HIP_CHECK(hipMalloc(&ok_before, 256));

  auto queue = value_of(d->create_queue(weft::QueueOptions{}));
  auto args = ArgPacker(*fault).add(reinterpret_cast<int*>(0x10)).bytes();
  WEFT_REQUIRE_OK(queue->submit(gpu_test::dispatch(fault, dim3(1), dim3(1), args)));
  weft::Status s = queue->synchronize();
  INFO(s.message());
  CHECK(s.code() == hipErrorIllegalAddress);
  CHECK(s.message().find("CUDA_ERROR_ILLEGAL_ADDRESS") != std::string::npos);
  CHECK(queue->synchronize().code() == hipErrorIllegalAddress);  // the queue keeps it

  // Through HIP: the next synchronization reports it, and then it sticks.
  HIP_CHECK_ERROR(hipStreamSynchronize(stream), hipErrorIllegalAddress);
  void* p = nullptr;
  HIP_CHECK_ERROR(hipMalloc(&p, 256), hipErrorIllegalAddress);
  HIP_CHECK_ERROR(hipDeviceSynchronize(), hipErrorIllegalAddress);
  CHECK(hipGetLastError() == hipErrorIllegalAddress);
  // A reset cannot bring the context back (DeviceCaps::faults_lose_context): it says so.
  HIP_CHECK_ERROR(hipDeviceReset(), hipErrorIllegalAddress);
  HIP_CHECK_ERROR(hipMalloc(&p, 256), hipErrorIllegalAddress);
  WARN("after the fault: " << s.message() << "; the process is still running");
}
