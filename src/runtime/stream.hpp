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

#include "runtime/stream_order.hpp"

#include <weft/driver/device.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace weft {

class DeviceState;

class Stream final : public RefCounted {
 public:
  enum class Kind { kNull, kPerThread, kUser };

  Stream(DeviceState& device, Ref<Queue> queue, Kind kind, unsigned flags, int priority,
         std::vector<uint32_t> cu_mask = {});

  // hipStreamSetAttribute values without an effect of their own on the agents
  // weft drives: stored as given and returned by hipStreamGetAttribute.
  struct Attributes {
    hipAccessPolicyWindow access_policy_window{};
    hipSynchronizationPolicy sync_policy = hipSyncPolicyAuto;
    hipLaunchMemSyncDomainMap mem_sync_domain_map{};
    hipLaunchMemSyncDomain mem_sync_domain = hipLaunchMemSyncDomainDefault;
  };
  Attributes attributes() const {
    std::lock_guard lock(attributes_mutex_);
    return attributes_;
  }
  void set_attributes(const Attributes& attributes) {
    std::lock_guard lock(attributes_mutex_);
    attributes_ = attributes;
  }
  // hipStreamSetAttribute(hipLaunchAttributePriority) changes what
  // hipStreamGetPriority reports; the queue keeps the priority it was made with.
  void set_priority(int priority) { priority_.store(priority, std::memory_order_relaxed); }
  // The CU mask it was created with (hipExtStreamCreateWithCUMask); empty: all units.
  const std::vector<uint32_t>& cu_mask() const { return cu_mask_; }

  Status submit(Op&& op);
  // Submits a finalized command buffer (a graph plan) with the same ordering
  // rules. Graph capture is the caller's business (src/graph).
  Status submit(CommandBuffer& buffer);
  // Work a driver enqueues itself, with no Op for it (external semaphores on agents
  // whose vendor library operates them): `to_queue` gets the stream's queue, under
  // the same ordering rules. Capture is the caller's business.
  Status submit_native(const std::function<Status(Queue&)>& to_queue);

  // A copy with a native array side (Queue::submit_array_copy), same ordering
  // rules. It is no Op, so stream capture cannot take it: the caller refuses it
  // while this stream captures.
  Status submit_array_copy(const ArrayCopyOp& op);
  // Waits for the stream's work; a device error reported here sticks to the device.
  Status synchronize();
  bool is_idle() { return queue_->is_idle(); }

  DeviceState& device() const { return device_; }
  // The device's caps().ops_read_at_submit: ops submitted here may lend their
  // arguments, kernel or event (op.hpp) for the duration of submit().
  bool ops_read_at_submit() const { return ops_read_at_submit_; }
  Kind kind() const { return kind_; }
  unsigned flags() const { return flags_; }
  int priority() const { return priority_.load(std::memory_order_relaxed); }
  bool blocking() const { return kind_ != Kind::kNull && (flags_ & hipStreamNonBlocking) == 0; }
  Queue& queue() const { return *queue_; }
  // A process-unique number, never reused (hipStreamGetId).
  uint64_t id() const { return id_; }

  // Stream-ordered memory reuse (runtime/stream_order.hpp): what this stream is
  // known to follow, and how many hipFreeAsync calls it has seen.
  StreamClock pool_clock;
  std::atomic<uint64_t> free_epoch{0};

 private:
  friend class DeviceState;
  Status order_after_null();      // requires the device's order mutex
  Status order_after_blocking();  // requires the device's order mutex (null stream only)
  Status wait_marker_of(Stream& other);
  // Applies the ordering rules around `to_queue(queue)`, the actual submission.
  template <typename ToQueue>
  Status submit_in_order(ToQueue&& to_queue);

  DeviceState& device_;
  Ref<Queue> queue_;
  const Kind kind_;
  const unsigned flags_;
  std::atomic<int> priority_;
  const std::vector<uint32_t> cu_mask_;
  const bool ops_read_at_submit_;
  mutable std::mutex attributes_mutex_;
  Attributes attributes_;  // guarded by attributes_mutex_
  const uint64_t id_ = next_id();
  static uint64_t next_id() {
    static std::atomic<uint64_t> counter{0};
    return counter.fetch_add(1, std::memory_order_relaxed) + 1;
  }
  // Guarded by the device's order mutex (blocking and null streams only).
  uint64_t submitted_ = 0;
  uint64_t null_seen_ = 0;     // null stream's submitted_ when we last waited on it
  uint64_t seen_by_null_ = 0;  // our submitted_ when the null stream last waited on us
  Ref<Event> marker_;
};

}  // namespace weft
