// SPDX-License-Identifier: MIT
// Conformance: initialisation, versions, device enumeration and selection, PCI bus ids,
// hipChooseDevice, hipDeviceSynchronize and hipDeviceReset.
#include "hip_test.hpp"

#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

int device_count() {
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  return count;
}

}  // namespace

TEST_CASE("Unit_hipInit_Positive_Basic") {
  HIP_CHECK(hipInit(0));
  HIP_CHECK(hipInit(0));  // idempotent
}

TEST_CASE("Unit_hipInit_Negative_Flags") {
  // HIP (like cuInit) accepts only flags == 0.
  HIP_CHECK_ERROR(hipInit(1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipInit(0xFFFFFFFFu), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipDriverGetVersion_Positive_Basic") {
  int version = -1;
  HIP_CHECK(hipDriverGetVersion(&version));
  REQUIRE(version > 0);
}

TEST_CASE("Unit_hipDriverGetVersion_Negative_Null") {
  HIP_CHECK_ERROR(hipDriverGetVersion(nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipRuntimeGetVersion_Positive_Basic") {
  int version = -1;
  HIP_CHECK(hipRuntimeGetVersion(&version));
  REQUIRE(version > 0);
  // The runtime reports the HIP version its headers declare (major*10^7 + minor*10^5 + patch).
  REQUIRE(version == HIP_VERSION);
}

TEST_CASE("Unit_hipRuntimeGetVersion_Negative_Null") {
  HIP_CHECK_ERROR(hipRuntimeGetVersion(nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGetDeviceCount_Positive_Basic") {
  // The host CPU agent always exists.
  REQUIRE(device_count() >= 1);
  REQUIRE(hip_test::device() < device_count());
}

TEST_CASE("Unit_hipGetDeviceCount_Negative_Null") {
  HIP_CHECK_ERROR(hipGetDeviceCount(nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipSetDevice_Positive_EveryDevice") {
  const int count = device_count();
  for (int d = 0; d < count; ++d) {
    HIP_CHECK(hipSetDevice(d));
    int current = -1;
    HIP_CHECK(hipGetDevice(&current));
    REQUIRE(current == d);
  }
  HIP_CHECK(hipSetDevice(hip_test::device()));
}

TEST_CASE("Unit_hipSetDevice_Negative_BadOrdinal") {
  HIP_CHECK_ERROR(hipSetDevice(-1), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipSetDevice(device_count()), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipSetDevice(1 << 20), hipErrorInvalidDevice);
  // A failed hipSetDevice leaves the current device alone.
  int current = -1;
  HIP_CHECK(hipGetDevice(&current));
  REQUIRE(current == hip_test::device());
}

TEST_CASE("Unit_hipGetDevice_Negative_Null") {
  HIP_CHECK_ERROR(hipGetDevice(nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipSetDevice_Positive_PerThread") {
  // The current device is per host thread: a new thread starts on device 0 whatever the
  // creating thread selected, and its own hipSetDevice does not leak back.
  const int count = device_count();
  const int main_device = count - 1;
  HIP_CHECK(hipSetDevice(main_device));

  hipError_t get_initial = hipErrorUnknown, set_rc = hipErrorUnknown, get_after = hipErrorUnknown;
  int initial = -1, after = -1;
  std::thread worker([&] {
    get_initial = hipGetDevice(&initial);
    set_rc = hipSetDevice(0);
    get_after = hipGetDevice(&after);
  });
  worker.join();

  HIP_CHECK(get_initial);
  REQUIRE(initial == 0);
  HIP_CHECK(set_rc);
  HIP_CHECK(get_after);
  REQUIRE(after == 0);

  int current = -1;
  HIP_CHECK(hipGetDevice(&current));
  REQUIRE(current == main_device);

  // And the reverse: a thread's selection of the last device is not seen by this thread.
  HIP_CHECK(hipSetDevice(0));
  hipError_t worker_rc = hipErrorUnknown;
  std::thread selector([&] { worker_rc = hipSetDevice(count - 1); });
  selector.join();
  HIP_CHECK(worker_rc);
  HIP_CHECK(hipGetDevice(&current));
  REQUIRE(current == 0);
  HIP_CHECK(hipSetDevice(hip_test::device()));
}

TEST_CASE("Unit_hipDeviceGet_Positive_Basic") {
  const int count = device_count();
  for (int d = 0; d < count; ++d) {
    hipDevice_t dev = -1;
    HIP_CHECK(hipDeviceGet(&dev, d));
    // hipDevice_t is the ordinal (HIP's device APIs take either interchangeably).
    REQUIRE(dev == d);
  }
}

TEST_CASE("Unit_hipDeviceGet_Negative_Parameters") {
  hipDevice_t dev = -1;
  HIP_CHECK_ERROR(hipDeviceGet(nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGet(&dev, -1), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceGet(&dev, device_count()), hipErrorInvalidDevice);
}

TEST_CASE("Unit_hipDeviceGetName_Positive_MatchesProperties") {
  char name[256] = {};
  HIP_CHECK(hipDeviceGetName(name, sizeof(name), hip_test::device()));
  REQUIRE(std::strlen(name) > 0);
  REQUIRE(std::string(name) == std::string(hip_test::props().name));
}

TEST_CASE("Unit_hipDeviceGetName_Positive_Truncates") {
  // A short buffer gets a NUL-terminated prefix of the name.
  char full[256] = {};
  HIP_CHECK(hipDeviceGetName(full, sizeof(full), hip_test::device()));
  char small[4];
  std::memset(small, 'x', sizeof(small));
  HIP_CHECK(hipDeviceGetName(small, sizeof(small), hip_test::device()));
  REQUIRE(std::memchr(small, '\0', sizeof(small)) != nullptr);
  REQUIRE(std::string(full).rfind(small, 0) == 0);
}

TEST_CASE("Unit_hipDeviceGetName_Negative_Parameters") {
  char name[64];
  HIP_CHECK_ERROR(hipDeviceGetName(nullptr, sizeof(name), hip_test::device()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetName(name, 0, hip_test::device()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetName(name, -1, hip_test::device()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetName(name, sizeof(name), -1), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceGetName(name, sizeof(name), device_count()), hipErrorInvalidDevice);
}

TEST_CASE("Unit_hipDeviceGetPCIBusId_Positive_RoundTrip") {
  const int count = device_count();
  for (int d = 0; d < count; ++d) {
    char bus_id[64] = {};
    HIP_CHECK(hipDeviceGetPCIBusId(bus_id, sizeof(bus_id), d));
    INFO("device " << d << " bus id '" << bus_id << "'");
    // Format "%04x:%02x:%02x.%01x": domain, bus, device from the properties.
    hipDeviceProp_t p{};
    HIP_CHECK(hipGetDeviceProperties(&p, d));
    unsigned domain = 0, bus = 0, dev = 0, fn = 0;
    REQUIRE(std::sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) == 4);
    REQUIRE(static_cast<int>(domain) == p.pciDomainID);
    REQUIRE(static_cast<int>(bus) == p.pciBusID);
    REQUIRE(static_cast<int>(dev) == p.pciDeviceID);

    // Two agents may share a bus id (e.g. none has one); the lookup must at least find a
    // device with this bus id.
    int found = -1;
    HIP_CHECK(hipDeviceGetByPCIBusId(&found, bus_id));
    REQUIRE(found >= 0);
    REQUIRE(found < count);
    char found_id[64] = {};
    HIP_CHECK(hipDeviceGetPCIBusId(found_id, sizeof(found_id), found));
    REQUIRE(std::string(found_id) == std::string(bus_id));
  }
}

TEST_CASE("Unit_hipDeviceGetPCIBusId_Negative_Parameters") {
  char bus_id[64];
  HIP_CHECK_ERROR(hipDeviceGetPCIBusId(nullptr, sizeof(bus_id), hip_test::device()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetPCIBusId(bus_id, sizeof(bus_id), -1), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceGetPCIBusId(bus_id, sizeof(bus_id), device_count()),
                  hipErrorInvalidDevice);
  // The id needs 13 bytes with its NUL ("0000:00:00.0"); AMD rejects len <= 12.
  HIP_CHECK_ERROR(hipDeviceGetPCIBusId(bus_id, 5, hip_test::device()), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipDeviceGetByPCIBusId_Negative_Parameters") {
  int dev = -1;
  HIP_CHECK_ERROR(hipDeviceGetByPCIBusId(nullptr, "0000:00:00.0"), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetByPCIBusId(&dev, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetByPCIBusId(&dev, "not a bus id"), hipErrorInvalidValue);
  // A well-formed id that no device has: AMD returns hipErrorInvalidValue, CUDA documents
  // cudaErrorInvalidDevice among its codes; either is HIP-conformant.
  HIP_CHECK_ERROR_EITHER(hipDeviceGetByPCIBusId(&dev, "fffe:fe:1f.7"), hipErrorInvalidValue,
                         hipErrorInvalidDevice);
}

TEST_CASE("Unit_hipChooseDevice_Positive_Basic") {
  hipDeviceProp_t wanted{};
  int dev = -1;
  HIP_CHECK(hipChooseDevice(&dev, &wanted));
  REQUIRE(dev >= 0);
  REQUIRE(dev < device_count());

  // Asking for exactly the properties of the device under test finds a device at least as
  // capable.
  wanted.major = hip_test::props().major;
  wanted.minor = hip_test::props().minor;
  dev = -1;
  HIP_CHECK(hipChooseDevice(&dev, &wanted));
  REQUIRE(dev >= 0);
  REQUIRE(dev < device_count());
  hipDeviceProp_t chosen{};
  HIP_CHECK(hipGetDeviceProperties(&chosen, dev));
  REQUIRE(chosen.major >= wanted.major);
}

TEST_CASE("Unit_hipChooseDevice_Negative_Null") {
  hipDeviceProp_t wanted{};
  int dev = -1;
  HIP_CHECK_ERROR(hipChooseDevice(nullptr, &wanted), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipChooseDevice(&dev, nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipChooseDeviceR0000_Positive_Basic") {
  // The pre-6.0 layout entry point (what HIP 5 binaries call as hipChooseDevice).
  hipDeviceProp_tR0000 wanted{};
  wanted.major = hip_test::props().major;
  int dev = -1;
  HIP_CHECK(hipChooseDeviceR0000(&dev, &wanted));
  REQUIRE(dev >= 0);
  REQUIRE(dev < device_count());
  HIP_CHECK_ERROR(hipChooseDeviceR0000(nullptr, &wanted), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipChooseDeviceR0000(&dev, nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipDeviceSynchronize_Positive_Idle") {
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipDeviceSynchronize());
}

namespace {
__global__ void fill_kernel(int* out, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}
}  // namespace

TEST_CASE("Unit_hipDeviceSynchronize_Positive_WaitsForAllStreams") {
  if (!hip_test::kernels_supported()) return;
  constexpr int kN = 4096;
  hip_test::Stream s1, s2;
  hip_test::PinnedBuffer<int> a(kN), b(kN), c(kN);
  for (int i = 0; i < kN; ++i) a[i] = b[i] = c[i] = 0;
  HIP_LAUNCH_CHECK(fill_kernel, dim3(kN / 256), dim3(256), 0, s1.get(), a.get(), kN, 1);
  HIP_LAUNCH_CHECK(fill_kernel, dim3(kN / 256), dim3(256), 0, s2.get(), b.get(), kN, 2);
  HIP_LAUNCH_CHECK(fill_kernel, dim3(kN / 256), dim3(256), 0, nullptr, c.get(), kN, 3);
  HIP_CHECK(hipDeviceSynchronize());
  for (int i = 0; i < kN; ++i) {
    if (a[i] != 1 || b[i] != 2 || c[i] != 3) {
      FAIL("element " << i << " not written before hipDeviceSynchronize returned");
    }
  }
}

TEST_CASE("Unit_hipDeviceReset_Positive_FreesMemory") {
  void* dev_ptr = nullptr;
  HIP_CHECK(hipMalloc(&dev_ptr, 1 << 20));
  hipPointerAttribute_t attr{};
  HIP_CHECK(hipPointerGetAttributes(&attr, dev_ptr));
  REQUIRE(attr.type == hipMemoryTypeDevice);

  HIP_CHECK(hipDeviceReset());

  // The allocation is gone: HIP 6+ reports unknown memory as hipMemoryTypeUnregistered with
  // hipSuccess; older runtimes returned hipErrorInvalidValue. Either way it is no longer
  // device memory.
  hipPointerAttribute_t after{};
  const hipError_t rc = hipPointerGetAttributes(&after, dev_ptr);
  INFO("hipPointerGetAttributes after reset returned " << rc << ", type " << after.type);
  REQUIRE((rc == hipErrorInvalidValue ||
           (rc == hipSuccess && after.type == hipMemoryTypeUnregistered)));

  // The device is usable again after a reset.
  HIP_CHECK(hipSetDevice(hip_test::device()));
  void* again = nullptr;
  HIP_CHECK(hipMalloc(&again, 4096));
  HIP_CHECK(hipMemset(again, 0x5A, 4096));
  unsigned char host[4096];
  HIP_CHECK(hipMemcpy(host, again, sizeof(host), hipMemcpyDeviceToHost));
  REQUIRE(host[0] == 0x5A);
  REQUIRE(host[4095] == 0x5A);
  HIP_CHECK(hipFree(again));
}
