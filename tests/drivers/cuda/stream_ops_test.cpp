// SPDX-License-Identifier: MIT
// Stream memory operations, stream attributes and CU masks on the NVIDIA agent
// (api/stream_memory.hpp): waits and writes on pinned host memory run in stream
// order through the queue's host lane; the GPU's device memory is refused; the
// queues take no CU mask. Without an NVIDIA agent every case prints SKIPPED.
#include <string>

#include "hip_test.hpp"

namespace {

int nvidia_gpu_or_skip() {
  int count = 0;
  if (hipGetDeviceCount(&count) != hipSuccess) count = 0;
  for (int i = 0; i < count; ++i) {
    hipDeviceProp_t p{};
    if (hipGetDeviceProperties(&p, i) == hipSuccess &&
        std::string(p.gcnArchName).rfind("sm_", 0) == 0) {
      HIP_CHECK(hipSetDevice(i));
      return i;
    }
  }
  hip_test::skip("no NVIDIA agent (hip-smi / AMD_LOG_LEVEL=3 says why)");
  return -1;
}

}  // namespace

TEST_CASE("Cuda_hipStreamWaitValue_PinnedWordReleasedByAnotherStream") {
  if (nvidia_gpu_or_skip() < 0) return;
  hip_test::Stream waiter, writer;
  hip_test::PinnedBuffer<uint32_t> flag(1);
  hip_test::PinnedBuffer<uint64_t> out(1);
  flag[0] = 0;
  out[0] = 0;
  hip_test::DeviceBuffer<uint64_t> device_copy(1);
  HIP_CHECK(hipStreamWaitValue32(waiter.get(), flag.get(), 3u, hipStreamWaitValueGte, 0xFFFFFFFFu));
  HIP_CHECK(hipStreamWriteValue64(waiter.get(), out.get(), 0xC0FFEEull, 0));
  // GPU work queued behind the wait sees the write.
  HIP_CHECK(hipMemcpyAsync(device_copy.get(), out.get(), sizeof(uint64_t), hipMemcpyHostToDevice,
                           waiter.get()));
  HIP_CHECK_ERROR(hipStreamQuery(waiter.get()), hipErrorNotReady);
  HIP_CHECK(hipStreamWriteValue32(writer.get(), flag.get(), 3u, 0));
  HIP_CHECK(hipStreamSynchronize(waiter.get()));
  uint64_t back = 0;
  HIP_CHECK(hipMemcpy(&back, device_copy.get(), sizeof back, hipMemcpyDeviceToHost));
  REQUIRE(back == 0xC0FFEEull);
}

TEST_CASE("Cuda_hipStreamMemOps_DeviceMemoryRefused") {
  if (nvidia_gpu_or_skip() < 0) return;
  hip_test::Stream s;
  hip_test::DeviceBuffer<uint32_t> word(1);
  HIP_CHECK_ERROR(hipStreamWriteValue32(s.get(), word.get(), 1u, 0), hipErrorNotSupported);
  HIP_CHECK_ERROR(hipStreamWaitValue32(s.get(), word.get(), 1u, hipStreamWaitValueEq, ~0u),
                  hipErrorNotSupported);
}

TEST_CASE("Cuda_hipStreamAttributes_And_CUMask") {
  if (nvidia_gpu_or_skip() < 0) return;
  hip_test::Stream s;
  hipStreamAttrValue v;
  std::memset(&v, 0, sizeof v);
  v.syncPolicy = hipSyncPolicyYield;
  HIP_CHECK(hipStreamSetAttribute(s.get(), hipStreamAttributeSynchronizationPolicy, &v));
  std::memset(&v, 0, sizeof v);
  HIP_CHECK(hipStreamGetAttribute(s.get(), hipStreamAttributeSynchronizationPolicy, &v));
  REQUIRE(v.syncPolicy == hipSyncPolicyYield);

  hipDeviceProp_t p{};
  int device = -1;
  HIP_CHECK(hipGetDevice(&device));
  HIP_CHECK(hipGetDeviceProperties(&p, device));
  std::vector<uint32_t> mask((p.multiProcessorCount + 31) / 32, 0);
  HIP_CHECK(hipExtStreamGetCUMask(s.get(), static_cast<uint32_t>(mask.size()), mask.data()));
  REQUIRE(mask[0] != 0u);  // every unit of an ordinary stream
  uint32_t one = 1;
  hipStream_t masked = nullptr;
  HIP_CHECK_ERROR(hipExtStreamCreateWithCUMask(&masked, 1, &one), hipErrorNotSupported);
}
