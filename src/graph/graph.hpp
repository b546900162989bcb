// SPDX-License-Identifier: MIT
// The graph model behind the explicit graph API, stream capture and
// instantiation: a DAG of typed nodes. Each node keeps the parameters HIP
// reports back (hipGraph*NodeGetParams) and the ops that perform it, already
// validated and packed, so lowering a graph into a plan copies ops and never
// looks at user parameters again.
//
// Ownership: a Graph owns its nodes; a child-graph node owns its embedded
// graph. User handles hold one reference each (handles.hpp). Graphs are
// externally synchronized, as HIP specifies: one thread mutates a graph at a
// time (stream capture mutates its graph under the capture lock).
#pragma once

#include "graph/graph_memory.hpp"
#include "runtime/event.hpp"

#include <hip/hip_runtime_api.h>
#include <weft/driver/op.hpp>
#include <weft/driver/status.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <unordered_map>
#include <variant>
#include <vector>

namespace weft::graph {

class Graph;
class UserObject;

// hipKernelNodeAttr* values (kept and reported; the CPU agent has no use for them).
struct KernelAttributes {
  hipAccessPolicyWindow access_policy_window{};
  int cooperative = 0;
  int priority = 0;
};

struct KernelData {
  const void* func = nullptr;  // hipKernelNodeParams::func as reported
  int device = 0;              // ordinal the kernel runs on
  KernelAttributes attributes;
  // hipKernelNodeParams::kernelParams as reported: addresses of the arguments
  // inside the node's own argument blob (filled on first GetParams).
  std::vector<void*> arg_addresses;
};

struct CopyData {
  hipMemcpy3DParms params{};  // what GetParams reports (1D and symbol copies too)
};

struct MemsetData {
  hipMemsetParams params{};
};

struct HostData {
  hipHostNodeParams params{};
  // A captured hipLaunchHostFunc: the callable the stream would have run.
  // params then points at a trampoline that runs it.
  std::shared_ptr<std::function<void()>> captured;
};

struct ChildData {
  Ref<Graph> graph;  // the node's own copy
};

struct EventData {
  Ref<CoreEvent> event;
};

struct AllocData {
  hipMemAllocNodeParams params{};  // dptr filled with the block's address
  Ref<AllocBlock> block;
};

struct FreeData {
  void* ptr = nullptr;
};

// hipGraphAddBatchMemOpNode: the node's own copy of the operations, which
// hipGraphBatchMemOpNodeGetParams reports (paramArray points into it).
struct BatchMemOpData {
  std::vector<hipStreamBatchMemOpParams> ops;
  hipCtx_t ctx = nullptr;
  unsigned flags = 0;
};

// External-semaphore signal and wait nodes: the node's own copies, which the
// GetParams calls report (their arrays point into them).
struct ExtSemaphoreData {
  std::vector<hipExternalSemaphore_t> semaphores;
  std::vector<hipExternalSemaphoreSignalParams> signal_params;  // signal nodes
  std::vector<hipExternalSemaphoreWaitParams> wait_params;      // wait nodes
};

struct EmptyData {};

using NodeData = std::variant<EmptyData, KernelData, CopyData, MemsetData, HostData, ChildData,
                              EventData, AllocData, FreeData, BatchMemOpData, ExtSemaphoreData>;

class GraphNode {
 public:
  GraphNode(Graph& graph, hipGraphNodeType type, NodeData data, std::vector<Op> ops);
  ~GraphNode();
  GraphNode(const GraphNode&) = delete;
  GraphNode& operator=(const GraphNode&) = delete;

  hipGraphNodeType type() const { return type_; }
  Graph& graph() const { return graph_; }
  const std::vector<GraphNode*>& deps() const { return deps_; }
  const std::vector<GraphNode*>& dependents() const { return dependents_; }
  // Position in graph().nodes(); kept current when nodes are destroyed.
  uint32_t index() const { return index_; }
  // For a node of a cloned graph: the node it was copied from.
  const GraphNode* original() const { return original_; }

  NodeData& data() { return data_; }
  const NodeData& data() const { return data_; }
  template <typename T>
  T& as() {
    return std::get<T>(data_);
  }
  template <typename T>
  const T& as() const {
    return std::get<T>(data_);
  }

  // What the node does, ready for a queue (empty, child and memory nodes: none;
  // a child graph's ops come from its graph at lowering).
  std::vector<Op>& ops() { return ops_; }
  const std::vector<Op>& ops() const { return ops_; }

 private:
  friend class Graph;
  Graph& graph_;
  const hipGraphNodeType type_;
  uint32_t index_ = 0;
  const GraphNode* original_ = nullptr;
  NodeData data_;
  std::vector<Op> ops_;
  std::vector<GraphNode*> deps_;
  std::vector<GraphNode*> dependents_;
};

class Graph final : public RefCounted {
 public:
  // `handles`: whether the graph and its nodes get user handles (plans keep
  // private copies without).
  explicit Graph(bool handles = true);
  ~Graph() override;

  const std::vector<std::unique_ptr<GraphNode>>& nodes() const { return nodes_; }
  size_t edge_count() const;
  std::vector<GraphNode*> roots() const;

  // Adds a node after `deps` (which must belong to this graph and be distinct).
  Result<GraphNode*> add(hipGraphNodeType type, NodeData data, std::vector<Op> ops,
                         std::span<GraphNode* const> deps);
  // Edges; both ends must belong to this graph. Adding an existing edge or a
  // self-edge, or removing a missing one, is hipErrorInvalidValue.
  Status add_edge(GraphNode* from, GraphNode* to);
  Status remove_edge(GraphNode* from, GraphNode* to);
  bool has_edge(const GraphNode* from, const GraphNode* to) const;
  // Removes a node and its edges.
  void destroy(GraphNode* node);

  // A deep copy: nodes in the same order, child graphs copied too, each node
  // remembering its original. User-object references are copied. A private
  // copy (for a plan) registers no handles.
  Ref<Graph> clone(bool private_copy = false) const;
  bool has_handles() const { return handles_; }

  // Nodes in an order where every node follows its dependencies;
  // hipErrorInvalidValue when the edges form a cycle.
  Result<std::vector<const GraphNode*>> topological_order() const;

  // The child-graph node that owns this graph, if it is embedded in one.
  const GraphNode* owner() const { return owner_; }
  void set_owner(const GraphNode* node) { owner_ = node; }

  // hipGraphRetainUserObject / hipGraphReleaseUserObject.
  void retain_user_object(UserObject& object, unsigned count);
  Status release_user_object(UserObject& object, unsigned count);
  const std::unordered_map<UserObject*, unsigned>& user_objects() const { return user_objects_; }

  // Whether the graph, or a child graph inside it, holds memory nodes.
  bool has_memory_nodes() const;

  // Unique for the life of the process; `version` changes whenever nodes or
  // edges are added or removed (so node positions can be trusted while it holds).
  uint64_t id() const { return id_; }
  uint64_t version() const { return version_; }

 private:
  const bool handles_;
  const uint64_t id_;
  uint64_t version_ = 0;
  std::vector<std::unique_ptr<GraphNode>> nodes_;
  const GraphNode* owner_ = nullptr;
  std::unordered_map<UserObject*, unsigned> user_objects_;
};

// Whether `a` and `b` have the same shape: node types in the same order and
// the same edges by position (hipGraphExecUpdate's pairing rule). On a
// mismatch, returns the first offending node of `b` and the update result.
struct ShapeMismatch {
  const GraphNode* node = nullptr;
  hipGraphExecUpdateResult result = hipGraphExecUpdateSuccess;
};
ShapeMismatch compare_shape(const Graph& a, const Graph& b);

// The trampoline a captured host callback reports as its hipHostNodeParams::fn.
void run_captured_host_function(void* callable);

}  // namespace weft::graph
