// SPDX-License-Identifier: MIT
// Helpers for the memory-pool tests: an owned pool, attribute shorthands.
#ifndef WEFT_TESTS_CONFORMANCE_MEMPOOL_TEST_HPP
#define WEFT_TESTS_CONFORMANCE_MEMPOOL_TEST_HPP

#include "hip_test.hpp"

#include <cstdint>

namespace mempool_test {

inline hipMemPoolProps device_props(hipMemAllocationHandleType handles = hipMemHandleTypeNone) {
  hipMemPoolProps props{};
  props.allocType = hipMemAllocationTypePinned;
  props.handleTypes = handles;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = hip_test::device();
  return props;
}

// A pool created for one test and destroyed with it.
class Pool {
 public:
  explicit Pool(const hipMemPoolProps& props = device_props()) {
    HIP_CHECK(hipMemPoolCreate(&pool_, &props));
  }
  ~Pool() {
    if (pool_) (void)hipMemPoolDestroy(pool_);
  }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  hipMemPool_t get() const { return pool_; }

 private:
  hipMemPool_t pool_ = nullptr;
};

inline uint64_t attr_u64(hipMemPool_t pool, hipMemPoolAttr attr) {
  uint64_t value = ~uint64_t{0};
  HIP_CHECK(hipMemPoolGetAttribute(pool, attr, &value));
  return value;
}
inline void set_u64(hipMemPool_t pool, hipMemPoolAttr attr, uint64_t value) {
  HIP_CHECK(hipMemPoolSetAttribute(pool, attr, &value));
}
inline int attr_int(hipMemPool_t pool, hipMemPoolAttr attr) {
  int value = -1;
  HIP_CHECK(hipMemPoolGetAttribute(pool, attr, &value));
  return value;
}
inline void set_int(hipMemPool_t pool, hipMemPoolAttr attr, int value) {
  HIP_CHECK(hipMemPoolSetAttribute(pool, attr, &value));
}
inline uint64_t reserved(hipMemPool_t pool) {
  return attr_u64(pool, hipMemPoolAttrReservedMemCurrent);
}
inline uint64_t used(hipMemPool_t pool) { return attr_u64(pool, hipMemPoolAttrUsedMemCurrent); }

// Sets the three reuse policies at once.
inline void reuse_policy(hipMemPool_t pool, int follow_events, int opportunistic, int internal) {
  set_int(pool, hipMemPoolReuseFollowEventDependencies, follow_events);
  set_int(pool, hipMemPoolReuseAllowOpportunistic, opportunistic);
  set_int(pool, hipMemPoolReuseAllowInternalDependencies, internal);
}

}  // namespace mempool_test

#endif
