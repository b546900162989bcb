// SPDX-License-Identifier: MIT
// hipGraphExec_t: a graph lowered once into a plan. Instantiation orders the
// nodes topologically (child graphs inlined), copies each node's ready-made
// ops into one step list, and records that list into the agent's
// CommandBuffer when the driver offers one (the CPU agent does: a replay is
// one queue submission). Drivers without one get the steps submitted one by
// one, which is still free of validation and argument packing.
//
// Updates (SetParams, node enable, hipGraphExecUpdate) patch the steps of the
// nodes that changed and forward each patch to the command buffer: the cost is
// linear in what changed, and replays already queued keep what they saw.
//
// Externally synchronized, as HIP specifies for an executable graph; replays
// may run while the host patches the plan.
#pragma once

#include "graph/graph.hpp"
#include "runtime/stream.hpp"

#include <memory>
#include <unordered_map>
#include <vector>

namespace weft {
class DeviceState;
}

namespace weft::graph {

class GraphExec final : public RefCounted {
 public:
  struct Failure {
    Status status;
    const GraphNode* node = nullptr;  // the node of the source graph at fault, if any
    hipGraphInstantiateResult result = hipGraphInstantiateError;
  };
  // `device` is where the plan runs (the agent of its kernels and events).
  static Ref<GraphExec> instantiate(const Graph& graph, unsigned long long flags,
                                    DeviceState& device, Failure& failure);
  ~GraphExec() override;

  unsigned long long flags() const { return flags_; }
  DeviceState& device() const { return device_; }
  size_t step_count() const { return steps_.size(); }
  bool native() const { return bool(buffer_); }

  Status launch(Stream& stream);

  // The top-level node of this plan that `node` (of the graph it was
  // instantiated from, or of the last graph it was updated from) stands for.
  Result<uint32_t> slot_of(const GraphNode* node) const;
  // The same without the error (and its Result): false where slot_of fails.
  bool find_slot(const GraphNode* node, uint32_t& slot) const;
  // The plan's own copy of that node (its current parameters).
  const GraphNode& node(uint32_t slot) const { return *source_->nodes()[slot]; }

  // Replaces a node's parameters and ops; the node keeps its number of ops.
  Status set_node(uint32_t slot, NodeData data, std::vector<Op> ops);
  // The common kernel-node SetParams, without building new ops: the node keeps
  // its code-object kernel and gets new launch dimensions and explicit
  // arguments (`args[i]` points at argument i of the kernel's layout), written
  // over the plan's copies in place and forwarded to the command buffer.
  // Where that does not apply (a node of several ops or a host kernel, an
  // argument missing or outside the packed bytes) nothing changes and the result
  // is `otherwise(context)`'s: the caller's general path (set_node).
  Status patch_kernel(uint32_t slot, const LaunchDims& dims, void* const* args,
                      Status (*otherwise)(const void* context), const void* context);
  Status set_child_graph(uint32_t slot, const Graph& child);
  Status set_enabled(uint32_t slot, bool enabled);
  bool enabled(uint32_t slot) const { return slots_[slot].enabled; }

  // hipGraphExecUpdate: `graph` must have the plan's shape.
  struct UpdateResult {
    Status status;
    const GraphNode* node = nullptr;
    hipGraphExecUpdateResult result = hipGraphExecUpdateSuccess;
  };
  UpdateResult update(const Graph& graph);

 private:
  struct Slot {
    uint32_t first_step = 0;
    uint32_t step_count = 0;
    bool enabled = true;
  };
  struct KeepAlive;
  // The plan's nodes as hipGraphExecUpdate compares them, in flat arrays so an
  // update reads no node of the plan's own graph copy.
  struct Shape {
    hipGraphNodeType type;
    uint32_t dep_begin;  // into shape_deps_ (sorted node indices)
    uint32_t dep_count;
    int device;        // kernel nodes
    const void* func;  // kernel nodes
  };

  GraphExec(DeviceState& device, unsigned long long flags) : device_(device), flags_(flags) {}
  Status lower(const Graph& graph, Failure& failure);
  Status patch_steps(uint32_t first, std::vector<Op>& ops);
  // One node pair of an update: whether it may change and whether it does;
  // then the change itself.
  UpdateResult check_node(uint32_t slot, const GraphNode& next, bool& changed) const;
  Status apply_node(uint32_t slot, const GraphNode& next);

  DeviceState& device_;
  const unsigned long long flags_;
  Ref<Graph> source_;         // copy of the graph, kept at the current parameters
  std::vector<Slot> slots_;   // by node index of source_
  std::vector<Shape> shape_;  // by node index of source_
  std::vector<uint32_t> shape_deps_;
  std::vector<Op> steps_;  // the plan, in a topological order
  std::vector<uint8_t> step_enabled_;
  Ref<CommandBuffer> buffer_;       // the driver's recorded copy of steps_, if any
  uint64_t original_graph_id_ = 0;  // the graph it was instantiated from
  uint64_t original_graph_version_ = 0;
  mutable std::unordered_map<const GraphNode*, uint32_t> original_slots_;  // built on demand
  // The graph of the last hipGraphExecUpdate: its nodes pair with slots by
  // position, as long as its structure is unchanged (id and version).
  uint64_t update_graph_id_ = 0;
  uint64_t update_graph_version_ = 0;
  std::shared_ptr<KeepAlive> keep_;  // graph memory and user objects, until the last replay
};

}  // namespace weft::graph
