// SPDX-License-Identifier: MIT
// CPU agent events: a generation counter per record, completed by the queue
// thread that reaches the record, with a steady-clock timestamp. Thread-safe.
#pragma once

#include <weft/driver/device.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

namespace weft::cpu {

// An interprocess event's record counters (hipEventInterprocess), in a page of a
// memfd that every process holding the event maps (docs/ipc.md): records and
// completions in any of them are seen by all.
struct SharedEventWords {
  std::atomic<uint64_t> armed;
  std::atomic<uint64_t> completed;
};
class SharedEventPage {
 public:
  // A new page (its memfd stays open: handles name it), or the page of a handle.
  static Result<std::shared_ptr<SharedEventPage>> create();
  static Result<std::shared_ptr<SharedEventPage>> open(const hipIpcEventHandle_t& handle);
  ~SharedEventPage();
  SharedEventWords& words() { return *words_; }
  Result<hipIpcEventHandle_t> handle() const;

 private:
  SharedEventPage(int fd, SharedEventWords* words) : fd_(fd), words_(words) {}
  const int fd_;  // -1 in an importing process
  SharedEventWords* const words_;
};

class CpuEvent final : public Event {
 public:
  explicit CpuEvent(const EventOptions& options, std::shared_ptr<SharedEventPage> shared = nullptr)
      : options_(options), shared_(std::move(shared)) {}
  SharedEventPage* shared() const { return shared_.get(); }

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
  // Interprocess events count records in shared memory; others in armed_/completed_.
  const std::shared_ptr<SharedEventPage> shared_;
  std::mutex mutex_;
  std::condition_variable cv_;
  uint64_t armed_ = 0;
  uint64_t completed_ = 0;
  uint64_t timestamp_ns_ = 0;
  Status error_;  // of the newest completed record
};

uint64_t now_ns();

}  // namespace weft::cpu
