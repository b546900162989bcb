// SPDX-License-Identifier: MIT
#include "graph/user_object.hpp"

#include "graph/handles.hpp"

namespace weft::graph {

UserObject::UserObject(void* ptr, hipHostFn_t destroy, unsigned initial)
    : ptr_(ptr), destroy_(destroy), refs_(initial) {
  handles().user_objects.add(this);
}

UserObject::~UserObject() { handles().user_objects.remove(this); }

bool UserObject::release(unsigned count) {
  uint64_t held = refs_.load(std::memory_order_relaxed);
  do {
    if (held < count) return false;
  } while (!refs_.compare_exchange_weak(held, held - count, std::memory_order_acq_rel,
                                        std::memory_order_relaxed));
  if (held != count) return true;
  // Unregister before the callback: the handle is dead from here on.
  handles().user_objects.remove(this);
  destroy_(ptr_);
  delete this;
  return true;
}

}  // namespace weft::graph
