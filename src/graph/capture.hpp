// SPDX-License-Identifier: MIT
// Stream capture: while a stream captures, every op submitted to it becomes a
// graph node instead of work (Stream::submit calls the capture sink this
// module installs, runtime/capture_sink.hpp). Streams join
// a capture by waiting on an event recorded inside it, and must rejoin the
// origin stream before hipStreamEndCapture.
//
// The rules for calls that conflict with a capture (docs/graphs.md):
//  - on a capturing stream, hipStreamSynchronize/Query and hipStreamAddCallback
//    fail with hipErrorStreamCaptureUnsupported and invalidate the capture;
//  - work or synchronization on the legacy null stream while a blocking stream
//    of the device captures fails with hipErrorStreamCaptureImplicit and
//    invalidates those captures;
//  - potentially unsafe calls (hipMalloc, hipFree, synchronous copies, stream
//    synchronization) fail with hipErrorStreamCaptureUnsupported when the
//    calling thread's mode (hipThreadExchangeStreamCaptureMode) forbids them,
//    invalidating the captures that forbid them: the thread's own non-relaxed
//    captures, and in global mode every other thread's global-mode capture;
//  - hipDeviceSynchronize during any capture on the device fails with
//    hipErrorStreamCaptureUnsupported and invalidates those captures;
//  - hipEventSynchronize/Query on an event last recorded in a capture fails
//    with hipErrorCapturedEvent and invalidates that capture.
// All capture state goes away when a capture ends, whatever its outcome.
//
// Thread-safe: one process-wide lock guards all capture state; nothing is
// locked while no stream captures (active() is one relaxed atomic load).
#pragma once

#include "graph/graph.hpp"
#include "runtime/capture_sink.hpp"
#include "runtime/stream.hpp"

#include <hip/hip_runtime_api.h>

#include <atomic>
#include <optional>
#include <span>

namespace weft {
class DeviceState;
class CoreEvent;
}  // namespace weft

namespace weft::graph {

// True while any stream of the process captures.
inline bool capture_active() { return capture_hook::active(); }

// ---- Hooks for the runtime and API (cheap no-ops while nothing captures) ----

// hipStreamSynchronize, hipStreamQuery and the synchronous copy forms on `stream`.
Status check_sync(Stream& stream, const char* what);
// Potentially unsafe calls that touch no stream (hipMalloc, hipFree, ...).
Status check_unsafe(const char* what);
Status check_device_sync(DeviceState& device);
Status check_event_sync(const Event& event);
// hipStreamAddCallback cannot be captured.
Status check_callback(Stream& stream);
// hipStreamWaitEvent: joins, forks and external waits; nullopt when capture is
// not involved.
std::optional<Status> wait_event(Stream& stream, const Ref<CoreEvent>& event, unsigned flags);
// hipMallocAsync / hipFreeAsync on a capturing stream become memory nodes.
std::optional<Status> malloc_async(Stream& stream, void** ptr, size_t bytes);
std::optional<Status> free_async(Stream& stream, void* ptr);
// hipStreamDestroy: the stream leaves its capture (ending it if it is the origin).
void stream_destroyed(Stream& stream);
// hipGraphLaunch on a capturing stream adds the graph as a child-graph node.
std::optional<Status> launch_graph(Stream& stream, const Graph& graph);

// ---- The capture API (src/api/capture.cpp) ----

Status begin_capture(Stream& stream, hipStreamCaptureMode mode, Graph* into,
                     std::span<GraphNode* const> dependencies);
// On success *graph is the captured graph with one reference for the caller.
Status end_capture(Stream& stream, Graph** graph);

struct CaptureInfo {
  hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
  unsigned long long id = 0;
  Graph* graph = nullptr;
  GraphNode* const* dependencies = nullptr;  // valid until the stream's next capture call
  size_t dependency_count = 0;
};
Result<CaptureInfo> capture_info(Stream& stream);
Status update_capture_dependencies(Stream& stream, std::span<GraphNode* const> nodes,
                                   unsigned flags);

}  // namespace weft::graph
