// SPDX-License-Identifier: MIT
// hipUserObject_t: a reference-counted wrapper around a user resource whose
// destroy callback runs when the last reference goes, whether the user, a
// graph or an executable graph held it. An executable graph's references are
// released only after its last replay finished, so the callback never runs
// while work that may use the resource is queued. Thread-safe.
#pragma once

#include <hip/hip_runtime_api.h>

#include <atomic>
#include <cstdint>

namespace weft::graph {

class UserObject {
 public:
  UserObject(void* ptr, hipHostFn_t destroy, unsigned initial);

  void retain(unsigned count) { refs_.fetch_add(count, std::memory_order_relaxed); }
  // Runs the destroy callback (and frees the object) when the count reaches
  // zero. Returns false, changing nothing, when fewer than `count` references
  // are held (an over-release must not wrap the count around).
  bool release(unsigned count);

 private:
  ~UserObject();
  void* ptr_;
  hipHostFn_t destroy_;
  std::atomic<uint64_t> refs_;
};

}  // namespace weft::graph
