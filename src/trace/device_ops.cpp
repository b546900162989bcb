// SPDX-License-Identifier: MIT
// Device slices: each op submitted to a stream while tracing is timed by its
// queue (OpObserver) and becomes an "X" event on the stream's track, with a flow
// from the API slice that submitted it. Graph launches add one slice around
// their nodes.
#include "runtime/runtime.hpp"
#include "runtime/stream.hpp"
#include "trace/session.hpp"
#include "trace/trace.hpp"

#include <fmt/format.h>

#include <iterator>
#include <limits>
#include <unordered_set>

namespace weft::trace {

namespace {

uint32_t track_of(const Stream& stream) {
  return kTrackTidBase + static_cast<uint32_t>(stream.id());
}

// Names the stream's track the first time this thread traces an op on it
// (name_track drops repeats from other threads).
void name_stream_track(const Stream& stream) {
  thread_local std::unordered_set<uint64_t> named;
  if (named.contains(stream.id())) return;
  if (named.size() > 4096) named.clear();  // bound it; repeats are dropped by name_track
  named.insert(stream.id());
  const DeviceState& device = stream.device();
  std::string which = stream.kind() == Stream::Kind::kNull ? std::string("null stream")
                    : stream.kind() == Stream::Kind::kPerThread
                        ? fmt::format("per-thread stream {}", fmt::ptr(&stream))
                        : fmt::format("stream {}", fmt::ptr(&stream));
  AgentKind kind = device.driver_device().kind();
  const char* agent = kind == AgentKind::kCpu ? "CPU agent"
                    : kind == AgentKind::kGpu ? "GPU agent"
                                              : "NPU agent";
  name_track(
      track_of(stream), 1000 + static_cast<int>(stream.id()),
      fmt::format("{} (device {}: {}) / {}", agent, device.ordinal(), device.props().name, which));
}

const char* direction_name(CopyDirection d) {
  switch (d) {
    case CopyDirection::kHostToHost: return "HtoH";
    case CopyDirection::kHostToDevice: return "HtoD";
    case CopyDirection::kDeviceToHost: return "DtoH";
    case CopyDirection::kDeviceToDevice: return "DtoD";
  }
  return "?";
}

std::string dims_text(const dim3& d) { return fmt::format("[{},{},{}]", d.x, d.y, d.z); }

// What the record says about the op: its name, category and arguments.
void describe(const Op& op, Record& r) {
  auto out = std::back_inserter(r.args);
  if (auto* k = std::get_if<DispatchOp>(&op)) {
    r.category = "kernel";
    r.name = k->host_kernel ? k->host_kernel->name()
           : k->kernel      ? k->kernel->info().name
                            : "<kernel>";
    fmt::format_to(out, "\"grid\":{},\"block\":{},\"dynamic_shared_bytes\":{},\"cooperative\":{}",
                   dims_text(k->dims.grid), dims_text(k->dims.block), k->dims.dynamic_shared_bytes,
                   k->cooperative);
  } else if (auto* c = std::get_if<CopyOp>(&op)) {
    r.category = "copy";
    r.name = fmt::format("copy {}", direction_name(c->direction));
    r.bytes = uint64_t(c->width) * c->height;
    fmt::format_to(out, "\"kind\":\"{}\",\"dst\":\"{}\",\"src\":\"{}\"",
                   direction_name(c->direction), fmt::ptr(c->dst), fmt::ptr(c->src));
    if (c->height > 1) fmt::format_to(out, ",\"width\":{},\"height\":{}", c->width, c->height);
  } else if (auto* f = std::get_if<FillOp>(&op)) {
    r.category = "fill";
    r.name = "fill";
    r.bytes = uint64_t(f->width_elements) * f->element_size * f->height;
    fmt::format_to(out, "\"dst\":\"{}\",\"value\":{},\"element_size\":{}", fmt::ptr(f->dst),
                   f->value, unsigned(f->element_size));
  } else if (std::holds_alternative<HostFuncOp>(op)) {
    r.category = "host";
    r.name = "host function";
  } else if (auto* e = std::get_if<EventRecordOp>(&op)) {
    r.category = "event";
    r.name = "event record";
    fmt::format_to(out, "\"event\":\"{}\"", fmt::ptr(e->event.get()));
  } else if (auto* w = std::get_if<EventWaitOp>(&op)) {
    r.category = "event";
    r.name = "event wait";
    fmt::format_to(out, "\"event\":\"{}\"", fmt::ptr(w->event.get()));
  }
}

// Gives a record the flow from the API slice open on this thread, if any.
void attach_flow(Record& r) {
  OpenSpan span = open_span_on_this_thread();
  if (!span.open) return;
  r.epoch = span.epoch;
  r.flow_id = next_flow_id();
  r.flow_tid = this_thread_tid();
  r.flow_ns = op_clock_ns();
}

// One graph launch: a slice just around its nodes' slices (1 ns wider on each
// side, so it nests strictly), written once the last node is done.
class GraphRecord final : public RefCounted {
 public:
  explicit GraphRecord(Record r) : record_(std::move(r)) {}
  void node_started(uint64_t ns) {
    uint64_t seen = begin_.load(std::memory_order_relaxed);
    while (ns < seen && !begin_.compare_exchange_weak(seen, ns, std::memory_order_relaxed)) {
    }
  }
  void node_ended(uint64_t ns) {
    uint64_t seen = end_.load(std::memory_order_relaxed);
    while (ns > seen && !end_.compare_exchange_weak(seen, ns, std::memory_order_relaxed)) {
    }
  }
  // The last reference goes with the last node's observer, after that node ended.
  ~GraphRecord() override {
    uint64_t begin = begin_.load(std::memory_order_acquire),
             end = end_.load(std::memory_order_acquire);
    if (begin == kNone || end == 0) return;  // no node ran (empty graph, failed submit)
    record_.begin_ns = begin - 1;
    record_.end_ns = end + 1;
    push(std::move(record_));
  }

 private:
  static constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();
  Record record_;
  std::atomic<uint64_t> begin_{kNone};
  std::atomic<uint64_t> end_{0};
};

thread_local GraphRecord* t_graph = nullptr;  // the graph launch this thread is submitting

class OpTimer final : public OpObserver {
 public:
  OpTimer(Record r, Ref<GraphRecord> graph) : record_(std::move(r)), graph_(std::move(graph)) {}
  void started(uint64_t ns) noexcept override {
    record_.begin_ns = ns;
    if (graph_) graph_->node_started(ns);
  }
  void ended(uint64_t ns) noexcept override {
    record_.end_ns = ns;
    if (graph_) graph_->node_ended(ns);
    push(std::move(record_));
  }

 private:
  Record record_;
  Ref<GraphRecord> graph_;
};

}  // namespace

Ref<OpObserver> observe(Stream& stream, const Op& op) {
  name_stream_track(stream);
  Record r;
  r.kind = Record::Kind::kDevice;
  r.epoch = current_epoch();
  r.tid = track_of(stream);
  r.queued_ns = op_clock_ns();
  describe(op, r);
  if (t_graph) return Ref<OpObserver>(new OpTimer(std::move(r), Ref<GraphRecord>(t_graph)));
  attach_flow(r);
  return Ref<OpObserver>(new OpTimer(std::move(r), nullptr));
}

GraphLaunchScope::GraphLaunchScope(Stream& stream, size_t nodes, size_t steps) {
  if (!on()) return;
  name_stream_track(stream);
  Record r;
  r.kind = Record::Kind::kDevice;
  r.epoch = current_epoch();
  r.tid = track_of(stream);
  r.queued_ns = op_clock_ns();
  r.category = "graph";
  r.name = "graph launch";
  r.args = fmt::format("\"nodes\":{},\"steps\":{}", nodes, steps);
  attach_flow(r);
  t_graph = new GraphRecord(std::move(r));
  t_graph->retain();  // the scope's reference; the nodes' observers hold theirs
}

GraphLaunchScope::~GraphLaunchScope() {
  if (!t_graph) return;
  GraphRecord* graph = std::exchange(t_graph, nullptr);
  graph->release();
}

}  // namespace weft::trace
