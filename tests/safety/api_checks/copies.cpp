// SPDX-License-Identifier: MIT
// Items 1-3 of issue 19: copies and fills whose kind names device memory but
// whose pointers lie in no live allocation, fill sizes that overflow, and 3D
// regions that run past their pitched allocation. Each must fail with
// hipErrorInvalidValue and write nothing.
#include "hip_test.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr size_t kSmall = 4096;

// A device pointer that was freed: the address is dead, nothing may touch it.
void* freed_device_pointer(size_t bytes) {
  void* d = nullptr;
  HIP_CHECK(hipMalloc(&d, bytes));
  HIP_CHECK(hipFree(d));
  return d;
}

bool all_bytes(const std::vector<unsigned char>& v, unsigned char value) {
  for (unsigned char c : v)
    if (c != value) return false;
  return true;
}

}  // namespace

TEST_CASE("Item1_memcpy_to_freed_device_pointer") {
  std::vector<unsigned char> host(1 << 20, 0x5a);
  void* small = freed_device_pointer(kSmall);
  HIP_CHECK_ERROR(hipMemcpy(small, host.data(), kSmall, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  void* large = freed_device_pointer(1 << 20);
  HIP_CHECK_ERROR(hipMemcpy(large, host.data(), 1 << 20, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy(host.data(), small, kSmall, hipMemcpyDeviceToHost),
                  hipErrorInvalidValue);
  CHECK(all_bytes(host, 0x5a));
  HIP_CHECK_ERROR(hipMemcpyHtoD(small, host.data(), kSmall), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyDtoH(host.data(), small, kSmall), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyHtoDAsync(small, host.data(), kSmall, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyDtoHAsync(host.data(), small, kSmall, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyAsync(small, host.data(), kSmall, hipMemcpyHostToDevice, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK(hipDeviceSynchronize());
  CHECK(all_bytes(host, 0x5a));
}

TEST_CASE("Item1_memcpy_dtod_on_freed_pointer") {
  hip_test::DeviceBuffer<unsigned char> live(kSmall);
  void* dead = freed_device_pointer(kSmall);
  HIP_CHECK_ERROR(hipMemcpy(dead, live.get(), kSmall, hipMemcpyDeviceToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy(live.get(), dead, kSmall, hipMemcpyDeviceToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyDtoD(dead, live.get(), kSmall), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyDtoDAsync(live.get(), dead, kSmall, nullptr), hipErrorInvalidValue);
  int device = 0;
  HIP_CHECK(hipGetDevice(&device));
  HIP_CHECK_ERROR(hipMemcpyPeer(dead, device, live.get(), device, kSmall), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyPeerAsync(live.get(), device, dead, device, kSmall, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK(hipDeviceSynchronize());
}

TEST_CASE("Item1_one_byte_copy_past_allocation_end") {
  hip_test::DeviceBuffer<unsigned char> d(kSmall);
  unsigned char byte = 1;
  HIP_CHECK_ERROR(hipMemcpy(d.get() + kSmall, &byte, 1, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy(&byte, d.get() + kSmall, 1, hipMemcpyDeviceToHost),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemset(d.get() + kSmall, 0, 1), hipErrorInvalidValue);
  CHECK(byte == 1);
  // The last byte inside is fine.
  HIP_CHECK(hipMemcpy(d.get() + kSmall - 1, &byte, 1, hipMemcpyHostToDevice));
}

TEST_CASE("Item1_device_kind_on_plain_host_memory_writes_nothing") {
  std::vector<unsigned char> plain(kSmall, 0x11), src(kSmall, 0x22);
  HIP_CHECK_ERROR(hipMemcpy(plain.data(), src.data(), kSmall, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy(plain.data(), src.data(), kSmall, hipMemcpyDeviceToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemset(plain.data(), 0x33, kSmall), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetAsync(plain.data(), 0x33, kSmall, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD32(plain.data(), 0x33, kSmall / 4), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemset2D(plain.data(), 64, 0x33, 64, 4), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy2D(plain.data(), 64, src.data(), 64, 64, 4, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipMemcpy2DAsync(src.data(), 64, plain.data(), 64, 64, 4, hipMemcpyDeviceToHost, nullptr),
      hipErrorInvalidValue);
  hipMemcpy3DParms p{};
  p.srcPtr = make_hipPitchedPtr(src.data(), 64, 64, 4);
  p.dstPtr = make_hipPitchedPtr(plain.data(), 64, 64, 4);
  p.extent = make_hipExtent(64, 4, 2);
  p.kind = hipMemcpyHostToDevice;
  HIP_CHECK_ERROR(hipMemcpy3D(&p), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy3DAsync(&p, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipMemset3D(make_hipPitchedPtr(plain.data(), 64, 64, 4), 0x33, make_hipExtent(64, 4, 2)),
      hipErrorInvalidValue);
  HIP_CHECK(hipDeviceSynchronize());
  CHECK(all_bytes(plain, 0x11));
  CHECK(all_bytes(src, 0x22));
}

TEST_CASE("Item1_pinned_registered_and_default_kind_still_work") {
  // Pinned and registered host memory may stand on the device side (AMD and CUDA
  // accept it); hipMemcpyDefault treats unknown memory as host memory.
  hip_test::PinnedBuffer<unsigned char> pinned(kSmall);
  std::vector<unsigned char> src(kSmall, 0x42), out(kSmall, 0);
  HIP_CHECK(hipMemcpy(pinned.get(), src.data(), kSmall, hipMemcpyHostToDevice));
  CHECK(pinned[kSmall - 1] == 0x42);
  std::vector<unsigned char> registered(kSmall, 0);
  HIP_CHECK(hipHostRegister(registered.data(), kSmall, 0));
  HIP_CHECK(hipMemcpy(registered.data(), pinned.get(), kSmall, hipMemcpyDeviceToDevice));
  HIP_CHECK(hipMemset(registered.data(), 7, 16));
  HIP_CHECK(hipHostUnregister(registered.data()));
  CHECK(registered[0] == 7);
  CHECK(registered[16] == 0x42);
  HIP_CHECK(hipMemcpy(out.data(), src.data(), kSmall, hipMemcpyDefault));
  CHECK(out == src);
  HIP_CHECK(hipMemcpy(out.data(), src.data(), kSmall, hipMemcpyHostToHost));
}

TEST_CASE("Item1_pointer_attributes_after_free") {
  // AMD HIP 6/7 (and CUDA 11+) report memory nobody allocated as
  // hipMemoryTypeUnregistered with hipSuccess; a freed pointer is such memory.
  void* dead = freed_device_pointer(kSmall);
  hipPointerAttribute_t attr{};
  attr.type = hipMemoryTypeDevice;
  HIP_CHECK(hipPointerGetAttributes(&attr, dead));
  CHECK(attr.type == hipMemoryTypeUnregistered);
  CHECK(attr.devicePointer == nullptr);
  CHECK(attr.hostPointer == nullptr);
  void* base = nullptr;
  size_t size = 0;
  HIP_CHECK_ERROR(hipMemGetAddressRange(&base, &size, dead), hipErrorNotFound);
}

TEST_CASE("Item2_memset_count_overflow") {
  hip_test::DeviceBuffer<unsigned char> d(kSmall);
  HIP_CHECK(hipMemset(d.get(), 0, kSmall));
  // count * element size wraps to a few bytes, which an unchecked product would
  // find inside the allocation.
  const size_t wrap16 = (SIZE_MAX / 2) + 2;  // * 2 == 2 (mod 2^64)
  const size_t wrap32 = (SIZE_MAX / 4) + 2;  // * 4 == 4 (mod 2^64)
  HIP_CHECK_ERROR(hipMemsetD16(d.get(), 0xffff, wrap16), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD16Async(d.get(), 0xffff, wrap16, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD32(d.get(), -1, wrap32), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD32Async(d.get(), -1, wrap32, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD8(d.get(), 0xff, SIZE_MAX), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD2D16(d.get(), 64, 0xffff, wrap16, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD2D32(d.get(), 64, 0xffffffffu, wrap32, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD2D8Async(d.get(), SIZE_MAX / 2, 0xff, 16, 4, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<unsigned char> back(kSmall, 1);
  HIP_CHECK(hipMemcpy(back.data(), d.get(), kSmall, hipMemcpyDeviceToHost));
  CHECK(all_bytes(back, 0));
}

TEST_CASE("Item3_memset3d_extent_past_pitched_allocation") {
  hipPitchedPtr p{};
  HIP_CHECK(hipMalloc3D(&p, make_hipExtent(64, 4, 4)));  // 4 slices of 4 rows
  const size_t bytes = p.pitch * 4 * 4;
  HIP_CHECK(hipMemset(p.ptr, 0, bytes));
  // Slices 4..7 (2 rows each) start past the allocation's end.
  HIP_CHECK_ERROR(hipMemset3D(p, 7, make_hipExtent(64, 2, 8)), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemset3DAsync(p, 7, make_hipExtent(64, 2, 8), nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemset3D(p, 7, make_hipExtent(64, 4, 5)), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemset2D(p.ptr, p.pitch, 7, 64, 17), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemset2DAsync(p.ptr, p.pitch, 7, 64, 17, nullptr), hipErrorInvalidValue);
  // A 3D copy whose later slices leave the allocation, with hipMemcpyDefault
  // (a per-slice check sees unknown host memory there).
  std::vector<unsigned char> host(p.pitch * 4 * 16, 0x77);
  hipMemcpy3DParms c{};
  c.srcPtr = make_hipPitchedPtr(host.data(), p.pitch, 64, 4);
  c.dstPtr = p;
  c.extent = make_hipExtent(64, 2, 8);
  c.kind = hipMemcpyDefault;
  HIP_CHECK_ERROR(hipMemcpy3D(&c), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy3DAsync(&c, nullptr), hipErrorInvalidValue);
  c.kind = hipMemcpyHostToDevice;
  HIP_CHECK_ERROR(hipMemcpy3D(&c), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy2D(p.ptr, p.pitch, host.data(), p.pitch, 64, 17, hipMemcpyDefault),
                  hipErrorInvalidValue);
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<unsigned char> back(bytes, 1);
  HIP_CHECK(hipMemcpy(back.data(), p.ptr, bytes, hipMemcpyDeviceToHost));
  CHECK(all_bytes(back, 0));
  // The whole allocation is fine.
  HIP_CHECK(hipMemset3D(p, 9, make_hipExtent(64, 4, 4)));
  HIP_CHECK(hipFree(p.ptr));
}

TEST_CASE("Item3_pitched_allocation_size_overflow") {
  // A wrapped pitch or size would hand out a buffer far smaller than the pitch
  // and height claim, and every later checked copy would trust that claim.
  void* p = nullptr;
  size_t pitch = 1;
  HIP_CHECK_ERROR(hipMallocPitch(&p, &pitch, SIZE_MAX - 10, 2), hipErrorOutOfMemory);
  CHECK(p == nullptr);
  hipDeviceptr_t d = nullptr;
  HIP_CHECK_ERROR(hipMemAllocPitch(&d, &pitch, SIZE_MAX / 2, 4, 4), hipErrorOutOfMemory);
  CHECK(d == nullptr);
  HIP_CHECK(hipMallocPitch(&p, &pitch, 100, 3));
  CHECK(pitch >= 100);
  HIP_CHECK(hipFree(p));
}
