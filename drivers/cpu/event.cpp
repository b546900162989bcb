// SPDX-License-Identifier: MIT
#include "event.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace weft::cpu {

uint64_t now_ns() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

namespace {

// Waits for another process's progress: polls with a back-off from 1 µs to 1 ms.
template <typename Ready>
void poll_until(Ready ready) {
  auto pause = std::chrono::microseconds(1);
  while (!ready()) {
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

}  // namespace

uint64_t CpuEvent::arm() {
  std::lock_guard lock(mutex_);
  if (shared_) return armed_ = shared_->words().armed.fetch_add(1, std::memory_order_acq_rel) + 1;
  return ++armed_;
}

uint64_t CpuEvent::armed_generation() {
  if (shared_) return shared_->words().armed.load(std::memory_order_acquire);
  std::lock_guard lock(mutex_);
  return armed_;
}

void CpuEvent::complete(uint64_t generation, uint64_t timestamp_ns, Status error) {
  {
    std::lock_guard lock(mutex_);
    // Records on different queues may complete out of order; the newest wins.
    if (generation > completed_) {
      completed_ = generation;
      timestamp_ns_ = timestamp_ns;
      error_ = std::move(error);
    }
    if (shared_) {
      auto& done = shared_->words().completed;
      uint64_t now = done.load(std::memory_order_relaxed);
      while (now < generation &&
             !done.compare_exchange_weak(now, generation, std::memory_order_acq_rel)) {
      }
    }
  }
  cv_.notify_all();
}

void CpuEvent::wait_for(uint64_t generation) {
  if (shared_) {  // the record may complete in another process
    poll_until(
        [&] { return shared_->words().completed.load(std::memory_order_acquire) >= generation; });
    return;
  }
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [&] { return completed_ >= generation; });
}

bool CpuEvent::is_complete() {
  if (shared_)
    return shared_->words().completed.load(std::memory_order_acquire) >=
           shared_->words().armed.load(std::memory_order_acquire);
  std::lock_guard lock(mutex_);
  return completed_ >= armed_;
}

Status CpuEvent::synchronize() {
  if (shared_) {
    wait_for(armed_generation());
    std::lock_guard lock(mutex_);
    return error_;
  }
  std::unique_lock lock(mutex_);
  const uint64_t target = armed_;
  cv_.wait(lock, [&] { return completed_ >= target; });
  return error_;
}

bool CpuEvent::ever_recorded() {
  if (shared_) return armed_generation() > 0;
  std::lock_guard lock(mutex_);
  return armed_ > 0;
}

Result<float> CpuEvent::elapsed_ms_since(Event& start_event) {
  auto* start = dynamic_cast<CpuEvent*>(&start_event);
  if (!start) return Status(hipErrorInvalidHandle, "events belong to different agents");
  if (!options_.timing || !start->options_.timing)
    return Status(hipErrorInvalidHandle, "event created with hipEventDisableTiming");
  uint64_t end_ns, start_ns;
  {
    std::lock_guard lock(mutex_);
    if (armed_ == 0) return Status(hipErrorInvalidHandle, "end event was never recorded");
    if (completed_ < armed_) return Status(hipErrorNotReady, "end event has not completed");
    end_ns = timestamp_ns_;
  }
  {
    std::lock_guard lock(start->mutex_);
    if (start->armed_ == 0) return Status(hipErrorInvalidHandle, "start event was never recorded");
    if (start->completed_ < start->armed_)
      return Status(hipErrorNotReady, "start event has not completed");
    start_ns = start->timestamp_ns_;
  }
  return static_cast<float>((static_cast<double>(end_ns) - static_cast<double>(start_ns)) / 1e6);
}

}  // namespace weft::cpu
