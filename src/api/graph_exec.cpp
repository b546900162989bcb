// SPDX-License-Identifier: MIT
// Graph API, executable graphs: instantiate (three forms), launch, upload,
// destroy, flags, the hipGraphExec*SetParams family, hipGraphExecUpdate and
// node enable/disable.
#include "api/graph_common.hpp"
#include "api/launch_host_kernel.hpp"
#include "graph/handles.hpp"

#include <cstdio>
#include <cstring>

using namespace weft;
using namespace weft::api;
using namespace weft::graph;

namespace {

constexpr unsigned long long kInstantiateFlags =
    hipGraphInstantiateFlagAutoFreeOnLaunch | hipGraphInstantiateFlagUpload |
    hipGraphInstantiateFlagDeviceLaunch | hipGraphInstantiateFlagUseNodePriority;

// The device a graph's kernels and events belong to (the first found), else
// the current device.
int device_of(const Graph& graph) {
  for (const auto& node : graph.nodes()) {
    if (auto* k = std::get_if<KernelData>(&node->data())) return k->device;
    if (auto* e = std::get_if<EventData>(&node->data())) return e->event->device().ordinal();
    if (auto* c = std::get_if<ChildData>(&node->data()))
      if (int d = device_of(*c->graph); d >= 0) return d;
  }
  return -1;
}

struct InstantiateOutcome {
  const GraphNode* error_node = nullptr;
  hipGraphInstantiateResult result = hipGraphInstantiateSuccess;
};

Status instantiate(hipGraphExec_t* out, hipGraph_t graph, unsigned long long flags,
                   InstantiateOutcome& outcome) {
  if (!out) return invalid_value("null output pointer");
  WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(graph));
  if (flags & ~kInstantiateFlags) {
    outcome.result = hipGraphInstantiateError;
    return invalid_value(fmt::format("unknown instantiate flags {:#x}", flags));
  }
  DeviceState* device = nullptr;
  if (int ordinal = device_of(*g); ordinal >= 0) {
    device = Runtime::get().device(ordinal);
  } else {
    WEFT_ASSIGN_OR_RETURN(device, current_device());
  }
  GraphExec::Failure failure;
  Ref<GraphExec> exec = GraphExec::instantiate(*g, flags, *device, failure);
  if (!exec) {
    outcome.error_node = failure.node;
    outcome.result = failure.result;
    return failure.status;
  }
  *out = handle_of(exec.detach());  // the handle owns the reference
  return Status();
}

// Exec SetParams for the node kinds whose parameters turn into NodeParts.
Status exec_set(hipGraphExec_t exec, hipGraphNode_t node, hipGraphNodeType type,
                const std::function<Result<NodeParts>(const GraphNode& current)>& build) {
  WEFT_ASSIGN_OR_RETURN(ExecTarget t, exec_target(exec, node, type));
  const GraphNode& current = t.exec->node(t.slot);
  WEFT_ASSIGN_OR_RETURN(NodeParts parts, build(current));
  if (type == hipGraphNodeTypeKernel &&
      std::get<KernelData>(parts.data).func != current.as<KernelData>().func)
    return invalid_value("an executable graph's kernel node cannot change its function");
  if (type == hipGraphNodeTypeMemcpy) {
    for (size_t i = 0; i < parts.ops.size() && i < current.ops().size(); ++i)
      if (std::get<CopyOp>(parts.ops[i]).direction != std::get<CopyOp>(current.ops()[i]).direction)
        return invalid_value("an executable graph's memcpy node cannot change its direction");
  }
  return t.exec->set_node(t.slot, std::move(parts.data), std::move(parts.ops));
}

// hipGraphExecKernelNodeSetParams' common case: the node's code-object kernel
// again, with new kernelParams and launch dimensions that pass the launch
// checks. The plan then patches its argument bytes in place
// (GraphExec::patch_kernel) instead of building and copying new ops. When the
// case does not apply, the general path builds the node anew and reports
// whatever is wrong.
bool kernel_patch_applies(const ExecTarget& t, const hipKernelNodeParams* p) {
  if (!p || !p->func || p->extra) return false;
  const GraphNode& current = t.exec->node(t.slot);
  const auto& data = current.as<KernelData>();
  if (data.func != p->func || current.ops().size() != 1) return false;
  const auto* op = std::get_if<DispatchOp>(&current.ops()[0]);
  if (!op || !op->kernel || op->host_kernel) return false;
  // The node's launch shape passed the checks below when it was set (kernel_parts;
  // a captured launch passed launch_function's, which are stricter), so the same
  // shape with new arguments needs no second look.
  const LaunchDims& now = op->dims;
  if (now.grid.x == p->gridDim.x && now.grid.y == p->gridDim.y && now.grid.z == p->gridDim.z &&
      now.block.x == p->blockDim.x && now.block.y == p->blockDim.y &&
      now.block.z == p->blockDim.z && now.dynamic_shared_bytes == p->sharedMemBytes)
    return true;
  DeviceState* device = Runtime::get().device(data.device);
  if (!device || !launch_shape_fits(*device, p->gridDim, p->blockDim, p->sharedMemBytes))
    return false;
  uint64_t threads = uint64_t(p->blockDim.x) * p->blockDim.y * p->blockDim.z;
  return threads <= op->kernel->info().max_threads_per_block;
}

// exec_target's common case for a kernel node, without its error reporting
// (the general path reports what is wrong).
bool kernel_target(hipGraphExec_t exec, hipGraphNode_t node, ExecTarget& out) {
  graph::Handles& handles = graph::handles();
  GraphExec* e = handles.execs.find(exec);
  GraphNode* n = handles.nodes.find(node);
  if (!e || !n || n->type() != hipGraphNodeTypeKernel) return false;
  uint32_t slot = 0;
  if (!e->find_slot(n, slot)) return false;
  out = ExecTarget{e, slot};
  return true;
}

// hipGraphExecKernelNodeSetParams' arguments, for its general path.
struct KernelSetParams {
  hipGraphExec_t exec;
  hipGraphNode_t node;
  const hipKernelNodeParams* params;
};

Status set_kernel_node(const void* context) {
  const auto& a = *static_cast<const KernelSetParams*>(context);
  return exec_set(a.exec, a.node, hipGraphNodeTypeKernel,
                  [&](const GraphNode& current) { return kernel_parts(a.params, &current); });
}

LaunchDims dims_of(const hipKernelNodeParams& p) {
  LaunchDims dims;
  dims.grid = p.gridDim;
  dims.block = p.blockDim;
  dims.dynamic_shared_bytes = p.sharedMemBytes;
  return dims;
}

bool can_disable(hipGraphNodeType type) {
  return type == hipGraphNodeTypeKernel || type == hipGraphNodeTypeMemcpy ||
         type == hipGraphNodeTypeMemset;
}

}  // namespace

WEFT_EXPORT hipError_t hipGraphInstantiate(hipGraphExec_t* exec, hipGraph_t graph,
                                           hipGraphNode_t* error_node, char* log, size_t log_size) {
  InstantiateOutcome outcome;
  std::string message;
  hipError_t rc = call(
      "hipGraphInstantiate",
      [&] {
    Status s = instantiate(exec, graph, 0, outcome);
    message = s.message();
    return s;
      },
      exec, graph, error_node, log, log_size);
  if (error_node) *error_node = rc == hipSuccess ? nullptr : handle_of(outcome.error_node);
  if (log && log_size > 0) std::snprintf(log, log_size, "%s", message.c_str());
  return rc;
}

WEFT_EXPORT hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* exec, hipGraph_t graph,
                                                    unsigned long long flags) {
  return call(
      "hipGraphInstantiateWithFlags",
      [&] {
    InstantiateOutcome outcome;
    return instantiate(exec, graph, flags, outcome);
      },
      exec, graph, flags);
}

WEFT_EXPORT hipError_t hipGraphInstantiateWithParams(hipGraphExec_t* exec, hipGraph_t graph,
                                                     hipGraphInstantiateParams* params) {
  return call(
      "hipGraphInstantiateWithParams",
      [&] {
    if (!params) return invalid_value("null instantiate parameters");
    if (params->flags & hipGraphInstantiateFlagUpload)
      WEFT_RETURN_IF_ERROR(resolve_stream(params->uploadStream).status());
    InstantiateOutcome outcome;
    Status s = instantiate(exec, graph, params->flags, outcome);
    params->result_out = s.ok() ? hipGraphInstantiateSuccess : outcome.result;
    params->errNode_out = s.ok() ? nullptr : handle_of(outcome.error_node);
    return s;
      },
      exec, graph, params);
}

WEFT_EXPORT hipError_t hipGraphExecDestroy(hipGraphExec_t exec) {
  return call(
      "hipGraphExecDestroy",
      [&] {
    WEFT_ASSIGN_OR_RETURN(GraphExec * e, exec_of(exec));
    e->release();  // replays still queued keep their plan
    return Status();
      },
      exec);
}

WEFT_EXPORT hipError_t hipGraphExecGetFlags(hipGraphExec_t exec, unsigned long long* flags) {
  return call(
      "hipGraphExecGetFlags",
      [&] {
    if (!flags) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphExec * e, exec_of(exec));
    *flags = e->flags();
    return Status();
      },
      exec, flags);
}

WEFT_EXPORT hipError_t hipGraphLaunch(hipGraphExec_t exec, hipStream_t stream) {
  return call(
      "hipGraphLaunch",
      [&] {
    WEFT_ASSIGN_OR_RETURN(GraphExec * e, exec_of(exec));
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
    return e->launch(*s);
      },
      exec, stream);
}

WEFT_EXPORT hipError_t hipGraphLaunch_spt(hipGraphExec_t exec, hipStream_t stream) {
  return call(
      "hipGraphLaunch_spt",
      [&] {
    WEFT_ASSIGN_OR_RETURN(GraphExec * e, exec_of(exec));
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, kPerThread));
    return e->launch(*s);
      },
      exec, stream);
}

WEFT_EXPORT hipError_t hipGraphUpload(hipGraphExec_t exec, hipStream_t stream) {
  // Plans are ready at instantiation; there is nothing left to upload.
  return call(
      "hipGraphUpload",
      [&] {
    WEFT_RETURN_IF_ERROR(exec_of(exec).status());
    return resolve_stream(stream).status();
      },
      exec, stream);
}

WEFT_EXPORT hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
                                                       const hipKernelNodeParams* params) {
  return call(
      "hipGraphExecKernelNodeSetParams",
      [&] {
    const KernelSetParams args{exec, node, params};
    ExecTarget t{};
    if (kernel_target(exec, node, t) && kernel_patch_applies(t, params))
      return t.exec->patch_kernel(t.slot, dims_of(*params), params->kernelParams, &set_kernel_node,
                                  &args);
    return set_kernel_node(&args);
      },
      exec, node, params);
}

WEFT_EXPORT hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
                                                       hipMemcpy3DParms* params) {
  return call(
      "hipGraphExecMemcpyNodeSetParams",
      [&] {
    return exec_set(exec, node, hipGraphNodeTypeMemcpy,
                    [&](const GraphNode&) { return copy_parts(params); });
      },
      exec, node, params);
}

WEFT_EXPORT hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t exec, hipGraphNode_t node,
                                                         void* dst, const void* src, size_t bytes,
                                                         hipMemcpyKind kind) {
  return call(
      "hipGraphExecMemcpyNodeSetParams1D",
      [&] {
    return exec_set(exec, node, hipGraphNodeTypeMemcpy,
                    [&](const GraphNode&) { return copy_parts_1d(dst, src, bytes, kind); });
      },
      exec, node, dst, src, bytes, kind);
}

WEFT_EXPORT hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t exec,
                                                                 hipGraphNode_t node, void* dst,
                                                                 const void* symbol, size_t bytes,
                                                                 size_t offset,
                                                                 hipMemcpyKind kind) {
  return call(
      "hipGraphExecMemcpyNodeSetParamsFromSymbol",
      [&] {
    return exec_set(exec, node, hipGraphNodeTypeMemcpy, [&](const GraphNode&) {
      return symbol_parts(false, symbol, dst, bytes, offset, kind);
    });
      },
      exec, node, dst, symbol, bytes, offset, kind);
}

WEFT_EXPORT hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t exec,
                                                               hipGraphNode_t node,
                                                               const void* symbol, const void* src,
                                                               size_t bytes, size_t offset,
                                                               hipMemcpyKind kind) {
  return call(
      "hipGraphExecMemcpyNodeSetParamsToSymbol",
      [&] {
    return exec_set(exec, node, hipGraphNodeTypeMemcpy, [&](const GraphNode&) {
      return symbol_parts(true, symbol, const_cast<void*>(src), bytes, offset, kind);
    });
      },
      exec, node, symbol, src, bytes, offset, kind);
}

WEFT_EXPORT hipError_t hipDrvGraphExecMemcpyNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
                                                          const HIP_MEMCPY3D* params, hipCtx_t) {
  return call(
      "hipDrvGraphExecMemcpyNodeSetParams",
      [&] {
    return exec_set(exec, node, hipGraphNodeTypeMemcpy,
                    [&](const GraphNode&) { return drv_copy_parts(params); });
      },
      exec, node, params);
}

WEFT_EXPORT hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
                                                       const hipMemsetParams* params) {
  return call(
      "hipGraphExecMemsetNodeSetParams",
      [&] {
    return exec_set(exec, node, hipGraphNodeTypeMemset,
                    [&](const GraphNode&) { return memset_parts(params); });
      },
      exec, node, params);
}

WEFT_EXPORT hipError_t hipDrvGraphExecMemsetNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
                                                          const hipMemsetParams* params, hipCtx_t) {
  return call(
      "hipDrvGraphExecMemsetNodeSetParams",
      [&] {
    return exec_set(exec, node, hipGraphNodeTypeMemset,
                    [&](const GraphNode&) { return memset_parts(params); });
      },
      exec, node, params);
}

WEFT_EXPORT hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
                                                     const hipHostNodeParams* params) {
  return call(
      "hipGraphExecHostNodeSetParams",
      [&] {
    return exec_set(exec, node, hipGraphNodeTypeHost,
                    [&](const GraphNode&) { return host_parts(params); });
      },
      exec, node, params);
}

WEFT_EXPORT hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t exec, hipGraphNode_t node,
                                                           hipEvent_t event) {
  return call(
      "hipGraphExecEventRecordNodeSetEvent",
      [&] {
    return exec_set(exec, node, hipGraphNodeTypeEventRecord, [&](const GraphNode&) {
      return event_parts(hipGraphNodeTypeEventRecord, event);
    });
      },
      exec, node, event);
}

WEFT_EXPORT hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t exec, hipGraphNode_t node,
                                                         hipEvent_t event) {
  return call(
      "hipGraphExecEventWaitNodeSetEvent",
      [&] {
    return exec_set(exec, node, hipGraphNodeTypeWaitEvent, [&](const GraphNode&) {
      return event_parts(hipGraphNodeTypeWaitEvent, event);
    });
      },
      exec, node, event);
}

WEFT_EXPORT hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
                                                           hipGraph_t child) {
  return call(
      "hipGraphExecChildGraphNodeSetParams",
      [&] {
    WEFT_ASSIGN_OR_RETURN(ExecTarget t, exec_target(exec, node, hipGraphNodeTypeGraph));
    WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(child));
    return t.exec->set_child_graph(t.slot, *g);
      },
      exec, node, child);
}

WEFT_EXPORT hipError_t hipGraphExecNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
                                                 hipGraphNodeParams* params) {
  return call(
      "hipGraphExecNodeSetParams",
      [&] {
    if (!params) return invalid_value("null node parameters");
    switch (raw_value(params->type)) {
      case hipGraphNodeTypeKernel:
        return exec_set(exec, node, params->type, [&](const GraphNode& current) {
          return kernel_parts(&params->kernel, &current);
        });
      case hipGraphNodeTypeMemcpy:
        return exec_set(exec, node, params->type,
                        [&](const GraphNode&) { return copy_parts(&params->memcpy.copyParams); });
      case hipGraphNodeTypeMemset:
        return exec_set(exec, node, params->type,
                        [&](const GraphNode&) { return memset_parts(&params->memset); });
      case hipGraphNodeTypeHost:
        return exec_set(exec, node, params->type,
                        [&](const GraphNode&) { return host_parts(&params->host); });
      case hipGraphNodeTypeWaitEvent:
        return exec_set(exec, node, params->type, [&](const GraphNode&) {
          return event_parts(params->type, params->eventWait.event);
        });
      case hipGraphNodeTypeEventRecord:
        return exec_set(exec, node, params->type, [&](const GraphNode&) {
          return event_parts(params->type, params->eventRecord.event);
        });
      case hipGraphNodeTypeGraph: {
        WEFT_ASSIGN_OR_RETURN(ExecTarget t, exec_target(exec, node, params->type));
        WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(params->graph.graph));
        return t.exec->set_child_graph(t.slot, *g);
      }
      default: break;
    }
    return invalid_value(fmt::format("nodes of type {} cannot be updated in an executable graph",
                                     raw_value(params->type)));
      },
      exec, node, params);
}

WEFT_EXPORT hipError_t hipGraphExecUpdate(hipGraphExec_t exec, hipGraph_t graph,
                                          hipGraphNode_t* error_node,
                                          hipGraphExecUpdateResult* result) {
  return call(
      "hipGraphExecUpdate",
      [&] {
    if (!error_node || !result) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphExec * e, exec_of(exec));
    WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(graph));
    GraphExec::UpdateResult r = e->update(*g);
    *result = r.status.ok() ? hipGraphExecUpdateSuccess : r.result;
    *error_node = handle_of(r.node);
    return r.status;
      },
      exec, graph, error_node, result);
}

WEFT_EXPORT hipError_t hipGraphNodeSetEnabled(hipGraphExec_t exec, hipGraphNode_t node,
                                              unsigned int enabled) {
  return call(
      "hipGraphNodeSetEnabled",
      [&] {
    WEFT_ASSIGN_OR_RETURN(GraphExec * e, exec_of(exec));
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, node_of(node));
    if (!can_disable(n->type()))
      return invalid_value("only kernel, memcpy and memset nodes can be enabled or disabled");
    WEFT_ASSIGN_OR_RETURN(uint32_t slot, e->slot_of(n));
    return e->set_enabled(slot, enabled != 0);
      },
      exec, node, enabled);
}

WEFT_EXPORT hipError_t hipGraphNodeGetEnabled(hipGraphExec_t exec, hipGraphNode_t node,
                                              unsigned int* enabled) {
  return call(
      "hipGraphNodeGetEnabled",
      [&] {
    if (!enabled) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphExec * e, exec_of(exec));
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, node_of(node));
    if (!can_disable(n->type()))
      return invalid_value("only kernel, memcpy and memset nodes can be enabled or disabled");
    WEFT_ASSIGN_OR_RETURN(uint32_t slot, e->slot_of(n));
    *enabled = e->enabled(slot) ? 1 : 0;
    return Status();
      },
      exec, node, enabled);
}
