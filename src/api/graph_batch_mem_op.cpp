// SPDX-License-Identifier: MIT
// Batch memory-operation graph nodes (hipGraphAddBatchMemOpNode and its Get/Set
// and exec SetParams): the operations of hipStreamBatchMemOp, validated the same
// way (api/stream_memory.hpp), run as one host step when the graph reaches the node.
#include "api/graph_common.hpp"
#include "api/stream_memory.hpp"

using namespace weft;
using namespace weft::api;
using graph::BatchMemOpData;

namespace {

constexpr unsigned kMaxBatch = 256;  // as hipStreamBatchMemOp

Result<NodeParts> batch_parts(const hipBatchMemOpNodeParams* p) {
  if (!p) return invalid_value("null batch memory-operation node parameters");
  if (p->count == 0 || p->count > kMaxBatch)
    return invalid_value(fmt::format("count {} must be 1 to {}", p->count, kMaxBatch));
  if (!p->paramArray) return invalid_value("null parameter array");
  if (p->flags != 0) return invalid_value("flags must be 0");
  std::vector<MemOp> ops;
  ops.reserve(p->count);
  for (unsigned i = 0; i < p->count; ++i) {
    Result<MemOp> op = mem_op_from(p->paramArray[i]);
    if (!op.ok())
      return Status(op.status().code(), fmt::format("operation {}: {}", i, op.status().message()));
    ops.push_back(op.value());
  }
  BatchMemOpData data;
  data.ops.assign(p->paramArray, p->paramArray + p->count);
  data.ctx = p->ctx;
  data.flags = p->flags;
  NodeParts parts{hipGraphNodeTypeBatchMemOp, std::move(data), {}};
  parts.ops.emplace_back(std::in_place_type<HostFuncOp>,
                         HostFuncOp{[ops = std::move(ops)] { run_mem_ops(ops); }});
  return parts;
}

}  // namespace

WEFT_EXPORT hipError_t hipGraphAddBatchMemOpNode(hipGraphNode_t* phGraphNode, hipGraph_t hGraph,
                                                 const hipGraphNode_t* dependencies,
                                                 size_t numDependencies,
                                                 const hipBatchMemOpNodeParams* nodeParams) {
  return call(
      "hipGraphAddBatchMemOpNode",
      [&] {
    if (!phGraphNode) return invalid_value("null output pointer");
    WEFT_RETURN_IF_ERROR(graph_of(hGraph).status());
    WEFT_RETURN_IF_ERROR(nodes_of(dependencies, numDependencies).status());
    WEFT_ASSIGN_OR_RETURN(NodeParts parts, batch_parts(nodeParams));
    return add_node(phGraphNode, hGraph, dependencies, numDependencies, std::move(parts));
      },
      phGraphNode, hGraph, dependencies, numDependencies, nodeParams);
}

WEFT_EXPORT hipError_t hipGraphBatchMemOpNodeGetParams(hipGraphNode_t hNode,
                                                       hipBatchMemOpNodeParams* nodeParams_out) {
  return call(
      "hipGraphBatchMemOpNodeGetParams",
      [&] {
    if (!nodeParams_out) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(hNode, hipGraphNodeTypeBatchMemOp));
    auto& data = n->as<BatchMemOpData>();
    nodeParams_out->ctx = data.ctx;
    nodeParams_out->count = static_cast<unsigned>(data.ops.size());
    nodeParams_out->paramArray = data.ops.data();  // valid while the node keeps these parameters
    nodeParams_out->flags = data.flags;
    return Status();
      },
      hNode, nodeParams_out);
}

WEFT_EXPORT hipError_t hipGraphBatchMemOpNodeSetParams(hipGraphNode_t hNode,
                                                       hipBatchMemOpNodeParams* nodeParams) {
  return call(
      "hipGraphBatchMemOpNodeSetParams",
      [&] {
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(hNode, hipGraphNodeTypeBatchMemOp));
    WEFT_ASSIGN_OR_RETURN(NodeParts parts, batch_parts(nodeParams));
    n->data() = std::move(parts.data);
    n->ops() = std::move(parts.ops);
    return Status();
      },
      hNode, nodeParams);
}

WEFT_EXPORT hipError_t hipGraphExecBatchMemOpNodeSetParams(
    hipGraphExec_t hGraphExec, hipGraphNode_t hNode, const hipBatchMemOpNodeParams* nodeParams) {
  return call(
      "hipGraphExecBatchMemOpNodeSetParams",
      [&] {
    WEFT_ASSIGN_OR_RETURN(ExecTarget t, exec_target(hGraphExec, hNode, hipGraphNodeTypeBatchMemOp));
    WEFT_ASSIGN_OR_RETURN(NodeParts parts, batch_parts(nodeParams));
    return t.exec->set_node(t.slot, std::move(parts.data), std::move(parts.ops));
      },
      hGraphExec, hNode, nodeParams);
}
