// SPDX-License-Identifier: MIT
// Maps opaque HIP handles (hipStream_t, hipEvent_t) to live core objects, so a
// destroyed or made-up handle is an error, not a crash. The handle value is the
// object's address; the registry holds a reference until it is removed.
// Thread-safe.
#pragma once

#include <weft/driver/ref.hpp>

#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace weft {

template <typename T>
class HandleRegistry {
 public:
  void add(const Ref<T>& object) {
    std::unique_lock lock(mutex_);
    objects_.emplace(object.get(), object);
  }
  // Returns the object, or null when the handle is unknown or was removed.
  Ref<T> find(const void* handle) const {
    std::shared_lock lock(mutex_);
    auto it = objects_.find(handle);
    return it == objects_.end() ? Ref<T>() : it->second;
  }
  Ref<T> remove(const void* handle) {
    std::unique_lock lock(mutex_);
    auto it = objects_.find(handle);
    if (it == objects_.end()) return Ref<T>();
    Ref<T> object = std::move(it->second);
    objects_.erase(it);
    return object;
  }
  template <typename Pred>
  std::vector<Ref<T>> remove_if(Pred pred) {
    std::unique_lock lock(mutex_);
    std::vector<Ref<T>> out;
    for (auto it = objects_.begin(); it != objects_.end();) {
      if (pred(*it->second)) {
        out.push_back(std::move(it->second));
        it = objects_.erase(it);
      } else {
        ++it;
      }
    }
    return out;
  }

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<const void*, Ref<T>> objects_;
};

}  // namespace weft
