// SPDX-License-Identifier: MIT
// Conformance: device allocation: hipMalloc/hipFree, hipMallocManaged, hipMallocPitch,
// hipMallocAsync/hipFreeAsync, hipMemGetInfo accounting and hipMemGetAddressRange.
#include "hip_test.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

TEST_CASE("Unit_hipMalloc_Positive_Basic") {
  for (size_t size : {size_t{1}, size_t{3}, size_t{4096}, size_t{1} << 20, (size_t{1} << 24) + 7}) {
    INFO("size " << size);
    void* p = nullptr;
    HIP_CHECK(hipMalloc(&p, size));
    REQUIRE(p != nullptr);
    // Allocations are at least 256-byte aligned (CUDA/HIP guarantee).
    REQUIRE(reinterpret_cast<uintptr_t>(p) % 256 == 0);
    std::vector<unsigned char> host(size, 0xA5), back(size, 0);
    HIP_CHECK(hipMemcpy(p, host.data(), size, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(back.data(), p, size, hipMemcpyDeviceToHost));
    REQUIRE(back == host);
    HIP_CHECK(hipFree(p));
  }
}

TEST_CASE("Unit_hipMalloc_Positive_ZeroSize") {
  void* p = reinterpret_cast<void*>(0x1234);
  HIP_CHECK(hipMalloc(&p, 0));
  REQUIRE(p == nullptr);
}

TEST_CASE("Unit_hipMalloc_Positive_Distinct") {
  // Live allocations never overlap.
  constexpr int kCount = 64;
  constexpr size_t kSize = 1000;
  std::vector<char*> ptrs(kCount, nullptr);
  for (auto& p : ptrs) HIP_CHECK(hipMalloc(reinterpret_cast<void**>(&p), kSize));
  for (int i = 0; i < kCount; ++i) {
    for (int j = i + 1; j < kCount; ++j) {
      const bool disjoint = ptrs[i] + kSize <= ptrs[j] || ptrs[j] + kSize <= ptrs[i];
      if (!disjoint) FAIL("allocations " << i << " and " << j << " overlap");
    }
  }
  for (auto p : ptrs) HIP_CHECK(hipFree(p));
}

TEST_CASE("Unit_hipMalloc_Negative_Null") {
  HIP_CHECK_ERROR(hipMalloc(nullptr, 16), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMalloc_Negative_HugeSize") {
  void* p = nullptr;
  HIP_CHECK_ERROR(hipMalloc(&p, std::numeric_limits<size_t>::max()), hipErrorOutOfMemory);
  HIP_CHECK_ERROR(hipMalloc(&p, std::numeric_limits<size_t>::max() / 2), hipErrorOutOfMemory);
}

TEST_CASE("Unit_hipMalloc_Negative_LargerThanDevice") {
  // An allocation beyond the device's total memory cannot succeed (no overcommit of device
  // memory in HIP or CUDA).
  void* p = nullptr;
  const size_t total = hip_test::props().totalGlobalMem;
  HIP_CHECK_ERROR(hipMalloc(&p, total * 2 + 4096), hipErrorOutOfMemory);
}

TEST_CASE("Unit_hipFree_Positive_Null") { HIP_CHECK(hipFree(nullptr)); }

TEST_CASE("Unit_hipFree_Negative_DoubleFree") {
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, 256));
  HIP_CHECK(hipFree(p));
  // HIP returns hipErrorInvalidValue for a pointer it does not know.
  HIP_CHECK_ERROR(hipFree(p), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipFree_Negative_ForeignPointer") {
  int on_stack = 0;
  HIP_CHECK_ERROR(hipFree(&on_stack), hipErrorInvalidValue);
  void* heap = std::malloc(64);
  HIP_CHECK_ERROR(hipFree(heap), hipErrorInvalidValue);
  std::free(heap);
}

TEST_CASE("Unit_hipFree_Negative_InteriorPointer") {
  char* p = nullptr;
  HIP_CHECK(hipMalloc(reinterpret_cast<void**>(&p), 1024));
  HIP_CHECK_ERROR(hipFree(p + 16), hipErrorInvalidValue);
  HIP_CHECK(hipFree(p));  // still allocated after the failed free
}

TEST_CASE("Unit_hipMallocManaged_Positive_Flags") {
  for (unsigned flags : {hipMemAttachGlobal, hipMemAttachHost}) {
    INFO("flags " << flags);
    int* p = nullptr;
    HIP_CHECK(hipMallocManaged(reinterpret_cast<void**>(&p), 1024 * sizeof(int), flags));
    REQUIRE(p != nullptr);
    // Managed memory is directly usable from the host.
    for (int i = 0; i < 1024; ++i) p[i] = i;
    std::vector<int> back(1024, -1);
    HIP_CHECK(hipMemcpy(back.data(), p, 1024 * sizeof(int), hipMemcpyDefault));
    for (int i = 0; i < 1024; ++i) REQUIRE(back[i] == i);
    HIP_CHECK(hipMemset(p, 0, 1024 * sizeof(int)));
    HIP_CHECK(hipDeviceSynchronize());
    REQUIRE(p[0] == 0);
    REQUIRE(p[1023] == 0);
    HIP_CHECK(hipFree(p));
  }
}

TEST_CASE("Unit_hipMallocManaged_Negative_Parameters") {
  void* p = nullptr;
  HIP_CHECK_ERROR(hipMallocManaged(nullptr, 1024, hipMemAttachGlobal), hipErrorInvalidValue);
  // CUDA and HIP reject a zero size for managed memory.
  HIP_CHECK_ERROR(hipMallocManaged(&p, 0, hipMemAttachGlobal), hipErrorInvalidValue);
  // Flags must be exactly hipMemAttachGlobal or hipMemAttachHost.
  HIP_CHECK_ERROR(hipMallocManaged(&p, 1024, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMallocManaged(&p, 1024, hipMemAttachSingle), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMallocManaged(&p, 1024, hipMemAttachGlobal | hipMemAttachHost),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMallocManaged(&p, 1024, 145), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMallocManaged(&p, std::numeric_limits<size_t>::max(), hipMemAttachGlobal),
                  hipErrorOutOfMemory);
}

TEST_CASE("Unit_hipMallocPitch_Positive_Basic") {
  constexpr size_t kWidth = 333, kHeight = 17;
  char* p = nullptr;
  size_t pitch = 0;
  HIP_CHECK(hipMallocPitch(reinterpret_cast<void**>(&p), &pitch, kWidth, kHeight));
  REQUIRE(p != nullptr);
  REQUIRE(pitch >= kWidth);

  std::vector<unsigned char> src(kWidth * kHeight), dst(kWidth * kHeight, 0);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 7 + 1);
  HIP_CHECK(hipMemcpy2D(p, pitch, src.data(), kWidth, kWidth, kHeight, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy2D(dst.data(), kWidth, p, pitch, kWidth, kHeight, hipMemcpyDeviceToHost));
  REQUIRE(dst == src);

  // The whole pitched region belongs to the allocation.
  void* base = nullptr;
  size_t size = 0;
  HIP_CHECK(hipMemGetAddressRange(&base, &size, p));
  REQUIRE(base == p);
  REQUIRE(size >= pitch * kHeight);
  HIP_CHECK(hipFree(p));
}

TEST_CASE("Unit_hipMallocPitch_Negative_Parameters") {
  void* p = nullptr;
  size_t pitch = 0;
  HIP_CHECK_ERROR(hipMallocPitch(nullptr, &pitch, 64, 64), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMallocPitch(&p, nullptr, 64, 64), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMemGetInfo_Positive_DecreasesAfterAllocation") {
  constexpr size_t kSize = size_t{256} << 20;
  size_t free_before = 0, total = 0;
  HIP_CHECK(hipMemGetInfo(&free_before, &total));
  if (free_before < 2 * kSize) {
    hip_test::skip("less than 512 MiB free on the device");
    return;
  }
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, kSize));
  // Touch every page so that even a lazily backed allocation is resident.
  HIP_CHECK(hipMemset(p, 1, kSize));
  HIP_CHECK(hipDeviceSynchronize());
  size_t free_after = 0, total_after = 0;
  HIP_CHECK(hipMemGetInfo(&free_after, &total_after));
  HIP_CHECK(hipFree(p));
  INFO("free before " << free_before << ", after " << free_after);
  REQUIRE(total_after == total);
  // Allow other processes some noise, but at least half the allocation must show.
  REQUIRE(free_after + kSize / 2 <= free_before);
}

TEST_CASE("Unit_hipMemGetAddressRange_Positive_InteriorPointer") {
  constexpr size_t kSize = 10000;
  char* p = nullptr;
  HIP_CHECK(hipMalloc(reinterpret_cast<void**>(&p), kSize));
  for (size_t offset : {size_t{0}, size_t{1}, size_t{4096}, kSize - 1}) {
    INFO("offset " << offset);
    void* base = nullptr;
    size_t size = 0;
    HIP_CHECK(hipMemGetAddressRange(&base, &size, p + offset));
    REQUIRE(base == p);
    REQUIRE(size >= kSize);
  }
  HIP_CHECK(hipFree(p));
}

TEST_CASE("Unit_hipMemGetAddressRange_Negative_Unknown") {
  void* base = nullptr;
  size_t size = 0;
  int on_stack = 0;
  // CUDA/HIP: a pointer outside every allocation is hipErrorNotFound.
  HIP_CHECK_ERROR(hipMemGetAddressRange(&base, &size, &on_stack), hipErrorNotFound);
  char* p = nullptr;
  HIP_CHECK(hipMalloc(reinterpret_cast<void**>(&p), 512));
  HIP_CHECK(hipFree(p));
  HIP_CHECK_ERROR(hipMemGetAddressRange(&base, &size, p), hipErrorNotFound);
}

namespace {

void malloc_async_round_trip(hipStream_t stream) {
  constexpr size_t kSize = 1 << 16;
  void* p = nullptr;
  HIP_CHECK(hipMallocAsync(&p, kSize, stream));
  REQUIRE(p != nullptr);
  HIP_CHECK(hipMemsetAsync(p, 0x3C, kSize, stream));
  std::vector<unsigned char> host(kSize, 0);
  HIP_CHECK(hipMemcpyAsync(host.data(), p, kSize, hipMemcpyDeviceToHost, stream));
  HIP_CHECK(hipFreeAsync(p, stream));
  HIP_CHECK(hipStreamSynchronize(stream));
  for (size_t i = 0; i < kSize; ++i) {
    if (host[i] != 0x3C) FAIL("byte " << i << " is " << int(host[i]));
  }
}

}  // namespace

TEST_CASE("Unit_hipMallocAsync_Positive_NullStream") { malloc_async_round_trip(nullptr); }

TEST_CASE("Unit_hipMallocAsync_Positive_CreatedStream") {
  hip_test::Stream s;
  malloc_async_round_trip(s.get());
  hip_test::Stream nb(hipStreamNonBlocking);
  malloc_async_round_trip(nb.get());
}

TEST_CASE("Unit_hipMallocAsync_Positive_FreeAsyncThenReuse") {
  // Memory freed in stream order may be handed out again; the stream keeps the two uses apart.
  hip_test::Stream s;
  for (int round = 0; round < 8; ++round) {
    void* p = nullptr;
    HIP_CHECK(hipMallocAsync(&p, 4096, s.get()));
    HIP_CHECK(hipMemsetAsync(p, round, 4096, s.get()));
    unsigned char first = 0xFF;
    HIP_CHECK(hipMemcpyAsync(&first, p, 1, hipMemcpyDeviceToHost, s.get()));
    HIP_CHECK(hipFreeAsync(p, s.get()));
    HIP_CHECK(hipStreamSynchronize(s.get()));
    REQUIRE(first == round);
  }
}

TEST_CASE("Unit_hipMallocAsync_Negative_Parameters") {
  hip_test::Stream s;
  HIP_CHECK_ERROR(hipMallocAsync(nullptr, 1024, s.get()), hipErrorInvalidValue);
  // HIP 7.0: hipFreeAsync(NULL) succeeds, like hipFree(NULL).
  HIP_CHECK(hipFreeAsync(nullptr, s.get()));
  int on_stack = 0;
  HIP_CHECK_ERROR(hipFreeAsync(&on_stack, s.get()), hipErrorInvalidValue);
  HIP_CHECK(hipStreamSynchronize(s.get()));
}
