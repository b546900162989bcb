// SPDX-License-Identifier: MIT
// The timeline trace (WEFT_TRACE=path.json, docs/trace.md): what the core calls.
//
// Off (the default, or outside a hipProfilerStart/Stop window), each hook is one
// relaxed load of a global flag and a predictable branch: api::call checks on()
// before anything else, Stream::submit checks it before choosing the queue's
// submit. On, every API call becomes an "api" slice on its host thread and every
// op submitted to a stream a slice on that stream's track, with a flow arrow
// from the call that submitted it.
#pragma once

#include <weft/driver/device.hpp>

#include <hip/hip_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace weft {
class Stream;
}

namespace weft::trace {

// True while events are recorded: WEFT_TRACE is set and a window is open.
extern std::atomic<bool> g_recording;
inline bool on() { return g_recording.load(std::memory_order_relaxed); }

// The slice of this thread's outermost API call (an entry point that calls
// another one internally stays one slice, so a thread has at most one open).
// open_api_slice reads the clock and keeps `name` and `args` (the call's
// arguments as api::args_text writes them) in thread-local storage; it returns
// false, recording nothing, when a slice is open on this thread already.
// close_api_slice records the open slice with the call's result.
bool api_slice_open_on_this_thread() noexcept;
bool open_api_slice(const char* name, std::string args) noexcept;
void close_api_slice(hipError_t result) noexcept;

// The observer that times `op` on `stream`'s track; null when the op should
// not be traced. Called only while on().
Ref<OpObserver> observe(Stream& stream, const Op& op);

// While one lives on this thread, ops submitted by it are nodes of one graph
// launch: they get no flow of their own, and one "graph launch" slice spans
// them on the stream's track, with the flow from the launching call.
class GraphLaunchScope {
 public:
  GraphLaunchScope(Stream& stream, size_t nodes, size_t steps);
  ~GraphLaunchScope();
  GraphLaunchScope(const GraphLaunchScope&) = delete;
  GraphLaunchScope& operator=(const GraphLaunchScope&) = delete;
};

// hipProfilerStart / hipProfilerStop: open and close the recording window. The
// first Start discards what was recorded before it (the implicit window from
// process start), unless a Stop already wrote it. Stop appends everything
// recorded so far to the file. Both succeed (and do nothing) without WEFT_TRACE.
void profiler_start();
void profiler_stop();

}  // namespace weft::trace
