// SPDX-License-Identifier: MIT
// hipMemcpyAsync with pageable host memory (plain malloc) is synchronous with
// respect to that buffer, as HIP and CUDA define it: a host-to-device source may
// be freed as soon as the call returns, and a device-to-host destination holds
// the data when the call returns. Pinned memory stays asynchronous. A gate kernel
// keeps the stream busy so that a copy run later by the stream would be seen.
#include "hip_test.hpp"

#include <hip/hip_runtime.h>

#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr size_t kCount = 1 << 16;

int pattern(size_t i) { return static_cast<int>(i * 2654435761u >> 7); }

__global__ void fill_pattern(int* out, size_t n) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = static_cast<int>(i * 2654435761u >> 7);
}

}  // namespace

TEST_CASE("Language_pageable_copies_HostToDeviceSourceFreedRightAway") {
  if (!hip_test::kernels_supported()) return;
  hip_test::DeviceBuffer<int> device(kCount);
  hip_test::Stream stream;
  hip_test::Gate gate;
  gate.launch(stream.get());
  auto* source = static_cast<int*>(std::malloc(kCount * sizeof(int)));
  REQUIRE(source != nullptr);
  for (size_t i = 0; i < kCount; ++i) source[i] = pattern(i);
  HIP_CHECK(hipMemcpyAsync(device.get(), source, kCount * sizeof(int), hipMemcpyHostToDevice,
                           stream.get()));
  // The call returned: the source is the program's again.
  std::memset(source, 0xEE, kCount * sizeof(int));
  std::free(source);
  gate.open();
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  REQUIRE(gate.state() == hip_test::Gate::kReleased);
  std::vector<int> back(kCount);
  HIP_CHECK(hipMemcpy(back.data(), device.get(), device.bytes(), hipMemcpyDeviceToHost));
  for (size_t i = 0; i < kCount; ++i) {
    INFO("element " << i);
    REQUIRE(back[i] == pattern(i));
  }
}

TEST_CASE("Language_pageable_copies_DeviceToHostDoneWhenTheCallReturns") {
  if (!hip_test::kernels_supported()) return;
  hip_test::DeviceBuffer<int> device(kCount);
  HIP_CHECK(hipMemset(device.get(), 0, device.bytes()));
  hip_test::Stream stream;
  hip_test::Gate gate;
  gate.launch(stream.get());
  HIP_LAUNCH_CHECK(fill_pattern, dim3(kCount / 256), dim3(256), 0, stream.get(), device.get(),
                   kCount);
  std::vector<int> host(kCount, -1);  // pageable
  REQUIRE(gate.wait_started());
  // The copy waits behind the gate; the call can return only once another thread opens it.
  std::thread opener([&] {
    hip_test::sleep_ms(100);
    gate.open();
  });
  const hipError_t copied = hipMemcpyAsync(host.data(), device.get(), device.bytes(),
                                           hipMemcpyDeviceToHost, stream.get());
  std::vector<int> seen = host;  // right after the call, before any synchronize
  opener.join();
  REQUIRE(copied == hipSuccess);
  for (size_t i = 0; i < kCount; ++i) {
    INFO("element " << i);
    REQUIRE(seen[i] == pattern(i));
  }
  HIP_CHECK(hipStreamSynchronize(stream.get()));
}

TEST_CASE("Language_pageable_copies_PinnedStaysAsynchronous") {
  if (!hip_test::kernels_supported()) return;
  hip_test::DeviceBuffer<int> device(kCount);
  hip_test::PinnedBuffer<int> pinned(kCount);
  std::vector<int> registered_storage(kCount, 0);
  HIP_CHECK(
      hipHostRegister(registered_storage.data(), kCount * sizeof(int), hipHostRegisterDefault));
  for (size_t i = 0; i < kCount; ++i) pinned[i] = pattern(i);
  hip_test::Stream stream;
  hip_test::Gate gate;
  gate.launch(stream.get());
  HIP_CHECK(hipMemcpyAsync(device.get(), pinned.get(), pinned.bytes(), hipMemcpyHostToDevice,
                           stream.get()));
  HIP_CHECK(hipMemcpyAsync(registered_storage.data(), device.get(), device.bytes(),
                           hipMemcpyDeviceToHost, stream.get()));
  // Both calls returned while the gate still holds the stream.
  REQUIRE(gate.state() == hip_test::Gate::kNotFinished);
  gate.open();
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  REQUIRE(gate.state() == hip_test::Gate::kReleased);
  for (size_t i = 0; i < kCount; ++i) {
    INFO("element " << i);
    REQUIRE(registered_storage[i] == pattern(i));
  }
  HIP_CHECK(hipHostUnregister(registered_storage.data()));
}
