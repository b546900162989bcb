// SPDX-License-Identifier: MIT
// CPU agent events: a generation counter per record, completed by the queue
// thread that reaches the record, with a steady-clock timestamp. Thread-safe.
#pragma once

#include <weft/driver/device.hpp>

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace weft::cpu {

class CpuEvent final : public Event {
 public:
  explicit CpuEvent(const EventOptions& options) : options_(options) {}

  // Called when an EventRecordOp is submitted; returns the record's generation.
  uint64_t arm();
  // The generation a wait submitted now must wait for.
  uint64_t armed_generation();
  // Called by the queue when it reaches record `generation`; `error` is the queue's
  // first asynchronous failure so far (a device assert, a fault), which the
  // event's synchronize() then reports as the queue's would.
  void complete(uint64_t generation, uint64_t timestamp_ns, Status error);
  void wait_for(uint64_t generation);

  bool is_complete() override;
  Status synchronize() override;
  Result<float> elapsed_ms_since(Event& start) override;
  bool ever_recorded() override;

 private:
  const EventOptions options_;
  std::mutex mutex_;
  std::condition_variable cv_;
  uint64_t armed_ = 0;
  uint64_t completed_ = 0;
  uint64_t timestamp_ns_ = 0;
  Status error_;  // of the newest completed record
};

uint64_t now_ns();

}  // namespace weft::cpu
