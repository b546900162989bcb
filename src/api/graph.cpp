// SPDX-License-Identifier: MIT
// Graph API, structure: create/destroy/clone, dependencies, queries, empty,
// child-graph, event and memory nodes, user objects, DOT output and the
// graph-memory attributes.
#include "api/graph_common.hpp"

#include "graph/dot.hpp"
#include "graph/graph_memory.hpp"
#include "graph/handles.hpp"
#include "graph/user_object.hpp"

#include <cstdio>

using namespace weft;
using namespace weft::api;
using namespace weft::graph;

namespace {

Status edges(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to, size_t count,
             bool add) {
  WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(graph));
  if (count == 0) return Status();
  if (!from || !to) return invalid_value("null dependency arrays");
  std::vector<std::pair<GraphNode*, GraphNode*>> pairs;
  for (size_t i = 0; i < count; ++i) {
    WEFT_ASSIGN_OR_RETURN(GraphNode * a, node_of(from[i]));
    WEFT_ASSIGN_OR_RETURN(GraphNode * b, node_of(to[i]));
    if (&a->graph() != g || &b->graph() != g)
      return invalid_value("a node belongs to another graph");
    if (a == b) return invalid_value("a node cannot depend on itself");
    if (add == g->has_edge(a, b))
      return invalid_value(add ? "the dependency already exists" : "the dependency does not exist");
    for (auto& p : pairs)
      if (p.first == a && p.second == b) return invalid_value("a dependency is listed twice");
    pairs.emplace_back(a, b);
  }
  for (auto& [a, b] : pairs) WEFT_RETURN_IF_ERROR(add ? g->add_edge(a, b) : g->remove_edge(a, b));
  return Status();
}

Status list_nodes(const std::vector<GraphNode*>& nodes, hipGraphNode_t* out, size_t* count) {
  std::vector<hipGraphNode_t> handles;
  handles.reserve(nodes.size());
  for (GraphNode* n : nodes) handles.push_back(handle_of(n));
  return fill_list(handles, out, count);
}

Result<UserObject*> user_object_of(hipUserObject_t handle) {
  if (!handle) return invalid_value("null user object");
  UserObject* o = handles().user_objects.find(handle);
  if (!o) return invalid_value("user object handle is unknown or was destroyed");
  return o;
}

Status event_node(hipGraphNode_t* out, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                  hipEvent_t event, hipGraphNodeType type) {
  if (!out) return invalid_value("null output pointer");
  WEFT_ASSIGN_OR_RETURN(NodeParts parts, event_parts(type, event));
  return add_node(out, graph, deps, count, std::move(parts));
}

Status get_event(hipGraphNode_t node, hipEvent_t* out, hipGraphNodeType type) {
  if (!out) return invalid_value("null output pointer");
  WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, type));
  *out = reinterpret_cast<hipEvent_t>(n->as<EventData>().event.get());
  return Status();
}

Status set_event(hipGraphNode_t node, hipEvent_t event, hipGraphNodeType type) {
  WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, type));
  WEFT_ASSIGN_OR_RETURN(NodeParts parts, event_parts(type, event));
  n->data() = std::move(parts.data);
  n->ops() = std::move(parts.ops);
  return Status();
}

Status free_node(hipGraphNode_t* out, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                 void* ptr) {
  if (!out) return invalid_value("null output pointer");
  WEFT_ASSIGN_OR_RETURN(NodeParts parts, free_parts(ptr));
  return add_node(out, graph, deps, count, std::move(parts));
}

}  // namespace

WEFT_EXPORT hipError_t hipGraphCreate(hipGraph_t* graph, unsigned int flags) {
  return call(
      "hipGraphCreate",
      [&] {
    if (!graph) return invalid_value("null output pointer");
    if (flags != 0) return invalid_value("flags must be 0");
    Graph* g = new Graph();
    g->retain();  // the handle's reference
    *graph = handle_of(g);
    return Status();
      },
      graph, flags);
}

WEFT_EXPORT hipError_t hipGraphDestroy(hipGraph_t graph) {
  return call(
      "hipGraphDestroy",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(graph));
    if (g->owner()) return invalid_value("the graph belongs to a child-graph node");
    g->release();
    return Status();
      },
      graph);
}

WEFT_EXPORT hipError_t hipGraphClone(hipGraph_t* clone, hipGraph_t original) {
  return call(
      "hipGraphClone",
      [&] {
    if (!clone) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(original));
    Ref<Graph> copy = g->clone();
    *clone = handle_of(copy.detach());  // the handle owns the reference
    return Status();
      },
      clone, original);
}

WEFT_EXPORT hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t* from,
                                               const hipGraphNode_t* to, size_t count) {
  return call(
      "hipGraphAddDependencies", [&] { return edges(graph, from, to, count, true); }, graph, from,
      to, count);
}

WEFT_EXPORT hipError_t hipGraphRemoveDependencies(hipGraph_t graph, const hipGraphNode_t* from,
                                                  const hipGraphNode_t* to, size_t count) {
  return call(
      "hipGraphRemoveDependencies", [&] { return edges(graph, from, to, count, false); }, graph,
      from, to, count);
}

WEFT_EXPORT hipError_t hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t* from, hipGraphNode_t* to,
                                        size_t* count) {
  return call(
      "hipGraphGetEdges",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(graph));
    if (!count) return invalid_value("null count pointer");
    if (bool(from) != bool(to))
      return invalid_value("from and to must both be given or both be null");
    std::vector<hipGraphNode_t> a, b;
    for (const auto& node : g->nodes())
      for (GraphNode* dep : node->deps()) {
        a.push_back(handle_of(dep));
        b.push_back(handle_of(node.get()));
      }
    size_t n = *count;
    WEFT_RETURN_IF_ERROR(fill_list(a, from, &n));
    return fill_list(b, to, count);
      },
      graph, from, to, count);
}

WEFT_EXPORT hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* count) {
  return call(
      "hipGraphGetNodes",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(graph));
    std::vector<GraphNode*> all;
    for (const auto& n : g->nodes()) all.push_back(n.get());
    return list_nodes(all, nodes, count);
      },
      graph, nodes, count);
}

WEFT_EXPORT hipError_t hipGraphGetRootNodes(hipGraph_t graph, hipGraphNode_t* roots,
                                            size_t* count) {
  return call(
      "hipGraphGetRootNodes",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(graph));
    return list_nodes(g->roots(), roots, count);
      },
      graph, roots, count);
}

WEFT_EXPORT hipError_t hipGraphNodeGetDependencies(hipGraphNode_t node, hipGraphNode_t* deps,
                                                   size_t* count) {
  return call(
      "hipGraphNodeGetDependencies",
      [&] {
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, node_of(node));
    return list_nodes(n->deps(), deps, count);
      },
      node, deps, count);
}

WEFT_EXPORT hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t node,
                                                     hipGraphNode_t* dependents, size_t* count) {
  return call(
      "hipGraphNodeGetDependentNodes",
      [&] {
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, node_of(node));
    return list_nodes(n->dependents(), dependents, count);
      },
      node, dependents, count);
}

WEFT_EXPORT hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType* type) {
  return call(
      "hipGraphNodeGetType",
      [&] {
    if (!type) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, node_of(node));
    *type = n->type();
    return Status();
      },
      node, type);
}

WEFT_EXPORT hipError_t hipGraphDestroyNode(hipGraphNode_t node) {
  return call(
      "hipGraphDestroyNode",
      [&] {
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, node_of(node));
    n->graph().destroy(n);
    return Status();
      },
      node);
}

WEFT_EXPORT hipError_t hipGraphNodeFindInClone(hipGraphNode_t* found, hipGraphNode_t original,
                                               hipGraph_t clone) {
  return call(
      "hipGraphNodeFindInClone",
      [&] {
    if (!found) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, node_of(original));
    WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(clone));
    for (const auto& candidate : g->nodes())
      if (candidate->original() == n) {
        *found = handle_of(candidate.get());
        return Status();
      }
    return invalid_value("the graph is not a clone of the node's graph");
      },
      found, original, clone);
}

WEFT_EXPORT hipError_t hipGraphAddEmptyNode(hipGraphNode_t* node, hipGraph_t graph,
                                            const hipGraphNode_t* deps, size_t count) {
  return call(
      "hipGraphAddEmptyNode",
      [&] {
    if (!node) return invalid_value("null output pointer");
    return add_node(node, graph, deps, count, NodeParts{hipGraphNodeTypeEmpty, EmptyData{}, {}});
      },
      node, graph, deps, count);
}

WEFT_EXPORT hipError_t hipGraphAddChildGraphNode(hipGraphNode_t* node, hipGraph_t graph,
                                                 const hipGraphNode_t* deps, size_t count,
                                                 hipGraph_t child) {
  return call(
      "hipGraphAddChildGraphNode",
      [&] {
    if (!node) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(Graph * parent, graph_of(graph));
    WEFT_ASSIGN_OR_RETURN(NodeParts parts, child_parts(child, parent));
    return add_node(node, graph, deps, count, std::move(parts));
      },
      node, graph, deps, count, child);
}

WEFT_EXPORT hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t* graph) {
  return call(
      "hipGraphChildGraphNodeGetGraph",
      [&] {
    if (!graph) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, hipGraphNodeTypeGraph));
    *graph = handle_of(n->as<ChildData>().graph.get());
    return Status();
      },
      node, graph);
}

WEFT_EXPORT hipError_t hipGraphAddEventRecordNode(hipGraphNode_t* node, hipGraph_t graph,
                                                  const hipGraphNode_t* deps, size_t count,
                                                  hipEvent_t event) {
  return call(
      "hipGraphAddEventRecordNode",
      [&] { return event_node(node, graph, deps, count, event, hipGraphNodeTypeEventRecord); },
      node, graph, deps, count, event);
}

WEFT_EXPORT hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t* event) {
  return call(
      "hipGraphEventRecordNodeGetEvent",
      [&] { return get_event(node, event, hipGraphNodeTypeEventRecord); }, node, event);
}

WEFT_EXPORT hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  return call(
      "hipGraphEventRecordNodeSetEvent",
      [&] { return set_event(node, event, hipGraphNodeTypeEventRecord); }, node, event);
}

WEFT_EXPORT hipError_t hipGraphAddEventWaitNode(hipGraphNode_t* node, hipGraph_t graph,
                                                const hipGraphNode_t* deps, size_t count,
                                                hipEvent_t event) {
  return call(
      "hipGraphAddEventWaitNode",
      [&] { return event_node(node, graph, deps, count, event, hipGraphNodeTypeWaitEvent); }, node,
      graph, deps, count, event);
}

WEFT_EXPORT hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t* event) {
  return call(
      "hipGraphEventWaitNodeGetEvent",
      [&] { return get_event(node, event, hipGraphNodeTypeWaitEvent); }, node, event);
}

WEFT_EXPORT hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  return call(
      "hipGraphEventWaitNodeSetEvent",
      [&] { return set_event(node, event, hipGraphNodeTypeWaitEvent); }, node, event);
}

WEFT_EXPORT hipError_t hipGraphAddMemAllocNode(hipGraphNode_t* node, hipGraph_t graph,
                                               const hipGraphNode_t* deps, size_t count,
                                               hipMemAllocNodeParams* params) {
  return call(
      "hipGraphAddMemAllocNode",
      [&] {
    if (!node) return invalid_value("null output pointer");
    WEFT_RETURN_IF_ERROR(graph_of(graph).status());
    WEFT_RETURN_IF_ERROR(nodes_of(deps, count).status());
    WEFT_ASSIGN_OR_RETURN(NodeParts parts, alloc_parts(params));
    return add_node(node, graph, deps, count, std::move(parts));
      },
      node, graph, deps, count, params);
}

WEFT_EXPORT hipError_t hipGraphMemAllocNodeGetParams(hipGraphNode_t node,
                                                     hipMemAllocNodeParams* params) {
  return call(
      "hipGraphMemAllocNodeGetParams",
      [&] {
    if (!params) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, hipGraphNodeTypeMemAlloc));
    *params = n->as<AllocData>().params;
    return Status();
      },
      node, params);
}

WEFT_EXPORT hipError_t hipGraphAddMemFreeNode(hipGraphNode_t* node, hipGraph_t graph,
                                              const hipGraphNode_t* deps, size_t count, void* ptr) {
  return call(
      "hipGraphAddMemFreeNode", [&] { return free_node(node, graph, deps, count, ptr); }, node,
      graph, deps, count, ptr);
}

WEFT_EXPORT hipError_t hipDrvGraphAddMemFreeNode(hipGraphNode_t* node, hipGraph_t graph,
                                                 const hipGraphNode_t* deps, size_t count,
                                                 hipDeviceptr_t ptr) {
  return call(
      "hipDrvGraphAddMemFreeNode", [&] { return free_node(node, graph, deps, count, ptr); }, node,
      graph, deps, count, ptr);
}

WEFT_EXPORT hipError_t hipGraphMemFreeNodeGetParams(hipGraphNode_t node, void* ptr_out) {
  return call(
      "hipGraphMemFreeNodeGetParams",
      [&] {
    if (!ptr_out) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, hipGraphNodeTypeMemFree));
    *static_cast<void**>(ptr_out) = n->as<FreeData>().ptr;
    return Status();
      },
      node, ptr_out);
}

WEFT_EXPORT hipError_t hipDeviceGetGraphMemAttribute(int device, hipGraphMemAttributeType attr,
                                                     void* value) {
  return call(
      "hipDeviceGetGraphMemAttribute",
      [&] {
    WEFT_ASSIGN_OR_RETURN(DeviceState * d, device_at(device));
    if (!value) return invalid_value("null output pointer");
    GraphMemoryUsage usage = graph_memory_usage(*d);
    auto* out = static_cast<uint64_t*>(value);
    switch (attr) {
      case hipGraphMemAttrUsedMemCurrent: *out = usage.used_current; return Status();
      case hipGraphMemAttrReservedMemCurrent: *out = usage.reserved_current; return Status();
      case hipGraphMemAttrUsedMemHigh: *out = usage.used_high; return Status();
      case hipGraphMemAttrReservedMemHigh: *out = usage.reserved_high; return Status();
    }
    return invalid_value(fmt::format("unknown graph memory attribute {}", int(attr)));
      },
      device, attr, value);
}

WEFT_EXPORT hipError_t hipDeviceSetGraphMemAttribute(int device, hipGraphMemAttributeType attr,
                                                     void* value) {
  return call(
      "hipDeviceSetGraphMemAttribute",
      [&] {
    WEFT_ASSIGN_OR_RETURN(DeviceState * d, device_at(device));
    if (!value) return invalid_value("null value pointer");
    if (attr != hipGraphMemAttrUsedMemHigh && attr != hipGraphMemAttrReservedMemHigh)
      return invalid_value("only the high watermarks can be set");
    if (*static_cast<uint64_t*>(value) != 0)
      return invalid_value("a high watermark can only be reset to 0");
    reset_graph_memory_high(*d, attr == hipGraphMemAttrReservedMemHigh);
    return Status();
      },
      device, attr, value);
}

WEFT_EXPORT hipError_t hipDeviceGraphMemTrim(int device) {
  // Blocks of destroyed graphs stay in the device's graph pool until now.
  return call(
      "hipDeviceGraphMemTrim",
      [&] {
    WEFT_ASSIGN_OR_RETURN(DeviceState * d, device_at(device));
    trim_graph_memory(*d);
    return Status();
      },
      device);
}

WEFT_EXPORT hipError_t hipUserObjectCreate(hipUserObject_t* object, void* ptr, hipHostFn_t destroy,
                                           unsigned int initial, unsigned int flags) {
  return call(
      "hipUserObjectCreate",
      [&] {
    if (!object) return invalid_value("null output pointer");
    if (!destroy) return invalid_value("null destroy callback");
    if (initial == 0) return invalid_value("the initial reference count must be positive");
    if (flags != hipUserObjectNoDestructorSync)
      return invalid_value("flags must be hipUserObjectNoDestructorSync");
    *object = reinterpret_cast<hipUserObject_t>(new UserObject(ptr, destroy, initial));
    return Status();
      },
      object, ptr, destroy, initial, flags);
}

WEFT_EXPORT hipError_t hipUserObjectRetain(hipUserObject_t object, unsigned int count) {
  return call(
      "hipUserObjectRetain",
      [&] {
    if (count == 0) return invalid_value("count must be positive");
    WEFT_ASSIGN_OR_RETURN(UserObject * o, user_object_of(object));
    o->retain(count);
    return Status();
      },
      object, count);
}

WEFT_EXPORT hipError_t hipUserObjectRelease(hipUserObject_t object, unsigned int count) {
  return call(
      "hipUserObjectRelease",
      [&] {
    if (count == 0) return invalid_value("count must be positive");
    WEFT_ASSIGN_OR_RETURN(UserObject * o, user_object_of(object));
    if (!o->release(count))
      return invalid_value(
          fmt::format("cannot release {} references: the user object holds fewer", count));
    return Status();
      },
      object, count);
}

WEFT_EXPORT hipError_t hipGraphRetainUserObject(hipGraph_t graph, hipUserObject_t object,
                                                unsigned int count, unsigned int flags) {
  return call(
      "hipGraphRetainUserObject",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(graph));
    WEFT_ASSIGN_OR_RETURN(UserObject * o, user_object_of(object));
    if (count == 0) return invalid_value("count must be positive");
    if (flags != 0 && flags != hipGraphUserObjectMove)
      return invalid_value("flags must be 0 or hipGraphUserObjectMove");
    g->retain_user_object(*o, count);
    if (flags == hipGraphUserObjectMove) o->release(count);  // the caller's references move
    return Status();
      },
      graph, object, count, flags);
}

WEFT_EXPORT hipError_t hipGraphReleaseUserObject(hipGraph_t graph, hipUserObject_t object,
                                                 unsigned int count) {
  return call(
      "hipGraphReleaseUserObject",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(graph));
    WEFT_ASSIGN_OR_RETURN(UserObject * o, user_object_of(object));
    if (count == 0) return invalid_value("count must be positive");
    return g->release_user_object(*o, count);
      },
      graph, object, count);
}

WEFT_EXPORT hipError_t hipGraphDebugDotPrint(hipGraph_t graph, const char* path,
                                             unsigned int flags) {
  return call(
      "hipGraphDebugDotPrint",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(graph));
    if (!path) return invalid_value("null path");
    std::string dot = to_dot(*g, flags);
    FILE* f = std::fopen(path, "w");
    if (!f) return Status(hipErrorOperatingSystem, fmt::format("cannot open {} for writing", path));
    bool written = std::fwrite(dot.data(), 1, dot.size(), f) == dot.size();
    if (std::fclose(f) != 0 || !written)
      return Status(hipErrorOperatingSystem, fmt::format("cannot write {}", path));
    return Status();
      },
      graph, path, flags);
}
