// SPDX-License-Identifier: MIT
// Graph API, work nodes: kernel, memcpy (3D, 1D, symbol, driver form),
// memset and host nodes (add, get and set parameters), kernel node
// attributes, hipGraphAddNode and hipGraphNodeSetParams.
#include "api/graph_common.hpp"

using namespace weft;
using namespace weft::api;
using namespace weft::graph;

namespace {

Status add(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
           const std::function<Result<NodeParts>()>& build) {
  if (!node) return invalid_value("null output pointer");
  // Check the graph and dependencies before building (building may allocate).
  WEFT_RETURN_IF_ERROR(graph_of(graph).status());
  WEFT_RETURN_IF_ERROR(nodes_of(deps, count).status());
  WEFT_ASSIGN_OR_RETURN(NodeParts parts, build());
  return add_node(node, graph, deps, count, std::move(parts));
}

Status set(hipGraphNode_t node, hipGraphNodeType type,
           const std::function<Result<NodeParts>(GraphNode&)>& build) {
  WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, type));
  WEFT_ASSIGN_OR_RETURN(NodeParts parts, build(*n));
  n->data() = std::move(parts.data);
  n->ops() = std::move(parts.ops);
  if (auto* child = std::get_if<ChildData>(&n->data())) child->graph->set_owner(n);
  return Status();
}

bool known_attribute(const hipKernelNodeAttrID& attr) {
  const int a = raw_value(attr);
  return a == hipKernelNodeAttributeAccessPolicyWindow || a == hipKernelNodeAttributeCooperative ||
         a == hipKernelNodeAttributePriority;
}

Result<NodeParts> parts_of(const hipGraphNodeParams& p, const Graph* parent) {
  switch (raw_value(p.type)) {
    case hipGraphNodeTypeKernel: return kernel_parts(&p.kernel, nullptr);
    case hipGraphNodeTypeMemcpy:
      if (p.memcpy.flags != 0 || p.memcpy.reserved[0] || p.memcpy.reserved[1] ||
          p.memcpy.reserved[2])
        return invalid_value("hipMemcpyNodeParams flags and reserved fields must be 0");
      return copy_parts(&p.memcpy.copyParams);
    case hipGraphNodeTypeMemset: return memset_parts(&p.memset);
    case hipGraphNodeTypeHost: return host_parts(&p.host);
    case hipGraphNodeTypeGraph: return child_parts(p.graph.graph, parent);
    case hipGraphNodeTypeEmpty: return NodeParts{hipGraphNodeTypeEmpty, EmptyData{}, {}};
    case hipGraphNodeTypeWaitEvent: return event_parts(p.type, p.eventWait.event);
    case hipGraphNodeTypeEventRecord: return event_parts(p.type, p.eventRecord.event);
    case hipGraphNodeTypeMemFree: return free_parts(p.free.dptr);
    case hipGraphNodeTypeExtSemaphoreSignal: return ext_semaphore_signal_parts(&p.extSemSignal);
    case hipGraphNodeTypeExtSemaphoreWait: return ext_semaphore_wait_parts(&p.extSemWait);
    default: break;
  }
  return Status(hipErrorNotSupported,
                fmt::format("graph nodes of type {} are not supported", raw_value(p.type)));
}

}  // namespace

// ---- kernel nodes ----

WEFT_EXPORT hipError_t hipGraphAddKernelNode(hipGraphNode_t* node, hipGraph_t graph,
                                             const hipGraphNode_t* deps, size_t count,
                                             const hipKernelNodeParams* params) {
  return call(
      "hipGraphAddKernelNode",
      [&] { return add(node, graph, deps, count, [&] { return kernel_parts(params, nullptr); }); },
      node, graph, deps, count, params);
}

WEFT_EXPORT hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node,
                                                   hipKernelNodeParams* params) {
  return call(
      "hipGraphKernelNodeGetParams",
      [&] {
    if (!params) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, hipGraphNodeTypeKernel));
    kernel_params_of(*n, params);
    return Status();
      },
      node, params);
}

WEFT_EXPORT hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node,
                                                   const hipKernelNodeParams* params) {
  return call(
      "hipGraphKernelNodeSetParams",
      [&] {
    return set(node, hipGraphNodeTypeKernel,
               [&](GraphNode& n) { return kernel_parts(params, &n); });
      },
      node, params);
}

WEFT_EXPORT hipError_t hipGraphKernelNodeSetAttribute(hipGraphNode_t node, hipKernelNodeAttrID attr,
                                                      const hipKernelNodeAttrValue* value) {
  return call(
      "hipGraphKernelNodeSetAttribute",
      [&] {
    if (!value) return invalid_value("null value");
    if (!known_attribute(attr))
      return invalid_value(fmt::format("unknown kernel node attribute {}", raw_value(attr)));
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, hipGraphNodeTypeKernel));
    KernelAttributes& a = n->as<KernelData>().attributes;
    if (attr == hipKernelNodeAttributeAccessPolicyWindow)
      a.access_policy_window = value->accessPolicyWindow;
    if (attr == hipKernelNodeAttributeCooperative) a.cooperative = value->cooperative;
    if (attr == hipKernelNodeAttributePriority) a.priority = value->priority;
    return Status();
      },
      node, attr, value);
}

WEFT_EXPORT hipError_t hipGraphKernelNodeGetAttribute(hipGraphNode_t node, hipKernelNodeAttrID attr,
                                                      hipKernelNodeAttrValue* value) {
  return call(
      "hipGraphKernelNodeGetAttribute",
      [&] {
    if (!value) return invalid_value("null output pointer");
    if (!known_attribute(attr))
      return invalid_value(fmt::format("unknown kernel node attribute {}", raw_value(attr)));
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, hipGraphNodeTypeKernel));
    const KernelAttributes& a = n->as<KernelData>().attributes;
    if (attr == hipKernelNodeAttributeAccessPolicyWindow)
      value->accessPolicyWindow = a.access_policy_window;
    if (attr == hipKernelNodeAttributeCooperative) value->cooperative = a.cooperative;
    if (attr == hipKernelNodeAttributePriority) value->priority = a.priority;
    return Status();
      },
      node, attr, value);
}

WEFT_EXPORT hipError_t hipGraphKernelNodeCopyAttributes(hipGraphNode_t src, hipGraphNode_t dst) {
  return call(
      "hipGraphKernelNodeCopyAttributes",
      [&] {
    WEFT_ASSIGN_OR_RETURN(GraphNode * from, typed_node(src, hipGraphNodeTypeKernel));
    WEFT_ASSIGN_OR_RETURN(GraphNode * to, typed_node(dst, hipGraphNodeTypeKernel));
    to->as<KernelData>().attributes = from->as<KernelData>().attributes;
    return Status();
      },
      src, dst);
}

// ---- memcpy nodes ----

WEFT_EXPORT hipError_t hipGraphAddMemcpyNode(hipGraphNode_t* node, hipGraph_t graph,
                                             const hipGraphNode_t* deps, size_t count,
                                             const hipMemcpy3DParms* params) {
  return call(
      "hipGraphAddMemcpyNode",
      [&] { return add(node, graph, deps, count, [&] { return copy_parts(params); }); }, node,
      graph, deps, count, params);
}

WEFT_EXPORT hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node, hipMemcpy3DParms* params) {
  return call(
      "hipGraphMemcpyNodeGetParams",
      [&] {
    if (!params) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, hipGraphNodeTypeMemcpy));
    *params = n->as<CopyData>().params;
    return Status();
      },
      node, params);
}

WEFT_EXPORT hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t node,
                                                   const hipMemcpy3DParms* params) {
  return call(
      "hipGraphMemcpyNodeSetParams",
      [&] {
    return set(node, hipGraphNodeTypeMemcpy, [&](GraphNode&) { return copy_parts(params); });
      },
      node, params);
}

WEFT_EXPORT hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t* node, hipGraph_t graph,
                                               const hipGraphNode_t* deps, size_t count, void* dst,
                                               const void* src, size_t bytes, hipMemcpyKind kind) {
  return call(
      "hipGraphAddMemcpyNode1D",
      [&] {
    return add(node, graph, deps, count, [&] { return copy_parts_1d(dst, src, bytes, kind); });
      },
      node, graph, deps, count, dst, src, bytes, kind);
}

WEFT_EXPORT hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void* dst,
                                                     const void* src, size_t bytes,
                                                     hipMemcpyKind kind) {
  return call(
      "hipGraphMemcpyNodeSetParams1D",
      [&] {
    return set(node, hipGraphNodeTypeMemcpy,
               [&](GraphNode&) { return copy_parts_1d(dst, src, bytes, kind); });
      },
      node, dst, src, bytes, kind);
}

WEFT_EXPORT hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t* node, hipGraph_t graph,
                                                       const hipGraphNode_t* deps, size_t count,
                                                       void* dst, const void* symbol, size_t bytes,
                                                       size_t offset, hipMemcpyKind kind) {
  return call(
      "hipGraphAddMemcpyNodeFromSymbol",
      [&] {
    return add(node, graph, deps, count,
               [&] { return symbol_parts(false, symbol, dst, bytes, offset, kind); });
      },
      node, graph, deps, count, dst, symbol, bytes, offset, kind);
}

WEFT_EXPORT hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t node, void* dst,
                                                             const void* symbol, size_t bytes,
                                                             size_t offset, hipMemcpyKind kind) {
  return call(
      "hipGraphMemcpyNodeSetParamsFromSymbol",
      [&] {
    return set(node, hipGraphNodeTypeMemcpy,
               [&](GraphNode&) { return symbol_parts(false, symbol, dst, bytes, offset, kind); });
      },
      node, dst, symbol, bytes, offset, kind);
}

WEFT_EXPORT hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t* node, hipGraph_t graph,
                                                     const hipGraphNode_t* deps, size_t count,
                                                     const void* symbol, const void* src,
                                                     size_t bytes, size_t offset,
                                                     hipMemcpyKind kind) {
  return call(
      "hipGraphAddMemcpyNodeToSymbol",
      [&] {
    return add(node, graph, deps, count, [&] {
      return symbol_parts(true, symbol, const_cast<void*>(src), bytes, offset, kind);
    });
      },
      node, graph, deps, count, symbol, src, bytes, offset, kind);
}

WEFT_EXPORT hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t node, const void* symbol,
                                                           const void* src, size_t bytes,
                                                           size_t offset, hipMemcpyKind kind) {
  return call(
      "hipGraphMemcpyNodeSetParamsToSymbol",
      [&] {
    return set(node, hipGraphNodeTypeMemcpy, [&](GraphNode&) {
      return symbol_parts(true, symbol, const_cast<void*>(src), bytes, offset, kind);
    });
      },
      node, symbol, src, bytes, offset, kind);
}

WEFT_EXPORT hipError_t hipDrvGraphAddMemcpyNode(hipGraphNode_t* node, hipGraph_t graph,
                                                const hipGraphNode_t* deps, size_t count,
                                                const HIP_MEMCPY3D* params, hipCtx_t) {
  return call(
      "hipDrvGraphAddMemcpyNode",
      [&] { return add(node, graph, deps, count, [&] { return drv_copy_parts(params); }); }, node,
      graph, deps, count, params);
}

WEFT_EXPORT hipError_t hipDrvGraphMemcpyNodeGetParams(hipGraphNode_t node, HIP_MEMCPY3D* params) {
  return call(
      "hipDrvGraphMemcpyNodeGetParams",
      [&] {
    if (!params) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, hipGraphNodeTypeMemcpy));
    const hipMemcpy3DParms& p = n->as<CopyData>().params;
    *params = HIP_MEMCPY3D{};
    params->srcXInBytes = p.srcPos.x;
    params->srcY = p.srcPos.y;
    params->srcZ = p.srcPos.z;
    params->srcMemoryType = hipMemoryTypeUnified;  // a plain pointer of any kind
    params->srcDevice = p.srcPtr.ptr;
    params->srcPitch = p.srcPtr.pitch;
    params->srcHeight = p.srcPtr.ysize;
    params->dstXInBytes = p.dstPos.x;
    params->dstY = p.dstPos.y;
    params->dstZ = p.dstPos.z;
    params->dstMemoryType = hipMemoryTypeUnified;
    params->dstDevice = p.dstPtr.ptr;
    params->dstPitch = p.dstPtr.pitch;
    params->dstHeight = p.dstPtr.ysize;
    params->WidthInBytes = p.extent.width;
    params->Height = p.extent.height;
    params->Depth = p.extent.depth;
    return Status();
      },
      node, params);
}

WEFT_EXPORT hipError_t hipDrvGraphMemcpyNodeSetParams(hipGraphNode_t node,
                                                      const HIP_MEMCPY3D* params) {
  return call(
      "hipDrvGraphMemcpyNodeSetParams",
      [&] {
    return set(node, hipGraphNodeTypeMemcpy, [&](GraphNode&) { return drv_copy_parts(params); });
      },
      node, params);
}

// ---- memset nodes ----

WEFT_EXPORT hipError_t hipGraphAddMemsetNode(hipGraphNode_t* node, hipGraph_t graph,
                                             const hipGraphNode_t* deps, size_t count,
                                             const hipMemsetParams* params) {
  return call(
      "hipGraphAddMemsetNode",
      [&] { return add(node, graph, deps, count, [&] { return memset_parts(params); }); }, node,
      graph, deps, count, params);
}

WEFT_EXPORT hipError_t hipDrvGraphAddMemsetNode(hipGraphNode_t* node, hipGraph_t graph,
                                                const hipGraphNode_t* deps, size_t count,
                                                const hipMemsetParams* params, hipCtx_t) {
  return call(
      "hipDrvGraphAddMemsetNode",
      [&] { return add(node, graph, deps, count, [&] { return memset_parts(params); }); }, node,
      graph, deps, count, params);
}

WEFT_EXPORT hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node, hipMemsetParams* params) {
  return call(
      "hipGraphMemsetNodeGetParams",
      [&] {
    if (!params) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, hipGraphNodeTypeMemset));
    *params = n->as<MemsetData>().params;
    return Status();
      },
      node, params);
}

WEFT_EXPORT hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node,
                                                   const hipMemsetParams* params) {
  return call(
      "hipGraphMemsetNodeSetParams",
      [&] {
    return set(node, hipGraphNodeTypeMemset, [&](GraphNode&) { return memset_parts(params); });
      },
      node, params);
}

// ---- host nodes ----

WEFT_EXPORT hipError_t hipGraphAddHostNode(hipGraphNode_t* node, hipGraph_t graph,
                                           const hipGraphNode_t* deps, size_t count,
                                           const hipHostNodeParams* params) {
  return call(
      "hipGraphAddHostNode",
      [&] { return add(node, graph, deps, count, [&] { return host_parts(params); }); }, node,
      graph, deps, count, params);
}

WEFT_EXPORT hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node, hipHostNodeParams* params) {
  return call(
      "hipGraphHostNodeGetParams",
      [&] {
    if (!params) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, hipGraphNodeTypeHost));
    *params = n->as<HostData>().params;
    return Status();
      },
      node, params);
}

WEFT_EXPORT hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node,
                                                 const hipHostNodeParams* params) {
  return call(
      "hipGraphHostNodeSetParams",
      [&] {
    return set(node, hipGraphNodeTypeHost, [&](GraphNode&) { return host_parts(params); });
      },
      node, params);
}

// ---- any kind ----

WEFT_EXPORT hipError_t hipGraphAddNode(hipGraphNode_t* node, hipGraph_t graph,
                                       const hipGraphNode_t* deps, size_t count,
                                       hipGraphNodeParams* params) {
  return call(
      "hipGraphAddNode",
      [&] {
    if (!params) return invalid_value("null node parameters");
    if (raw_value(params->type) == hipGraphNodeTypeMemAlloc)
      return add(node, graph, deps, count, [&] { return alloc_parts(&params->alloc); });
    WEFT_ASSIGN_OR_RETURN(Graph * parent, graph_of(graph));
    return add(node, graph, deps, count, [&] { return parts_of(*params, parent); });
      },
      node, graph, deps, count, params);
}

WEFT_EXPORT hipError_t hipGraphNodeSetParams(hipGraphNode_t node, hipGraphNodeParams* params) {
  return call(
      "hipGraphNodeSetParams",
      [&] {
    if (!params) return invalid_value("null node parameters");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, node_of(node));
    if (raw_value(params->type) != n->type()) return invalid_value("a node's type cannot change");
    switch (params->type) {
      case hipGraphNodeTypeKernel:
        return set(node, params->type,
                   [&](GraphNode& g) { return kernel_parts(&params->kernel, &g); });
      case hipGraphNodeTypeMemAlloc:
      case hipGraphNodeTypeMemFree: return invalid_value("memory node parameters cannot change");
      default: break;
    }
    return set(node, params->type, [&](GraphNode& g) { return parts_of(*params, &g.graph()); });
      },
      node, params);
}
