// SPDX-License-Identifier: MIT
// The trace's state (src/trace, internal): the recorded events, buffered per host
// thread, and the file they are appended to.
//
// Memory is bounded: at most `max_events` records (WEFT_TRACE_MAX_EVENTS, default
// 262144, about 230 bytes each) wait in the buffers between two writes (hipProfilerStop, exit). A record
// that would exceed it is dropped and counted; the count is written in the
// trace's "otherData" as "dropped_events". Each thread appends to its own buffer
// under that buffer's own lock, so recording threads never contend; only a write
// takes every buffer's lock in turn. The state is never destroyed: queue threads
// may still report ops while the process exits.
#pragma once

#include <hip/hip_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace weft::trace {

// Device tracks: a synthetic thread id per stream, above any Linux thread id
// (pid_max is at most 2^22).
constexpr uint32_t kTrackTidBase = 1u << 30;

struct Record {
  enum class Kind : uint8_t { kApi, kDevice };
  Kind kind = Kind::kApi;
  uint32_t epoch = 0;     // events of an older epoch were recorded before the first window
  uint32_t tid = 0;       // host thread (kApi) or device track (kDevice)
  uint64_t begin_ns = 0;  // op_clock_ns()
  uint64_t end_ns = 0;
  const char* category =
      "api";  // static: "api", "kernel", "copy", "fill", "event", "host", "graph"
  const char* api_name = nullptr;  // kApi: the entry point's name (static)
  hipError_t result = hipSuccess;  // kApi
  std::string name;                // kDevice
  std::string args;                // kApi: argument text; kDevice: JSON members, without braces
  uint64_t bytes = 0;              // copies and fills: bandwidth is computed when written
  uint64_t queued_ns = 0;          // kDevice: when the op was submitted
  // A flow arrow from the API slice that submitted the op (0: none).
  uint64_t flow_id = 0;
  uint32_t flow_tid = 0;
  uint64_t flow_ns = 0;
};

// Names for tracks and threads ("M" events), registered once each.
struct TrackName {
  uint32_t tid;
  int sort_index;
  std::string name;
};

// Appends a record to this thread's buffer, or counts it as dropped.
void push(Record&& record) noexcept;
void count_dropped() noexcept;
void name_track(uint32_t tid, int sort_index, std::string name);
// The calling host thread's id (gettid), cached.
uint32_t this_thread_tid() noexcept;
// The epoch in force now: records stamped with an older one are not written.
uint32_t current_epoch() noexcept;
uint64_t next_flow_id() noexcept;

}  // namespace weft::trace

namespace weft::trace {

// The API slice open on this thread, if any: flows start inside it and carry
// its epoch (src/trace/api_span.cpp).
struct OpenSpan {
  bool open = false;
  uint32_t epoch = 0;
};
OpenSpan open_span_on_this_thread() noexcept;

}  // namespace weft::trace
