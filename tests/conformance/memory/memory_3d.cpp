// SPDX-License-Identifier: MIT
// Conformance: pitched 2D fills (hipMemsetD2D8/16/32), 3D allocation, fills and copies
// (hipMalloc3D, hipMemset3D, hipMemcpy3D), driver-style 2D copies (hipMemcpyParam2D),
// single pointer attributes, hipMemPtrGetInfo, hipStreamGetId, hipCreateChannelDesc,
// hipDeviceGetP2PAttribute and managed-memory hints (hipMemPrefetchAsync, hipMemAdvise).
#include "hip_test.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

constexpr unsigned char kBackground = 0x5A;

// Reads `bytes` bytes of device memory back to the host.
std::vector<unsigned char> read_back(const void* dev, size_t bytes) {
  std::vector<unsigned char> out(bytes);
  HIP_CHECK(hipMemcpy(out.data(), dev, bytes, hipMemcpyDeviceToHost));
  return out;
}

void paint(void* dev, size_t bytes) { HIP_CHECK(hipMemset(dev, kBackground, bytes)); }

// Byte i of a row filled with `element_size`-byte elements of `value` (little-endian).
unsigned char pattern_byte(uint32_t value, size_t element_size, size_t i) {
  return static_cast<unsigned char>(value >> (8 * (i % element_size)));
}

// Checks a pitched 2D fill of `row_bytes` per row over `height` rows, background elsewhere.
void expect_2d(const std::vector<unsigned char>& got, size_t pitch, size_t row_bytes, size_t height,
               uint32_t value, size_t element_size) {
  for (size_t i = 0; i < got.size(); ++i) {
    const bool inside = i / pitch < height && i % pitch < row_bytes;
    const unsigned char expected =
        inside ? pattern_byte(value, element_size, i % pitch) : kBackground;
    if (got[i] != expected)
      FAIL("byte " << i << " (row " << i / pitch << ") is " << int(got[i]) << ", expected "
                   << int(expected));
  }
}

struct Pitched {
  void* ptr = nullptr;
  size_t pitch = 0;
  Pitched(size_t width, size_t height) { HIP_CHECK(hipMallocPitch(&ptr, &pitch, width, height)); }
  ~Pitched() { (void)hipFree(ptr); }
};

}  // namespace

// ---- hipMemsetD2D* ------------------------------------------------------------------------

TEST_CASE("Unit_hipMemsetD2D_Positive_ElementSizes") {
  constexpr size_t kWidthBytes = 96, kRows = 6;
  Pitched buf(kWidthBytes + 64, kRows + 1);
  const size_t total = buf.pitch * (kRows + 1);
  hip_test::Stream stream;
  for (bool async : {false, true}) {
    INFO("async " << async);
    paint(buf.ptr, total);
    HIP_CHECK(async ? hipMemsetD2D8Async(buf.ptr, buf.pitch, 0xC3, kWidthBytes, kRows, stream.get())
                    : hipMemsetD2D8(buf.ptr, buf.pitch, 0xC3, kWidthBytes, kRows));
    HIP_CHECK(hipStreamSynchronize(stream.get()));
    expect_2d(read_back(buf.ptr, total), buf.pitch, kWidthBytes, kRows, 0xC3, 1);

    paint(buf.ptr, total);
    HIP_CHECK(async ? hipMemsetD2D16Async(buf.ptr, buf.pitch, 0xBEEF, kWidthBytes / 2, kRows,
                                          stream.get())
                    : hipMemsetD2D16(buf.ptr, buf.pitch, 0xBEEF, kWidthBytes / 2, kRows));
    HIP_CHECK(hipStreamSynchronize(stream.get()));
    expect_2d(read_back(buf.ptr, total), buf.pitch, kWidthBytes, kRows, 0xBEEF, 2);

    paint(buf.ptr, total);
    HIP_CHECK(async ? hipMemsetD2D32Async(buf.ptr, buf.pitch, 0x01234567u, kWidthBytes / 4, kRows,
                                          stream.get())
                    : hipMemsetD2D32(buf.ptr, buf.pitch, 0x01234567u, kWidthBytes / 4, kRows));
    HIP_CHECK(hipStreamSynchronize(stream.get()));
    expect_2d(read_back(buf.ptr, total), buf.pitch, kWidthBytes, kRows, 0x01234567u, 4);
  }
}

TEST_CASE("Unit_hipMemsetD2D_Negative_Parameters") {
  Pitched buf(64, 4);
  HIP_CHECK_ERROR(hipMemsetD2D8(nullptr, buf.pitch, 1, 16, 2), hipErrorInvalidValue);
  // Rows past the end of the allocation.
  HIP_CHECK_ERROR(hipMemsetD2D32(buf.ptr, buf.pitch, 1, 16, 5), hipErrorInvalidValue);
  // A pitch smaller than a row: AMD documents hipErrorInvalidValue, weft's 2D fills report
  // the more specific hipErrorInvalidPitchValue; either names the bad argument.
  HIP_CHECK_ERROR_EITHER(hipMemsetD2D16(buf.ptr, 8, 1, 16, 2), hipErrorInvalidPitchValue,
                         hipErrorInvalidValue);
  // Nothing to do is not an error.
  HIP_CHECK(hipMemsetD2D8(buf.ptr, buf.pitch, 1, 0, 4));
  HIP_CHECK(hipMemsetD2D8Async(buf.ptr, buf.pitch, 1, 16, 0, nullptr));
}

// ---- hipMalloc3D, hipMemset3D, hipMemcpy3D --------------------------------------------------

TEST_CASE("Unit_hipMalloc3D_Positive_Basic") {
  const hipExtent extent = make_hipExtent(100, 7, 5);
  hipPitchedPtr p{};
  HIP_CHECK(hipMalloc3D(&p, extent));
  REQUIRE(p.ptr != nullptr);
  REQUIRE(p.pitch >= extent.width);
  REQUIRE(p.xsize == extent.width);
  REQUIRE(p.ysize == extent.height);
  size_t size = 0;
  HIP_CHECK(hipMemPtrGetInfo(p.ptr, &size));
  REQUIRE(size >= p.pitch * extent.height * extent.depth);
  HIP_CHECK(hipFree(p.ptr));
}

TEST_CASE("Unit_hipMalloc3D_Negative_Parameters") {
  HIP_CHECK_ERROR(hipMalloc3D(nullptr, make_hipExtent(16, 16, 16)), hipErrorInvalidValue);
  hipPitchedPtr p{};
  HIP_CHECK_ERROR(hipMalloc3D(&p, make_hipExtent(SIZE_MAX / 2, SIZE_MAX / 2, 4)),
                  hipErrorOutOfMemory);
}

TEST_CASE("Unit_hipMemset3D_Positive_WholeAndSubVolume") {
  const hipExtent extent = make_hipExtent(40, 6, 4);
  hipPitchedPtr p{};
  HIP_CHECK(hipMalloc3D(&p, extent));
  const size_t total = p.pitch * extent.height * extent.depth;
  hip_test::Stream stream;

  // The whole volume (contiguous slices).
  paint(p.ptr, total);
  HIP_CHECK(hipMemset3D(p, 0x7E, extent));
  expect_2d(read_back(p.ptr, total), p.pitch, extent.width, extent.height * extent.depth, 0x7E, 1);

  // A sub-volume: fewer rows than the slice holds, so the slices are not contiguous.
  for (bool async : {false, true}) {
    INFO("async " << async);
    paint(p.ptr, total);
    const hipExtent sub = make_hipExtent(10, 3, 4);
    HIP_CHECK(async ? hipMemset3DAsync(p, 0x21, sub, stream.get()) : hipMemset3D(p, 0x21, sub));
    HIP_CHECK(hipStreamSynchronize(stream.get()));
    auto got = read_back(p.ptr, total);
    for (size_t i = 0; i < total; ++i) {
      const size_t z = i / (p.pitch * extent.height), y = (i / p.pitch) % extent.height,
                   x = i % p.pitch;
      const bool inside = x < sub.width && y < sub.height && z < sub.depth;
      if (got[i] != (inside ? 0x21 : kBackground))
        FAIL("byte " << i << " (x " << x << ", y " << y << ", z " << z << ") is " << int(got[i]));
    }
  }
  HIP_CHECK(hipFree(p.ptr));
}

TEST_CASE("Unit_hipMemset3D_Negative_Parameters") {
  const hipExtent extent = make_hipExtent(32, 4, 4);
  hipPitchedPtr p{};
  HIP_CHECK(hipMalloc3D(&p, extent));
  hipPitchedPtr null_ptr = p;
  null_ptr.ptr = nullptr;
  HIP_CHECK_ERROR(hipMemset3D(null_ptr, 0, extent), hipErrorInvalidValue);
  // A row wider than the pitch.
  HIP_CHECK_ERROR(hipMemset3D(p, 0, make_hipExtent(p.pitch + 1, 1, 1)), hipErrorInvalidValue);
  // More slices than were allocated.
  HIP_CHECK_ERROR(hipMemset3D(p, 0, make_hipExtent(32, 4, 5)), hipErrorInvalidValue);
  // Slices taller than the pitched pointer's ysize would overlap.
  HIP_CHECK_ERROR(hipMemset3D(p, 0, make_hipExtent(32, 5, 2)), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemset3DAsync(p, 0, extent, reinterpret_cast<hipStream_t>(0x10)),
                  hipErrorInvalidHandle);
  // An empty extent does nothing.
  HIP_CHECK(hipMemset3D(p, 0, make_hipExtent(0, 4, 4)));
  HIP_CHECK(hipFree(p.ptr));
}

TEST_CASE("Unit_hipMemcpy3D_Positive_RoundTripWithPositions") {
  const hipExtent alloc = make_hipExtent(64, 8, 6);
  hipPitchedPtr dev{};
  HIP_CHECK(hipMalloc3D(&dev, alloc));
  const size_t total = dev.pitch * alloc.height * alloc.depth;
  paint(dev.ptr, total);

  // Host volume: 20 x 5 x 3 bytes, tightly packed.
  const hipExtent box = make_hipExtent(20, 5, 3);
  std::vector<unsigned char> host(box.width * box.height * box.depth);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(i * 13 + 7);

  hip_test::Stream stream;
  for (bool async : {false, true}) {
    INFO("async " << async);
    hipMemcpy3DParms up{};
    up.srcPtr = make_hipPitchedPtr(host.data(), box.width, box.width, box.height);
    up.dstPtr = dev;
    up.dstPos = make_hipPos(3, 2, 1);
    up.extent = box;
    up.kind = hipMemcpyHostToDevice;
    HIP_CHECK(async ? hipMemcpy3DAsync(&up, stream.get()) : hipMemcpy3D(&up));
    HIP_CHECK(hipStreamSynchronize(stream.get()));

    auto got = read_back(dev.ptr, total);
    for (size_t z = 0; z < box.depth; ++z)
      for (size_t y = 0; y < box.height; ++y)
        for (size_t x = 0; x < box.width; ++x) {
          const size_t d = (z + 1) * dev.pitch * alloc.height + (y + 2) * dev.pitch + (x + 3);
          REQUIRE(got[d] == host[(z * box.height + y) * box.width + x]);
        }
    REQUIRE(got[0] == kBackground);
    REQUIRE(got[dev.pitch * alloc.height + 2 * dev.pitch + 2] == kBackground);

    std::vector<unsigned char> back(host.size(), 0);
    hipMemcpy3DParms down{};
    down.srcPtr = dev;
    down.srcPos = make_hipPos(3, 2, 1);
    down.dstPtr = make_hipPitchedPtr(back.data(), box.width, box.width, box.height);
    down.extent = box;
    down.kind = hipMemcpyDefault;
    HIP_CHECK(async ? hipMemcpy3DAsync(&down, stream.get()) : hipMemcpy3D(&down));
    HIP_CHECK(hipStreamSynchronize(stream.get()));
    REQUIRE(back == host);
  }
  HIP_CHECK(hipFree(dev.ptr));
}

TEST_CASE("Unit_hipMemcpy3D_Negative_Parameters") {
  const hipExtent extent = make_hipExtent(16, 4, 2);
  hipPitchedPtr dev{};
  HIP_CHECK(hipMalloc3D(&dev, extent));
  std::vector<unsigned char> host(16 * 4 * 2);
  hipMemcpy3DParms p{};
  p.srcPtr = make_hipPitchedPtr(host.data(), 16, 16, 4);
  p.dstPtr = dev;
  p.extent = extent;
  p.kind = hipMemcpyHostToDevice;
  HIP_CHECK(hipMemcpy3D(&p));

  HIP_CHECK_ERROR(hipMemcpy3D(nullptr), hipErrorInvalidValue);
  {
    auto bad = p;
    bad.kind = static_cast<hipMemcpyKind>(77);
    HIP_CHECK_ERROR(hipMemcpy3D(&bad), hipErrorInvalidMemcpyDirection);
  }
  {
    auto bad = p;
    bad.dstPtr.ptr = nullptr;
    HIP_CHECK_ERROR(hipMemcpy3D(&bad), hipErrorInvalidValue);
  }
  {
    auto bad = p;  // a source row wider than its pitch
    bad.srcPos = make_hipPos(1, 0, 0);
    HIP_CHECK_ERROR_EITHER(hipMemcpy3D(&bad), hipErrorInvalidPitchValue, hipErrorInvalidValue);
  }
  {
    auto bad = p;  // one slice more than the destination holds
    bad.dstPos = make_hipPos(0, 0, 1);
    HIP_CHECK_ERROR(hipMemcpy3D(&bad), hipErrorInvalidValue);
  }
  {
    auto bad = p;  // no array lives there; the handle is never dereferenced
    bad.dstPtr = hipPitchedPtr{};
    bad.dstArray = reinterpret_cast<hipArray_t>(uintptr_t{0x1000});
    HIP_CHECK_ERROR(hipMemcpy3D(&bad), hipErrorInvalidValue);
  }
  HIP_CHECK_ERROR(hipMemcpy3DAsync(&p, reinterpret_cast<hipStream_t>(0x10)), hipErrorInvalidHandle);
  HIP_CHECK(hipFree(dev.ptr));
}

// ---- hipMemcpyParam2D ---------------------------------------------------------------------

TEST_CASE("Unit_hipMemcpyParam2D_Positive_HostDeviceRoundTrip") {
  constexpr size_t kWidth = 24, kRows = 5, kHostPitch = 32;
  Pitched dev(kWidth + 8, kRows + 2);
  paint(dev.ptr, dev.pitch * (kRows + 2));
  std::vector<unsigned char> host(kHostPitch * kRows);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(i * 3 + 1);

  hip_test::Stream stream;
  for (bool async : {false, true}) {
    INFO("async " << async);
    hip_Memcpy2D up{};
    up.srcMemoryType = hipMemoryTypeHost;
    up.srcHost = host.data();
    up.srcPitch = kHostPitch;
    up.dstMemoryType = hipMemoryTypeDevice;
    up.dstDevice = dev.ptr;
    up.dstPitch = dev.pitch;
    up.dstXInBytes = 4;
    up.dstY = 1;
    up.WidthInBytes = kWidth;
    up.Height = kRows;
    HIP_CHECK(async ? hipMemcpyParam2DAsync(&up, stream.get()) : hipMemcpyParam2D(&up));
    HIP_CHECK(hipStreamSynchronize(stream.get()));
    auto got = read_back(dev.ptr, dev.pitch * (kRows + 2));
    for (size_t y = 0; y < kRows; ++y)
      for (size_t x = 0; x < kWidth; ++x)
        REQUIRE(got[(y + 1) * dev.pitch + x + 4] == host[y * kHostPitch + x]);
    REQUIRE(got[dev.pitch + 3] == kBackground);

    std::vector<unsigned char> back(kWidth * kRows, 0);
    hip_Memcpy2D down{};
    down.srcMemoryType = hipMemoryTypeUnified;  // direction inferred from the pointers
    down.srcDevice = dev.ptr;
    down.srcPitch = dev.pitch;
    down.srcXInBytes = 4;
    down.srcY = 1;
    down.dstMemoryType = hipMemoryTypeHost;
    down.dstHost = back.data();
    down.dstPitch = kWidth;
    down.WidthInBytes = kWidth;
    down.Height = kRows;
    HIP_CHECK(async ? hipMemcpyParam2DAsync(&down, stream.get()) : hipMemcpyParam2D(&down));
    HIP_CHECK(hipStreamSynchronize(stream.get()));
    for (size_t y = 0; y < kRows; ++y)
      for (size_t x = 0; x < kWidth; ++x) REQUIRE(back[y * kWidth + x] == host[y * kHostPitch + x]);
  }
}

TEST_CASE("Unit_hipMemcpyParam2D_Negative_Parameters") {
  Pitched dev(64, 4);
  std::vector<unsigned char> host(64 * 4);
  hip_Memcpy2D c{};
  c.srcMemoryType = hipMemoryTypeHost;
  c.srcHost = host.data();
  c.srcPitch = 64;
  c.dstMemoryType = hipMemoryTypeDevice;
  c.dstDevice = dev.ptr;
  c.dstPitch = dev.pitch;
  c.WidthInBytes = 64;
  c.Height = 4;
  HIP_CHECK(hipMemcpyParam2D(&c));

  HIP_CHECK_ERROR(hipMemcpyParam2D(nullptr), hipErrorInvalidValue);
  {
    auto bad = c;
    bad.srcMemoryType = static_cast<hipMemoryType>(0);
    HIP_CHECK_ERROR(hipMemcpyParam2D(&bad), hipErrorInvalidValue);
  }
  {
    auto bad = c;
    bad.dstDevice = nullptr;
    HIP_CHECK_ERROR(hipMemcpyParam2D(&bad), hipErrorInvalidValue);
  }
  {
    auto bad = c;  // one row past the end of the device allocation
    bad.dstY = 1;
    HIP_CHECK_ERROR(hipMemcpyParam2D(&bad), hipErrorInvalidValue);
  }
  {
    auto bad = c;  // the row does not fit in the source pitch
    bad.srcXInBytes = 8;
    HIP_CHECK_ERROR_EITHER(hipMemcpyParam2D(&bad), hipErrorInvalidPitchValue, hipErrorInvalidValue);
  }
  {
    auto bad = c;  // no array lives there; the handle is never dereferenced
    bad.dstMemoryType = hipMemoryTypeArray;
    bad.dstArray = reinterpret_cast<hipArray_t>(uintptr_t{0x1000});
    HIP_CHECK_ERROR(hipMemcpyParam2D(&bad), hipErrorInvalidValue);
  }
  HIP_CHECK_ERROR(hipMemcpyParam2DAsync(&c, reinterpret_cast<hipStream_t>(0x10)),
                  hipErrorInvalidHandle);
}

// ---- hipPointerGetAttribute, hipMemPtrGetInfo ---------------------------------------------

TEST_CASE("Unit_hipPointerGetAttribute_Positive_Device") {
  constexpr size_t kSize = 4096;
  hip_test::DeviceBuffer<char> buf(kSize);
  char* interior = buf.get() + 100;
  unsigned type = 0;
  HIP_CHECK(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, interior));
  REQUIRE(type == hipMemoryTypeDevice);
  int ordinal = -1;
  HIP_CHECK(hipPointerGetAttribute(&ordinal, HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL, interior));
  REQUIRE(ordinal == hip_test::device());
  void* start = nullptr;
  HIP_CHECK(hipPointerGetAttribute(&start, HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR, interior));
  REQUIRE(start == buf.get());
  size_t size = 0;
  HIP_CHECK(hipPointerGetAttribute(&size, HIP_POINTER_ATTRIBUTE_RANGE_SIZE, interior));
  REQUIRE(size == kSize);
  void* dptr = nullptr;
  HIP_CHECK(hipPointerGetAttribute(&dptr, HIP_POINTER_ATTRIBUTE_DEVICE_POINTER, interior));
  REQUIRE(dptr == interior);
  bool managed = true;
  HIP_CHECK(hipPointerGetAttribute(&managed, HIP_POINTER_ATTRIBUTE_IS_MANAGED, interior));
  REQUIRE_FALSE(managed);
}

TEST_CASE("Unit_hipPointerGetAttribute_Positive_HostAndManaged") {
  hip_test::PinnedBuffer<char> pinned(256);
  unsigned type = 0;
  HIP_CHECK(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, pinned.get() + 8));
  REQUIRE(type == hipMemoryTypeHost);
  void* hptr = nullptr;
  HIP_CHECK(hipPointerGetAttribute(&hptr, HIP_POINTER_ATTRIBUTE_HOST_POINTER, pinned.get() + 8));
  REQUIRE(hptr == pinned.get() + 8);

  void* m = nullptr;
  HIP_CHECK(hipMallocManaged(&m, 512, hipMemAttachGlobal));
  bool managed = false;
  HIP_CHECK(hipPointerGetAttribute(&managed, HIP_POINTER_ATTRIBUTE_IS_MANAGED, m));
  REQUIRE(managed);
  HIP_CHECK(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, m));
  REQUIRE(type == hipMemoryTypeManaged);
  HIP_CHECK(hipFree(m));
}

TEST_CASE("Unit_hipPointerGetAttribute_Negative_Parameters") {
  hip_test::DeviceBuffer<char> buf(64);
  unsigned type = 0;
  HIP_CHECK_ERROR(hipPointerGetAttribute(nullptr, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, buf.get()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, nullptr),
                  hipErrorInvalidValue);
  int local = 0;  // plain host memory is unknown to HIP
  HIP_CHECK_ERROR(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, &local),
                  hipErrorInvalidValue);
  void* ctx = nullptr;  // contexts are not tracked per pointer
  HIP_CHECK_ERROR(hipPointerGetAttribute(&ctx, HIP_POINTER_ATTRIBUTE_CONTEXT, buf.get()),
                  hipErrorInvalidValue);
  void* host = nullptr;  // device memory has no host address
  HIP_CHECK_ERROR(hipPointerGetAttribute(&host, HIP_POINTER_ATTRIBUTE_HOST_POINTER, buf.get()),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMemPtrGetInfo_Positive_And_Negative") {
  hip_test::DeviceBuffer<char> buf(1000);
  size_t size = 0;
  HIP_CHECK(hipMemPtrGetInfo(buf.get() + 10, &size));
  REQUIRE(size == 1000);
  HIP_CHECK_ERROR(hipMemPtrGetInfo(buf.get(), nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPtrGetInfo(nullptr, &size), hipErrorInvalidValue);
  int local = 0;
  HIP_CHECK_ERROR(hipMemPtrGetInfo(&local, &size), hipErrorInvalidValue);
}

// ---- hipStreamGetId, hipCreateChannelDesc, hipDeviceGetP2PAttribute -----------------------

TEST_CASE("Unit_hipStreamGetId_Positive_Distinct") {
  hip_test::Stream a, b;
  unsigned long long ia = 0, ib = 0, ia2 = 0, inull = 0;
  HIP_CHECK(hipStreamGetId(a.get(), &ia));
  HIP_CHECK(hipStreamGetId(b.get(), &ib));
  HIP_CHECK(hipStreamGetId(a.get(), &ia2));
  HIP_CHECK(hipStreamGetId(nullptr, &inull));
  REQUIRE(ia != ib);
  REQUIRE(ia == ia2);
  REQUIRE(inull != ia);
  REQUIRE(inull != ib);
}

TEST_CASE("Unit_hipStreamGetId_Negative_Parameters") {
  hip_test::Stream a;
  HIP_CHECK_ERROR(hipStreamGetId(a.get(), nullptr), hipErrorInvalidValue);
  unsigned long long id = 0;
  HIP_CHECK_ERROR(hipStreamGetId(reinterpret_cast<hipStream_t>(0x10), &id), hipErrorInvalidHandle);
}

TEST_CASE("Unit_hipCreateChannelDesc_Positive_Fields") {
  const hipChannelFormatDesc d = hipCreateChannelDesc(8, 16, 32, 0, hipChannelFormatKindSigned);
  REQUIRE(d.x == 8);
  REQUIRE(d.y == 16);
  REQUIRE(d.z == 32);
  REQUIRE(d.w == 0);
  REQUIRE(d.f == hipChannelFormatKindSigned);
  const hipChannelFormatDesc f4 = hipCreateChannelDesc<float4>();
  REQUIRE(f4.x == 32);
  REQUIRE(f4.w == 32);
  REQUIRE(f4.f == hipChannelFormatKindFloat);
}

TEST_CASE("Unit_hipDeviceGetP2PAttribute_Positive_MatchesCanAccessPeer") {
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  if (count < 2) {
    hip_test::skip("needs two devices");
    return;
  }
  for (int src = 0; src < count; ++src)
    for (int dst = 0; dst < count; ++dst) {
      if (src == dst) continue;
      int can = -1, access = -1, rank = -1;
      HIP_CHECK(hipDeviceCanAccessPeer(&can, src, dst));
      HIP_CHECK(hipDeviceGetP2PAttribute(&access, hipDevP2PAttrAccessSupported, src, dst));
      HIP_CHECK(hipDeviceGetP2PAttribute(&rank, hipDevP2PAttrPerformanceRank, src, dst));
      REQUIRE(access == can);
      REQUIRE(rank >= 0);
    }
}

TEST_CASE("Unit_hipDeviceGetP2PAttribute_Negative_Parameters") {
  int count = 0, value = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  const int dev = hip_test::device();
  HIP_CHECK_ERROR(hipDeviceGetP2PAttribute(nullptr, hipDevP2PAttrAccessSupported, dev, dev),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetP2PAttribute(&value, hipDevP2PAttrAccessSupported, dev, dev),
                  hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceGetP2PAttribute(&value, hipDevP2PAttrAccessSupported, dev, count),
                  hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceGetP2PAttribute(&value, hipDevP2PAttrAccessSupported, -1, dev),
                  hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceGetP2PAttribute(&value, static_cast<hipDeviceP2PAttr>(42), dev, dev),
                  hipErrorInvalidValue);
}

// ---- hipMemPrefetchAsync, hipMemAdvise ----------------------------------------------------

TEST_CASE("Unit_hipMemPrefetchAsync_Positive_DataIntact") {
  constexpr size_t kCount = 1024;
  int* m = nullptr;
  HIP_CHECK(
      hipMallocManaged(reinterpret_cast<void**>(&m), kCount * sizeof(int), hipMemAttachGlobal));
  for (size_t i = 0; i < kCount; ++i) m[i] = static_cast<int>(i * 5);
  hip_test::Stream stream;
  HIP_CHECK(hipMemPrefetchAsync(m, kCount * sizeof(int), hip_test::device(), stream.get()));
  // Ordered after the prefetch on the same stream.
  HIP_CHECK(hipMemsetAsync(m + kCount / 2, 0, sizeof(int), stream.get()));
  HIP_CHECK(hipMemPrefetchAsync(m, kCount * sizeof(int), hipCpuDeviceId, stream.get()));
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  for (size_t i = 0; i < kCount; ++i)
    REQUIRE(m[i] == (i == kCount / 2 ? 0 : static_cast<int>(i * 5)));
  HIP_CHECK(hipFree(m));
}

TEST_CASE("Unit_hipMemPrefetchAsync_Negative_Parameters") {
  void* m = nullptr;
  HIP_CHECK(hipMallocManaged(&m, 256, hipMemAttachGlobal));
  hip_test::DeviceBuffer<char> plain(256);
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  const int dev = hip_test::device();
  HIP_CHECK_ERROR(hipMemPrefetchAsync(nullptr, 256, dev, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPrefetchAsync(m, 0, dev, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPrefetchAsync(m, 257, dev, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPrefetchAsync(plain.get(), 256, dev, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPrefetchAsync(m, 256, count, nullptr), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipMemPrefetchAsync(m, 256, dev, reinterpret_cast<hipStream_t>(0x10)),
                  hipErrorInvalidHandle);
  HIP_CHECK(hipFree(m));
}

TEST_CASE("Unit_hipMemAdvise_Positive_AllAdvice") {
  void* m = nullptr;
  HIP_CHECK(hipMallocManaged(&m, 4096, hipMemAttachGlobal));
  const int dev = hip_test::device();
  for (hipMemoryAdvise advice :
       {hipMemAdviseSetReadMostly, hipMemAdviseUnsetReadMostly, hipMemAdviseSetPreferredLocation,
        hipMemAdviseUnsetPreferredLocation, hipMemAdviseSetAccessedBy, hipMemAdviseUnsetAccessedBy,
        hipMemAdviseSetCoarseGrain, hipMemAdviseUnsetCoarseGrain}) {
    INFO("advice " << static_cast<int>(advice));
    HIP_CHECK(hipMemAdvise(m, 4096, advice, dev));
    HIP_CHECK(hipMemAdvise(static_cast<char*>(m) + 1024, 1024, advice, hipCpuDeviceId));
  }
  HIP_CHECK(hipFree(m));
}

TEST_CASE("Unit_hipMemAdvise_Negative_Parameters") {
  void* m = nullptr;
  HIP_CHECK(hipMallocManaged(&m, 256, hipMemAttachGlobal));
  hip_test::DeviceBuffer<char> plain(256);
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  const int dev = hip_test::device();
  HIP_CHECK_ERROR(hipMemAdvise(nullptr, 256, hipMemAdviseSetReadMostly, dev), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAdvise(m, 0, hipMemAdviseSetReadMostly, dev), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAdvise(m, 512, hipMemAdviseSetReadMostly, dev), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAdvise(plain.get(), 256, hipMemAdviseSetReadMostly, dev),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAdvise(m, 256, static_cast<hipMemoryAdvise>(0), dev), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAdvise(m, 256, hipMemAdviseSetPreferredLocation, count),
                  hipErrorInvalidDevice);
  HIP_CHECK(hipFree(m));
}
