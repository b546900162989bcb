// SPDX-License-Identifier: MIT
#include "graph/exec.hpp"

#include "graph/capture.hpp"
#include "graph/handles.hpp"
#include "graph/user_object.hpp"
#include "runtime/runtime.hpp"
#include "util/log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

namespace weft::graph {

// What a plan keeps alive until its last replay finished: graph memory and
// user-object references. Replays hold it through the plan's final step.
struct GraphExec::KeepAlive {
  std::vector<Ref<AllocBlock>> blocks;
  std::vector<std::pair<UserObject*, unsigned>> user_objects;
  ~KeepAlive() {
    for (auto& [object, count] : user_objects) object->release(count);
  }
};

namespace {

using StepList = std::vector<uint32_t>;

void merge(StepList& into, const StepList& more) {
  into.insert(into.end(), more.begin(), more.end());
  std::sort(into.begin(), into.end());
  into.erase(std::unique(into.begin(), into.end()), into.end());
}

struct Lowering {
  std::vector<Op>& steps;
  std::vector<StepList>& deps;  // per step: the steps it must follow
};

// Learns each node's step range (the top level of a plan only).
using OnNode = std::function<void(const GraphNode&, uint32_t first, uint32_t count)>;

// Appends the ops of `graph` in a topological order; every root follows
// `entry`. Returns the steps the graph's leaves end with.
Result<StepList> lower_graph(const Graph& graph, const StepList& entry, Lowering& out,
                             const OnNode* on_node) {
  WEFT_ASSIGN_OR_RETURN(auto order, graph.topological_order());
  std::vector<StepList> exits(graph.nodes().size());
  StepList graph_exits;
  for (const GraphNode* node : order) {
    StepList in;
    if (node->deps().empty()) in = entry;
    for (const GraphNode* d : node->deps()) merge(in, exits[d->index()]);
    uint32_t first = static_cast<uint32_t>(out.steps.size());
    if (node->type() == hipGraphNodeTypeGraph) {
      WEFT_ASSIGN_OR_RETURN(exits[node->index()],
                            lower_graph(*node->as<ChildData>().graph, in, out, nullptr));
    } else if (node->ops().empty()) {
      exits[node->index()] = in;  // empty and memory nodes pass their dependencies on
    } else {
      for (const Op& op : node->ops()) {
        out.steps.push_back(op);
        out.deps.push_back(in);
        in.assign(1, static_cast<uint32_t>(out.steps.size() - 1));
      }
      exits[node->index()] = in;
    }
    if (on_node) (*on_node)(*node, first, static_cast<uint32_t>(out.steps.size()) - first);
    if (node->dependents().empty()) merge(graph_exits, exits[node->index()]);
  }
  return graph_exits;
}

void collect_keepalive(const Graph& graph, std::vector<Ref<AllocBlock>>& blocks,
                       std::vector<std::pair<UserObject*, unsigned>>& objects) {
  for (auto& [object, count] : graph.user_objects()) {
    object->retain(count);
    objects.emplace_back(object, count);
  }
  for (const auto& node : graph.nodes()) {
    if (auto* a = std::get_if<AllocData>(&node->data())) blocks.push_back(a->block);
    if (auto* c = std::get_if<ChildData>(&node->data()))
      collect_keepalive(*c->graph, blocks, objects);
  }
}

// Checks that every node runs on the plan's device.
Status check_devices(const Graph& graph, DeviceState& device, const GraphNode*& bad) {
  for (const auto& node : graph.nodes()) {
    int ordinal = -1;
    if (auto* k = std::get_if<KernelData>(&node->data())) ordinal = k->device;
    if (auto* e = std::get_if<EventData>(&node->data())) ordinal = e->event->device().ordinal();
    if (auto* c = std::get_if<ChildData>(&node->data()))
      WEFT_RETURN_IF_ERROR(check_devices(*c->graph, device, bad));
    if (ordinal >= 0 && ordinal != device.ordinal()) {
      bad = node.get();
      return Status(hipErrorInvalidValue,
                    fmt::format("the graph uses devices {} and {}; weft runs a graph on one device",
                                device.ordinal(), ordinal));
    }
  }
  return Status();
}

bool same_dims(const LaunchDims& a, const LaunchDims& b) {
  return a.grid.x == b.grid.x && a.grid.y == b.grid.y && a.grid.z == b.grid.z &&
         a.block.x == b.block.x && a.block.y == b.block.y && a.block.z == b.block.z &&
         a.dynamic_shared_bytes == b.dynamic_shared_bytes;
}

// Whether two ops do exactly the same work (so an update can skip them).
bool same_op(const Op& a, const Op& b) {
  if (a.index() != b.index()) return false;
  if (auto* x = std::get_if<DispatchOp>(&a)) {
    auto& y = std::get<DispatchOp>(b);
    return x->host_kernel == y.host_kernel && x->kernel == y.kernel && same_dims(x->dims, y.dims) &&
           x->kernarg == y.kernarg;
  }
  if (auto* x = std::get_if<CopyOp>(&a)) {
    auto& y = std::get<CopyOp>(b);
    return x->dst == y.dst && x->src == y.src && x->width == y.width && x->height == y.height &&
           x->dst_pitch == y.dst_pitch && x->src_pitch == y.src_pitch &&
           x->direction == y.direction;
  }
  if (auto* x = std::get_if<FillOp>(&a)) {
    auto& y = std::get<FillOp>(b);
    return x->dst == y.dst && x->value == y.value && x->element_size == y.element_size &&
           x->width_elements == y.width_elements && x->height == y.height && x->pitch == y.pitch;
  }
  if (auto* x = std::get_if<EventRecordOp>(&a)) return x->event == std::get<EventRecordOp>(b).event;
  if (auto* x = std::get_if<EventWaitOp>(&a)) return x->event == std::get<EventWaitOp>(b).event;
  return false;  // host functions cannot be compared; the caller compares their params
}

Result<std::vector<Op>> lower_child(const Graph& child) {
  std::vector<Op> steps;
  std::vector<StepList> deps;
  Lowering out{steps, deps};
  WEFT_RETURN_IF_ERROR(lower_graph(child, {}, out, nullptr).status());
  return steps;
}

}  // namespace

Ref<GraphExec> GraphExec::instantiate(const Graph& graph, unsigned long long flags,
                                      DeviceState& device, Failure& failure) {
  Ref<GraphExec> exec(new GraphExec(device, flags));
  Status status = exec->lower(graph, failure);
  if (!status.ok()) {
    failure.status = status;
    return Ref<GraphExec>();
  }
  handles().execs.add(exec.get());
  return exec;
}

GraphExec::~GraphExec() {
  handles().execs.remove(this);
  if (keep_)
    for (auto& block : keep_->blocks) block->execs.fetch_sub(1);
}

Status GraphExec::lower(const Graph& graph, Failure& failure) {
  const GraphNode* bad = nullptr;
  if (Status s = check_devices(graph, device_, bad); !s.ok()) {
    failure.node = bad;
    failure.result = hipGraphInstantiateMultipleDevicesNotSupported;
    return s;
  }
  source_ = graph.clone();
  const auto& nodes = source_->nodes();
  slots_.resize(nodes.size());
  original_slots_.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    original_slots_.emplace(graph.nodes()[i].get(), static_cast<uint32_t>(i));

  std::vector<StepList> deps;
  Lowering out{steps_, deps};
  OnNode on_node = [this](const GraphNode& node, uint32_t first, uint32_t count) {
    slots_[node.index()] = Slot{first, count, true};
  };
  auto lowered = lower_graph(*source_, {}, out, &on_node);
  if (!lowered.ok()) {
    failure.result = hipGraphInstantiateInvalidStructure;
    return lowered.status();
  }

  auto keep = std::make_shared<KeepAlive>();
  collect_keepalive(*source_, keep->blocks, keep->user_objects);
  for (size_t i = 0; i < keep->blocks.size(); ++i) {
    if (keep->blocks[i]->execs.fetch_add(1) != 0) {
      for (size_t j = 0; j <= i; ++j) keep->blocks[j]->execs.fetch_sub(1);
      keep->blocks.clear();
      failure.result = hipGraphInstantiateNodeOperationNotSupported;
      return Status(hipErrorNotSupported,
                    "a graph with memory nodes can be instantiated only once at a time");
    }
  }
  if (!keep->blocks.empty() || !keep->user_objects.empty()) {
    keep_ = keep;
    // The last step holds the memory and user objects until the replay that
    // reaches it is done, even if the plan is destroyed meanwhile.
    HostFuncOp hold{[keep] {}};
    steps_.emplace_back(std::in_place_type<HostFuncOp>, std::move(hold));
    deps.push_back(lowered.value());
  }
  step_enabled_.assign(steps_.size(), 1);

  auto buffer = device_.driver_device().create_command_buffer();
  if (!buffer.ok()) return Status();  // the agent has none: steps are submitted one by one
  Ref<CommandBuffer> b = buffer.value();
  for (size_t i = 0; i < steps_.size(); ++i) {
    Status s = b->record_after(steps_[i], deps[i]);
    if (!s.ok()) {
      log::info("graph plan stays in the runtime: the agent's command buffer refused a step: {}",
                s.message());
      return Status();
    }
  }
  if (Status s = b->finalize(); !s.ok()) {
    log::info("graph plan stays in the runtime: {}", s.message());
    return Status();
  }
  buffer_ = std::move(b);
  return Status();
}

Status GraphExec::launch(Stream& stream) {
  if (auto captured = launch_graph(stream, *source_)) return *captured;
  if (&stream.device() != &device_)
    return Status(hipErrorInvalidValue,
                  fmt::format("the graph was instantiated for device {} but the stream belongs to "
                              "device {}",
                              device_.ordinal(), stream.device().ordinal()));
  if (buffer_) return stream.submit(*buffer_);
  for (size_t i = 0; i < steps_.size(); ++i)
    if (step_enabled_[i]) WEFT_RETURN_IF_ERROR(stream.submit(Op(steps_[i])));
  return Status();
}

Result<uint32_t> GraphExec::slot_of(const GraphNode* node) const {
  if (auto it = original_slots_.find(node); it != original_slots_.end()) return it->second;
  if (auto it = update_slots_.find(node); it != update_slots_.end()) return it->second;
  return Status(hipErrorInvalidValue, "the node is not part of the graph this plan was made from");
}

Status GraphExec::patch_steps(uint32_t first, std::vector<Op>& ops) {
  for (size_t i = 0; i < ops.size(); ++i) {
    size_t step = first + i;
    if (buffer_) {
      Status s = buffer_->update(step, ops[i]);
      if (s.code() == hipErrorNotSupported) {
        log::info("graph plan falls back to per-step submission: {}", s.message());
        buffer_ = Ref<CommandBuffer>();
      } else if (!s.ok()) {
        return s;
      }
    }
    steps_[step] = std::move(ops[i]);
  }
  return Status();
}

Status GraphExec::set_node(uint32_t slot, NodeData data, std::vector<Op> ops) {
  Slot& s = slots_[slot];
  if (ops.size() != s.step_count)
    return Status(hipErrorInvalidValue,
                  fmt::format("the new parameters need {} queue commands where the node had {}; "
                              "that changes the plan's structure",
                              ops.size(), s.step_count));
  GraphNode& node = *source_->nodes()[slot];
  node.data() = std::move(data);
  node.ops() = ops;
  return patch_steps(s.first_step, ops);
}

Status GraphExec::set_child_graph(uint32_t slot, const Graph& child) {
  GraphNode& node = *source_->nodes()[slot];
  ShapeMismatch m = compare_shape(*node.as<ChildData>().graph, child);
  if (m.result != hipGraphExecUpdateSuccess)
    return Status(hipErrorInvalidValue, "the new child graph has a different shape");
  WEFT_ASSIGN_OR_RETURN(std::vector<Op> ops, lower_child(child));
  if (ops.size() != slots_[slot].step_count)
    return Status(hipErrorInvalidValue, "the new child graph needs a different number of commands");
  node.as<ChildData>().graph = child.clone();
  node.as<ChildData>().graph->set_owner(&node);
  return patch_steps(slots_[slot].first_step, ops);
}

Status GraphExec::set_enabled(uint32_t slot, bool enabled) {
  Slot& s = slots_[slot];
  s.enabled = enabled;
  for (uint32_t i = s.first_step; i < s.first_step + s.step_count; ++i) {
    step_enabled_[i] = enabled;
    if (buffer_) {
      Status st = buffer_->set_enabled(i, enabled);
      if (st.code() == hipErrorNotSupported) buffer_ = Ref<CommandBuffer>();
      else WEFT_RETURN_IF_ERROR(st);
    }
  }
  return Status();
}

GraphExec::UpdateResult GraphExec::update_node(uint32_t slot, const GraphNode& next, bool apply) {
  const GraphNode& now = *source_->nodes()[slot];
  auto fail = [&](hipGraphExecUpdateResult result, std::string why) {
    return UpdateResult{Status(hipErrorGraphExecUpdateFailure, std::move(why)), &next, result};
  };
  switch (now.type()) {
    case hipGraphNodeTypeKernel: {
      auto& a = now.as<KernelData>();
      auto& b = next.as<KernelData>();
      if (a.func != b.func || a.device != b.device)
        return fail(hipGraphExecUpdateErrorFunctionChanged, "a kernel node runs another function");
      break;
    }
    case hipGraphNodeTypeMemcpy:
      if (now.ops().size() != next.ops().size() ||
          now.as<CopyData>().params.kind != next.as<CopyData>().params.kind)
        return fail(hipGraphExecUpdateErrorParametersChanged,
                    "a memcpy node changed its direction or its number of slices");
      break;
    case hipGraphNodeTypeMemAlloc:
      if (now.as<AllocData>().block != next.as<AllocData>().block)
        return fail(hipGraphExecUpdateErrorNotSupported, "memory-allocation nodes cannot change");
      return UpdateResult{};
    case hipGraphNodeTypeMemFree:
      if (now.as<FreeData>().ptr != next.as<FreeData>().ptr)
        return fail(hipGraphExecUpdateErrorNotSupported, "memory-free nodes cannot change");
      return UpdateResult{};
    case hipGraphNodeTypeGraph: {
      const Graph& child = *next.as<ChildData>().graph;
      auto ops = lower_child(child);
      if (!ops.ok() || ops.value().size() != slots_[slot].step_count)
        return fail(hipGraphExecUpdateErrorParametersChanged,
                    "a child graph needs a different number of commands");
      if (apply) {
        Status s = set_child_graph(slot, child);
        if (!s.ok()) return UpdateResult{s, &next, hipGraphExecUpdateError};
      }
      return UpdateResult{};
    }
    default:
      break;
  }
  if (!apply) return UpdateResult{};
  bool same = now.ops().size() == next.ops().size();
  for (size_t i = 0; same && i < now.ops().size(); ++i) same = same_op(now.ops()[i], next.ops()[i]);
  if (now.type() == hipGraphNodeTypeHost)
    same = now.as<HostData>().params.fn == next.as<HostData>().params.fn &&
           now.as<HostData>().params.userData == next.as<HostData>().params.userData;
  if (same) return UpdateResult{};
  NodeData data = next.data();
  if (auto* k = std::get_if<KernelData>(&data)) k->arg_addresses.clear();
  Status s = set_node(slot, std::move(data), next.ops());
  if (!s.ok()) return UpdateResult{s, &next, hipGraphExecUpdateError};
  return UpdateResult{};
}

GraphExec::UpdateResult GraphExec::update(const Graph& graph) {
  ShapeMismatch m = compare_shape(*source_, graph);
  if (m.result != hipGraphExecUpdateSuccess)
    return UpdateResult{Status(hipErrorGraphExecUpdateFailure,
                               "the graph's nodes or edges differ from the plan's"),
                        m.node, m.result};
  const auto& nodes = graph.nodes();
  // Check every node first so a failed update leaves the plan untouched.
  for (size_t i = 0; i < nodes.size(); ++i) {
    UpdateResult r = update_node(static_cast<uint32_t>(i), *nodes[i], false);
    if (!r.status.ok()) return r;
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    UpdateResult r = update_node(static_cast<uint32_t>(i), *nodes[i], true);
    if (!r.status.ok()) return r;
  }
  update_slots_.clear();
  for (size_t i = 0; i < nodes.size(); ++i)
    update_slots_.emplace(nodes[i].get(), static_cast<uint32_t>(i));
  return UpdateResult{};
}

}  // namespace weft::graph
