// SPDX-License-Identifier: MIT
// Conformance: stream attributes (hipStreamGetAttribute/SetAttribute/CopyAttributes) are
// stored and returned as set, and CU masks (hipExtStreamCreateWithCUMask/GetCUMask): on the
// CPU agent a mask of one unit runs every block of the stream's kernels on one thread.
#include "hip_test.hpp"

#include <functional>
#include <set>

namespace {

#if defined(__HIP_DEVICE_COMPILE__) && defined(__x86_64__) && !defined(__NVPTX__) && \
    !defined(__AMDGCN__)
// weftcc's x86_64 image: the device pass cannot call the C++ library's host functions; a
// thread_local's address names the OS thread running the block just as well.
__device__ thread_local char t_thread_marker;
#endif

// Each block records which host thread ran it.
__global__ void record_thread(size_t* out) {
  if (threadIdx.x == 0) {
#if !defined(__HIP__)  // g++: the kernel is host code
    size_t id = std::hash<std::thread::id>()(std::this_thread::get_id());
#elif defined(__HIP_DEVICE_COMPILE__) && defined(__x86_64__) && !defined(__NVPTX__) && \
    !defined(__AMDGCN__)
    size_t id = reinterpret_cast<size_t>(&t_thread_marker);
#else
    // clang's host pass (never runs) or a GPU image (the CU-mask case needs queues that take
    // masks: the CPU agent's)
    size_t id = 1;
#endif
    // Some work per block, so that every pool thread gets a chance to take blocks.
    volatile unsigned sink = 0;
    for (unsigned i = 0; i < 20000; ++i) sink = sink + i;
    out[blockIdx.x] = id;
  }
}

bool same_window(const hipAccessPolicyWindow& a, const hipAccessPolicyWindow& b) {
  return a.base_ptr == b.base_ptr && a.hitProp == b.hitProp && a.hitRatio == b.hitRatio &&
         a.missProp == b.missProp && a.num_bytes == b.num_bytes;
}

}  // namespace

TEST_CASE("Unit_hipStreamAttribute_Positive_SetGet") {
  hip_test::Stream s;
  hipStreamAttrValue v;
  std::memset(&v, 0, sizeof v);
  HIP_CHECK(hipStreamGetAttribute(s.get(), hipStreamAttributeSynchronizationPolicy, &v));
  REQUIRE(v.syncPolicy == hipSyncPolicyAuto);

  v.syncPolicy = hipSyncPolicyBlockingSync;
  HIP_CHECK(hipStreamSetAttribute(s.get(), hipStreamAttributeSynchronizationPolicy, &v));
  std::memset(&v, 0, sizeof v);
  HIP_CHECK(hipStreamGetAttribute(s.get(), hipStreamAttributeSynchronizationPolicy, &v));
  REQUIRE(v.syncPolicy == hipSyncPolicyBlockingSync);

  hip_test::DeviceBuffer<char> buffer(4096);
  hipStreamAttrValue w;
  std::memset(&w, 0, sizeof w);
  w.accessPolicyWindow.base_ptr = buffer.get();
  w.accessPolicyWindow.num_bytes = 1024;
  w.accessPolicyWindow.hitRatio = 0.75f;
  w.accessPolicyWindow.hitProp = hipAccessPropertyPersisting;
  w.accessPolicyWindow.missProp = hipAccessPropertyStreaming;
  HIP_CHECK(hipStreamSetAttribute(s.get(), hipStreamAttributeAccessPolicyWindow, &w));
  hipStreamAttrValue back;
  std::memset(&back, 0xff, sizeof back);
  HIP_CHECK(hipStreamGetAttribute(s.get(), hipStreamAttributeAccessPolicyWindow, &back));
  REQUIRE(same_window(back.accessPolicyWindow, w.accessPolicyWindow));

  hipStreamAttrValue p;
  std::memset(&p, 0, sizeof p);
  p.priority = -1;
  HIP_CHECK(hipStreamSetAttribute(s.get(), hipStreamAttributePriority, &p));
  std::memset(&p, 0, sizeof p);
  HIP_CHECK(hipStreamGetAttribute(s.get(), hipStreamAttributePriority, &p));
  REQUIRE(p.priority == -1);
  int priority = 5;
  HIP_CHECK(hipStreamGetPriority(s.get(), &priority));
  REQUIRE(priority == -1);

  hipStreamAttrValue d;
  std::memset(&d, 0, sizeof d);
  d.memSyncDomain = hipLaunchMemSyncDomainRemote;
  HIP_CHECK(hipStreamSetAttribute(s.get(), hipStreamAttributeMemSyncDomain, &d));
  std::memset(&d, 0, sizeof d);
  HIP_CHECK(hipStreamGetAttribute(s.get(), hipStreamAttributeMemSyncDomain, &d));
  REQUIRE(d.memSyncDomain == hipLaunchMemSyncDomainRemote);
  d.memSyncDomainMap.default_ = 0;
  d.memSyncDomainMap.remote = 1;
  HIP_CHECK(hipStreamSetAttribute(s.get(), hipStreamAttributeMemSyncDomainMap, &d));
  std::memset(&d, 0, sizeof d);
  HIP_CHECK(hipStreamGetAttribute(s.get(), hipStreamAttributeMemSyncDomainMap, &d));
  REQUIRE(d.memSyncDomainMap.remote == 1);

  // Work still runs on the stream.
  HIP_CHECK(hipMemsetAsync(buffer.get(), 3, 16, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
}

TEST_CASE("Unit_hipStreamCopyAttributes_Positive") {
  hip_test::Stream src, dst;
  hipStreamAttrValue v;
  std::memset(&v, 0, sizeof v);
  v.syncPolicy = hipSyncPolicySpin;
  HIP_CHECK(hipStreamSetAttribute(src.get(), hipStreamAttributeSynchronizationPolicy, &v));
  std::memset(&v, 0, sizeof v);
  v.accessPolicyWindow.num_bytes = 256;
  v.accessPolicyWindow.hitRatio = 0.5f;
  v.accessPolicyWindow.hitProp = hipAccessPropertyStreaming;
  v.accessPolicyWindow.missProp = hipAccessPropertyNormal;
  HIP_CHECK(hipStreamSetAttribute(src.get(), hipStreamAttributeAccessPolicyWindow, &v));
  std::memset(&v, 0, sizeof v);
  v.priority = -1;
  HIP_CHECK(hipStreamSetAttribute(src.get(), hipStreamAttributePriority, &v));

  HIP_CHECK(hipStreamCopyAttributes(dst.get(), src.get()));
  hipStreamAttrValue got;
  std::memset(&got, 0, sizeof got);
  HIP_CHECK(hipStreamGetAttribute(dst.get(), hipStreamAttributeSynchronizationPolicy, &got));
  REQUIRE(got.syncPolicy == hipSyncPolicySpin);
  HIP_CHECK(hipStreamGetAttribute(dst.get(), hipStreamAttributeAccessPolicyWindow, &got));
  REQUIRE(got.accessPolicyWindow.num_bytes == 256);
  REQUIRE(got.accessPolicyWindow.hitProp == hipAccessPropertyStreaming);
  HIP_CHECK(hipStreamGetAttribute(dst.get(), hipStreamAttributePriority, &got));
  REQUIRE(got.priority == -1);
}

TEST_CASE("Unit_hipStreamAttribute_Negative") {
  hip_test::Stream s;
  hipStreamAttrValue v;
  std::memset(&v, 0, sizeof v);
  HIP_CHECK_ERROR(hipStreamGetAttribute(s.get(), hipStreamAttributeSynchronizationPolicy, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipStreamSetAttribute(s.get(), hipStreamAttributeSynchronizationPolicy, nullptr),
                  hipErrorInvalidValue);
  // Cooperative is a launch attribute, not a stream one.
  HIP_CHECK_ERROR(hipStreamGetAttribute(s.get(), hipLaunchAttributeCooperative, &v),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipStreamGetAttribute(s.get(), static_cast<hipStreamAttrID>(14), &v),
                  hipErrorInvalidValue);
  v.syncPolicy =
      static_cast<hipSynchronizationPolicy>(7);  // within the enum's range, but no policy
  HIP_CHECK_ERROR(hipStreamSetAttribute(s.get(), hipStreamAttributeSynchronizationPolicy, &v),
                  hipErrorInvalidValue);
  std::memset(&v, 0, sizeof v);
  v.accessPolicyWindow.hitRatio = 1.5f;
  HIP_CHECK_ERROR(hipStreamSetAttribute(s.get(), hipStreamAttributeAccessPolicyWindow, &v),
                  hipErrorInvalidValue);
  v.accessPolicyWindow.hitRatio = 0.5f;
  v.accessPolicyWindow.missProp = hipAccessPropertyPersisting;
  HIP_CHECK_ERROR(hipStreamSetAttribute(s.get(), hipStreamAttributeAccessPolicyWindow, &v),
                  hipErrorInvalidValue);
  // A refused set changes nothing.
  HIP_CHECK(hipStreamGetAttribute(s.get(), hipStreamAttributeAccessPolicyWindow, &v));
  REQUIRE(v.accessPolicyWindow.hitRatio == 0.0f);
  int bogus = 0;
  HIP_CHECK_ERROR(hipStreamCopyAttributes(s.get(), reinterpret_cast<hipStream_t>(&bogus)),
                  hipErrorInvalidHandle);
  HIP_CHECK_ERROR(
      hipStreamGetAttribute(reinterpret_cast<hipStream_t>(&bogus), hipStreamAttributePriority, &v),
      hipErrorInvalidHandle);
}

TEST_CASE("Unit_hipExtStreamGetCUMask_Positive_DefaultStreamHasAllUnits") {
  const int units = hip_test::props().multiProcessorCount;
  REQUIRE(units > 0);
  std::vector<uint32_t> mask((units + 31) / 32 + 1, 0xA5A5A5A5u);
  HIP_CHECK(hipExtStreamGetCUMask(nullptr, static_cast<uint32_t>(mask.size()), mask.data()));
  for (int unit = 0; unit < static_cast<int>(mask.size()) * 32; ++unit) {
    INFO("unit " << unit);
    REQUIRE(((mask[unit / 32] >> (unit % 32)) & 1u) == (unit < units ? 1u : 0u));
  }
  HIP_CHECK_ERROR(hipExtStreamGetCUMask(nullptr, 0, mask.data()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipExtStreamGetCUMask(nullptr, 1, nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipExtStreamCreateWithCUMask_Positive_OneUnitRunsAllBlocks") {
  if (!hip_test::kernels_supported()) return;
  const uint32_t one_unit = 0x1;
  hipStream_t s = nullptr;
  const hipError_t rc = hipExtStreamCreateWithCUMask(&s, 1, &one_unit);
  if (rc == hipErrorNotSupported) {
    hip_test::skip("the device's queues take no CU mask");
    return;
  }
  HIP_CHECK(rc);
  const int units = hip_test::props().multiProcessorCount;
  std::vector<uint32_t> mask((units + 31) / 32, 0);
  HIP_CHECK(hipExtStreamGetCUMask(s, static_cast<uint32_t>(mask.size()), mask.data()));
  REQUIRE(mask[0] == 1u);
  for (size_t i = 1; i < mask.size(); ++i) REQUIRE(mask[i] == 0u);

  constexpr int kBlocks = 256;
  hip_test::DeviceBuffer<size_t> ids(kBlocks);
  HIP_CHECK(hipMemset(ids.get(), 0, ids.bytes()));
  HIP_LAUNCH_CHECK(record_thread, dim3(kBlocks), dim3(1), 0, s, ids.get());
  std::vector<size_t> host(kBlocks);
  HIP_CHECK(hipMemcpyAsync(host.data(), ids.get(), ids.bytes(), hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipStreamSynchronize(s));
  std::set<size_t> threads(host.begin(), host.end());
  REQUIRE(threads.count(0) == 0);  // every block ran
  REQUIRE(threads.size() == 1);    // all on the one enabled unit
  HIP_CHECK(hipStreamDestroy(s));

  // With every unit enabled, the result is the same as an ordinary stream.
  std::vector<uint32_t> all((units + 31) / 32, 0);
  for (int unit = 0; unit < units; ++unit) all[unit / 32] |= 1u << (unit % 32);
  HIP_CHECK(hipExtStreamCreateWithCUMask(&s, static_cast<uint32_t>(all.size()), all.data()));
  HIP_LAUNCH_CHECK(record_thread, dim3(kBlocks), dim3(1), 0, s, ids.get());
  HIP_CHECK(hipMemcpyAsync(host.data(), ids.get(), ids.bytes(), hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipStreamSynchronize(s));
  threads = std::set<size_t>(host.begin(), host.end());
  REQUIRE(threads.count(0) == 0);
  REQUIRE(static_cast<int>(threads.size()) <= units);
  HIP_CHECK(hipStreamDestroy(s));
}

TEST_CASE("Unit_hipExtStreamCreateWithCUMask_Negative") {
  const int units = hip_test::props().multiProcessorCount;
  uint32_t mask = 0x1;
  hipStream_t s = nullptr;
  HIP_CHECK_ERROR(hipExtStreamCreateWithCUMask(nullptr, 1, &mask), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipExtStreamCreateWithCUMask(&s, 0, &mask), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipExtStreamCreateWithCUMask(&s, 1, nullptr), hipErrorInvalidValue);
  uint32_t probe = 0x1;
  if (hipExtStreamCreateWithCUMask(&s, 1, &probe) == hipErrorNotSupported) {
    hip_test::skip("the device's queues take no CU mask");
    return;
  }
  HIP_CHECK(hipStreamDestroy(s));
  s = nullptr;
  if (units < 32) {
    uint32_t none = 0x80000000u;  // only a unit the device does not have
    HIP_CHECK_ERROR(hipExtStreamCreateWithCUMask(&s, 1, &none), hipErrorInvalidValue);
  }
  uint32_t zero = 0;
  HIP_CHECK_ERROR(hipExtStreamCreateWithCUMask(&s, 1, &zero), hipErrorInvalidValue);
  REQUIRE(s == nullptr);
}
