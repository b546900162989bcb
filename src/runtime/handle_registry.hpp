// SPDX-License-Identifier: MIT
// Maps opaque HIP handles (hipStream_t, hipEvent_t) to live core objects, so a
// destroyed or made-up handle is an error, not a crash. The handle value is the
// object's address; the registry holds a reference until it is removed.
// Thread-safe.
//
// Lookups are on every launch and event call, so the common case takes no lock:
// a small direct-mapped cache of live objects (a subset of the map, written
// under the registry's lock) is probed with one atomic load, and the reference
// for the caller is taken under a per-thread hazard pointer (runtime/hazard):
// remove() clears the cache entry and then waits until no lookup guards the
// object before the registry's own reference can go. A handle that is not in
// the cache (a slot taken by another object) is looked up in the map under the
// shared lock, as before.
#pragma once

#include "runtime/hazard.hpp"

#include <weft/driver/ref.hpp>

#include <array>
#include <atomic>
#include <cstdint>
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
    cache_[slot(object.get())].store(object.get(), std::memory_order_seq_cst);
  }
  // Returns the object, or null when the handle is unknown or was removed.
  Ref<T> find(const void* handle) const {
    if (hazard::Record* guard = hazard::record()) [[likely]] {
      // Publish the guard before reading the cache (hazard::guard orders the
      // two): remove() clears the cache entry before it scans the guards, so
      // either this load misses or remove() sees the guard and waits.
      hazard::guard(guard, handle);
      T* hit = cache_[slot(handle)].load(std::memory_order_seq_cst);
      Ref<T> out;
      if (hit && hit == handle) out = Ref<T>(hit);
      hazard::unguard(guard);
      if (out) return out;
    }
    std::shared_lock lock(mutex_);
    auto it = objects_.find(handle);
    return it == objects_.end() ? Ref<T>() : it->second;
  }
  // A lookup without a reference: when the handle is in the cache, publishes it
  // in `hold` (a borrow slot that hazard::wait_unguarded() scans, like a guard)
  // and returns the object, which stays alive until the caller clears `hold`;
  // remove() waits for that. Null when the handle is not cached (unknown, or its
  // slot taken by another object): the caller then falls back to find(). Only for
  // sections that never block and never remove handles.
  T* find_held(const void* handle, std::atomic<const void*>& hold) const {
    if (hazard::g_asymmetric_fences) [[likely]] {
      hold.store(handle, std::memory_order_relaxed);
      std::atomic_signal_fence(std::memory_order_seq_cst);
    } else {
      hold.store(handle, std::memory_order_seq_cst);
    }
    T* hit = cache_[slot(handle)].load(std::memory_order_seq_cst);
    if (hit && hit == handle) [[likely]]
      return hit;
    hold.store(nullptr, std::memory_order_release);
    return nullptr;
  }
  // find_held for a section that waits for the device (hipEventSynchronize): the
  // object is held in `r`'s waiting slot, which remove() does not wait for; an
  // object removed meanwhile stays parked until end_waiting_hold(). Null when the
  // slot is in use already (a wait inside a wait: a host function that the
  // waiting thread runs) or the handle is not cached: the caller then takes a
  // reference instead.
  T* find_waiting_held(const void* handle, hazard::Record& r) const {
    if (r.waiting.load(std::memory_order_relaxed) != nullptr) [[unlikely]]
      return nullptr;
    return find_held(handle, r.waiting);
  }
  void end_waiting_hold(hazard::Record& r) const {
    // The section's reads before the slot's release store; against
    // park_if_waited_on(): that store before the count's load (hazard.hpp's
    // asymmetric fences: the remover fences both sides).
    if (hazard::g_asymmetric_fences) [[likely]] {
      r.waiting.store(nullptr, std::memory_order_release);
      std::atomic_signal_fence(std::memory_order_seq_cst);
    } else {
      r.waiting.store(nullptr, std::memory_order_seq_cst);
    }
    if (parked_count_.load(std::memory_order_seq_cst) != 0) [[unlikely]]
      release_parked();
  }

  Ref<T> remove(const void* handle) {
    Ref<T> object;
    {
      std::unique_lock lock(mutex_);
      auto it = objects_.find(handle);
      if (it == objects_.end()) return Ref<T>();
      object = std::move(it->second);
      objects_.erase(it);
      uncache(object.get());
    }
    hazard::wait_unguarded(object.get());
    park_if_waited_on(object);
    return object;
  }
  template <typename Pred>
  std::vector<Ref<T>> remove_if(Pred pred) {
    std::vector<Ref<T>> out;
    {
      std::unique_lock lock(mutex_);
      for (auto it = objects_.begin(); it != objects_.end();) {
        if (pred(*it->second)) {
          uncache(it->second.get());
          out.push_back(std::move(it->second));
          it = objects_.erase(it);
        } else {
          ++it;
        }
      }
    }
    if (!out.empty()) {
      std::vector<const void*> objects;
      objects.reserve(out.size());
      for (const Ref<T>& object : out) objects.push_back(object.get());
      hazard::wait_unguarded(objects.data(), objects.size());
      for (const Ref<T>& object : out) park_if_waited_on(object);
    }
    return out;
  }

 private:
  static constexpr unsigned kCacheBits = 8;
  static size_t slot(const void* handle) { return hazard::cache_slot<kCacheBits>(handle); }
  // Requires mutex_.
  void uncache(T* object) {
    std::atomic<T*>& entry = cache_[slot(object)];
    if (entry.load(std::memory_order_relaxed) == object)
      entry.store(nullptr, std::memory_order_seq_cst);
  }

  // After wait_unguarded's fence: a removed object that a waiting section still
  // holds keeps a reference here until the hold ends. The second look
  // (release_parked, after the count is published and fenced) pairs with
  // end_waiting_hold's store and load: either that hold's end sees the count, or
  // the second look sees the slot empty.
  void park_if_waited_on(const Ref<T>& object) const {
    if (!hazard::waited_on(object.get())) [[likely]]
      return;
    {
      std::lock_guard lock(parked_mutex_);
      parked_.push_back(object);
      parked_count_.store(parked_.size(), std::memory_order_seq_cst);
    }
    release_parked();
  }
  // Lets go of every parked object no waiting section holds any more.
  void release_parked() const {
    std::vector<Ref<T>> done;
    {
      std::lock_guard lock(parked_mutex_);
      hazard::fence_against_guards();
      for (auto it = parked_.begin(); it != parked_.end();) {
        if (hazard::waited_on(it->get())) {
          ++it;
        } else {
          done.push_back(std::move(*it));
          it = parked_.erase(it);
        }
      }
      parked_count_.store(parked_.size(), std::memory_order_seq_cst);
    }
  }

  mutable std::mutex parked_mutex_;
  mutable std::vector<Ref<T>> parked_;
  mutable std::atomic<size_t> parked_count_{0};
  mutable std::shared_mutex mutex_;
  std::unordered_map<const void*, Ref<T>> objects_;
  std::array<std::atomic<T*>, size_t(1) << kCacheBits> cache_{};  // written under mutex_
};

}  // namespace weft
