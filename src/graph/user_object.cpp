// SPDX-License-Identifier: MIT
#include "graph/user_object.hpp"

#include "graph/handles.hpp"

namespace weft::graph {

Handles& handles() {
  static Handles* instance = new Handles();
  return *instance;
}

UserObject::UserObject(void* ptr, hipHostFn_t destroy, unsigned initial)
    : ptr_(ptr), destroy_(destroy), refs_(initial) {
  handles().user_objects.add(this);
}

UserObject::~UserObject() { handles().user_objects.remove(this); }

void UserObject::release(unsigned count) {
  if (refs_.fetch_sub(count, std::memory_order_acq_rel) != count) return;
  // Unregister before the callback: the handle is dead from here on.
  handles().user_objects.remove(this);
  destroy_(ptr_);
  delete this;
}

}  // namespace weft::graph
