// SPDX-License-Identifier: MIT
// Event: "Contract:" notes say what every driver's Event must guarantee.
#include "event.hpp"

#include <chrono>

namespace weft::null {
namespace {

uint64_t steady_now_ns() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace

void NullEvent::record_now() {
  std::lock_guard lock(mutex_);
  recorded_ = true;
  timestamp_ns_ = steady_now_ns();
}

// Contract: true when the newest record has completed, and for an event never
// recorded (hipEventQuery on a fresh event is hipSuccess). Never blocks.
bool NullEvent::is_complete() { return true; }

// Contract: blocks until the newest record (as of the call) completes and
// returns the error of the queue that ran it, if that queue failed
// asynchronously before reaching it. Null queues run records inline and fail
// only synchronously, so there is never anything to wait for or report.
Status NullEvent::synchronize() { return Status(); }

// Contract: milliseconds between two completed records of timing-enabled events
// of this driver. hipErrorInvalidHandle when either was never recorded, has
// timing disabled or belongs to another driver; hipErrorNotReady when either
// has not completed yet (never the case here).
Result<float> NullEvent::elapsed_ms_since(Event& start_event) {
  auto* start = dynamic_cast<NullEvent*>(&start_event);
  if (!start)
    return Status(hipErrorInvalidHandle, "null agent: start event belongs to another driver");
  if (!options_.timing || !start->options_.timing)
    return Status(hipErrorInvalidHandle, "null agent: event created with hipEventDisableTiming");
  uint64_t end_ns = 0, start_ns = 0;
  {
    std::lock_guard lock(mutex_);
    if (!recorded_)
      return Status(hipErrorInvalidHandle, "null agent: end event was never recorded");
    end_ns = timestamp_ns_;
  }
  {
    // Taken after ours is released: start may be this event, and no lock order exists.
    std::lock_guard lock(start->mutex_);
    if (!start->recorded_)
      return Status(hipErrorInvalidHandle, "null agent: start event was never recorded");
    start_ns = start->timestamp_ns_;
  }
  return static_cast<float>((static_cast<double>(end_ns) - static_cast<double>(start_ns)) / 1e6);
}

// Contract: true once any queue accepted an EventRecordOp of this event.
bool NullEvent::ever_recorded() {
  std::lock_guard lock(mutex_);
  return recorded_;
}

}  // namespace weft::null
