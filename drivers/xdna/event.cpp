// SPDX-License-Identifier: MIT
#include "event.hpp"

#include <chrono>

namespace weft::xdna {
namespace {

uint64_t steady_now_ns() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace

uint64_t XdnaEvent::begin_record() {
  std::lock_guard lock(mutex_);
  return ++submitted_;
}

void XdnaEvent::complete(uint64_t number, const Status& status) {
  {
    std::lock_guard lock(mutex_);
    if (number <= completed_) return;  // a newer record completed first (another queue)
    completed_ = number;
    timestamp_ns_ = steady_now_ns();
    status_ = status;
  }
  done_.notify_all();
}

Status XdnaEvent::wait_for(uint64_t number) {
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return completed_ >= number; });
  return status_;
}

uint64_t XdnaEvent::latest_record() {
  std::lock_guard lock(mutex_);
  return submitted_;
}

bool XdnaEvent::is_complete() {
  std::lock_guard lock(mutex_);
  return completed_ >= submitted_;
}

Status XdnaEvent::synchronize() { return wait_for(latest_record()); }

Result<float> XdnaEvent::elapsed_ms_since(Event& start_event) {
  auto* start = dynamic_cast<XdnaEvent*>(&start_event);
  if (!start) return Status(hipErrorInvalidHandle, "NPU: start event belongs to another driver");
  if (!options_.timing || !start->options_.timing)
    return Status(hipErrorInvalidHandle, "NPU: event created with hipEventDisableTiming");
  uint64_t end_ns = 0, start_ns = 0;
  {
    std::lock_guard lock(mutex_);
    if (submitted_ == 0) return Status(hipErrorInvalidHandle, "NPU: end event was never recorded");
    if (completed_ < submitted_)
      return Status(hipErrorNotReady, "NPU: end event has not completed");
    end_ns = timestamp_ns_;
  }
  {
    std::lock_guard lock(start->mutex_);  // after ours is released: start may be this event
    if (start->submitted_ == 0)
      return Status(hipErrorInvalidHandle, "NPU: start event was never recorded");
    if (start->completed_ < start->submitted_)
      return Status(hipErrorNotReady, "NPU: start event has not completed");
    start_ns = start->timestamp_ns_;
  }
  return static_cast<float>((static_cast<double>(end_ns) - static_cast<double>(start_ns)) / 1e6);
}

bool XdnaEvent::ever_recorded() {
  std::lock_guard lock(mutex_);
  return submitted_ > 0;
}

}  // namespace weft::xdna
