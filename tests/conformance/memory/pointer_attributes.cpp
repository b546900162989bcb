// SPDX-License-Identifier: MIT
// Conformance: hipPointerGetAttributes for device, pinned host, managed, registered and
// unknown memory, including interior pointers (HIP 6.x+ hipMemoryType values).
#include "hip_test.hpp"

#include <cstdlib>
#include <vector>

namespace {

hipPointerAttribute_t attributes_of(const void* p) {
  hipPointerAttribute_t attr{};
  HIP_CHECK(hipPointerGetAttributes(&attr, p));
  return attr;
}

}  // namespace

TEST_CASE("Unit_hipPointerGetAttributes_Positive_MemoryTypeValues") {
  // HIP 6.0 renumbered hipMemoryType to match CUDA.
  STATIC_REQUIRE(hipMemoryTypeUnregistered == 0);
  STATIC_REQUIRE(hipMemoryTypeHost == 1);
  STATIC_REQUIRE(hipMemoryTypeDevice == 2);
  STATIC_REQUIRE(hipMemoryTypeManaged == 3);
  STATIC_REQUIRE(sizeof(hipPointerAttribute_t) == 32);
}

TEST_CASE("Unit_hipPointerGetAttributes_Positive_Device") {
  constexpr size_t kSize = 10000;
  char* p = nullptr;
  HIP_CHECK(hipMalloc(reinterpret_cast<void**>(&p), kSize));
  for (size_t offset : {size_t{0}, size_t{1}, size_t{5000}, kSize - 1}) {
    INFO("offset " << offset);
    const auto attr = attributes_of(p + offset);
    REQUIRE(attr.type == hipMemoryTypeDevice);
    REQUIRE(attr.device == hip_test::device());
    REQUIRE(attr.devicePointer == p + offset);  // interior pointers resolve with their offset
    REQUIRE(attr.isManaged == 0);
  }
  HIP_CHECK(hipFree(p));
}

TEST_CASE("Unit_hipPointerGetAttributes_Positive_PinnedHost") {
  constexpr size_t kSize = 8192;
  char* p = nullptr;
  HIP_CHECK(hipHostMalloc(reinterpret_cast<void**>(&p), kSize, hipHostMallocMapped));
  void* dev = nullptr;
  HIP_CHECK(hipHostGetDevicePointer(&dev, p, 0));
  for (size_t offset : {size_t{0}, size_t{77}, kSize - 1}) {
    INFO("offset " << offset);
    const auto attr = attributes_of(p + offset);
    REQUIRE(attr.type == hipMemoryTypeHost);
    REQUIRE(attr.hostPointer == p + offset);
    REQUIRE(attr.devicePointer == static_cast<char*>(dev) + offset);
    REQUIRE(attr.isManaged == 0);
    REQUIRE((attr.allocationFlags & hipHostMallocMapped) == hipHostMallocMapped);
  }
  HIP_CHECK(hipHostFree(p));
}

TEST_CASE("Unit_hipPointerGetAttributes_Positive_Managed") {
  constexpr size_t kSize = 4096;
  char* p = nullptr;
  HIP_CHECK(hipMallocManaged(reinterpret_cast<void**>(&p), kSize, hipMemAttachGlobal));
  for (size_t offset : {size_t{0}, size_t{1000}}) {
    INFO("offset " << offset);
    const auto attr = attributes_of(p + offset);
    REQUIRE(attr.type == hipMemoryTypeManaged);
    REQUIRE(attr.isManaged != 0);
    REQUIRE(attr.devicePointer == p + offset);
    REQUIRE(attr.hostPointer == p + offset);
  }
  HIP_CHECK(hipFree(p));
}

TEST_CASE("Unit_hipPointerGetAttributes_Positive_Registered") {
  std::vector<char> buf(16384);
  HIP_CHECK(hipHostRegister(buf.data(), buf.size(), hipHostRegisterMapped));
  void* dev = nullptr;
  HIP_CHECK(hipHostGetDevicePointer(&dev, buf.data(), 0));
  const auto attr = attributes_of(buf.data() + 100);
  REQUIRE(attr.type == hipMemoryTypeHost);
  REQUIRE(attr.hostPointer == buf.data() + 100);
  REQUIRE(attr.devicePointer == static_cast<char*>(dev) + 100);
  REQUIRE(attr.isManaged == 0);
  HIP_CHECK(hipHostUnregister(buf.data()));

  // After unregistering the memory is plain host memory again.
  REQUIRE(attributes_of(buf.data()).type == hipMemoryTypeUnregistered);
}

TEST_CASE("Unit_hipPointerGetAttributes_Positive_Unregistered") {
  // HIP 6.0+ (like CUDA 11+): memory the runtime does not know is reported as
  // hipMemoryTypeUnregistered with hipSuccess.
  std::vector<int> heap(100);
  int on_stack = 0;
  for (const void* p :
       {static_cast<const void*>(heap.data()), static_cast<const void*>(&on_stack)}) {
    const auto attr = attributes_of(p);
    REQUIRE(attr.type == hipMemoryTypeUnregistered);
    REQUIRE(attr.devicePointer == nullptr);
    REQUIRE(attr.isManaged == 0);
  }
}

TEST_CASE("Unit_hipPointerGetAttributes_Positive_AfterFree") {
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, 4096));
  HIP_CHECK(hipFree(p));
  REQUIRE(attributes_of(p).type == hipMemoryTypeUnregistered);
}

TEST_CASE("Unit_hipPointerGetAttributes_Positive_NullPointer") {
  // HIP 7.0: a NULL pointer is reported (as unregistered) with hipSuccess, like CUDA.
  hipPointerAttribute_t attr{};
  attr.type = hipMemoryTypeDevice;
  HIP_CHECK(hipPointerGetAttributes(&attr, nullptr));
  REQUIRE(attr.type == hipMemoryTypeUnregistered);
}

TEST_CASE("Unit_hipPointerGetAttributes_Negative_NullAttributes") {
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, 64));
  HIP_CHECK_ERROR(hipPointerGetAttributes(nullptr, p), hipErrorInvalidValue);
  HIP_CHECK(hipFree(p));
}
