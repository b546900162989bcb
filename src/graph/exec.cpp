// SPDX-License-Identifier: MIT
#include "graph/exec.hpp"

#include "graph/capture.hpp"
#include "graph/handles.hpp"
#include "graph/user_object.hpp"
#include "runtime/runtime.hpp"
#include "trace/trace.hpp"

#include <weft/common/log.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <span>

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

// The plan being built: steps, and per step the steps it must follow (flat:
// step i's are deps[dep_begin[i] .. dep_begin[i + 1])).
struct Lowering {
  explicit Lowering(std::vector<Op>& s) : steps(s) {}
  std::vector<Op>& steps;
  std::vector<uint32_t> dep_begin{0};
  std::vector<uint32_t> deps;

  void add(const Op& op, const StepList& after) {
    steps.push_back(op);
    deps.insert(deps.end(), after.begin(), after.end());
    dep_begin.push_back(static_cast<uint32_t>(deps.size()));
  }
  std::span<const uint32_t> deps_of(size_t step) const {
    return {deps.data() + dep_begin[step], deps.data() + dep_begin[step + 1]};
  }
};

// Learns each node's step range (the top level of a plan only).
using OnNode = std::function<void(const GraphNode&, uint32_t first, uint32_t count)>;

// Appends the ops of `graph` in a topological order; every root follows
// `entry`. Returns the steps the graph's leaves end with. Allocates nothing per
// node: each node's exit steps go to one flat array.
Result<StepList> lower_graph(const Graph& graph, const StepList& entry, Lowering& out,
                             const OnNode* on_node) {
  WEFT_ASSIGN_OR_RETURN(auto order, graph.topological_order());
  const size_t count = graph.nodes().size();
  std::vector<uint32_t> exit_begin(count), exit_count(count);
  std::vector<uint32_t> exits;  // node i's exit steps: exits[exit_begin[i] ..][.. exit_count[i]]
  exits.reserve(count);
  StepList in, graph_exits;
  for (const GraphNode* node : order) {
    const auto& deps = node->deps();
    in.clear();
    if (deps.empty()) {
      in = entry;
    } else {
      for (const GraphNode* d : deps) {
        auto first = exits.begin() + exit_begin[d->index()];
        in.insert(in.end(), first, first + exit_count[d->index()]);
      }
      if (deps.size() > 1) {
        std::sort(in.begin(), in.end());
        in.erase(std::unique(in.begin(), in.end()), in.end());
      }
    }
    uint32_t first = static_cast<uint32_t>(out.steps.size());
    if (node->type() == hipGraphNodeTypeGraph) {
      WEFT_ASSIGN_OR_RETURN(in, lower_graph(*node->as<ChildData>().graph, in, out, nullptr));
    } else {
      // Empty and memory nodes (no ops) pass their dependencies on.
      for (const Op& op : node->ops()) {
        out.add(op, in);
        in.assign(1, static_cast<uint32_t>(out.steps.size() - 1));
      }
    }
    exit_begin[node->index()] = static_cast<uint32_t>(exits.size());
    exit_count[node->index()] = static_cast<uint32_t>(in.size());
    exits.insert(exits.end(), in.begin(), in.end());
    if (on_node) (*on_node)(*node, first, static_cast<uint32_t>(out.steps.size()) - first);
    if (node->dependents().empty()) graph_exits.insert(graph_exits.end(), in.begin(), in.end());
  }
  std::sort(graph_exits.begin(), graph_exits.end());
  graph_exits.erase(std::unique(graph_exits.begin(), graph_exits.end()), graph_exits.end());
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
  Lowering out(steps);
  WEFT_RETURN_IF_ERROR(lower_graph(child, {}, out, nullptr).status());
  return steps;
}

// The command buffer's update of one step; where the driver cannot patch it
// (hipErrorNotSupported) the plan drops the buffer and submits its steps one by
// one from then on. One named result returned on every path, so the compiler
// builds it in the caller's place (no move of its message: a call of memcpy).
Status update_or_drop(Ref<CommandBuffer>& buffer, size_t step, const Op& op) {
  Status status = buffer->update(step, op);
  if (status.code() == hipErrorNotSupported) [[unlikely]] {
    log::info(log::kCommand, "graph plan falls back to per-step submission: {}", status.message());
    buffer = Ref<CommandBuffer>();
    status = Status();
  }
  return status;
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
  source_ = graph.clone(true);
  const auto& nodes = source_->nodes();
  slots_.resize(nodes.size());
  original_graph_id_ = graph.id();
  original_graph_version_ = graph.version();
  shape_.reserve(nodes.size());
  for (const auto& node : nodes) {
    Shape sh{node->type(), static_cast<uint32_t>(shape_deps_.size()),
             static_cast<uint32_t>(node->deps().size()), -1, nullptr};
    for (const GraphNode* d : node->deps()) shape_deps_.push_back(d->index());
    std::sort(shape_deps_.begin() + sh.dep_begin, shape_deps_.end());
    if (auto* k = std::get_if<KernelData>(&node->data())) {
      sh.device = k->device;
      sh.func = k->func;
    }
    shape_.push_back(sh);
  }

  Lowering out(steps_);
  steps_.reserve(nodes.size() + 1);
  out.dep_begin.reserve(nodes.size() + 2);
  out.deps.reserve(nodes.size());
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
    Op hold(std::in_place_type<HostFuncOp>, HostFuncOp{[keep] {}});
    out.add(hold, lowered.value());
  }
  step_enabled_.assign(steps_.size(), 1);

  auto buffer = device_.driver_device().create_command_buffer();
  if (!buffer.ok()) return Status();  // the agent has none: steps are submitted one by one
  Ref<CommandBuffer> b = buffer.value();
  for (size_t i = 0; i < steps_.size(); ++i) {
    Status s = b->record_after(steps_[i], out.deps_of(i));
    if (!s.ok()) {
      log::info(log::kCommand,
                "graph plan stays in the runtime: the agent's command buffer refused a step: {}",
                s.message());
      return Status();
    }
  }
  if (Status s = b->finalize(); !s.ok()) {
    log::info(log::kCommand, "graph plan stays in the runtime: {}", s.message());
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
  if (buffer_ && !trace::on()) return stream.submit(*buffer_);
  // Tracing times each step, so a traced launch submits them one by one (src/trace).
  trace::GraphLaunchScope traced(stream, source_->nodes().size(), steps_.size());
  for (size_t i = 0; i < steps_.size(); ++i)
    if (step_enabled_[i]) WEFT_RETURN_IF_ERROR(stream.submit(Op(steps_[i])));
  return Status();
}

Result<uint32_t> GraphExec::slot_of(const GraphNode* node) const {
  uint32_t slot = 0;
  if (find_slot(node, slot)) return slot;
  return Status(hipErrorInvalidValue, "the node is not part of the graph this plan was made from");
}

bool GraphExec::find_slot(const GraphNode* node, uint32_t& slot) const {
  // Nodes pair with slots by position while their graph is as it was.
  const Graph& g = node->graph();
  if (node->index() < slots_.size()) {
    if ((g.id() == original_graph_id_ && g.version() == original_graph_version_) ||
        (g.id() == update_graph_id_ && g.version() == update_graph_version_)) {
      slot = node->index();
      return true;
    }
  }
  // The original graph changed since: pair by identity (the plan's copies
  // remember the nodes they were made from).
  if (g.id() == original_graph_id_) {
    if (original_slots_.empty())
      for (const auto& copy : source_->nodes())
        original_slots_.emplace(copy->original(), copy->index());
    if (auto it = original_slots_.find(node); it != original_slots_.end()) {
      slot = it->second;
      return true;
    }
  }
  return false;
}

Status GraphExec::patch_steps(uint32_t first, std::vector<Op>& ops) {
  for (size_t i = 0; i < ops.size(); ++i) {
    size_t step = first + i;
    if (buffer_) {
      Status s = buffer_->update(step, ops[i]);
      if (s.code() == hipErrorNotSupported) {
        log::info(log::kCommand, "graph plan falls back to per-step submission: {}", s.message());
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

Status GraphExec::patch_kernel(uint32_t slot, const LaunchDims& dims, void* const* args,
                               Status (*otherwise)(const void*), const void* context) {
  const Slot& s = slots_[slot];
  std::vector<Op>& node_ops = source_->nodes()[slot]->ops();
  if (s.step_count != 1 || node_ops.size() != 1) [[unlikely]]
    return otherwise(context);
  auto* node_op = std::get_if<DispatchOp>(&node_ops[0]);
  auto* step_op = std::get_if<DispatchOp>(&steps_[s.first_step]);
  if (!node_op || !step_op || !node_op->kernel || node_op->host_kernel ||
      step_op->kernel != node_op->kernel || step_op->host_kernel) [[unlikely]]
    return otherwise(context);
  const KernelInfo& info = step_op->kernel->info();
  const size_t count = info.args.size();
  if (count > 0 && !args) [[unlikely]]
    return otherwise(context);
  // Every argument first: a call that cannot patch changes nothing.
  const size_t room = std::min(node_op->kernarg.size(), step_op->kernarg.size());
  for (size_t i = 0; i < count; ++i)
    if (!args[i] || size_t(info.args[i].offset) + info.args[i].size > room) [[unlikely]]
      return otherwise(context);
  step_op->dims = dims;
  node_op->dims = dims;
  // The step and the node keep the same bytes (the node's are what a later update
  // or a fallback rebuilds from): each argument goes to both.
  std::byte* step_args = step_op->kernarg.data();
  std::byte* node_args = node_op->kernarg.data();
  for (size_t i = 0; i < count; ++i) {
    const size_t at = info.args[i].offset;
    switch (info.args[i].size) {  // most arguments are pointers or scalars
      case 8:
        std::memcpy(step_args + at, args[i], 8);
        std::memcpy(node_args + at, args[i], 8);
        break;
      case 4:
        std::memcpy(step_args + at, args[i], 4);
        std::memcpy(node_args + at, args[i], 4);
        break;
      default:
        std::memmove(step_args + at, args[i], info.args[i].size);
        std::memmove(node_args + at, step_args + at, info.args[i].size);
        break;
    }
  }
  if (!buffer_) return Status();
  return update_or_drop(buffer_, s.first_step, steps_[s.first_step]);
}

Status GraphExec::set_child_graph(uint32_t slot, const Graph& child) {
  GraphNode& node = *source_->nodes()[slot];
  ShapeMismatch m = compare_shape(*node.as<ChildData>().graph, child);
  if (m.result != hipGraphExecUpdateSuccess)
    return Status(hipErrorInvalidValue, "the new child graph has a different shape");
  WEFT_ASSIGN_OR_RETURN(std::vector<Op> ops, lower_child(child));
  if (ops.size() != slots_[slot].step_count)
    return Status(hipErrorInvalidValue, "the new child graph needs a different number of commands");
  node.as<ChildData>().graph = child.clone(true);
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

GraphExec::UpdateResult GraphExec::check_node(uint32_t slot, const GraphNode& next,
                                              bool& changed) const {
  const Shape& sh = shape_[slot];
  const Slot& steps = slots_[slot];
  auto fail = [&](hipGraphExecUpdateResult result, std::string why) {
    return UpdateResult{Status(hipErrorGraphExecUpdateFailure, std::move(why)), &next, result};
  };
  changed = false;
  // Shape: the node's type and its dependencies, by position.
  if (next.type() != sh.type)
    return fail(hipGraphExecUpdateErrorNodeTypeChanged, "a node changed its type");
  const auto& deps = next.deps();
  bool same_deps = deps.size() == sh.dep_count;
  if (same_deps && sh.dep_count == 1) {
    same_deps = deps[0]->index() == shape_deps_[sh.dep_begin];
  } else if (same_deps && sh.dep_count > 1) {
    std::vector<uint32_t> indices;
    for (const GraphNode* d : deps) indices.push_back(d->index());
    std::sort(indices.begin(), indices.end());
    same_deps = std::equal(indices.begin(), indices.end(), shape_deps_.begin() + sh.dep_begin);
  }
  if (!same_deps)
    return fail(hipGraphExecUpdateErrorTopologyChanged, "a node's dependencies changed");
  // Parameters: what may change, and whether anything did.
  switch (sh.type) {
    case hipGraphNodeTypeKernel: {
      auto& k = next.as<KernelData>();
      if (k.func != sh.func || k.device != sh.device)
        return fail(hipGraphExecUpdateErrorFunctionChanged, "a kernel node runs another function");
      break;
    }
    case hipGraphNodeTypeMemcpy:
      if (next.ops().size() != steps.step_count)
        return fail(hipGraphExecUpdateErrorParametersChanged,
                    "a memcpy node changed its number of slices");
      for (uint32_t i = 0; i < steps.step_count; ++i)
        if (std::get<CopyOp>(steps_[steps.first_step + i]).direction !=
            std::get<CopyOp>(next.ops()[i]).direction)
          return fail(hipGraphExecUpdateErrorParametersChanged,
                      "a memcpy node changed its direction");
      break;
    case hipGraphNodeTypeMemAlloc:
      if (source_->nodes()[slot]->as<AllocData>().block != next.as<AllocData>().block)
        return fail(hipGraphExecUpdateErrorNotSupported, "memory-allocation nodes cannot change");
      return UpdateResult{};
    case hipGraphNodeTypeMemFree:
      if (source_->nodes()[slot]->as<FreeData>().ptr != next.as<FreeData>().ptr)
        return fail(hipGraphExecUpdateErrorNotSupported, "memory-free nodes cannot change");
      return UpdateResult{};
    case hipGraphNodeTypeGraph: {
      const Graph& child = *next.as<ChildData>().graph;
      ShapeMismatch inner = compare_shape(*source_->nodes()[slot]->as<ChildData>().graph, child);
      if (inner.result != hipGraphExecUpdateSuccess)
        return fail(inner.result, "a child graph changed its shape");
      auto ops = lower_child(child);
      if (!ops.ok() || ops.value().size() != steps.step_count)
        return fail(hipGraphExecUpdateErrorParametersChanged,
                    "a child graph needs a different number of commands");
      changed = true;
      return UpdateResult{};
    }
    case hipGraphNodeTypeHost: {
      auto& now = source_->nodes()[slot]->as<HostData>().params;
      changed = now.fn != next.as<HostData>().params.fn ||
                now.userData != next.as<HostData>().params.userData;
      return UpdateResult{};
    }
    default: break;
  }
  changed = next.ops().size() != steps.step_count;
  for (uint32_t i = 0; !changed && i < steps.step_count; ++i)
    changed = !same_op(steps_[steps.first_step + i], next.ops()[i]);
  return UpdateResult{};
}

Status GraphExec::apply_node(uint32_t slot, const GraphNode& next) {
  if (next.type() == hipGraphNodeTypeGraph)
    return set_child_graph(slot, *next.as<ChildData>().graph);
  NodeData data = next.data();
  if (auto* k = std::get_if<KernelData>(&data)) k->arg_addresses.clear();
  return set_node(slot, std::move(data), next.ops());
}

GraphExec::UpdateResult GraphExec::update(const Graph& graph) {
  const auto& nodes = graph.nodes();
  if (nodes.size() != slots_.size())
    return UpdateResult{
        Status(hipErrorGraphExecUpdateFailure,
               fmt::format("the graph has {} nodes; the plan has {}", nodes.size(), slots_.size())),
        nodes.size() > slots_.size() ? nodes[slots_.size()].get() : nullptr,
        hipGraphExecUpdateErrorTopologyChanged};
  // Check every node before changing any, so a failed update leaves the plan
  // untouched; then patch only the nodes that changed.
  std::vector<uint32_t> changed;
  for (size_t i = 0; i < nodes.size(); ++i) {
    bool differs = false;
    UpdateResult r = check_node(static_cast<uint32_t>(i), *nodes[i], differs);
    if (!r.status.ok()) return r;
    if (differs) changed.push_back(static_cast<uint32_t>(i));
  }
  for (uint32_t slot : changed) {
    Status s = apply_node(slot, *nodes[slot]);
    if (!s.ok()) return UpdateResult{s, nodes[slot].get(), hipGraphExecUpdateError};
  }
  update_graph_id_ = graph.id();
  update_graph_version_ = graph.version();
  return UpdateResult{};
}

}  // namespace weft::graph
