// SPDX-License-Identifier: MIT
// Which graph objects are alive, so a destroyed or made-up hipGraph_t,
// hipGraphNode_t, hipGraphExec_t or hipUserObject_t is an error instead of a
// crash. Objects register themselves while they exist; a handle's value is the
// object's address. Thread-safe (one reader-writer lock per kind; lookups share).
#pragma once

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
  }
  void remove(T* object) {
    std::unique_lock lock(mutex_);
    live_.erase(object);
  }
  // The object behind a handle, or null when no such object is alive.
  T* find(const void* handle) const {
    if (!handle) return nullptr;
    std::shared_lock lock(mutex_);
    auto it = live_.find(static_cast<T*>(const_cast<void*>(handle)));
    return it == live_.end() ? nullptr : *it;
  }

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_set<T*> live_;
};

struct Handles {
  LiveSet<Graph> graphs;
  LiveSet<GraphNode> nodes;
  LiveSet<GraphExec> execs;
  LiveSet<UserObject> user_objects;
};

// Leaked on purpose, like the runtime: objects may die during static destruction.
Handles& handles();

}  // namespace weft::graph
