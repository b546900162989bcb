// SPDX-License-Identifier: MIT
// XdnaEvent: completion and host timestamps of NPU queue work. A record is
// numbered when it is submitted and completed by the queue's thread when it
// gets there (after every earlier command's syncobj wait). Thread-safe.
#pragma once

#include <weft/driver/device.hpp>

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace weft::xdna {

class XdnaEvent final : public Event {
 public:
  explicit XdnaEvent(const EventOptions& options) : options_(options) {}

  // At submit: the number of the new record.
  uint64_t begin_record();
  // On the queue thread: record `number` is reached; `status` is the queue's
  // asynchronous error so far (its waiters get it).
  void complete(uint64_t number, const Status& status);
  // Blocks until record `number` completed.
  Status wait_for(uint64_t number);
  uint64_t latest_record();

  bool is_complete() override;
  Status synchronize() override;
  Result<float> elapsed_ms_since(Event& start) override;
  bool ever_recorded() override;

 private:
  const EventOptions options_;
  std::mutex mutex_;
  std::condition_variable done_;
  uint64_t submitted_ = 0;     // records submitted; guarded by mutex_
  uint64_t completed_ = 0;     // newest record completed; guarded by mutex_
  uint64_t timestamp_ns_ = 0;  // of record `completed_`
  Status status_;              // of record `completed_`
};

}  // namespace weft::xdna
