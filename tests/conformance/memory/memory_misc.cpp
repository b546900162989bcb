// SPDX-License-Identifier: MIT
// The rest of the memory family: managed-memory hints and their range queries,
// hipStreamAttachMemAsync, driver-API pointer queries, hipPointerSetAttribute, the
// driver-style and peer 3D copies, batched copies; every bad argument is HIP's error.
#include "hip_test.hpp"

#include <hip/hip_version.h>

#include <cstdint>
#include <numeric>
#include <vector>

extern "C" size_t amd_dbgapi_get_build_id();
extern "C" const char* amd_dbgapi_get_build_name();
extern "C" const char* amd_dbgapi_get_git_hash();
extern "C" void __hipGetPCH(const char** pch, unsigned int* size);
extern "C" void hipRegisterTracerCallback(const void* function);

namespace {

struct Managed {
  void* p = nullptr;
  explicit Managed(size_t bytes) { HIP_CHECK(hipMallocManaged(&p, bytes)); }
  ~Managed() { (void)hipFree(p); }
  char* at(size_t offset) const { return static_cast<char*>(p) + offset; }
};

int range_int(hipMemRangeAttribute attribute, const void* p, size_t bytes) {
  int value = 12345;
  HIP_CHECK(hipMemRangeGetAttribute(&value, sizeof value, attribute, p, bytes));
  return value;
}

hipMemLocation device_location(int id) {
  hipMemLocation l{};
  l.type = hipMemLocationTypeDevice;
  l.id = id;
  return l;
}

}  // namespace

TEST_CASE("Unit_hipMemRangeGetAttribute_Positive_AdviceIsReported") {
  const int dev = hip_test::device();
  Managed m(8192);
  REQUIRE(range_int(hipMemRangeAttributeReadMostly, m.p, 8192) == 0);
  REQUIRE(range_int(hipMemRangeAttributePreferredLocation, m.p, 8192) == hipInvalidDeviceId);
  REQUIRE(range_int(hipMemRangeAttributeLastPrefetchLocation, m.p, 8192) == hipInvalidDeviceId);

  HIP_CHECK(hipMemAdvise(m.p, 4096, hipMemAdviseSetReadMostly, dev));
  REQUIRE(range_int(hipMemRangeAttributeReadMostly, m.p, 4096) == 1);
  REQUIRE(range_int(hipMemRangeAttributeReadMostly, m.p, 8192) == 0);  // half of it only
  REQUIRE(range_int(hipMemRangeAttributeReadMostly, m.at(4096), 4096) == 0);
  HIP_CHECK(hipMemAdvise(m.p, 8192, hipMemAdviseUnsetReadMostly, dev));
  REQUIRE(range_int(hipMemRangeAttributeReadMostly, m.p, 4096) == 0);

  HIP_CHECK(hipMemAdvise_v2(m.p, 8192, hipMemAdviseSetPreferredLocation, device_location(dev)));
  REQUIRE(range_int(hipMemRangeAttributePreferredLocation, m.at(100), 1000) == dev);
  hipMemLocation host{};
  host.type = hipMemLocationTypeHost;
  HIP_CHECK(hipMemAdvise_v2(m.at(4096), 4096, hipMemAdviseSetPreferredLocation, host));
  REQUIRE(range_int(hipMemRangeAttributePreferredLocation, m.at(4096), 4096) == hipCpuDeviceId);
  REQUIRE(range_int(hipMemRangeAttributePreferredLocation, m.p, 8192) ==
          hipInvalidDeviceId);  // mixed

  HIP_CHECK(hipMemAdvise(m.p, 8192, hipMemAdviseSetAccessedBy, dev));
  HIP_CHECK(hipMemAdvise(m.p, 4096, hipMemAdviseSetAccessedBy, hipCpuDeviceId));
  int accessed[3] = {7, 7, 7};
  HIP_CHECK(hipMemRangeGetAttribute(accessed, sizeof accessed, hipMemRangeAttributeAccessedBy, m.p,
                                    8192));
  REQUIRE(accessed[0] == dev);  // the CPU only accesses half
  REQUIRE(accessed[1] == hipInvalidDeviceId);
  REQUIRE(accessed[2] == hipInvalidDeviceId);
  HIP_CHECK(hipMemRangeGetAttribute(accessed, sizeof accessed, hipMemRangeAttributeAccessedBy, m.p,
                                    4096));
  REQUIRE(accessed[0] == hipCpuDeviceId);
  REQUIRE(accessed[1] == dev);
  HIP_CHECK(hipMemAdvise(m.p, 8192, hipMemAdviseUnsetAccessedBy, dev));
  HIP_CHECK(hipMemRangeGetAttribute(accessed, sizeof accessed, hipMemRangeAttributeAccessedBy,
                                    m.at(4096), 4096));
  REQUIRE(accessed[0] == hipInvalidDeviceId);

  HIP_CHECK(hipMemAdvise(m.p, 8192, hipMemAdviseSetCoarseGrain, dev));
  REQUIRE(range_int(hipMemRangeAttributeCoherencyMode, m.p, 8192) ==
          hipMemRangeCoherencyModeCoarseGrain);
  HIP_CHECK(hipMemAdvise(m.p, 10, hipMemAdviseUnsetCoarseGrain, dev));
  REQUIRE(range_int(hipMemRangeAttributeCoherencyMode, m.p, 8192) ==
          hipMemRangeCoherencyModeIndeterminate);

  hip_test::Stream s;
  HIP_CHECK(hipMemPrefetchAsync(m.p, 8192, dev, s.get()));
  REQUIRE(range_int(hipMemRangeAttributeLastPrefetchLocation, m.p, 8192) == dev);
  HIP_CHECK(hipMemPrefetchAsync_v2(m.p, 4096, host, 0, s.get()));
  REQUIRE(range_int(hipMemRangeAttributeLastPrefetchLocation, m.p, 4096) == hipCpuDeviceId);
  REQUIRE(range_int(hipMemRangeAttributeLastPrefetchLocation, m.p, 8192) == hipInvalidDeviceId);

  // Several at once.
  int read_mostly = -1, last = -1;
  void* data[] = {&read_mostly, &last};
  size_t sizes[] = {sizeof(int), sizeof(int)};
  hipMemRangeAttribute attributes[] = {hipMemRangeAttributeReadMostly,
                                       hipMemRangeAttributeLastPrefetchLocation};
  HIP_CHECK(hipMemRangeGetAttributes(data, sizes, attributes, 2, m.at(4096), 4096));
  REQUIRE(read_mostly == 0);
  REQUIRE(last == dev);
  HIP_CHECK(hipStreamSynchronize(s.get()));
}

TEST_CASE("Unit_hipMemPrefetchBatchAsync_Positive_LocationsByIndex") {
  const int dev = hip_test::device();
  Managed a(4096), b(4096), c(4096);
  void* ptrs[] = {a.p, b.p, c.p};
  size_t sizes[] = {4096, 4096, 2048};
  hipMemLocation host{};
  host.type = hipMemLocationTypeHost;
  hipMemLocation locs[] = {device_location(dev), host};
  size_t idxs[] = {0, 2};
  HIP_CHECK(hipMemPrefetchBatchAsync(ptrs, sizes, 3, locs, idxs, 2, 0, nullptr));
  REQUIRE(range_int(hipMemRangeAttributeLastPrefetchLocation, a.p, 4096) == dev);
  REQUIRE(range_int(hipMemRangeAttributeLastPrefetchLocation, b.p, 4096) == dev);
  REQUIRE(range_int(hipMemRangeAttributeLastPrefetchLocation, c.p, 2048) == hipCpuDeviceId);
  size_t bad_idxs[] = {1, 2};
  HIP_CHECK_ERROR(hipMemPrefetchBatchAsync(ptrs, sizes, 3, locs, bad_idxs, 2, 0, nullptr),
                  hipErrorInvalidValue);
  size_t reversed[] = {0, 0};
  HIP_CHECK_ERROR(hipMemPrefetchBatchAsync(ptrs, sizes, 3, locs, reversed, 2, 0, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPrefetchBatchAsync(ptrs, sizes, 3, locs, idxs, 2, 1, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPrefetchBatchAsync(nullptr, sizes, 3, locs, idxs, 2, 0, nullptr),
                  hipErrorInvalidValue);
  int plain = 0;
  void* not_managed[] = {&plain, b.p, c.p};
  HIP_CHECK_ERROR(hipMemPrefetchBatchAsync(not_managed, sizes, 3, locs, idxs, 2, 0, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK(hipDeviceSynchronize());
}

TEST_CASE("Unit_hipMemAdvise_v2_Negative_Parameters") {
  Managed m(4096);
  hipMemLocation bad{};
  bad.type = static_cast<hipMemLocationType>(42);
  HIP_CHECK_ERROR(hipMemAdvise_v2(m.p, 4096, hipMemAdviseSetPreferredLocation, bad),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipMemAdvise_v2(m.p, 4096, hipMemAdviseSetPreferredLocation, device_location(999)),
      hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipMemAdvise_v2(m.p, 8192, hipMemAdviseSetReadMostly, device_location(0)),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemAdvise_v2(nullptr, 8, hipMemAdviseSetReadMostly, device_location(0)),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipMemPrefetchAsync_v2(m.p, 4096, device_location(hip_test::device()), 3, nullptr),
      hipErrorInvalidValue);
  int value = 0;
  HIP_CHECK_ERROR(hipMemRangeGetAttribute(&value, 2, hipMemRangeAttributeReadMostly, m.p, 4096),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemRangeGetAttribute(nullptr, 4, hipMemRangeAttributeReadMostly, m.p, 4096),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipMemRangeGetAttribute(&value, 4, static_cast<hipMemRangeAttribute>(77), m.p, 4096),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemRangeGetAttribute(&value, 4, hipMemRangeAttributeReadMostly, &value, 4),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemRangeGetAttribute(&value, 4, hipMemRangeAttributeAccessedBy, m.p, 4096 + 1),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemRangeGetAttributes(nullptr, nullptr, nullptr, 0, m.p, 4096),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipStreamAttachMemAsync_Positive_And_Negative") {
  Managed m(4096);
  hip_test::Stream s;
  HIP_CHECK(hipStreamAttachMemAsync(s.get(), m.p, 0, hipMemAttachSingle));
  HIP_CHECK(hipStreamAttachMemAsync(s.get(), m.p, 4096, hipMemAttachHost));
  HIP_CHECK(hipStreamAttachMemAsync(nullptr, m.p, 0, hipMemAttachGlobal));
  HIP_CHECK_ERROR(hipStreamAttachMemAsync(s.get(), m.p, 100, hipMemAttachSingle),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipStreamAttachMemAsync(s.get(), m.at(8), 0, hipMemAttachSingle),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipStreamAttachMemAsync(s.get(), m.p, 0, 0x10), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipStreamAttachMemAsync(s.get(), nullptr, 0, hipMemAttachSingle),
                  hipErrorInvalidValue);
  hip_test::DeviceBuffer<int> plain(16);
  HIP_CHECK_ERROR(hipStreamAttachMemAsync(s.get(), plain.get(), 0, hipMemAttachSingle),
                  hipErrorInvalidValue);
  HIP_CHECK(hipStreamSynchronize(s.get()));
}

TEST_CASE("Unit_hipDrvPointerGetAttributes_Positive_KnownAndUnknown") {
  hip_test::DeviceBuffer<int> buffer(1024);
  unsigned type = 0;
  int ordinal = -9;
  void* start = nullptr;
  size_t size = 0;
  bool managed = true;
  hipPointer_attribute attributes[] = {
      HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
      HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR, HIP_POINTER_ATTRIBUTE_RANGE_SIZE,
      HIP_POINTER_ATTRIBUTE_IS_MANAGED};
  void* data[] = {&type, &ordinal, &start, &size, &managed};
  HIP_CHECK(hipDrvPointerGetAttributes(5, attributes, data, buffer.get() + 10));
  REQUIRE(type == hipMemoryTypeDevice);
  REQUIRE(ordinal == hip_test::device());
  REQUIRE(start == buffer.get());
  REQUIRE(size == buffer.bytes());
  REQUIRE_FALSE(managed);
  // Unknown memory is no error here (CUDA's rule): zero answers, ordinal -2.
  int local = 0;
  HIP_CHECK(hipDrvPointerGetAttributes(5, attributes, data, &local));
  REQUIRE(type == 0);
  REQUIRE(ordinal == -2);
  REQUIRE(start == nullptr);
  REQUIRE(size == 0);
  HIP_CHECK_ERROR(hipDrvPointerGetAttributes(0, attributes, data, buffer.get()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDrvPointerGetAttributes(2, nullptr, data, buffer.get()), hipErrorInvalidValue);
  void* null_slot[] = {&type, nullptr};
  HIP_CHECK_ERROR(hipDrvPointerGetAttributes(2, attributes, null_slot, buffer.get()),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipPointerSetAttribute_SyncMemops") {
  hip_test::DeviceBuffer<int> buffer(16);
  unsigned int one = 1;
  HIP_CHECK(hipPointerSetAttribute(&one, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, buffer.get()));
  bool sync = false;
  HIP_CHECK(hipPointerGetAttribute(&sync, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, buffer.get()));
  REQUIRE(sync);
  HIP_CHECK_ERROR(hipPointerSetAttribute(&one, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, buffer.get()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipPointerSetAttribute(nullptr, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, buffer.get()),
                  hipErrorInvalidValue);
  int local = 0;
  HIP_CHECK_ERROR(hipPointerSetAttribute(&one, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, &local),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipDrvMemcpy3D_Positive_HostDeviceHost") {
  constexpr size_t kW = 24, kH = 5, kD = 3, kPitch = 32;
  std::vector<unsigned char> src(kW * kH * kD), back(kW * kH * kD, 0);
  std::iota(src.begin(), src.end(), 1);
  hip_test::DeviceBuffer<unsigned char> device(kPitch * kH * kD);
  HIP_MEMCPY3D up{};
  up.srcMemoryType = hipMemoryTypeHost;
  up.srcHost = src.data();
  up.srcPitch = kW;
  up.srcHeight = kH;
  up.dstMemoryType = hipMemoryTypeDevice;
  up.dstDevice = device.get();
  up.dstPitch = kPitch;
  up.dstHeight = kH;
  up.WidthInBytes = kW;
  up.Height = kH;
  up.Depth = kD;
  HIP_CHECK(hipDrvMemcpy3D(&up));
  HIP_MEMCPY3D down{};
  down.srcMemoryType = hipMemoryTypeUnified;  // the pointer table says it is device memory
  down.srcDevice = device.get();
  down.srcPitch = kPitch;
  down.srcHeight = kH;
  down.dstMemoryType = hipMemoryTypeHost;
  down.dstHost = back.data();
  down.dstPitch = kW;
  down.dstHeight = kH;
  down.WidthInBytes = kW;
  down.Height = kH;
  down.Depth = kD;
  hip_test::Stream s;
  HIP_CHECK(hipDrvMemcpy3DAsync(&down, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(back == src);

  HIP_MEMCPY3D bad = up;
  bad.dstMemoryType = hipMemoryTypeArray;
  HIP_CHECK_ERROR(hipDrvMemcpy3D(&bad), hipErrorNotSupported);
  bad = up;
  bad.dstMemoryType = static_cast<hipMemoryType>(77);
  HIP_CHECK_ERROR(hipDrvMemcpy3D(&bad), hipErrorInvalidValue);
  bad = up;
  bad.srcLOD = 1;
  HIP_CHECK_ERROR(hipDrvMemcpy3D(&bad), hipErrorInvalidValue);
  bad = up;
  bad.Depth = kD + 1;  // past the end of the device buffer
  HIP_CHECK_ERROR(hipDrvMemcpy3D(&bad), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDrvMemcpy3D(nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipDrvMemcpy2DUnaligned_Positive") {
  std::vector<unsigned char> src(7 * 3), back(7 * 3, 0);
  std::iota(src.begin(), src.end(), 3);
  hip_test::DeviceBuffer<unsigned char> device(11 * 3);
  hip_Memcpy2D c{};
  c.srcMemoryType = hipMemoryTypeHost;
  c.srcHost = src.data();
  c.srcPitch = 7;
  c.dstMemoryType = hipMemoryTypeDevice;
  c.dstDevice = device.get();
  c.dstPitch = 11;
  c.dstXInBytes = 3;  // an odd offset
  c.WidthInBytes = 7;
  c.Height = 3;
  HIP_CHECK(hipDrvMemcpy2DUnaligned(&c));
  HIP_CHECK(hipMemcpy2D(back.data(), 7, device.get() + 3, 11, 7, 3, hipMemcpyDeviceToHost));
  REQUIRE(back == src);
  HIP_CHECK_ERROR(hipDrvMemcpy2DUnaligned(nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMemcpy3DPeer_Positive_SameDevice") {
  const int dev = hip_test::device();
  constexpr size_t kW = 16, kH = 4, kD = 2;
  hip_test::DeviceBuffer<unsigned char> a(kW * kH * kD), b(kW * kH * kD);
  std::vector<unsigned char> host(kW * kH * kD), back(kW * kH * kD, 0);
  std::iota(host.begin(), host.end(), 9);
  HIP_CHECK(hipMemcpy(a.get(), host.data(), host.size(), hipMemcpyHostToDevice));
  hipMemcpy3DPeerParms p{};
  p.srcPtr = make_hipPitchedPtr(a.get(), kW, kW, kH);
  p.srcDevice = dev;
  p.dstPtr = make_hipPitchedPtr(b.get(), kW, kW, kH);
  p.dstDevice = dev;
  p.extent = make_hipExtent(kW, kH, kD);
  HIP_CHECK(hipMemcpy3DPeer(&p));
  HIP_CHECK(hipMemcpy(back.data(), b.get(), back.size(), hipMemcpyDeviceToHost));
  REQUIRE(back == host);
  HIP_CHECK(hipMemset(b.get(), 0, b.bytes()));
  HIP_CHECK(hipMemcpy3DPeerAsync(&p, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(back.data(), b.get(), back.size(), hipMemcpyDeviceToHost));
  REQUIRE(back == host);
  hipMemcpy3DPeerParms bad = p;
  bad.dstDevice = 999;
  HIP_CHECK_ERROR(hipMemcpy3DPeer(&bad), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipMemcpy3DPeer(nullptr), hipErrorInvalidValue);
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  if (count > 1) {  // the device a pointer belongs to must be the one named
    bad = p;
    bad.dstDevice = dev == 0 ? 1 : 0;
    HIP_CHECK_ERROR(hipMemcpy3DPeer(&bad), hipErrorInvalidValue);
  }
}

TEST_CASE("Unit_hipMemcpyBatchAsync_Positive_And_FailIndex") {
  hip_test::DeviceBuffer<int> a(64), b(64);
  std::vector<int> x(64), y(64), back_x(64, 0), back_y(64, 0);
  std::iota(x.begin(), x.end(), 100);
  std::iota(y.begin(), y.end(), 500);
  void* dsts[] = {a.get(), b.get(), back_x.data()};
  void* srcs[] = {x.data(), y.data(), a.get()};
  size_t sizes[] = {a.bytes(), b.bytes(), a.bytes()};
  hipMemcpyAttributes attrs[1] = {};
  attrs[0].srcAccessOrder = hipMemcpySrcAccessOrderStream;
  size_t idxs[] = {0};
  size_t fail = 0;
  hip_test::Stream s;
  HIP_CHECK(hipMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, idxs, 1, &fail, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(fail == SIZE_MAX);
  REQUIRE(back_x == x);
  HIP_CHECK(hipMemcpy(back_y.data(), b.get(), b.bytes(), hipMemcpyDeviceToHost));
  REQUIRE(back_y == y);

  size_t too_big[] = {a.bytes(), b.bytes() + 4, a.bytes()};
  HIP_CHECK_ERROR(hipMemcpyBatchAsync(dsts, srcs, too_big, 3, attrs, idxs, 1, &fail, s.get()),
                  hipErrorInvalidValue);
  REQUIRE(fail == 1);
  attrs[0].srcAccessOrder = hipMemcpySrcAccessOrderInvalid;
  HIP_CHECK_ERROR(hipMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, idxs, 1, &fail, s.get()),
                  hipErrorInvalidValue);
  attrs[0].srcAccessOrder = hipMemcpySrcAccessOrderAny;
  attrs[0].flags = 0x8;
  HIP_CHECK_ERROR(hipMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, idxs, 1, &fail, s.get()),
                  hipErrorInvalidValue);
  attrs[0].flags = 0;
  size_t late[] = {1};
  HIP_CHECK_ERROR(hipMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, late, 1, &fail, s.get()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyBatchAsync(dsts, srcs, sizes, 0, attrs, idxs, 1, &fail, s.get()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyBatchAsync(nullptr, srcs, sizes, 3, attrs, idxs, 1, &fail, s.get()),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMemcpy3DBatchAsync_Positive_And_FailIndex") {
  constexpr size_t kW = 8, kH = 3, kD = 2;
  hip_test::DeviceBuffer<unsigned char> device(16 * kH * kD);
  std::vector<unsigned char> host(kW * kH * kD), back(kW * kH * kD, 0);
  std::iota(host.begin(), host.end(), 40);
  hipMemcpy3DBatchOp ops[2] = {};
  ops[0].src.type = hipMemcpyOperandTypePointer;
  ops[0].src.op.ptr.ptr = host.data();  // rowLength/layerHeight 0: tightly packed
  ops[0].dst.type = hipMemcpyOperandTypePointer;
  ops[0].dst.op.ptr.ptr = device.get();
  ops[0].dst.op.ptr.rowLength = 16;
  ops[0].extent = make_hipExtent(kW, kH, kD);
  ops[0].srcAccessOrder = hipMemcpySrcAccessOrderStream;
  ops[1].src = ops[0].dst;
  ops[1].dst.type = hipMemcpyOperandTypePointer;
  ops[1].dst.op.ptr.ptr = back.data();
  ops[1].extent = ops[0].extent;
  ops[1].srcAccessOrder = hipMemcpySrcAccessOrderStream;
  size_t fail = 0;
  hip_test::Stream s;
  HIP_CHECK(hipMemcpy3DBatchAsync(2, ops, &fail, 0, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(back == host);
  REQUIRE(fail == SIZE_MAX);

  hipMemcpy3DBatchOp bad[2] = {ops[0], ops[1]};
  bad[1].dst.type = hipMemcpyOperandTypeArray;
  HIP_CHECK_ERROR(hipMemcpy3DBatchAsync(2, bad, &fail, 0, s.get()), hipErrorNotSupported);
  REQUIRE(fail == 1);
  bad[1] = ops[1];
  bad[1].srcAccessOrder = static_cast<hipMemcpySrcAccessOrder>(9);
  HIP_CHECK_ERROR(hipMemcpy3DBatchAsync(2, bad, &fail, 0, s.get()), hipErrorInvalidValue);
  REQUIRE(fail == 1);
  HIP_CHECK_ERROR(hipMemcpy3DBatchAsync(2, ops, &fail, 1, s.get()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy3DBatchAsync(0, ops, &fail, 0, s.get()), hipErrorInvalidValue);
  HIP_CHECK(hipStreamSynchronize(s.get()));
}

TEST_CASE("Unit_ToolQueries_BuildIdentityAndPch") {
  REQUIRE(amd_dbgapi_get_build_id() == HIP_VERSION_BUILD_ID);
  REQUIRE(std::string(amd_dbgapi_get_git_hash()) == HIP_VERSION_GITHASH);
  REQUIRE(amd_dbgapi_get_build_name() != nullptr);
  const char* pch = "unset";
  unsigned size = 99;
  __hipGetPCH(&pch, &size);
  REQUIRE(pch == nullptr);
  REQUIRE(size == 0);
  __hipGetPCH(nullptr, nullptr);  // no crash
  // Kept, never called (weft's timeline is WEFT_TRACE); the API goes on working.
  static int calls = 0;
  hipRegisterTracerCallback(
      reinterpret_cast<const void*>(+[](int, uint32_t, void*) { return ++calls; }));
  hip_test::DeviceBuffer<int> buffer(4);
  HIP_CHECK(hipMemset(buffer.get(), 0, buffer.bytes()));
  REQUIRE(calls == 0);
}

TEST_CASE("Unit_hipMemGetHandleForAddressRange_Negative") {
  hip_test::DeviceBuffer<char> buffer(1 << 20);
  int fd = -1;
  HIP_CHECK_ERROR(
      hipMemGetHandleForAddressRange(nullptr, buffer.get(), 4096, hipMemRangeHandleTypeDmaBufFd, 0),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipMemGetHandleForAddressRange(&fd, buffer.get(), 0, hipMemRangeHandleTypeDmaBufFd, 0),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemGetHandleForAddressRange(&fd, buffer.get(), 4096,
                                                 static_cast<hipMemRangeHandleType>(5), 0),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipMemGetHandleForAddressRange(&fd, buffer.get(), 4096, hipMemRangeHandleTypeDmaBufFd, 1),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemGetHandleForAddressRange(&fd, buffer.get(), (1 << 20) + 1,
                                                 hipMemRangeHandleTypeDmaBufFd, 0),
                  hipErrorInvalidValue);
  int local = 0;
  HIP_CHECK_ERROR(hipMemGetHandleForAddressRange(&fd, &local, 4, hipMemRangeHandleTypeDmaBufFd, 0),
                  hipErrorInvalidValue);
  // A valid request: no agent here exports dma-bufs.
  HIP_CHECK_ERROR(
      hipMemGetHandleForAddressRange(&fd, buffer.get(), 4096, hipMemRangeHandleTypeDmaBufFd, 0),
      hipErrorNotSupported);
  REQUIRE(fd == -1);
}
