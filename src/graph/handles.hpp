// SPDX-License-Identifier: MIT
// Which graph objects are alive, so a destroyed or made-up hipGraph_t,
// hipGraphNode_t, hipGraphExec_t or hipUserObject_t is an error instead of a
// crash. Objects register themselves while they exist; a handle's value is the
// object's address. Thread-safe (one reader-writer lock per kind; lookups share
// it, or take none when the handle is in the set's lookup cache).
#pragma once

#include "runtime/hazard.hpp"

#include <array>
#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <unordered_set>

namespace weft::graph {

class Graph;
class GraphNode;
class GraphExec;
class UserObject;

template <typename T>
class LiveSet {
 public:
  void add(T* object) {
    std::unique_lock lock(mutex_);
    live_.insert(object);
    cache_[slot(object)].store(object, std::memory_order_release);
  }
  void remove(T* object) {
    std::unique_lock lock(mutex_);
    std::atomic<T*>& entry = cache_[slot(object)];
    if (entry.load(std::memory_order_relaxed) == object)
      entry.store(nullptr, std::memory_order_release);
    live_.erase(object);
  }
  // The object behind a handle, or null when no such object is alive. The
  // common case is one load from a small direct-mapped cache of live objects
  // (kept under the lock, a subset of the set); a miss looks in the set.
  T* find(const void* handle) const {
    if (!handle) return nullptr;
    if (T* hit = cache_[slot(handle)].load(std::memory_order_acquire); hit == handle) return hit;
    std::shared_lock lock(mutex_);
    auto it = live_.find(static_cast<T*>(const_cast<void*>(handle)));
    return it == live_.end() ? nullptr : *it;
  }

 private:
  static constexpr unsigned kCacheBits = 8;
  static size_t slot(const void* handle) { return hazard::cache_slot<kCacheBits>(handle); }

  mutable std::shared_mutex mutex_;
  std::unordered_set<T*> live_;
  std::array<std::atomic<T*>, size_t(1) << kCacheBits> cache_{};  // written under mutex_
};

struct Handles {
  LiveSet<Graph> graphs;
  LiveSet<GraphNode> nodes;
  LiveSet<GraphExec> execs;
  LiveSet<UserObject> user_objects;
};

// Leaked on purpose, like the runtime: objects may die during static destruction.
// Inline: SetParams and the other per-call graph entry points use it.
inline Handles& handles() {
  static Handles* instance = new Handles();
  return *instance;
}

}  // namespace weft::graph
