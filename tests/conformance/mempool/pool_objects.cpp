// SPDX-License-Identifier: MIT
// Pool objects: attributes round-trip, access descriptors, the default and current pool of
// a device (hipDevice*MemPool and the hipMem*MemPool location forms), and every bad argument.
#include "mempool_test.hpp"

using namespace mempool_test;

namespace {

hipMemLocation device_location(int id = hip_test::device()) {
  hipMemLocation location{};
  location.type = hipMemLocationTypeDevice;
  location.id = id;
  return location;
}

int device_count() {
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  return count;
}

}  // namespace

TEST_CASE("Unit_hipMemPool_Positive_AttributesRoundTrip") {
  Pool pool;
  // CUDA's and HIP's defaults: every reuse policy on, threshold 0.
  REQUIRE(attr_int(pool.get(), hipMemPoolReuseFollowEventDependencies) == 1);
  REQUIRE(attr_int(pool.get(), hipMemPoolReuseAllowOpportunistic) == 1);
  REQUIRE(attr_int(pool.get(), hipMemPoolReuseAllowInternalDependencies) == 1);
  REQUIRE(attr_u64(pool.get(), hipMemPoolAttrReleaseThreshold) == 0);
  for (hipMemPoolAttr attr :
       {hipMemPoolReuseFollowEventDependencies, hipMemPoolReuseAllowOpportunistic,
        hipMemPoolReuseAllowInternalDependencies}) {
    set_int(pool.get(), attr, 0);
    REQUIRE(attr_int(pool.get(), attr) == 0);
    set_int(pool.get(), attr, 1);
    REQUIRE(attr_int(pool.get(), attr) == 1);
  }
  set_u64(pool.get(), hipMemPoolAttrReleaseThreshold, uint64_t(3) << 40);
  REQUIRE(attr_u64(pool.get(), hipMemPoolAttrReleaseThreshold) == uint64_t(3) << 40);
  REQUIRE(attr_u64(pool.get(), hipMemPoolAttrReservedMemHigh) == 0);
  REQUIRE(attr_u64(pool.get(), hipMemPoolAttrUsedMemHigh) == 0);
}

TEST_CASE("Unit_hipMemPool_Negative_Attributes") {
  Pool pool;
  uint64_t value = 0, one = 1;
  HIP_CHECK_ERROR(hipMemPoolSetAttribute(nullptr, hipMemPoolAttrReleaseThreshold, &value),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolGetAttribute(nullptr, hipMemPoolAttrReleaseThreshold, &value),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolSetAttribute(pool.get(), hipMemPoolAttrReleaseThreshold, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolGetAttribute(pool.get(), hipMemPoolAttrReleaseThreshold, nullptr),
                  hipErrorInvalidValue);
  // Read-only counters; watermarks only reset to 0.
  HIP_CHECK_ERROR(hipMemPoolSetAttribute(pool.get(), hipMemPoolAttrReservedMemCurrent, &value),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolSetAttribute(pool.get(), hipMemPoolAttrUsedMemCurrent, &value),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolSetAttribute(pool.get(), hipMemPoolAttrReservedMemHigh, &one),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolSetAttribute(pool.get(), hipMemPoolAttrUsedMemHigh, &one),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolGetAttribute(pool.get(), static_cast<hipMemPoolAttr>(0x99), &value),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolSetAttribute(pool.get(), static_cast<hipMemPoolAttr>(0), &value),
                  hipErrorInvalidValue);
  // A handle that is no pool at all.
  int not_a_pool = 0;
  HIP_CHECK_ERROR(hipMemPoolGetAttribute(reinterpret_cast<hipMemPool_t>(&not_a_pool),
                                         hipMemPoolAttrReleaseThreshold, &value),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolTrimTo(nullptr, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolTrimTo(reinterpret_cast<hipMemPool_t>(&not_a_pool), 0),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMemPoolCreate_Negative_Parameters") {
  hipMemPool_t pool = nullptr;
  hipMemPoolProps props = device_props();
  HIP_CHECK_ERROR(hipMemPoolCreate(nullptr, &props), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolCreate(&pool, nullptr), hipErrorInvalidValue);
  SECTION("allocation type") {
    props.allocType = hipMemAllocationTypeInvalid;
    HIP_CHECK_ERROR(hipMemPoolCreate(&pool, &props), hipErrorInvalidValue);
  }
  SECTION("host location") {
    props.location.type = hipMemLocationTypeHost;
    HIP_CHECK_ERROR(hipMemPoolCreate(&pool, &props), hipErrorInvalidValue);
  }
  SECTION("device out of range") {
    props.location.id = device_count();
    HIP_CHECK_ERROR(hipMemPoolCreate(&pool, &props), hipErrorInvalidValue);
    props.location.id = -1;
    HIP_CHECK_ERROR(hipMemPoolCreate(&pool, &props), hipErrorInvalidValue);
  }
  SECTION("unknown handle type bits") {
    props.handleTypes = static_cast<hipMemAllocationHandleType>(0x40);
    HIP_CHECK_ERROR(hipMemPoolCreate(&pool, &props), hipErrorInvalidValue);
  }
  SECTION("Windows handles on Linux") {
    props.handleTypes = hipMemHandleTypeWin32;
    HIP_CHECK_ERROR(hipMemPoolCreate(&pool, &props), hipErrorNotSupported);
  }
  REQUIRE(pool == nullptr);
}

TEST_CASE("Unit_hipMemPoolCreate_Positive_MaxSize") {
  hipMemPoolProps props = device_props();
  props.maxSize = 8192;
  Pool pool(props);
  hip_test::Stream s;
  void *a = nullptr, *b = nullptr, *c = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(&a, 4096, pool.get(), s.get()));
  HIP_CHECK(hipMallocFromPoolAsync(&b, 4096, pool.get(), s.get()));
  HIP_CHECK_ERROR(hipMallocFromPoolAsync(&c, 4096, pool.get(), s.get()), hipErrorOutOfMemory);
  HIP_CHECK(hipFreeAsync(a, s.get()));
  HIP_CHECK(hipMallocFromPoolAsync(&c, 4096, pool.get(), s.get()));  // reuses a
  REQUIRE(c == a);
  HIP_CHECK(hipFreeAsync(b, s.get()));
  HIP_CHECK(hipFreeAsync(c, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
}

TEST_CASE("Unit_hipMemPoolDestroy_Negative_Parameters") {
  HIP_CHECK_ERROR(hipMemPoolDestroy(nullptr), hipErrorInvalidValue);
  hipMemPool_t default_pool = nullptr;
  HIP_CHECK(hipDeviceGetDefaultMemPool(&default_pool, hip_test::device()));
  HIP_CHECK_ERROR(hipMemPoolDestroy(default_pool), hipErrorInvalidValue);
  hipMemPoolProps props = device_props();
  hipMemPool_t pool = nullptr;
  HIP_CHECK(hipMemPoolCreate(&pool, &props));
  HIP_CHECK(hipMemPoolDestroy(pool));
  HIP_CHECK_ERROR(hipMemPoolDestroy(pool), hipErrorInvalidValue);  // twice
}

TEST_CASE("Unit_hipDeviceMemPool_Positive_DefaultAndCurrent") {
  const int dev = hip_test::device();
  hipMemPool_t default_pool = nullptr, current = nullptr, again = nullptr;
  HIP_CHECK(hipDeviceGetDefaultMemPool(&default_pool, dev));
  REQUIRE(default_pool != nullptr);
  HIP_CHECK(hipDeviceGetDefaultMemPool(&again, dev));
  REQUIRE(again == default_pool);  // one default pool per device
  HIP_CHECK(hipDeviceGetMemPool(&current, dev));
  REQUIRE(current == default_pool);

  Pool pool;
  hip_test::Stream s;
  HIP_CHECK(hipDeviceSetMemPool(dev, pool.get()));
  HIP_CHECK(hipDeviceGetMemPool(&current, dev));
  REQUIRE(current == pool.get());
  // hipMallocAsync now draws from the current pool.
  void* p = nullptr;
  HIP_CHECK(hipMallocAsync(&p, 4096, s.get()));
  hipMemPool_t owner = nullptr;
  HIP_CHECK(hipPointerGetAttribute(&owner, HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, p));
  REQUIRE(owner == pool.get());
  REQUIRE(used(pool.get()) == 4096);
  HIP_CHECK(hipFreeAsync(p, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));

  // The location forms name the same pools.
  hipMemLocation location = device_location();
  HIP_CHECK(hipMemGetMemPool(&current, &location, hipMemAllocationTypePinned));
  REQUIRE(current == pool.get());
  HIP_CHECK(hipMemGetDefaultMemPool(&again, &location, hipMemAllocationTypePinned));
  REQUIRE(again == default_pool);
  HIP_CHECK(hipMemSetMemPool(&location, hipMemAllocationTypePinned, default_pool));
  HIP_CHECK(hipDeviceGetMemPool(&current, dev));
  REQUIRE(current == default_pool);

  // Destroying the current pool makes the default pool current again.
  HIP_CHECK(hipDeviceSetMemPool(dev, pool.get()));
  hipMemPoolProps props = device_props();
  hipMemPool_t doomed = nullptr;
  HIP_CHECK(hipMemPoolCreate(&doomed, &props));
  HIP_CHECK(hipDeviceSetMemPool(dev, doomed));
  HIP_CHECK(hipMemPoolDestroy(doomed));
  HIP_CHECK(hipDeviceGetMemPool(&current, dev));
  REQUIRE(current == default_pool);
}

TEST_CASE("Unit_hipDeviceMemPool_Negative_Parameters") {
  const int dev = hip_test::device();
  const int bad = device_count();
  hipMemPool_t pool = nullptr;
  HIP_CHECK_ERROR(hipDeviceGetDefaultMemPool(nullptr, dev), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetDefaultMemPool(&pool, bad), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceGetDefaultMemPool(&pool, -1), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceGetMemPool(nullptr, dev), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetMemPool(&pool, bad), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceSetMemPool(dev, nullptr), hipErrorInvalidValue);
  Pool mine;
  HIP_CHECK_ERROR(hipDeviceSetMemPool(bad, mine.get()), hipErrorInvalidDevice);
  if (bad >= 2) {  // a pool of another device cannot serve this one
    int other = dev == 0 ? 1 : 0;
    HIP_CHECK_ERROR(hipDeviceSetMemPool(other, mine.get()), hipErrorInvalidDevice);
  }
  hipMemLocation location = device_location();
  HIP_CHECK_ERROR(hipMemGetDefaultMemPool(nullptr, &location, hipMemAllocationTypePinned),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemGetDefaultMemPool(&pool, nullptr, hipMemAllocationTypePinned),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemGetDefaultMemPool(&pool, &location, hipMemAllocationTypeInvalid),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemGetMemPool(&pool, &location, hipMemAllocationTypeInvalid),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemSetMemPool(&location, hipMemAllocationTypePinned, nullptr),
                  hipErrorInvalidValue);
  location.type = hipMemLocationTypeHost;
  HIP_CHECK_ERROR(hipMemGetMemPool(&pool, &location, hipMemAllocationTypePinned),
                  hipErrorInvalidValue);
  location = device_location(bad);
  HIP_CHECK_ERROR(hipMemGetDefaultMemPool(&pool, &location, hipMemAllocationTypePinned),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemSetMemPool(&location, hipMemAllocationTypePinned, mine.get()),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipMallocAsync_Negative_Parameters_Pools") {
  Pool pool;
  hip_test::Stream s;
  void* p = nullptr;
  HIP_CHECK_ERROR(hipMallocFromPoolAsync(nullptr, 64, pool.get(), s.get()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMallocFromPoolAsync(&p, 64, nullptr, s.get()), hipErrorInvalidValue);
  int not_a_stream = 0;
  HIP_CHECK_ERROR(
      hipMallocFromPoolAsync(&p, 64, pool.get(), reinterpret_cast<hipStream_t>(&not_a_stream)),
      hipErrorInvalidHandle);
  HIP_CHECK_ERROR(hipMallocAsync(&p, 64, reinterpret_cast<hipStream_t>(&not_a_stream)),
                  hipErrorInvalidHandle);
  HIP_CHECK_ERROR(hipMallocFromPoolAsync(&p, SIZE_MAX, pool.get(), s.get()), hipErrorOutOfMemory);
  // Freeing: a pointer inside an allocation, one never allocated, one freed twice.
  HIP_CHECK(hipMallocFromPoolAsync(&p, 256, pool.get(), s.get()));
  HIP_CHECK_ERROR(hipFreeAsync(static_cast<char*>(p) + 16, s.get()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipFreeAsync(p, reinterpret_cast<hipStream_t>(&not_a_stream)),
                  hipErrorInvalidHandle);
  HIP_CHECK(hipFreeAsync(p, s.get()));
  HIP_CHECK_ERROR(hipFreeAsync(p, s.get()), hipErrorInvalidValue);
  int on_stack = 0;
  HIP_CHECK_ERROR(hipFreeAsync(&on_stack, s.get()), hipErrorInvalidValue);
  HIP_CHECK(hipFreeAsync(nullptr, s.get()));  // HIP 7: success
  HIP_CHECK(hipStreamSynchronize(s.get()));
}

TEST_CASE("Unit_hipMemPoolAccess_Positive_OwnerAndPeers") {
  Pool pool;
  hipMemLocation location = device_location();
  hipMemAccessFlags flags = hipMemAccessFlagsProtNone;
  HIP_CHECK(hipMemPoolGetAccess(&flags, pool.get(), &location));
  REQUIRE(flags == hipMemAccessFlagsProtReadWrite);  // the owner always has read-write
  hipMemAccessDesc desc{};
  desc.location = location;
  desc.flags = hipMemAccessFlagsProtReadWrite;
  HIP_CHECK(hipMemPoolSetAccess(pool.get(), &desc, 1));
  HIP_CHECK(hipMemPoolGetAccess(&flags, pool.get(), &location));
  REQUIRE(flags == hipMemAccessFlagsProtReadWrite);
  // Other devices start with no access; granting needs a device that can reach this one.
  int count = device_count();
  for (int peer = 0; peer < count; ++peer) {
    if (peer == hip_test::device()) continue;
    hipMemLocation peer_location = device_location(peer);
    HIP_CHECK(hipMemPoolGetAccess(&flags, pool.get(), &peer_location));
    REQUIRE(flags == hipMemAccessFlagsProtNone);
    int can = 0;
    HIP_CHECK(hipDeviceCanAccessPeer(&can, peer, hip_test::device()));
    hipMemAccessDesc grant{peer_location, hipMemAccessFlagsProtReadWrite};
    hipError_t rc = hipMemPoolSetAccess(pool.get(), &grant, 1);
    if (rc == hipSuccess) {
      HIP_CHECK(hipMemPoolGetAccess(&flags, pool.get(), &peer_location));
      REQUIRE(flags == hipMemAccessFlagsProtReadWrite);
    } else {
      REQUIRE(rc == hipErrorInvalidDevice);
      REQUIRE(can == 0);
    }
  }
}

TEST_CASE("Unit_hipMemPoolAccess_Negative_Parameters") {
  Pool pool;
  hipMemLocation location = device_location();
  hipMemAccessFlags flags{};
  HIP_CHECK_ERROR(hipMemPoolGetAccess(nullptr, pool.get(), &location), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolGetAccess(&flags, nullptr, &location), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolGetAccess(&flags, pool.get(), nullptr), hipErrorInvalidValue);
  hipMemLocation host{};
  host.type = hipMemLocationTypeHost;
  HIP_CHECK_ERROR(hipMemPoolGetAccess(&flags, pool.get(), &host), hipErrorInvalidValue);
  hipMemLocation bad = device_location(device_count());
  HIP_CHECK_ERROR(hipMemPoolGetAccess(&flags, pool.get(), &bad), hipErrorInvalidValue);

  hipMemAccessDesc desc{location, hipMemAccessFlagsProtReadWrite};
  HIP_CHECK_ERROR(hipMemPoolSetAccess(nullptr, &desc, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolSetAccess(pool.get(), nullptr, 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemPoolSetAccess(pool.get(), &desc, size_t(device_count()) + 1),
                  hipErrorInvalidDevice);
  hipMemAccessDesc revoke{location, hipMemAccessFlagsProtNone};
  HIP_CHECK_ERROR(hipMemPoolSetAccess(pool.get(), &revoke, 1), hipErrorInvalidValue);
  hipMemAccessDesc odd{location, static_cast<hipMemAccessFlags>(2)};
  HIP_CHECK_ERROR(hipMemPoolSetAccess(pool.get(), &odd, 1), hipErrorInvalidValue);
  hipMemAccessDesc to_host{host, hipMemAccessFlagsProtReadWrite};
  HIP_CHECK_ERROR(hipMemPoolSetAccess(pool.get(), &to_host, 1), hipErrorInvalidValue);
  hipMemAccessDesc to_nowhere{bad, hipMemAccessFlagsProtReadWrite};
  HIP_CHECK_ERROR(hipMemPoolSetAccess(pool.get(), &to_nowhere, 1), hipErrorInvalidDevice);
  HIP_CHECK(hipMemPoolGetAccess(&flags, pool.get(), &location));
  REQUIRE(flags == hipMemAccessFlagsProtReadWrite);  // nothing changed
}

TEST_CASE("Unit_hipDeviceReset_Positive_ReturnsPoolMemory") {
  const int dev = hip_test::device();
  hipMemPool_t default_pool = nullptr, current = nullptr;
  HIP_CHECK(hipDeviceGetDefaultMemPool(&default_pool, dev));
  set_u64(default_pool, hipMemPoolAttrReleaseThreshold, UINT64_MAX);
  hipMemPoolProps props = device_props();
  hipMemPool_t pool = nullptr;
  HIP_CHECK(hipMemPoolCreate(&pool, &props));
  void *p = nullptr, *q = nullptr, *r = nullptr;
  HIP_CHECK(hipMallocAsync(&p, 4096, nullptr));
  HIP_CHECK(hipMallocAsync(&q, 8192, nullptr));
  HIP_CHECK(hipFreeAsync(q, nullptr));
  HIP_CHECK(hipMallocFromPoolAsync(&r, 4096, pool, nullptr));
  HIP_CHECK(hipDeviceSetMemPool(dev, pool));
  HIP_CHECK(hipDeviceSynchronize());
  REQUIRE(reserved(default_pool) >= 4096 + 8192);
  REQUIRE(used(pool) == 4096);

  HIP_CHECK(hipDeviceReset());
  // Allocated and cached blocks are gone; the handles stay valid; the default pool is current.
  REQUIRE(reserved(default_pool) == 0);
  REQUIRE(used(default_pool) == 0);
  REQUIRE(reserved(pool) == 0);
  HIP_CHECK(hipDeviceGetMemPool(&current, dev));
  REQUIRE(current == default_pool);
  HIP_CHECK_ERROR(hipFreeAsync(p, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipFreeAsync(r, nullptr), hipErrorInvalidValue);
  void* again = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(&again, 4096, pool, nullptr));
  HIP_CHECK(hipFreeAsync(again, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemPoolDestroy(pool));
  set_u64(default_pool, hipMemPoolAttrReleaseThreshold, 0);
}
