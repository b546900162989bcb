// SPDX-License-Identifier: MIT
// Stream capture API: begin (into a new or an existing graph), end, status
// queries, dependency updates and the thread's capture interaction mode. The
// rules live in src/graph/capture.hpp.
#include "api/graph_common.hpp"

#include "graph/capture.hpp"

using namespace weft;
using namespace weft::api;
using namespace weft::graph;

namespace {

Status begin(hipStream_t stream, hipStreamCaptureMode mode, DefaultStream default_stream) {
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  return begin_capture(*s, mode, nullptr, {});
}

Status end(hipStream_t stream, hipGraph_t* graph, DefaultStream default_stream) {
  if (!graph) return invalid_value("null output pointer");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  Graph* g = nullptr;
  Status status = end_capture(*s, &g);
  *graph = handle_of(g);
  return status;
}

Status is_capturing(hipStream_t stream, hipStreamCaptureStatus* status,
                    DefaultStream default_stream) {
  if (!status) return invalid_value("null output pointer");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  WEFT_ASSIGN_OR_RETURN(CaptureInfo info, capture_info(*s));
  *status = info.status;
  return Status();
}

Status info_v2(hipStream_t stream, hipStreamCaptureStatus* status, unsigned long long* id,
               hipGraph_t* graph, const hipGraphNode_t** deps, size_t* count,
               DefaultStream default_stream) {
  if (!status) return invalid_value("null status pointer");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  WEFT_ASSIGN_OR_RETURN(CaptureInfo info, capture_info(*s));
  *status = info.status;
  if (info.status == hipStreamCaptureStatusNone) return Status();
  if (id) *id = info.id;
  if (graph) *graph = handle_of(info.graph);
  // GraphNode* and hipGraphNode_t are the same address: the array is shared.
  if (deps) *deps = reinterpret_cast<const hipGraphNode_t*>(info.dependencies);
  if (count) *count = info.dependency_count;
  return Status();
}

}  // namespace

WEFT_EXPORT hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
  return call(
      "hipStreamBeginCapture", [&] { return begin(stream, mode, kLegacy); }, stream, mode);
}

WEFT_EXPORT hipError_t hipStreamBeginCapture_spt(hipStream_t stream, hipStreamCaptureMode mode) {
  return call(
      "hipStreamBeginCapture_spt", [&] { return begin(stream, mode, kPerThread); }, stream, mode);
}

WEFT_EXPORT hipError_t hipStreamBeginCaptureToGraph(hipStream_t stream, hipGraph_t graph,
                                                    const hipGraphNode_t* deps,
                                                    const hipGraphEdgeData* edge_data, size_t count,
                                                    hipStreamCaptureMode mode) {
  return call(
      "hipStreamBeginCaptureToGraph",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(graph));
    WEFT_ASSIGN_OR_RETURN(std::vector<GraphNode*> nodes, nodes_of(deps, count));
    if (edge_data)
      for (size_t i = 0; i < count; ++i)
        if (edge_data[i].from_port || edge_data[i].to_port || edge_data[i].type)
          return invalid_value("only default edges are supported");
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
    return begin_capture(*s, mode, g, nodes);
      },
      stream, graph, deps, edge_data, count, mode);
}

WEFT_EXPORT hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* graph) {
  return call(
      "hipStreamEndCapture", [&] { return end(stream, graph, kLegacy); }, stream, graph);
}

WEFT_EXPORT hipError_t hipStreamEndCapture_spt(hipStream_t stream, hipGraph_t* graph) {
  return call(
      "hipStreamEndCapture_spt", [&] { return end(stream, graph, kPerThread); }, stream, graph);
}

WEFT_EXPORT hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* status) {
  return call(
      "hipStreamIsCapturing", [&] { return is_capturing(stream, status, kLegacy); }, stream,
      status);
}

WEFT_EXPORT hipError_t hipStreamIsCapturing_spt(hipStream_t stream,
                                                hipStreamCaptureStatus* status) {
  return call(
      "hipStreamIsCapturing_spt", [&] { return is_capturing(stream, status, kPerThread); }, stream,
      status);
}

WEFT_EXPORT hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus* status,
                                               unsigned long long* id) {
  return call(
      "hipStreamGetCaptureInfo",
      [&] { return info_v2(stream, status, id, nullptr, nullptr, nullptr, kLegacy); }, stream,
      status, id);
}

WEFT_EXPORT hipError_t hipStreamGetCaptureInfo_spt(hipStream_t stream,
                                                   hipStreamCaptureStatus* status,
                                                   unsigned long long* id) {
  return call(
      "hipStreamGetCaptureInfo_spt",
      [&] { return info_v2(stream, status, id, nullptr, nullptr, nullptr, kPerThread); }, stream,
      status, id);
}

WEFT_EXPORT hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream,
                                                  hipStreamCaptureStatus* status,
                                                  unsigned long long* id, hipGraph_t* graph,
                                                  const hipGraphNode_t** deps, size_t* count) {
  return call(
      "hipStreamGetCaptureInfo_v2",
      [&] { return info_v2(stream, status, id, graph, deps, count, kLegacy); }, stream, status, id,
      graph, deps, count);
}

WEFT_EXPORT hipError_t hipStreamGetCaptureInfo_v2_spt(hipStream_t stream,
                                                      hipStreamCaptureStatus* status,
                                                      unsigned long long* id, hipGraph_t* graph,
                                                      const hipGraphNode_t** deps, size_t* count) {
  return call(
      "hipStreamGetCaptureInfo_v2_spt",
      [&] { return info_v2(stream, status, id, graph, deps, count, kPerThread); }, stream, status,
      id, graph, deps, count);
}

WEFT_EXPORT hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream, hipGraphNode_t* deps,
                                                          size_t count, unsigned int flags) {
  return call(
      "hipStreamUpdateCaptureDependencies",
      [&] {
    WEFT_ASSIGN_OR_RETURN(std::vector<GraphNode*> nodes, nodes_of(deps, count));
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
    return update_capture_dependencies(*s, nodes, flags);
      },
      stream, deps, count, flags);
}

WEFT_EXPORT hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode* mode) {
  return call(
      "hipThreadExchangeStreamCaptureMode",
      [&] {
    if (!mode) return invalid_value("null mode pointer");
    const int requested = raw_value(*mode);
    if (requested != hipStreamCaptureModeGlobal && requested != hipStreamCaptureModeThreadLocal &&
        requested != hipStreamCaptureModeRelaxed)
      return invalid_value(fmt::format("{} is not a capture mode", requested));
    ThreadState& ts = thread_state();
    int previous = ts.capture_mode;
    ts.capture_mode = requested;
    *mode = static_cast<hipStreamCaptureMode>(previous);
    return Status();
      },
      mode);
}
