// SPDX-License-Identifier: MIT
// Shared by the graph API files: handle lookups and the validation that turns
// user node parameters (hipKernelNodeParams, hipMemcpy3DParms, ...) into a
// node's reported data plus its ready-to-run ops. Used for adding nodes,
// SetParams on graphs and SetParams on executable graphs alike.
#pragma once

#include "api/api.hpp"
#include "graph/exec.hpp"
#include "graph/graph.hpp"

#include <cstring>
#include <span>
#include <vector>

namespace weft::api {

using graph::Graph;
using graph::GraphExec;
using graph::GraphNode;

Result<Graph*> graph_of(hipGraph_t handle);
Result<GraphNode*> node_of(hipGraphNode_t handle);
Result<GraphExec*> exec_of(hipGraphExec_t handle);
inline hipGraph_t handle_of(Graph* g) { return reinterpret_cast<hipGraph_t>(g); }
inline hipGraphNode_t handle_of(const GraphNode* n) {
  return reinterpret_cast<hipGraphNode_t>(const_cast<GraphNode*>(n));
}
inline hipGraphExec_t handle_of(GraphExec* e) { return reinterpret_cast<hipGraphExec_t>(e); }

// Checks a dependency array and turns it into nodes.
Result<std::vector<GraphNode*>> nodes_of(const hipGraphNode_t* handles, size_t count);

// The answer convention of the graph queries: with `out` null, *count becomes
// the total; otherwise up to *count entries are written, unused ones nulled,
// and *count becomes the number written.
template <typename T>
Status fill_list(const std::vector<T>& items, T* out, size_t* count) {
  if (!count) return invalid_value("null count pointer");
  if (!out) {
    *count = items.size();
    return Status();
  }
  size_t n = std::min(*count, items.size());
  for (size_t i = 0; i < n; ++i) out[i] = items[i];
  for (size_t i = n; i < *count; ++i) out[i] = T{};
  if (*count > items.size()) *count = items.size();
  return Status();
}

struct NodeParts {
  hipGraphNodeType type = hipGraphNodeTypeEmpty;
  graph::NodeData data;
  std::vector<Op> ops;
};

// Adds a node built from `parts` and returns its handle in *out.
Status add_node(hipGraphNode_t* out, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                NodeParts parts);

// ---- parameter validation; `current` is the node being updated, if any ----
Result<NodeParts> kernel_parts(const hipKernelNodeParams* params, const GraphNode* current);
Result<NodeParts> copy_parts(const hipMemcpy3DParms* params);
Result<NodeParts> copy_parts_1d(void* dst, const void* src, size_t bytes, hipMemcpyKind kind);
Result<NodeParts> symbol_parts(bool to_symbol, const void* symbol, void* other, size_t bytes,
                               size_t offset, hipMemcpyKind kind);
Result<NodeParts> drv_copy_parts(const HIP_MEMCPY3D* params);
Result<NodeParts> memset_parts(const hipMemsetParams* params);
Result<NodeParts> host_parts(const hipHostNodeParams* params);
Result<NodeParts> event_parts(hipGraphNodeType type, hipEvent_t event);
Result<NodeParts> child_parts(hipGraph_t child, const Graph* parent);
Result<NodeParts> alloc_parts(hipMemAllocNodeParams* params);
Result<NodeParts> free_parts(void* ptr);
// External-semaphore nodes (src/api/graph_external_semaphore.cpp).
Result<NodeParts> ext_semaphore_signal_parts(const hipExternalSemaphoreSignalNodeParams* params);
Result<NodeParts> ext_semaphore_wait_parts(const hipExternalSemaphoreWaitNodeParams* params);

// Reports a node's parameters.
void kernel_params_of(GraphNode& node, hipKernelNodeParams* out);

// The node behind a handle, checked to have `type` (hipErrorInvalidValue otherwise).
Result<GraphNode*> typed_node(hipGraphNode_t handle, hipGraphNodeType type);
// For exec SetParams: the node, checked for its type, and its slot in the plan.
struct ExecTarget {
  GraphExec* exec;
  uint32_t slot;
};
Result<ExecTarget> exec_target(hipGraphExec_t exec, hipGraphNode_t node, hipGraphNodeType type);

}  // namespace weft::api
