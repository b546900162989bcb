// SPDX-License-Identifier: MIT
// What a point in a stream is known to come after, for stream-ordered memory
// reuse (src/runtime/mempool.*, docs/mempool.md).
//
// Each stream counts its hipFreeAsync calls (its free epoch). A stream's clock
// maps other streams' ids to the highest free epoch of theirs that it is
// ordered after: a hipEventRecord copies the recording stream's clock (its own
// epoch included) into the event, and a hipStreamWaitEvent merges the event's
// clock into the waiting stream's. A block that stream A freed at epoch f may
// then be reused by stream B without new synchronization when
// B.clock[A] >= f (hipMemPoolReuseFollowEventDependencies). This is a vector
// clock, so orderings pass through chains of events. Streams and events that
// never meet a pool keep empty clocks, which a record or wait copies without
// taking a lock. Thread-safe.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace weft {

class StreamClock {
 public:
  using Entries = std::vector<std::pair<uint64_t, uint64_t>>;  // (stream id, free epoch)

  // The highest free epoch of stream `id` this point is ordered after (0: none).
  uint64_t seen(uint64_t id) const {
    if (!any()) return 0;
    std::lock_guard lock(mutex_);
    for (const auto& [sid, epoch] : entries_)
      if (sid == id) return epoch;
    return 0;
  }
  // Raises the entry of `id` to at least `epoch`.
  void advance(uint64_t id, uint64_t epoch) {
    std::lock_guard lock(mutex_);
    raise(id, epoch);
    published();
  }
  // This clock becomes `other`'s (an event recorded again forgets its old record).
  void assign_from(const StreamClock& other) {
    if (!other.any()) {  // every record of a program that never frees asynchronously
      clear();
      return;
    }
    Entries copy = other.snapshot();
    std::lock_guard lock(mutex_);
    entries_ = std::move(copy);
    published();
  }
  void clear() {
    if (!any()) return;
    std::lock_guard lock(mutex_);
    entries_.clear();
    published();
  }
  // Elementwise maximum with `other` (a stream waiting on an event).
  void merge_from(const StreamClock& other) {
    if (!other.any()) return;
    Entries copy = other.snapshot();
    if (copy.empty()) return;
    std::lock_guard lock(mutex_);
    for (const auto& [id, epoch] : copy) raise(id, epoch);
    published();
  }
  Entries snapshot() const {
    if (!any()) return {};
    std::lock_guard lock(mutex_);
    return entries_;
  }

 private:
  // Whether the clock has entries, readable without the lock: an empty clock
  // (no stream-ordered free anywhere behind it) is the common case, and copying
  // or clearing one then takes no lock. Written under the lock after each change.
  bool any() const { return non_empty_.load(std::memory_order_acquire); }
  void published() { non_empty_.store(!entries_.empty(), std::memory_order_release); }
  void raise(uint64_t id, uint64_t epoch) {
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [id](const auto& e) { return e.first == id; });
    if (it == entries_.end()) entries_.emplace_back(id, epoch);
    else it->second = std::max(it->second, epoch);
  }
  mutable std::mutex mutex_;
  Entries entries_;
  std::atomic<bool> non_empty_{false};
};

}  // namespace weft
