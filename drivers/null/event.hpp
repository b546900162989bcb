// SPDX-License-Identifier: MIT
// NullEvent: completion and timing for null queues. A null queue runs a record
// before its submit() returns, so an event is complete as soon as it has been
// recorded; what remains is the timestamp and the bookkeeping the contract asks
// for (ever_recorded, timing disabled). Thread-safe.
#pragma once

#include <weft/driver/device.hpp>

#include <cstdint>
#include <mutex>

namespace weft::null {

class NullEvent final : public Event {
 public:
  explicit NullEvent(const EventOptions& options) : options_(options) {}

  // Called by a null queue when it reaches an EventRecordOp of this event.
  void record_now();

  bool is_complete() override;
  Status synchronize() override;
  Result<float> elapsed_ms_since(Event& start) override;
  bool ever_recorded() override;

 private:
  const EventOptions options_;
  std::mutex mutex_;
  bool recorded_ = false;      // guarded by mutex_
  uint64_t timestamp_ns_ = 0;  // of the newest record; guarded by mutex_
};

}  // namespace weft::null
