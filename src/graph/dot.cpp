// SPDX-License-Identifier: MIT
#include "graph/dot.hpp"

#include <fmt/format.h>

#include <cstring>
#include <iterator>

namespace weft::graph {
namespace {

const char* kind_name(hipGraphNodeType type) {
  switch (type) {
    case hipGraphNodeTypeKernel: return "kernel";
    case hipGraphNodeTypeMemcpy: return "memcpy";
    case hipGraphNodeTypeMemset: return "memset";
    case hipGraphNodeTypeHost: return "host";
    case hipGraphNodeTypeGraph: return "child graph";
    case hipGraphNodeTypeEmpty: return "empty";
    case hipGraphNodeTypeWaitEvent: return "event wait";
    case hipGraphNodeTypeEventRecord: return "event record";
    case hipGraphNodeTypeMemAlloc: return "mem alloc";
    case hipGraphNodeTypeMemFree: return "mem free";
    default: return "node";
  }
}

// AMD's enumerator names, as programs write them; an unknown value shows as its number.
std::string copy_kind_name(hipMemcpyKind kind) {
  int raw;
  static_assert(sizeof raw == sizeof kind);
  std::memcpy(&raw, &kind, sizeof raw);  // stored by the caller: may be outside the enum
  switch (raw) {
    case hipMemcpyHostToHost: return "hipMemcpyHostToHost";
    case hipMemcpyHostToDevice: return "hipMemcpyHostToDevice";
    case hipMemcpyDeviceToHost: return "hipMemcpyDeviceToHost";
    case hipMemcpyDeviceToDevice: return "hipMemcpyDeviceToDevice";
    case hipMemcpyDefault: return "hipMemcpyDefault";
    case hipMemcpyDeviceToDeviceNoCU: return "hipMemcpyDeviceToDeviceNoCU";
    default: return fmt::format("hipMemcpyKind({})", raw);
  }
}

}  // namespace

// Every byte count in a label has one form: the exact count, then (from 1 KiB)
// the size in the largest binary unit that keeps it at least 1, to one decimal.
std::string size_text(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  std::string out = fmt::format("{} {}", bytes, bytes == 1 ? "byte" : "bytes");
  if (bytes < 1024) return out;
  double value = double(bytes);
  size_t unit = 0;
  for (value /= 1024; value >= 1024 && unit + 1 < std::size(kUnits); value /= 1024) ++unit;
  return out + fmt::format(" ({:.1f} {})", value, kUnits[unit]);
}

namespace {

// Escapes text for a double-quoted DOT string (newlines become \n).
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

bool wants(unsigned flags, unsigned bit) {
  return (flags & hipGraphDebugDotFlagsVerbose) || (flags & bit);
}

// A copy: source and destination (an array or a pointer), the extent, the total
// and the kind by name. Array extents count elements, pointer extents bytes.
std::string copy_label(const hipMemcpy3DParms& p) {
  auto end = [](hipArray_t array, const hipPitchedPtr& ptr) {
    return array ? fmt::format("array {}", static_cast<const void*>(array))
                 : fmt::format("{}", ptr.ptr);
  };
  std::string out = fmt::format("\n{} -> {}", end(p.srcArray, p.srcPtr), end(p.dstArray, p.dstPtr));
  const hipExtent& e = p.extent;
  if (p.srcArray || p.dstArray)
    return out + fmt::format("\n{}x{}x{} elements\n{}", e.width, e.height, e.depth,
                             copy_kind_name(p.kind));
  return out + fmt::format("\n{}x{}x{}, {}\n{}", e.width, e.height, e.depth,
                           size_text(uint64_t(e.width) * e.height * e.depth),
                           copy_kind_name(p.kind));
}

std::string label_of(const GraphNode& node, unsigned flags) {
  std::string label = fmt::format("{}: {}", node.index(), kind_name(node.type()));
  if (flags & hipGraphDebugDotFlagsHandles)
    label += fmt::format("\nhandle {}", static_cast<const void*>(&node));
  if (auto* k = std::get_if<KernelData>(&node.data())) {
    const auto& op = std::get<DispatchOp>(node.ops()[0]);
    if (op.host_kernel) label += fmt::format("\n{}", op.host_kernel->name());
    else if (op.kernel) label += fmt::format("\n{}", op.kernel->info().name);
    if (wants(flags, hipGraphDebugDotFlagsKernelNodeParams))
      label += fmt::format("\ngrid ({},{},{}) block ({},{},{}) shared {}", op.dims.grid.x,
                           op.dims.grid.y, op.dims.grid.z, op.dims.block.x, op.dims.block.y,
                           op.dims.block.z, op.dims.dynamic_shared_bytes);
    if (wants(flags, hipGraphDebugDotFlagsKernelNodeAttributes))
      label += fmt::format("\npriority {} cooperative {}", k->attributes.priority,
                           k->attributes.cooperative);
  } else if (auto* c = std::get_if<CopyData>(&node.data())) {
    if (wants(flags, hipGraphDebugDotFlagsMemcpyNodeParams)) label += copy_label(c->params);
  } else if (auto* m = std::get_if<MemsetData>(&node.data())) {
    if (wants(flags, hipGraphDebugDotFlagsMemsetNodeParams))
      label += fmt::format(
          "\n{} = {:#x}\n{}x{} elements of {}, {}", m->params.dst, m->params.value, m->params.width,
          m->params.height, size_text(m->params.elementSize),
          size_text(uint64_t(m->params.width) * m->params.height * m->params.elementSize));
  } else if (auto* h = std::get_if<HostData>(&node.data())) {
    if (wants(flags, hipGraphDebugDotFlagsHostNodeParams))
      label += fmt::format("\nfn {} data {}", reinterpret_cast<const void*>(h->params.fn),
                           h->params.userData);
  } else if (auto* e = std::get_if<EventData>(&node.data())) {
    if (wants(flags, hipGraphDebugDotFlagsEventNodeParams))
      label += fmt::format("\nevent {}", static_cast<const void*>(e->event.get()));
  } else if (auto* a = std::get_if<AllocData>(&node.data())) {
    label += fmt::format("\n{} at {}", size_text(a->params.bytesize), a->params.dptr);
  } else if (auto* f = std::get_if<FreeData>(&node.data())) {
    label += fmt::format("\n{}", f->ptr);
  }
  return label;
}

// Writes the nodes and edges of `graph` with ids prefixed by `prefix`.
void write_graph(const Graph& graph, const std::string& prefix, unsigned flags, std::string& out,
                 int depth) {
  std::string indent(static_cast<size_t>(depth) * 2, ' ');
  for (const auto& node : graph.nodes()) {
    std::string id = fmt::format("{}n{}", prefix, node->index());
    out += fmt::format("{}{} [label={}];\n", indent, id, quoted(label_of(*node, flags)));
    if (auto* child = std::get_if<ChildData>(&node->data())) {
      std::string inner = id + "_";
      out += fmt::format("{}subgraph cluster_{} {{\n", indent, id);
      out += fmt::format("{}  label={};\n{}  style=dashed;\n", indent,
                         quoted(fmt::format("child graph of node {}", node->index())), indent);
      write_graph(*child->graph, inner, flags, out, depth + 1);
      out += indent + "}\n";
      for (const GraphNode* root : child->graph->roots())
        out += fmt::format("{}{} -> {}n{} [style=dashed];\n", indent, id, inner, root->index());
    }
  }
  for (const auto& node : graph.nodes())
    for (const GraphNode* dep : node->deps())
      out +=
          fmt::format("{}{}n{} -> {}n{};\n", indent, prefix, dep->index(), prefix, node->index());
}

}  // namespace

std::string to_dot(const Graph& graph, unsigned flags) {
  std::string out = "digraph weft_graph {\n";
  out += "  compound=true;\n  node [shape=box, fontname=\"monospace\"];\n";
  out += fmt::format(
      "  label={};\n",
      quoted(fmt::format("graph {} ({} nodes, {} edges)", static_cast<const void*>(&graph),
                         graph.nodes().size(), graph.edge_count())));
  write_graph(graph, "", flags, out, 1);
  out += "}\n";
  return out;
}

}  // namespace weft::graph
