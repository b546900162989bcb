// SPDX-License-Identifier: MIT
// Conformance: virtual memory management (hipMemCreate, hipMemAddressReserve,
// hipMemMap, hipMemSetAccess…): physical chunks mapped contiguously and written by a
// kernel across the boundary, pointer checks that follow mapping and access, handle
// retain/release, export/import as a POSIX file descriptor, and every bad argument.
#include "hip_test.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <numeric>
#include <string>
#include <vector>

namespace {

hipMemAllocationProp device_prop(hipMemAllocationHandleType type = hipMemHandleTypeNone) {
  hipMemAllocationProp prop{};
  prop.type = hipMemAllocationTypePinned;
  prop.requestedHandleType = type;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = hip_test::device();
  return prop;
}

hipMemAccessDesc read_write() {
  hipMemAccessDesc desc{};
  desc.location.type = hipMemLocationTypeDevice;
  desc.location.id = hip_test::device();
  desc.flags = hipMemAccessFlagsProtReadWrite;
  return desc;
}

// The CPU agent (page granularity, single-source kernels).
bool on_cpu_agent() {
  const std::string arch = hip_test::props().gcnArchName;
  return arch == "x86_64" || arch == "aarch64";
}

// Skips (returns false) where the device under test has no virtual memory management.
bool vmm_supported(size_t* granularity) {
  hipMemAllocationProp prop = device_prop();
  hipError_t rc =
      hipMemGetAllocationGranularity(granularity, &prop, hipMemAllocationGranularityMinimum);
  if (rc == hipErrorNotSupported) {
    hip_test::skip("the device under test has no virtual memory management");
    return false;
  }
  REQUIRE(rc == hipSuccess);
  return true;
}

__global__ void write_pattern(unsigned* p, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i * 3u + 1u;
}

// One reservation with `chunks` physical chunks of `chunk` bytes mapped back to back.
struct MappedRange {
  void* base = nullptr;
  size_t chunk = 0;
  std::vector<hipMemGenericAllocationHandle_t> handles;

  MappedRange(size_t chunk_bytes, size_t chunks,
              hipMemAllocationHandleType type = hipMemHandleTypeNone)
      : chunk(chunk_bytes) {
    hipMemAllocationProp prop = device_prop(type);
    HIP_CHECK(hipMemAddressReserve(&base, chunk * chunks, 0, nullptr, 0));
    for (size_t c = 0; c < chunks; ++c) {
      hipMemGenericAllocationHandle_t h{};
      HIP_CHECK(hipMemCreate(&h, chunk, &prop, 0));
      HIP_CHECK(hipMemMap(at(c * chunk), chunk, 0, h, 0));
      handles.push_back(h);
    }
  }
  ~MappedRange() {
    if (!base) return;
    (void)hipMemUnmap(base, chunk * handles.size());
    for (auto h : handles) (void)hipMemRelease(h);
    (void)hipMemAddressFree(base, chunk * handles.size());
  }
  size_t bytes() const { return chunk * handles.size(); }
  void* at(size_t offset) const { return static_cast<char*>(base) + offset; }
  hipError_t grant(hipMemAccessFlags flags = hipMemAccessFlagsProtReadWrite) const {
    hipMemAccessDesc desc = read_write();
    desc.flags = flags;
    return hipMemSetAccess(base, bytes(), &desc, 1);
  }
};

}  // namespace

TEST_CASE("Unit_hipMemGetAllocationGranularity_PageAndHugePage") {
  size_t minimum = 0;
  if (!vmm_supported(&minimum)) return;
  hipMemAllocationProp prop = device_prop();
  size_t recommended = 0;
  HIP_CHECK(
      hipMemGetAllocationGranularity(&recommended, &prop, hipMemAllocationGranularityRecommended));
  REQUIRE(minimum > 0);
  REQUIRE(recommended % minimum == 0);
  if (on_cpu_agent()) {  // pages, and 2 MiB huge pages
    CHECK(minimum == static_cast<size_t>(sysconf(_SC_PAGESIZE)));
    CHECK(recommended == (size_t{2} << 20));
  }
}

TEST_CASE("Unit_hipMemGetAllocationGranularity_Negative") {
  size_t g = 0;
  if (!vmm_supported(&g)) return;
  hipMemAllocationProp prop = device_prop();
  HIP_CHECK_ERROR(
      hipMemGetAllocationGranularity(nullptr, &prop, hipMemAllocationGranularityMinimum),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemGetAllocationGranularity(&g, nullptr, hipMemAllocationGranularityMinimum),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipMemGetAllocationGranularity(&g, &prop, static_cast<hipMemAllocationGranularity_flags>(7)),
      hipErrorInvalidValue);
  hipMemAllocationProp bad = prop;
  bad.type = hipMemAllocationTypeInvalid;
  HIP_CHECK_ERROR(hipMemGetAllocationGranularity(&g, &bad, hipMemAllocationGranularityMinimum),
                  hipErrorInvalidValue);
  bad = prop;
  bad.location.type = hipMemLocationTypeHost;
  HIP_CHECK_ERROR(hipMemGetAllocationGranularity(&g, &bad, hipMemAllocationGranularityMinimum),
                  hipErrorInvalidValue);
  bad = prop;
  bad.location.id = 9999;
  HIP_CHECK_ERROR(hipMemGetAllocationGranularity(&g, &bad, hipMemAllocationGranularityMinimum),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMemMap_TwoChunksContiguous_KernelWritesAcrossBoundary") {
  size_t g = 0;
  if (!vmm_supported(&g)) return;
  MappedRange range(4 * g, 2);
  HIP_CHECK(range.grant());
  const unsigned n = static_cast<unsigned>(range.bytes() / sizeof(unsigned));
  auto* p = static_cast<unsigned*>(range.base);
  // Zero the whole range in one fill that crosses the chunk boundary, then let a kernel
  // write every word of both chunks.
  HIP_CHECK(hipMemset(p, 0, range.bytes()));
  std::vector<unsigned> host(n, 0);
  if (on_cpu_agent()) {
    HIP_LAUNCH_CHECK(write_pattern, dim3((n + 255) / 256), dim3(256), 0, nullptr, p, n);
    HIP_CHECK(hipDeviceSynchronize());
  } else {  // no single-source kernels on a GPU agent: one copy crosses the boundary instead
    for (unsigned i = 0; i < n; ++i) host[i] = i * 3u + 1u;
    HIP_CHECK(hipMemcpy(p, host.data(), range.bytes(), hipMemcpyHostToDevice));
    std::fill(host.begin(), host.end(), 0u);
  }
  HIP_CHECK(hipMemcpy(host.data(), p, range.bytes(), hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; ++i) REQUIRE(host[i] == i * 3u + 1u);
  // A copy straddling the boundary, within the device range.
  std::vector<unsigned> middle(16, 0);
  const unsigned first = n / 2 - 8;
  HIP_CHECK(
      hipMemcpy(middle.data(), p + first, middle.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < middle.size(); ++i) REQUIRE(middle[i] == (first + i) * 3u + 1u);

  // The second chunk really is separate physical memory: mapped alone elsewhere, it
  // holds the second half of the pattern.
  void* other = nullptr;
  HIP_CHECK(hipMemAddressReserve(&other, range.chunk, 0, nullptr, 0));
  HIP_CHECK(hipMemMap(other, range.chunk, 0, range.handles[1], 0));
  hipMemAccessDesc desc = read_write();
  HIP_CHECK(hipMemSetAccess(other, range.chunk, &desc, 1));
  std::vector<unsigned> second(range.chunk / sizeof(unsigned));
  HIP_CHECK(hipMemcpy(second.data(), other, range.chunk, hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < second.size(); ++i) REQUIRE(second[i] == (n / 2 + i) * 3u + 1u);
  HIP_CHECK(hipMemUnmap(other, range.chunk));
  HIP_CHECK(hipMemAddressFree(other, range.chunk));
}

TEST_CASE("Unit_hipMemMap_PointerChecksFollowMappingAndAccess") {
  size_t g = 0;
  if (!vmm_supported(&g)) return;
  std::vector<char> host(2 * g, 7);
  MappedRange range(g, 2);
  // Mapped but without access: not yet memory a copy may touch.
  HIP_CHECK_ERROR(hipMemset(range.base, 0, g), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy(range.base, host.data(), g, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK(range.grant());
  HIP_CHECK(hipMemcpy(range.base, host.data(), 2 * g, hipMemcpyHostToDevice));
  hipPointerAttribute_t attributes{};
  HIP_CHECK(hipPointerGetAttributes(&attributes, range.at(g + 5)));
  CHECK(attributes.type == hipMemoryTypeDevice);
  CHECK(attributes.device == hip_test::device());
  // Past the end of the mapped range.
  HIP_CHECK_ERROR(hipMemcpy(range.base, host.data(), 2 * g + 1, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  // hipFree never takes a mapping.
  HIP_CHECK_ERROR(hipFree(range.base), hipErrorInvalidValue);

  // Read-only: reads pass, writes are refused before anything runs.
  HIP_CHECK(range.grant(hipMemAccessFlagsProtRead));
  HIP_CHECK_ERROR(hipMemset(range.base, 0, g), hipErrorInvalidValue);
  std::vector<char> back(2 * g, 0);
  HIP_CHECK(hipMemcpy(back.data(), range.base, 2 * g, hipMemcpyDeviceToHost));
  REQUIRE(back == host);
  HIP_CHECK(range.grant());

  // After unmapping the second chunk only the first is memory.
  HIP_CHECK(hipMemUnmap(range.at(g), g));
  HIP_CHECK(hipMemset(range.base, 1, g));
  HIP_CHECK_ERROR(hipMemset(range.at(g), 1, g), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemset(range.base, 1, 2 * g), hipErrorInvalidValue);
  HIP_CHECK(hipMemUnmap(range.base, g));
  HIP_CHECK_ERROR(hipMemset(range.base, 1, g), hipErrorInvalidValue);
  for (auto h : range.handles) HIP_CHECK(hipMemRelease(h));
  HIP_CHECK(hipMemAddressFree(range.base, range.bytes()));
  range.base = nullptr;
}

TEST_CASE("Unit_hipMemSetAccess_GetAccess") {
  size_t g = 0;
  if (!vmm_supported(&g)) return;
  MappedRange range(g, 2);
  hipMemLocation location{};
  location.type = hipMemLocationTypeDevice;
  location.id = hip_test::device();
  unsigned long long flags = 99;
  HIP_CHECK(hipMemGetAccess(&flags, &location, range.base));
  CHECK(flags == hipMemAccessFlagsProtNone);
  HIP_CHECK(range.grant(hipMemAccessFlagsProtRead));
  HIP_CHECK(hipMemGetAccess(&flags, &location, range.at(g + 1)));
  CHECK(flags == hipMemAccessFlagsProtRead);
  HIP_CHECK(range.grant());
  HIP_CHECK(hipMemGetAccess(&flags, &location, range.base));
  CHECK(flags == hipMemAccessFlagsProtReadWrite);

  hipMemAccessDesc desc = read_write();
  HIP_CHECK_ERROR(hipMemSetAccess(range.base, range.bytes(), nullptr, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemSetAccess(range.base, range.bytes(), &desc, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemSetAccess(nullptr, range.bytes(), &desc, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemSetAccess(range.base, 0, &desc, 1), hipErrorInvalidValue);
  // Part of one mapping, and a misaligned size.
  HIP_CHECK_ERROR(hipMemSetAccess(range.base, g / 2, &desc, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemSetAccess(range.at(g / 2), g, &desc, 1), hipErrorInvalidValue);
  hipMemAccessDesc bad = desc;
  bad.flags = static_cast<hipMemAccessFlags>(2);
  HIP_CHECK_ERROR(hipMemSetAccess(range.base, range.bytes(), &bad, 1), hipErrorInvalidValue);
  bad = desc;
  bad.location.id = 9999;
  HIP_CHECK_ERROR(hipMemSetAccess(range.base, range.bytes(), &bad, 1), hipErrorInvalidValue);
  bad = desc;
  bad.location.type = hipMemLocationTypeHost;
  HIP_CHECK_ERROR(hipMemSetAccess(range.base, range.bytes(), &bad, 1), hipErrorInvalidValue);
  std::vector<char> unmapped(g);
  HIP_CHECK_ERROR(hipMemSetAccess(unmapped.data(), g, &desc, 1), hipErrorInvalidValue);

  HIP_CHECK_ERROR(hipMemGetAccess(nullptr, &location, range.base), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemGetAccess(&flags, nullptr, range.base), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemGetAccess(&flags, &location, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemGetAccess(&flags, &location, unmapped.data()), hipErrorInvalidValue);
  hipMemLocation nowhere = location;
  nowhere.id = 9999;
  HIP_CHECK_ERROR(hipMemGetAccess(&flags, &nowhere, range.base), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMemCreate_Release_Negative") {
  size_t g = 0;
  if (!vmm_supported(&g)) return;
  hipMemAllocationProp prop = device_prop();
  hipMemGenericAllocationHandle_t h{};
  HIP_CHECK_ERROR(hipMemCreate(nullptr, g, &prop, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemCreate(&h, g, nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemCreate(&h, g, &prop, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemCreate(&h, 0, &prop, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemCreate(&h, g + 1, &prop, 0), hipErrorInvalidValue);
  hipMemAllocationProp bad = prop;
  bad.type = hipMemAllocationTypeInvalid;
  HIP_CHECK_ERROR(hipMemCreate(&h, g, &bad, 0), hipErrorInvalidValue);
  bad = prop;
  bad.location.id = 9999;
  HIP_CHECK_ERROR(hipMemCreate(&h, g, &bad, 0), hipErrorInvalidValue);
  bad = prop;
  bad.location.type = hipMemLocationTypeHost;
  HIP_CHECK_ERROR(hipMemCreate(&h, g, &bad, 0), hipErrorInvalidValue);
  bad = prop;
  bad.requestedHandleType = hipMemHandleTypeWin32;
  HIP_CHECK_ERROR(hipMemCreate(&h, g, &bad, 0), hipErrorNotSupported);
  bad.requestedHandleType = static_cast<hipMemAllocationHandleType>(0x40);
  HIP_CHECK_ERROR(hipMemCreate(&h, g, &bad, 0), hipErrorInvalidValue);

  HIP_CHECK(hipMemCreate(&h, g, &prop, 0));
  hipMemAllocationProp got{};
  HIP_CHECK(hipMemGetAllocationPropertiesFromHandle(&got, h));
  CHECK(got.type == prop.type);
  CHECK(got.requestedHandleType == prop.requestedHandleType);
  CHECK(got.location.type == prop.location.type);
  CHECK(got.location.id == prop.location.id);
  HIP_CHECK_ERROR(hipMemGetAllocationPropertiesFromHandle(nullptr, h), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemGetAllocationPropertiesFromHandle(&got, nullptr), hipErrorInvalidValue);
  HIP_CHECK(hipMemRelease(h));
  HIP_CHECK_ERROR(hipMemRelease(h), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemGetAllocationPropertiesFromHandle(&got, h), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemRelease(nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMemAddressReserve_Free_Negative") {
  size_t g = 0;
  if (!vmm_supported(&g)) return;
  void* p = nullptr;
  HIP_CHECK_ERROR(hipMemAddressReserve(nullptr, g, 0, nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAddressReserve(&p, 0, 0, nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAddressReserve(&p, g + 1, 0, nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAddressReserve(&p, g, 0, nullptr, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAddressReserve(&p, g, 3 * g, nullptr, 0), hipErrorInvalidValue);

  // An aligned reservation honours the alignment.
  const size_t align = 64 * g;
  HIP_CHECK(hipMemAddressReserve(&p, 2 * g, align, nullptr, 0));
  CHECK(reinterpret_cast<uintptr_t>(p) % align == 0);
  HIP_CHECK_ERROR(hipMemAddressFree(nullptr, 2 * g), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAddressFree(p, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAddressFree(p, g), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAddressFree(static_cast<char*>(p) + g, g), hipErrorInvalidValue);
  HIP_CHECK(hipMemAddressFree(p, 2 * g));
  HIP_CHECK_ERROR(hipMemAddressFree(p, 2 * g), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMemAddressFree_TakesRemainingMappings") {
  size_t g = 0;
  if (!vmm_supported(&g)) return;
  MappedRange range(g, 1);
  HIP_CHECK(range.grant());
  HIP_CHECK(hipMemset(range.base, 3, g));
  HIP_CHECK(hipMemAddressFree(range.base, range.bytes()));
  HIP_CHECK_ERROR(hipMemset(range.base, 3, g), hipErrorInvalidValue);
  for (auto h : range.handles) HIP_CHECK(hipMemRelease(h));
  range.base = nullptr;
}

TEST_CASE("Unit_hipMemMap_Unmap_Negative") {
  size_t g = 0;
  if (!vmm_supported(&g)) return;
  hipMemAllocationProp prop = device_prop();
  hipMemGenericAllocationHandle_t h{};
  HIP_CHECK(hipMemCreate(&h, 2 * g, &prop, 0));
  void* base = nullptr;
  HIP_CHECK(hipMemAddressReserve(&base, 4 * g, 0, nullptr, 0));
  char* b = static_cast<char*>(base);
  HIP_CHECK_ERROR(hipMemMap(nullptr, 2 * g, 0, h, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemMap(b, 0, 0, h, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemMap(b, 2 * g, g, h, 0), hipErrorInvalidValue);  // offset must be 0
  HIP_CHECK_ERROR(hipMemMap(b, 2 * g, 0, h, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemMap(b, 2 * g, 0, nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemMap(b + 1, g, 0, h, 0), hipErrorInvalidValue);  // misaligned
  HIP_CHECK_ERROR(hipMemMap(b, 3 * g, 0, h, 0), hipErrorInvalidValue);  // larger than the memory
  HIP_CHECK_ERROR(hipMemMap(b + 3 * g, 2 * g, 0, h, 0),
                  hipErrorInvalidValue);  // past the reservation
  std::vector<char> plain(4 * g);
  void* outside =
      reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(plain.data()) + g - 1) / g * g);
  HIP_CHECK_ERROR(hipMemMap(outside, g, 0, h, 0), hipErrorInvalidValue);  // not reserved

  HIP_CHECK(hipMemMap(b + g, 2 * g, 0, h, 0));
  HIP_CHECK_ERROR(hipMemMap(b, 2 * g, 0, h, 0), hipErrorInvalidValue);      // overlaps the start
  HIP_CHECK_ERROR(hipMemMap(b + 2 * g, g, 0, h, 0), hipErrorInvalidValue);  // overlaps inside
  HIP_CHECK_ERROR(hipMemUnmap(b + g, g), hipErrorInvalidValue);             // part of a mapping
  HIP_CHECK_ERROR(hipMemUnmap(b, 3 * g), hipErrorInvalidValue);             // starts unmapped
  HIP_CHECK_ERROR(hipMemUnmap(b + g, 3 * g), hipErrorInvalidValue);         // runs past it
  HIP_CHECK_ERROR(hipMemUnmap(nullptr, g), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemUnmap(b + g, 0), hipErrorInvalidValue);
  HIP_CHECK(hipMemUnmap(b + g, 2 * g));
  HIP_CHECK_ERROR(hipMemUnmap(b + g, 2 * g), hipErrorInvalidValue);
  HIP_CHECK(hipMemRelease(h));
  // A released handle maps nothing.
  HIP_CHECK_ERROR(hipMemMap(b, 2 * g, 0, h, 0), hipErrorInvalidValue);
  HIP_CHECK(hipMemAddressFree(base, 4 * g));
}

TEST_CASE("Unit_hipMemRetainAllocationHandle_KeepsMemoryAlive") {
  size_t g = 0;
  if (!vmm_supported(&g)) return;
  MappedRange range(g, 2);
  HIP_CHECK(range.grant());
  hipMemGenericAllocationHandle_t retained{};
  HIP_CHECK(hipMemRetainAllocationHandle(&retained, range.at(g + 100)));
  CHECK(retained == range.handles[1]);
  // The creator's reference goes; the mapping and the retained reference keep it.
  HIP_CHECK(hipMemRelease(range.handles[1]));
  hipMemAllocationProp got{};
  HIP_CHECK(hipMemGetAllocationPropertiesFromHandle(&got, retained));
  HIP_CHECK(hipMemset(range.at(g), 0x5a, g));
  std::vector<unsigned char> back(g);
  HIP_CHECK(hipMemcpy(back.data(), range.at(g), g, hipMemcpyDeviceToHost));
  for (unsigned char c : back) REQUIRE(c == 0x5a);
  range.handles[1] = retained;  // released by the guard

  HIP_CHECK_ERROR(hipMemRetainAllocationHandle(nullptr, range.base), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemRetainAllocationHandle(&retained, nullptr), hipErrorInvalidValue);
  int on_stack = 0;
  HIP_CHECK_ERROR(hipMemRetainAllocationHandle(&retained, &on_stack), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMemExportImport_PosixFileDescriptor") {
  size_t g = 0;
  if (!vmm_supported(&g)) return;
  MappedRange range(g, 1, hipMemHandleTypePosixFileDescriptor);
  HIP_CHECK(range.grant());
  std::vector<unsigned> pattern(g / sizeof(unsigned));
  std::iota(pattern.begin(), pattern.end(), 11u);
  HIP_CHECK(hipMemcpy(range.base, pattern.data(), g, hipMemcpyHostToDevice));

  int fd = -1;
  HIP_CHECK(
      hipMemExportToShareableHandle(&fd, range.handles[0], hipMemHandleTypePosixFileDescriptor, 0));
  REQUIRE(fd >= 0);
  hipMemGenericAllocationHandle_t imported{};
  HIP_CHECK(hipMemImportFromShareableHandle(&imported,
                                            reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                                            hipMemHandleTypePosixFileDescriptor));
  close(fd);  // the import holds its own reference
  hipMemAllocationProp got{};
  HIP_CHECK(hipMemGetAllocationPropertiesFromHandle(&got, imported));
  CHECK(got.requestedHandleType == hipMemHandleTypePosixFileDescriptor);
  CHECK(got.location.id == hip_test::device());

  // The imported memory is the same pages, seen through a second mapping.
  void* second = nullptr;
  HIP_CHECK(hipMemAddressReserve(&second, g, 0, nullptr, 0));
  HIP_CHECK(hipMemMap(second, g, 0, imported, 0));
  hipMemAccessDesc desc = read_write();
  HIP_CHECK(hipMemSetAccess(second, g, &desc, 1));
  std::vector<unsigned> back(pattern.size());
  HIP_CHECK(hipMemcpy(back.data(), second, g, hipMemcpyDeviceToHost));
  REQUIRE(back == pattern);
  HIP_CHECK(hipMemset(second, 0, sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(back.data(), range.base, sizeof(unsigned), hipMemcpyDeviceToHost));
  CHECK(back[0] == 0u);
  HIP_CHECK(hipMemUnmap(second, g));
  HIP_CHECK(hipMemRelease(imported));
  HIP_CHECK(hipMemAddressFree(second, g));

  // Bad arguments.
  HIP_CHECK_ERROR(hipMemExportToShareableHandle(nullptr, range.handles[0],
                                                hipMemHandleTypePosixFileDescriptor, 0),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipMemExportToShareableHandle(&fd, nullptr, hipMemHandleTypePosixFileDescriptor, 0),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipMemExportToShareableHandle(&fd, range.handles[0], hipMemHandleTypePosixFileDescriptor, 1),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemExportToShareableHandle(&fd, range.handles[0], hipMemHandleTypeWin32, 0),
                  hipErrorNotSupported);
  HIP_CHECK_ERROR(hipMemExportToShareableHandle(&fd, range.handles[0], hipMemHandleTypeNone, 0),
                  hipErrorInvalidValue);
  hipMemAllocationProp plain_prop = device_prop();
  hipMemGenericAllocationHandle_t plain{};
  HIP_CHECK(hipMemCreate(&plain, g, &plain_prop, 0));
  HIP_CHECK_ERROR(hipMemExportToShareableHandle(&fd, plain, hipMemHandleTypePosixFileDescriptor, 0),
                  hipErrorInvalidValue);  // not created exportable
  HIP_CHECK(hipMemRelease(plain));

  HIP_CHECK_ERROR(hipMemImportFromShareableHandle(nullptr, reinterpret_cast<void*>(intptr_t{3}),
                                                  hipMemHandleTypePosixFileDescriptor),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemImportFromShareableHandle(&imported, reinterpret_cast<void*>(intptr_t{-1}),
                                                  hipMemHandleTypePosixFileDescriptor),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemImportFromShareableHandle(&imported, reinterpret_cast<void*>(intptr_t{3}),
                                                  hipMemHandleTypeWin32),
                  hipErrorNotSupported);
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  HIP_CHECK_ERROR(hipMemImportFromShareableHandle(
                      &imported, reinterpret_cast<void*>(static_cast<intptr_t>(pipe_fds[0])),
                      hipMemHandleTypePosixFileDescriptor),
                  hipErrorInvalidValue);  // not exported memory
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  const int closed = pipe_fds[0];
  HIP_CHECK_ERROR(hipMemImportFromShareableHandle(
                      &imported, reinterpret_cast<void*>(static_cast<intptr_t>(closed)),
                      hipMemHandleTypePosixFileDescriptor),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMemMapArrayAsync_NoArrays") {
  HIP_CHECK_ERROR(hipMemMapArrayAsync(nullptr, 1, nullptr), hipErrorInvalidValue);
  hipArrayMapInfo info{};
  HIP_CHECK_ERROR(hipMemMapArrayAsync(&info, 0, nullptr), hipErrorInvalidValue);
  // weft has no hipArray objects yet: mapping one is unsupported, never a crash.
  HIP_CHECK_ERROR(hipMemMapArrayAsync(&info, 1, nullptr), hipErrorNotSupported);
}
