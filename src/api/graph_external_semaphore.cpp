// SPDX-License-Identifier: MIT
// External-semaphore graph nodes (hipGraphAddExternalSemaphores{Signal,Wait}Node, their
// Get/Set and exec SetParams, and hipGraphAddNode with those types): the same checks as
// hipSignal/WaitExternalSemaphoresAsync (api/external.hpp); the node runs the agent's
// semaphore ops when the graph reaches it. Agents whose semaphores only their driver
// can operate (CUDA) have no such ops: hipErrorNotSupported, with the reason.
#include "api/external.hpp"
#include "api/graph_common.hpp"

using namespace weft;
using namespace weft::api;
using graph::ExtSemaphoreData;

namespace {

Result<NodeParts> semaphore_parts(hipGraphNodeType type, hipExternalSemaphore_t* semaphores,
                                  const hipExternalSemaphoreSignalParams* signal_params,
                                  const hipExternalSemaphoreWaitParams* wait_params,
                                  unsigned count) {
  const bool signal = type == hipGraphNodeTypeExtSemaphoreSignal;
  if (signal ? !signal_params : !wait_params) return invalid_value("null parameter array");
  WEFT_ASSIGN_OR_RETURN(auto steps, semaphore_steps(semaphores, signal_params, wait_params, count));
  ExtSemaphoreData data;
  data.semaphores.assign(semaphores, semaphores + count);
  if (signal) data.signal_params.assign(signal_params, signal_params + count);
  else data.wait_params.assign(wait_params, wait_params + count);
  NodeParts parts{type, std::move(data), {}};
  for (const SemaphoreStep& step : steps) {
    Result<Op> op = step.semaphore->op(signal, step.value);
    if (!op.ok())
      return Status(op.status().code(),
                    fmt::format("external semaphores of device {} cannot be graph nodes: {}",
                                step.device->ordinal(), op.status().message()));
    parts.ops.push_back(std::move(op).value());
  }
  return parts;
}

}  // namespace

namespace weft::api {

Result<NodeParts> ext_semaphore_signal_parts(const hipExternalSemaphoreSignalNodeParams* p) {
  if (!p) return invalid_value("null node parameters");
  return semaphore_parts(hipGraphNodeTypeExtSemaphoreSignal, p->extSemArray, p->paramsArray,
                         nullptr, p->numExtSems);
}

Result<NodeParts> ext_semaphore_wait_parts(const hipExternalSemaphoreWaitNodeParams* p) {
  if (!p) return invalid_value("null node parameters");
  return semaphore_parts(hipGraphNodeTypeExtSemaphoreWait, p->extSemArray, nullptr, p->paramsArray,
                         p->numExtSems);
}

}  // namespace weft::api

namespace {

template <typename Params>
Status add_semaphore_node(hipGraphNode_t* out, hipGraph_t graph, const hipGraphNode_t* deps,
                          size_t count, const Params* params,
                          Result<NodeParts> (*parts_of)(const Params*)) {
  if (!out) return invalid_value("null output pointer");
  WEFT_RETURN_IF_ERROR(graph_of(graph).status());
  WEFT_RETURN_IF_ERROR(nodes_of(deps, count).status());
  WEFT_ASSIGN_OR_RETURN(NodeParts parts, parts_of(params));
  return add_node(out, graph, deps, count, std::move(parts));
}

template <typename Params>
Status set_semaphore_node(hipGraphNode_t node, hipGraphNodeType type, const Params* params,
                          Result<NodeParts> (*parts_of)(const Params*)) {
  WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, type));
  WEFT_ASSIGN_OR_RETURN(NodeParts parts, parts_of(params));
  n->data() = std::move(parts.data);
  n->ops() = std::move(parts.ops);
  return Status();
}

template <typename Params>
Status set_exec_semaphore_node(hipGraphExec_t exec, hipGraphNode_t node, hipGraphNodeType type,
                               const Params* params, Result<NodeParts> (*parts_of)(const Params*)) {
  WEFT_ASSIGN_OR_RETURN(ExecTarget t, exec_target(exec, node, type));
  WEFT_ASSIGN_OR_RETURN(NodeParts parts, parts_of(params));
  return t.exec->set_node(t.slot, std::move(parts.data), std::move(parts.ops));
}

}  // namespace

WEFT_EXPORT hipError_t hipGraphAddExternalSemaphoresSignalNode(
    hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
    size_t numDependencies, const hipExternalSemaphoreSignalNodeParams* nodeParams) {
  return call(
      "hipGraphAddExternalSemaphoresSignalNode",
      [&] {
    return add_semaphore_node(pGraphNode, graph, pDependencies, numDependencies, nodeParams,
                              &ext_semaphore_signal_parts);
      },
      pGraphNode, graph, pDependencies, numDependencies, nodeParams);
}

WEFT_EXPORT hipError_t hipGraphAddExternalSemaphoresWaitNode(
    hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
    size_t numDependencies, const hipExternalSemaphoreWaitNodeParams* nodeParams) {
  return call(
      "hipGraphAddExternalSemaphoresWaitNode",
      [&] {
    return add_semaphore_node(pGraphNode, graph, pDependencies, numDependencies, nodeParams,
                              &ext_semaphore_wait_parts);
      },
      pGraphNode, graph, pDependencies, numDependencies, nodeParams);
}

WEFT_EXPORT hipError_t hipGraphExternalSemaphoresSignalNodeGetParams(
    hipGraphNode_t hNode, hipExternalSemaphoreSignalNodeParams* params_out) {
  return call(
      "hipGraphExternalSemaphoresSignalNodeGetParams",
      [&] {
    if (!params_out) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(hNode, hipGraphNodeTypeExtSemaphoreSignal));
    auto& data = n->as<ExtSemaphoreData>();
    params_out->extSemArray =
        data.semaphores.data();  // valid while the node keeps these parameters
    params_out->paramsArray = data.signal_params.data();
    params_out->numExtSems = static_cast<unsigned>(data.semaphores.size());
    return Status();
      },
      hNode, params_out);
}

WEFT_EXPORT hipError_t hipGraphExternalSemaphoresWaitNodeGetParams(
    hipGraphNode_t hNode, hipExternalSemaphoreWaitNodeParams* params_out) {
  return call(
      "hipGraphExternalSemaphoresWaitNodeGetParams",
      [&] {
    if (!params_out) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(hNode, hipGraphNodeTypeExtSemaphoreWait));
    auto& data = n->as<ExtSemaphoreData>();
    params_out->extSemArray = data.semaphores.data();
    params_out->paramsArray = data.wait_params.data();
    params_out->numExtSems = static_cast<unsigned>(data.semaphores.size());
    return Status();
      },
      hNode, params_out);
}

WEFT_EXPORT hipError_t hipGraphExternalSemaphoresSignalNodeSetParams(
    hipGraphNode_t hNode, const hipExternalSemaphoreSignalNodeParams* nodeParams) {
  return call(
      "hipGraphExternalSemaphoresSignalNodeSetParams",
      [&] {
    return set_semaphore_node(hNode, hipGraphNodeTypeExtSemaphoreSignal, nodeParams,
                              &ext_semaphore_signal_parts);
      },
      hNode, nodeParams);
}

WEFT_EXPORT hipError_t hipGraphExternalSemaphoresWaitNodeSetParams(
    hipGraphNode_t hNode, const hipExternalSemaphoreWaitNodeParams* nodeParams) {
  return call(
      "hipGraphExternalSemaphoresWaitNodeSetParams",
      [&] {
    return set_semaphore_node(hNode, hipGraphNodeTypeExtSemaphoreWait, nodeParams,
                              &ext_semaphore_wait_parts);
      },
      hNode, nodeParams);
}

WEFT_EXPORT hipError_t hipGraphExecExternalSemaphoresSignalNodeSetParams(
    hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
    const hipExternalSemaphoreSignalNodeParams* nodeParams) {
  return call(
      "hipGraphExecExternalSemaphoresSignalNodeSetParams",
      [&] {
    return set_exec_semaphore_node(hGraphExec, hNode, hipGraphNodeTypeExtSemaphoreSignal,
                                   nodeParams, &ext_semaphore_signal_parts);
      },
      hGraphExec, hNode, nodeParams);
}

WEFT_EXPORT hipError_t hipGraphExecExternalSemaphoresWaitNodeSetParams(
    hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
    const hipExternalSemaphoreWaitNodeParams* nodeParams) {
  return call(
      "hipGraphExecExternalSemaphoresWaitNodeSetParams",
      [&] {
    return set_exec_semaphore_node(hGraphExec, hNode, hipGraphNodeTypeExtSemaphoreWait, nodeParams,
                                   &ext_semaphore_wait_parts);
      },
      hGraphExec, hNode, nodeParams);
}
