// SPDX-License-Identifier: MIT
// A HIP stream: a driver queue plus HIP's ordering rules.
//
// Legacy null-stream semantics live here once, for every agent: work on the null
// stream first waits for all earlier work of the device's blocking streams, and
// work on a blocking stream first waits for earlier null-stream work. Markers
// (driver events) are recorded only when the other side has new work since the
// last wait, so streams that never meet the null stream pay one mutex.
// hipStreamNonBlocking streams skip all of it. Thread-safe.
#pragma once

#include <weft/driver/device.hpp>

#include <atomic>
#include <cstdint>

namespace weft {

class DeviceState;

class Stream final : public RefCounted {
 public:
  enum class Kind { kNull, kPerThread, kUser };

  Stream(DeviceState& device, Ref<Queue> queue, Kind kind, unsigned flags, int priority);

  Status submit(Op op);
  // Submits a finalized command buffer (a graph plan) with the same ordering
  // rules. Graph capture is the caller's business (src/graph).
  Status submit(CommandBuffer& buffer);
  // Waits for the stream's work; a device error reported here sticks to the device.
  Status synchronize();
  bool is_idle() { return queue_->is_idle(); }

  DeviceState& device() const { return device_; }
  Kind kind() const { return kind_; }
  unsigned flags() const { return flags_; }
  int priority() const { return priority_; }
  bool blocking() const { return kind_ != Kind::kNull && (flags_ & hipStreamNonBlocking) == 0; }
  Queue& queue() const { return *queue_; }
  // A process-unique number, never reused (hipStreamGetId).
  uint64_t id() const { return id_; }

 private:
  friend class DeviceState;
  Status order_after_null();       // requires the device's order mutex
  Status order_after_blocking();   // requires the device's order mutex (null stream only)
  Status wait_marker_of(Stream& other);
  // Applies the ordering rules around `to_queue(queue)`, the actual submission.
  template <typename ToQueue>
  Status submit_in_order(ToQueue&& to_queue);

  DeviceState& device_;
  Ref<Queue> queue_;
  const Kind kind_;
  const unsigned flags_;
  const int priority_;
  const uint64_t id_ = next_id();
  static uint64_t next_id() {
    static std::atomic<uint64_t> counter{0};
    return counter.fetch_add(1, std::memory_order_relaxed) + 1;
  }
  // Guarded by the device's order mutex (blocking and null streams only).
  uint64_t submitted_ = 0;
  uint64_t null_seen_ = 0;       // null stream's submitted_ when we last waited on it
  uint64_t seen_by_null_ = 0;    // our submitted_ when the null stream last waited on us
  Ref<Event> marker_;
};

}  // namespace weft
