// SPDX-License-Identifier: MIT
// Conformance: page-locked host memory: hipHostMalloc/hipHostAlloc/hipHostFree,
// hipHostRegister/hipHostUnregister, hipHostGetDevicePointer and hipHostGetFlags.
#include "hip_test.hpp"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

namespace {

// Host memory reached through its device pointer must alias the host bytes.
void check_aliases(void* host, void* dev, size_t size) {
  auto* h = static_cast<unsigned char*>(host);
  for (size_t i = 0; i < size; ++i) h[i] = static_cast<unsigned char>(i * 3 + 1);
  std::vector<unsigned char> back(size, 0);
  HIP_CHECK(hipMemcpy(back.data(), dev, size, hipMemcpyDeviceToHost));
  REQUIRE(std::memcmp(back.data(), h, size) == 0);
  HIP_CHECK(hipMemset(dev, 0x77, size));
  HIP_CHECK(hipDeviceSynchronize());
  for (size_t i = 0; i < size; ++i) {
    if (h[i] != 0x77) FAIL("host byte " << i << " not updated through the device pointer");
  }
}

}  // namespace

TEST_CASE("Unit_hipHostMalloc_Positive_Flags") {
  const unsigned flag_sets[] = {
      hipHostMallocDefault,
      hipHostMallocPortable,
      hipHostMallocMapped,
      hipHostMallocWriteCombined,
      hipHostMallocCoherent,
      hipHostMallocNonCoherent,
      hipHostMallocNumaUser,
      hipHostMallocPortable | hipHostMallocMapped,
      hipHostMallocMapped | hipHostMallocCoherent,
  };
  for (unsigned flags : flag_sets) {
    INFO("flags 0x" << std::hex << flags);
    void* p = nullptr;
    HIP_CHECK(hipHostMalloc(&p, 4096, flags));
    REQUIRE(p != nullptr);
    std::memset(p, 0x42, 4096);  // host-accessible
    void* dev = nullptr;
    HIP_CHECK(hipHostGetDevicePointer(&dev, p, 0));
    REQUIRE(dev != nullptr);
    check_aliases(p, dev, 4096);
    HIP_CHECK(hipHostFree(p));
  }
}

TEST_CASE("Unit_hipHostMalloc_Positive_ZeroSize") {
  void* p = reinterpret_cast<void*>(0x1234);
  HIP_CHECK(hipHostMalloc(&p, 0, 0));
  REQUIRE(p == nullptr);
}

TEST_CASE("Unit_hipHostMalloc_Negative_Parameters") {
  void* p = nullptr;
  HIP_CHECK_ERROR(hipHostMalloc(nullptr, 1000, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipHostMalloc(&p, std::numeric_limits<size_t>::max(), 0), hipErrorOutOfMemory);
  HIP_CHECK_ERROR(hipHostMalloc(&p, 1000, std::numeric_limits<unsigned>::max()),
                  hipErrorInvalidValue);
  // Coherent and NonCoherent are mutually exclusive.
  HIP_CHECK_ERROR(hipHostMalloc(&p, 1000, hipHostMallocCoherent | hipHostMallocNonCoherent),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipHostAlloc_Positive_Flags") {
  for (unsigned flags :
       {hipHostAllocDefault, hipHostAllocPortable, hipHostAllocMapped, hipHostAllocWriteCombined,
        hipHostAllocPortable | hipHostAllocMapped | hipHostAllocWriteCombined}) {
    INFO("flags 0x" << std::hex << flags);
    void* p = nullptr;
    HIP_CHECK(hipHostAlloc(&p, 8192, flags));
    REQUIRE(p != nullptr);
    void* dev = nullptr;
    HIP_CHECK(hipHostGetDevicePointer(&dev, p, 0));
    check_aliases(p, dev, 8192);
    HIP_CHECK(hipHostFree(p));
  }
}

TEST_CASE("Unit_hipHostAlloc_Negative_Parameters") {
  void* p = nullptr;
  HIP_CHECK_ERROR(hipHostAlloc(nullptr, 64, 0), hipErrorInvalidValue);
  // hipHostAlloc takes only the CUDA flags Portable, Mapped and WriteCombined.
  HIP_CHECK_ERROR(hipHostAlloc(&p, 64, 0x8), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipHostAlloc(&p, 64, 0xFFFFFFFFu), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipHostFree_Positive_Null") { HIP_CHECK(hipHostFree(nullptr)); }

TEST_CASE("Unit_hipHostFree_Negative_Unknown") {
  void* heap = std::malloc(128);
  HIP_CHECK_ERROR(hipHostFree(heap), hipErrorInvalidValue);
  std::free(heap);

  void* p = nullptr;
  HIP_CHECK(hipHostMalloc(&p, 128, 0));
  HIP_CHECK(hipHostFree(p));
  HIP_CHECK_ERROR(hipHostFree(p), hipErrorInvalidValue);  // double free
}

TEST_CASE("Unit_hipHostGetFlags_Positive_Basic") {
  for (unsigned flags : {hipHostMallocDefault, hipHostMallocPortable, hipHostMallocMapped,
                         hipHostMallocPortable | hipHostMallocMapped}) {
    INFO("flags 0x" << std::hex << flags);
    void* p = nullptr;
    HIP_CHECK(hipHostMalloc(&p, 256, flags));
    unsigned got = 0xDEADu;
    HIP_CHECK(hipHostGetFlags(&got, p));
    REQUIRE((got & flags) == flags);
    // Interior pointers belong to the same allocation.
    unsigned interior = 0xDEADu;
    HIP_CHECK(hipHostGetFlags(&interior, static_cast<char*>(p) + 100));
    REQUIRE(interior == got);
    HIP_CHECK(hipHostFree(p));
  }
}

TEST_CASE("Unit_hipHostGetFlags_Negative_Parameters") {
  void* p = nullptr;
  HIP_CHECK(hipHostMalloc(&p, 256, 0));
  unsigned flags = 0;
  HIP_CHECK_ERROR(hipHostGetFlags(nullptr, p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipHostGetFlags(&flags, nullptr), hipErrorInvalidValue);
  int on_stack = 0;
  HIP_CHECK_ERROR(hipHostGetFlags(&flags, &on_stack), hipErrorInvalidValue);
  // Device memory is not host memory (matches CUDA).
  void* dev = nullptr;
  HIP_CHECK(hipMalloc(&dev, 256));
  HIP_CHECK_ERROR(hipHostGetFlags(&flags, dev), hipErrorInvalidValue);
  HIP_CHECK(hipFree(dev));
  HIP_CHECK(hipHostFree(p));
}

TEST_CASE("Unit_hipHostGetDevicePointer_Negative_Parameters") {
  void* p = nullptr;
  HIP_CHECK(hipHostMalloc(&p, 256, hipHostMallocMapped));
  void* dev = nullptr;
  HIP_CHECK_ERROR(hipHostGetDevicePointer(nullptr, p, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipHostGetDevicePointer(&dev, p, 1), hipErrorInvalidValue);  // flags must be 0
  int on_stack = 0;
  HIP_CHECK_ERROR(hipHostGetDevicePointer(&dev, &on_stack, 0), hipErrorInvalidValue);
  HIP_CHECK(hipHostFree(p));
}

TEST_CASE("Unit_hipHostRegister_Positive_Basic") {
  constexpr size_t kSize = 1 << 16;
  auto* host = static_cast<unsigned char*>(std::aligned_alloc(4096, kSize));
  REQUIRE(host != nullptr);
  for (unsigned flags : {hipHostRegisterDefault, hipHostRegisterPortable, hipHostRegisterMapped,
                         hipHostRegisterPortable | hipHostRegisterMapped}) {
    INFO("flags 0x" << std::hex << flags);
    HIP_CHECK(hipHostRegister(host, kSize, flags));
    void* dev = nullptr;
    HIP_CHECK(hipHostGetDevicePointer(&dev, host, 0));
    REQUIRE(dev != nullptr);
    check_aliases(host, dev, kSize);
    // Interior pointers map to the same offset.
    void* dev_interior = nullptr;
    HIP_CHECK(hipHostGetDevicePointer(&dev_interior, host + 100, 0));
    REQUIRE(dev_interior == static_cast<char*>(dev) + 100);
    HIP_CHECK(hipHostUnregister(host));
  }
  std::free(host);
}

TEST_CASE("Unit_hipHostRegister_Positive_Unaligned") {
  // Registration of a range that is not page aligned works (the runtime rounds internally).
  std::vector<char> buf(10000, 1);
  HIP_CHECK(hipHostRegister(buf.data() + 3, 5000, 0));
  std::vector<char> back(5000, 0);
  HIP_CHECK(hipMemcpy(back.data(), buf.data() + 3, 5000, hipMemcpyDefault));
  REQUIRE(back == std::vector<char>(5000, 1));
  HIP_CHECK(hipHostUnregister(buf.data() + 3));
}

TEST_CASE("Unit_hipHostRegister_Negative_Parameters") {
  std::vector<char> buf(4096);
  HIP_CHECK_ERROR(hipHostRegister(nullptr, 4096, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipHostRegister(buf.data(), 0, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipHostRegister(buf.data(), buf.size(), 0xF0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipHostRegister(buf.data(), buf.size(), 0xFFFFFFFFu), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipHostRegister_Negative_AlreadyRegistered") {
  std::vector<char> buf(8192);
  HIP_CHECK(hipHostRegister(buf.data(), buf.size(), 0));
  HIP_CHECK_ERROR(hipHostRegister(buf.data(), buf.size(), 0), hipErrorHostMemoryAlreadyRegistered);
  // An overlapping range is already (partly) registered too (CUDA semantics).
  HIP_CHECK_ERROR(hipHostRegister(buf.data() + 1024, 1024, 0), hipErrorHostMemoryAlreadyRegistered);
  HIP_CHECK(hipHostUnregister(buf.data()));
  // After unregistering it can be registered again.
  HIP_CHECK(hipHostRegister(buf.data(), buf.size(), 0));
  HIP_CHECK(hipHostUnregister(buf.data()));
}

TEST_CASE("Unit_hipHostRegister_Negative_HipAllocation") {
  // Memory that HIP already pins cannot be registered again. CUDA answers
  // HostMemoryAlreadyRegistered; some runtimes answer InvalidValue. Both refuse it.
  void* pinned = nullptr;
  HIP_CHECK(hipHostMalloc(&pinned, 4096, 0));
  HIP_CHECK_ERROR_EITHER(hipHostRegister(pinned, 4096, 0), hipErrorHostMemoryAlreadyRegistered,
                         hipErrorInvalidValue);
  HIP_CHECK(hipHostFree(pinned));
}

TEST_CASE("Unit_hipHostUnregister_Negative_NotRegistered") {
  std::vector<char> buf(4096);
  HIP_CHECK_ERROR(hipHostUnregister(buf.data()), hipErrorHostMemoryNotRegistered);
  HIP_CHECK_ERROR(hipHostUnregister(nullptr), hipErrorInvalidValue);
  HIP_CHECK(hipHostRegister(buf.data(), buf.size(), 0));
  HIP_CHECK(hipHostUnregister(buf.data()));
  HIP_CHECK_ERROR(hipHostUnregister(buf.data()), hipErrorHostMemoryNotRegistered);
}
