// SPDX-License-Identifier: MIT
// Optional timing of submitted ops, for the timeline trace (WEFT_TRACE, docs/trace.md).
//
// The core only asks for it while tracing is on: it then submits an op with
// Queue::submit_observed() instead of Queue::submit(), and the queue tells the
// observer when the op started and when it ended on the agent. Queue's default
// submit_observed() brackets the op with two host functions, which every queue
// runs; a driver that can timestamp its ops itself (the CPU agent's queue thread,
// a GPU's completion signals) overrides it for exact times.
#pragma once

#include <weft/driver/ref.hpp>

#include <chrono>
#include <cstdint>

namespace weft {

// The trace's clock: steady (CLOCK_MONOTONIC on Linux), in nanoseconds. Drivers
// that read device timestamps convert them to this clock before reporting.
inline uint64_t op_clock_ns() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// Told about one op: started() once, right before the op begins, then ended()
// once, after it finished (its effects visible), and before the queue counts the
// op as complete, so a host that synchronized with the queue sees the report.
// Called from any thread (the queue's own, a driver callback thread). An op
// whose submit failed may get started() without ended(); observers report
// nothing until ended().
class OpObserver : public RefCounted {
 public:
  virtual void started(uint64_t clock_ns) noexcept = 0;
  virtual void ended(uint64_t clock_ns) noexcept = 0;
};

}  // namespace weft
