// SPDX-License-Identifier: MIT
#include "graph/capture.hpp"

#include "graph/nodes.hpp"
#include "runtime/runtime.hpp"
#include "runtime/thread_state.hpp"

#include <weft/common/log.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace weft::graph {

namespace {

// One capture sequence: the origin stream plus every stream that joined it.
struct Session {
  unsigned long long id = 0;
  hipStreamCaptureMode mode = hipStreamCaptureModeGlobal;
  std::thread::id owner;
  DeviceState* device = nullptr;
  Ref<Graph> graph;
  bool into_user_graph = false;  // hipStreamBeginCaptureToGraph
  const Stream* origin = nullptr;
  bool invalidated = false;
};

struct StreamCapture {
  Ref<Stream> stream;
  std::shared_ptr<Session> session;
  std::vector<GraphNode*> frontier;  // what the stream's next node depends on
  bool captured_work = false;        // the stream added nodes itself
};

// An event whose latest record happened inside a capture.
struct CapturedEvent {
  std::shared_ptr<Session> session;
  std::vector<GraphNode*> nodes;
};

struct State {
  std::mutex mutex;
  std::unordered_map<const Stream*, StreamCapture> streams;
  std::unordered_map<const Event*, CapturedEvent> events;
  std::vector<std::shared_ptr<Session>> sessions;
  std::atomic<unsigned long long> next_id{0};
};

State& state() {
  static State* s = new State();  // leaked: streams may be destroyed during exit
  return *s;
}

// ---- helpers; every one requires state().mutex ----

void invalidate(Session& session, const char* why) {
  if (session.invalidated) return;
  session.invalidated = true;
  log::warning("stream capture {} invalidated: {}", session.id, why);
}

// What ending a capture drops: kept by the caller until the lock is released,
// because dropping the last references runs user code (argument destructors,
// user-object callbacks) and driver calls.
struct Graveyard {
  std::vector<StreamCapture> streams;
  std::shared_ptr<Session> session;
};

void end_session(State& st, const std::shared_ptr<Session>& session, Graveyard& graveyard) {
  graveyard.session = session;
  for (auto it = st.streams.begin(); it != st.streams.end();) {
    if (it->second.session == session) {
      graveyard.streams.push_back(std::move(it->second));
      it = st.streams.erase(it);
      capture_hook::stream_ended_capturing();
    } else {
      ++it;
    }
  }
  std::erase_if(st.events, [&](const auto& e) { return e.second.session == session; });
  std::erase(st.sessions, session);
}

StreamCapture* find(State& st, const Stream& s) {
  auto it = st.streams.find(&s);
  return it == st.streams.end() ? nullptr : &it->second;
}

void join(StreamCapture& sc, const std::vector<GraphNode*>& nodes) {
  for (GraphNode* n : nodes)
    if (std::find(sc.frontier.begin(), sc.frontier.end(), n) == sc.frontier.end())
      sc.frontier.push_back(n);
}

// Captures that a potentially unsafe call of this thread conflicts with.
std::vector<Session*> conflicting(State& st) {
  std::vector<Session*> out;
  auto mode = static_cast<hipStreamCaptureMode>(thread_state().capture_mode);
  if (mode == hipStreamCaptureModeRelaxed) return out;
  const auto me = std::this_thread::get_id();
  for (auto& s : st.sessions) {
    bool mine = s->owner == me && s->mode != hipStreamCaptureModeRelaxed;
    bool global = mode == hipStreamCaptureModeGlobal && s->owner != me &&
                  s->mode == hipStreamCaptureModeGlobal;
    if (mine || global) out.push_back(s.get());
  }
  return out;
}

// Captures of blocking streams on `device` (what the legacy stream would wait for).
std::vector<Session*> blocking_captures(State& st, const DeviceState& device) {
  std::vector<Session*> out;
  for (auto& [stream, sc] : st.streams)
    if (&stream->device() == &device && stream->blocking() &&
        std::find(out.begin(), out.end(), sc.session.get()) == out.end())
      out.push_back(sc.session.get());
  return out;
}

Status legacy_conflict(State& st, Stream& legacy, const char* what) {
  auto sessions = blocking_captures(st, legacy.device());
  if (sessions.empty()) return Status();
  for (Session* s : sessions) invalidate(*s, what);
  return Status(hipErrorStreamCaptureImplicit,
                fmt::format("{} on the legacy stream would wait for a blocking stream that is "
                            "capturing; the capture is invalidated",
                            what));
}

Status unsafe_conflict(State& st, const char* what) {
  auto sessions = conflicting(st);
  if (sessions.empty()) return Status();
  for (Session* s : sessions) invalidate(*s, what);
  return Status(hipErrorStreamCaptureUnsupported,
                fmt::format("{} is not allowed while a stream captures (capture mode {}); "
                            "the capture is invalidated",
                            what, thread_state().capture_mode));
}

Status record_node(StreamCapture& sc, Op& op) {
  Session& session = *sc.session;
  int device = sc.stream->device().ordinal();
  hipGraphNodeType type = node_type_of(op);
  NodeData data = node_data_of(op, device);
  std::vector<Op> ops;
  ops.push_back(std::move(op));
  WEFT_ASSIGN_OR_RETURN(GraphNode * node,
                        session.graph->add(type, std::move(data), std::move(ops), sc.frontier));
  sc.frontier.assign(1, node);
  sc.captured_work = true;
  return Status();
}

Status add_node(StreamCapture& sc, hipGraphNodeType type, NodeData data, std::vector<Op> ops = {}) {
  WEFT_ASSIGN_OR_RETURN(GraphNode * node,
                        sc.session->graph->add(type, std::move(data), std::move(ops), sc.frontier));
  sc.frontier.assign(1, node);
  sc.captured_work = true;
  return Status();
}

std::optional<Status> wait_in_capture(State& st, StreamCapture& sc, const Event& event) {
  auto it = st.events.find(&event);
  if (it != st.events.end()) {
    if (it->second.session != sc.session) {
      invalidate(*sc.session, "waited on an event of another capture");
      invalidate(*it->second.session, "another capture waited on its event");
      return Status(hipErrorStreamCaptureMerge, "the event was recorded in another capture");
    }
    join(sc, it->second.nodes);
    return Status();
  }
  return std::nullopt;
}

// Streams of the session that captured work the origin never waited for.
bool unjoined(const State& st, const Session& session) {
  const StreamCapture* origin = nullptr;
  for (auto& [s, sc] : st.streams)
    if (sc.session.get() == &session && s == session.origin) origin = &sc;
  if (!origin) return false;
  std::unordered_set<const GraphNode*> reached(origin->frontier.begin(), origin->frontier.end());
  std::vector<const GraphNode*> work(origin->frontier.begin(), origin->frontier.end());
  while (!work.empty()) {
    const GraphNode* n = work.back();
    work.pop_back();
    for (const GraphNode* d : n->deps())
      if (reached.insert(d).second) work.push_back(d);
  }
  for (auto& [s, sc] : st.streams) {
    if (sc.session.get() != &session || s == session.origin || !sc.captured_work) continue;
    for (const GraphNode* n : sc.frontier)
      if (!reached.count(n)) return true;
  }
  return false;
}

}  // namespace

// ---- hooks ----

namespace {

// Stream::submit's sink: records `op` into the stream's capture (the returned
// status is the submit's result), or applies the legacy-stream rule, or returns
// nullopt when the op should run normally.
std::optional<Status> intercept(Stream& stream, Op& op) {
  State& st = state();
  std::lock_guard lock(st.mutex);
  if (StreamCapture* sc = find(st, stream)) {
    if (sc->session->invalidated)
      return Status(hipErrorStreamCaptureInvalidated,
                    "the stream's capture was invalidated; end it with hipStreamEndCapture");
    if (auto* record = std::get_if<EventRecordOp>(&op)) {
      st.events[record->event.get()] = CapturedEvent{sc->session, sc->frontier};
      return Status();
    }
    if (auto* wait = std::get_if<EventWaitOp>(&op)) {
      if (auto joined = wait_in_capture(st, *sc, *wait->event)) return joined;
      // An event recorded outside the capture would be a dependency across its
      // boundary; one never recorded has nothing to wait for.
      if (!wait->event->ever_recorded()) return Status();
      invalidate(*sc->session, "waited on an event recorded outside the capture");
      return Status(hipErrorStreamCaptureIsolation,
                    "a capturing stream cannot wait on an event recorded outside the capture "
                    "(use hipEventWaitExternal)");
    }
    return record_node(*sc, op);
  }
  if (auto* record = std::get_if<EventRecordOp>(&op)) {
    st.events.erase(record->event.get());  // its latest record is no longer captured
  } else if (auto* wait = std::get_if<EventWaitOp>(&op)) {
    auto it = st.events.find(wait->event.get());
    if (it != st.events.end()) {
      if (stream.kind() == Stream::Kind::kNull) {
        invalidate(*it->second.session, "the legacy stream waited on a captured event");
        return Status(hipErrorStreamCaptureImplicit, "the legacy stream cannot join a capture");
      }
      // Fork: the stream joins the capture after the event's nodes.
      StreamCapture sc{Ref<Stream>(&stream), it->second.session, it->second.nodes, false};
      st.streams.emplace(&stream, std::move(sc));
      capture_hook::stream_began_capturing();
      return Status();
    }
  }
  if (stream.kind() == Stream::Kind::kNull) {
    Status conflict = legacy_conflict(st, stream, "work");
    if (!conflict.ok()) return conflict;
  }
  return std::nullopt;
}

class StreamCaptureSink final : public CaptureSink {
 public:
  std::optional<Status> intercept(Stream& stream, Op& op) override {
    return graph::intercept(stream, op);
  }
};

// Installed while the library loads, before any stream can submit.
struct SinkRegistration {
  SinkRegistration() {
    static StreamCaptureSink sink;
    capture_hook::install(sink);
  }
} g_sink_registration;

}  // namespace

Status check_sync(Stream& stream, const char* what) {
  if (!capture_active()) return Status();
  State& st = state();
  std::lock_guard lock(st.mutex);
  if (StreamCapture* sc = find(st, stream)) {
    invalidate(*sc->session, what);
    return Status(hipErrorStreamCaptureUnsupported,
                  fmt::format("{} on a capturing stream; the capture is invalidated", what));
  }
  if (stream.kind() == Stream::Kind::kNull) WEFT_RETURN_IF_ERROR(legacy_conflict(st, stream, what));
  return unsafe_conflict(st, what);
}

Status check_unsafe(const char* what) {
  if (!capture_active()) return Status();
  State& st = state();
  std::lock_guard lock(st.mutex);
  return unsafe_conflict(st, what);
}

Status check_device_sync(DeviceState& device) {
  if (!capture_active()) return Status();
  State& st = state();
  std::lock_guard lock(st.mutex);
  bool any = false;
  for (auto& s : st.sessions)
    if (s->device == &device) {
      invalidate(*s, "hipDeviceSynchronize");
      any = true;
    }
  if (!any) return Status();
  return Status(hipErrorStreamCaptureUnsupported,
                "hipDeviceSynchronize while a stream of the device captures; the capture is "
                "invalidated");
}

Status check_event_sync(const Event& event) {
  if (!capture_active()) return Status();
  State& st = state();
  std::lock_guard lock(st.mutex);
  auto it = st.events.find(&event);
  if (it == st.events.end()) return Status();
  invalidate(*it->second.session, "the captured event was synchronized or queried");
  return Status(hipErrorCapturedEvent,
                "the event was last recorded in a capture; the capture is invalidated");
}

Status check_callback(Stream& stream) {
  if (!capture_active()) return Status();
  State& st = state();
  std::lock_guard lock(st.mutex);
  if (StreamCapture* sc = find(st, stream)) {
    invalidate(*sc->session, "hipStreamAddCallback");
    return Status(hipErrorStreamCaptureUnsupported,
                  "hipStreamAddCallback cannot be captured (use hipLaunchHostFunc); the capture is "
                  "invalidated");
  }
  if (stream.kind() == Stream::Kind::kNull)
    return legacy_conflict(st, stream, "hipStreamAddCallback");
  return Status();
}

std::optional<Status> wait_event(Stream& stream, const Ref<CoreEvent>& event, unsigned flags) {
  if (!capture_active()) return std::nullopt;
  State& st = state();
  std::unique_lock lock(st.mutex);
  StreamCapture* sc = find(st, stream);
  if (sc && flags == hipEventWaitExternal && !st.events.count(&event->driver_event())) {
    if (sc->session->invalidated)
      return Status(hipErrorStreamCaptureInvalidated, "the stream's capture was invalidated");
    std::vector<Op> ops;
    ops.emplace_back(std::in_place_type<EventWaitOp>, EventWaitOp{event->driver_event_ref()});
    return add_node(*sc, hipGraphNodeTypeWaitEvent, EventData{event}, std::move(ops));
  }
  lock.unlock();
  // Everything else goes through Stream::submit: the op must reach the capture sink
  // even when the event was never recorded outside a capture.
  Status status = stream.submit(EventWaitOp{event->driver_event_ref()});
  return status;
}

std::optional<Status> malloc_async(Stream& stream, void** ptr, size_t bytes) {
  if (!capture_active()) return std::nullopt;
  State& st = state();
  std::lock_guard lock(st.mutex);
  StreamCapture* sc = find(st, stream);
  if (!sc) return std::nullopt;
  if (sc->session->invalidated)
    return Status(hipErrorStreamCaptureInvalidated, "the stream's capture was invalidated");
  WEFT_ASSIGN_OR_RETURN(Ref<AllocBlock> block, AllocBlock::create(stream.device(), bytes));
  AllocData data;
  data.block = block;
  data.params.bytesize = bytes;
  data.params.poolProps.allocType = hipMemAllocationTypePinned;
  data.params.poolProps.location.type = hipMemLocationTypeDevice;
  data.params.poolProps.location.id = stream.device().ordinal();
  data.params.dptr = block->ptr();
  WEFT_RETURN_IF_ERROR(add_node(*sc, hipGraphNodeTypeMemAlloc, std::move(data)));
  *ptr = block->ptr();
  return Status();
}

std::optional<Status> free_async(Stream& stream, void* ptr) {
  if (!capture_active()) return std::nullopt;
  State& st = state();
  std::lock_guard lock(st.mutex);
  StreamCapture* sc = find(st, stream);
  if (!sc) return std::nullopt;
  if (sc->session->invalidated)
    return Status(hipErrorStreamCaptureInvalidated, "the stream's capture was invalidated");
  bool graph_memory = false;
  for (const auto& node : sc->session->graph->nodes())
    if (auto* a = std::get_if<AllocData>(&node->data()))
      graph_memory = graph_memory || a->block->ptr() == ptr;
  if (!graph_memory)
    return Status(hipErrorNotSupported,
                  "only memory allocated in the same capture can be freed in it");
  return add_node(*sc, hipGraphNodeTypeMemFree, FreeData{ptr});
}

void stream_destroyed(Stream& stream) {
  if (!capture_active()) return;
  State& st = state();
  Graveyard graveyard;
  std::lock_guard lock(st.mutex);
  auto it = st.streams.find(&stream);
  if (it == st.streams.end()) return;
  std::shared_ptr<Session> session = it->second.session;
  if (session->origin == &stream) {
    log::warning("stream capture {} ended: its stream was destroyed", session->id);
    end_session(st, session, graveyard);
    return;
  }
  st.streams.erase(it);
  capture_hook::stream_ended_capturing();
}

std::optional<Status> launch_graph(Stream& stream, const Graph& graph) {
  if (!capture_active()) return std::nullopt;
  State& st = state();
  std::lock_guard lock(st.mutex);
  StreamCapture* sc = find(st, stream);
  if (!sc) {
    if (stream.kind() == Stream::Kind::kNull) {
      Status conflict = legacy_conflict(st, stream, "hipGraphLaunch");
      if (!conflict.ok()) return conflict;
    }
    return std::nullopt;
  }
  if (sc->session->invalidated)
    return Status(hipErrorStreamCaptureInvalidated, "the stream's capture was invalidated");
  return add_node(*sc, hipGraphNodeTypeGraph, ChildData{graph.clone()});
}

// ---- the capture API ----

Status begin_capture(Stream& stream, hipStreamCaptureMode mode, Graph* into,
                     std::span<GraphNode* const> dependencies) {
  if (mode != hipStreamCaptureModeGlobal && mode != hipStreamCaptureModeThreadLocal &&
      mode != hipStreamCaptureModeRelaxed)
    return Status(hipErrorInvalidValue, fmt::format("{} is not a capture mode", int(mode)));
  if (stream.kind() == Stream::Kind::kNull)
    return Status(hipErrorStreamCaptureUnsupported, "the legacy null stream cannot capture");
  for (GraphNode* d : dependencies)
    if (!d || !into || &d->graph() != into)
      return Status(hipErrorInvalidValue, "a dependency is not a node of the target graph");
  State& st = state();
  std::lock_guard lock(st.mutex);
  if (find(st, stream)) return Status(hipErrorIllegalState, "the stream is already capturing");
  auto session = std::make_shared<Session>();
  session->id = ++st.next_id;
  session->mode = mode;
  session->owner = std::this_thread::get_id();
  session->device = &stream.device();
  session->graph = into ? Ref<Graph>(into) : make_ref<Graph>();
  session->into_user_graph = into != nullptr;
  session->origin = &stream;
  st.sessions.push_back(session);
  StreamCapture sc{Ref<Stream>(&stream), session,
                   std::vector<GraphNode*>(dependencies.begin(), dependencies.end()), false};
  st.streams.emplace(&stream, std::move(sc));
  capture_hook::stream_began_capturing();
  return Status();
}

Status end_capture(Stream& stream, Graph** out) {
  State& st = state();
  Graveyard graveyard;
  std::lock_guard lock(st.mutex);
  StreamCapture* sc = find(st, stream);
  if (!sc) return Status(hipErrorIllegalState, "the stream is not capturing");
  std::shared_ptr<Session> session = sc->session;
  if (session->origin != &stream)
    return Status(hipErrorStreamCaptureUnmatched,
                  "the capture must be ended on the stream that began it");
  if (session->mode != hipStreamCaptureModeRelaxed && session->owner != std::this_thread::get_id())
    return Status(hipErrorStreamCaptureWrongThread,
                  "a capture not begun in relaxed mode must end on the thread that began it");
  *out = nullptr;
  if (session->invalidated) {
    end_session(st, session, graveyard);
    return Status(hipErrorStreamCaptureInvalidated,
                  "the capture was invalidated by an earlier call; no graph was made");
  }
  if (unjoined(st, *session)) {
    end_session(st, session, graveyard);
    return Status(hipErrorStreamCaptureUnjoined,
                  "a stream that joined the capture has work the origin stream never waited for");
  }
  Graph* graph = session->graph.get();
  if (!session->into_user_graph) graph->retain();  // the caller's reference
  end_session(st, session, graveyard);
  *out = graph;
  return Status();
}

Result<CaptureInfo> capture_info(Stream& stream) {
  CaptureInfo info;
  if (!capture_active()) return info;
  State& st = state();
  std::lock_guard lock(st.mutex);
  if (StreamCapture* sc = find(st, stream)) {
    info.status =
        sc->session->invalidated ? hipStreamCaptureStatusInvalidated : hipStreamCaptureStatusActive;
    info.id = sc->session->id;
    info.graph = sc->session->graph.get();
    info.dependencies = sc->frontier.data();
    info.dependency_count = sc->frontier.size();
    return info;
  }
  if (stream.kind() == Stream::Kind::kNull && !blocking_captures(st, stream.device()).empty())
    return Status(hipErrorStreamCaptureImplicit,
                  "the legacy stream cannot be queried while a blocking stream captures");
  return info;
}

Status update_capture_dependencies(Stream& stream, std::span<GraphNode* const> nodes,
                                   unsigned flags) {
  if (flags != hipStreamAddCaptureDependencies && flags != hipStreamSetCaptureDependencies)
    return Status(hipErrorInvalidValue, fmt::format("unknown flags {}", flags));
  State& st = state();
  std::lock_guard lock(st.mutex);
  StreamCapture* sc = find(st, stream);
  if (!sc) return Status(hipErrorIllegalState, "the stream is not capturing");
  if (sc->session->invalidated)
    return Status(hipErrorStreamCaptureInvalidated, "the stream's capture was invalidated");
  for (GraphNode* n : nodes)
    if (!n || &n->graph() != sc->session->graph.get())
      return Status(hipErrorInvalidValue, "a node is not part of the graph being captured");
  if (flags == hipStreamSetCaptureDependencies) sc->frontier.clear();
  join(*sc, std::vector<GraphNode*>(nodes.begin(), nodes.end()));
  return Status();
}

}  // namespace weft::graph
