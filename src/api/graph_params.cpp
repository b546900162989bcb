// SPDX-License-Identifier: MIT
// Graph node parameters: validation of what the user passes and the ops a
// node performs (see graph_common.hpp).
#include "api/graph_common.hpp"

#include "api/array_copy.hpp"
#include "api/launch_code_object.hpp"
#include "api/launch_host_kernel.hpp"
#include "api/memory_checks.hpp"
#include "api/symbol_storage.hpp"
#include "codeobj/registry.hpp"
#include "graph/handles.hpp"
#include "graph/host_kernels.hpp"
#include "graph/nodes.hpp"

#include <cstring>

namespace weft::api {

using namespace weft::graph;

Result<Graph*> graph_of(hipGraph_t handle) {
  if (!handle) return invalid_value("null graph");
  Graph* g = handles().graphs.find(handle);
  if (!g) return invalid_value("graph handle is unknown or was destroyed");
  return g;
}

Result<GraphNode*> node_of(hipGraphNode_t handle) {
  if (!handle) return invalid_value("null graph node");
  GraphNode* n = handles().nodes.find(handle);
  if (!n) return invalid_value("graph node handle is unknown or was destroyed");
  return n;
}

Result<GraphExec*> exec_of(hipGraphExec_t handle) {
  if (!handle) return invalid_value("null executable graph");
  GraphExec* e = handles().execs.find(handle);
  if (!e) return invalid_value("executable graph handle is unknown or was destroyed");
  return e;
}

Result<std::vector<GraphNode*>> nodes_of(const hipGraphNode_t* handles, size_t count) {
  std::vector<GraphNode*> out;
  if (count == 0) return out;
  if (!handles) return invalid_value(fmt::format("{} dependencies but the array is null", count));
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    WEFT_ASSIGN_OR_RETURN(GraphNode * n, node_of(handles[i]));
    out.push_back(n);
  }
  return out;
}

Status add_node(hipGraphNode_t* out, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                NodeParts parts) {
  WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(graph));
  WEFT_ASSIGN_OR_RETURN(std::vector<GraphNode*> dependencies, nodes_of(deps, count));
  WEFT_ASSIGN_OR_RETURN(GraphNode * node, g->add(parts.type, std::move(parts.data),
                                                 std::move(parts.ops), dependencies));
  *out = handle_of(node);
  return Status();
}

Result<GraphNode*> typed_node(hipGraphNode_t handle, hipGraphNodeType type) {
  WEFT_ASSIGN_OR_RETURN(GraphNode * n, node_of(handle));
  if (n->type() != type)
    return invalid_value(fmt::format("the node is of type {}, not {}", int(n->type()), int(type)));
  return n;
}

Result<ExecTarget> exec_target(hipGraphExec_t exec, hipGraphNode_t node, hipGraphNodeType type) {
  WEFT_ASSIGN_OR_RETURN(GraphExec * e, exec_of(exec));
  WEFT_ASSIGN_OR_RETURN(GraphNode * n, typed_node(node, type));
  WEFT_ASSIGN_OR_RETURN(uint32_t slot, e->slot_of(n));
  return ExecTarget{e, slot};
}

// ---- kernels ----

namespace {

const DispatchOp* dispatch_of(const GraphNode* node) {
  if (!node || node->ops().empty()) return nullptr;
  return std::get_if<DispatchOp>(&node->ops()[0]);
}

// A code-object kernel named by a registered host function or a hipFunction_t.
Result<Ref<Kernel>> code_object_kernel(const void* func, DeviceState& device) {
  if (Ref<RegisteredFunction> registered = Registry::get().function(func)) {
    WEFT_ASSIGN_OR_RETURN(Ref<Function> f, registered->function_for(device));
    return f->kernel();
  }
  if (Ref<Function> f = Registry::get().functions().find(func)) {
    if (&f->device() != &device)
      return Status(hipErrorInvalidDeviceFunction,
                    fmt::format("the function was loaded on device {}, not {}",
                                f->device().ordinal(), device.ordinal()));
    return f->kernel();
  }
  return Status(hipErrorInvalidDeviceFunction, "not a kernel");
}

Status host_kernel_op(DispatchOp& op, const hipKernelNodeParams& p, const weftHostKernel& d,
                      const DispatchOp* current, DeviceState& device) {
  if (!device.driver_device().caps().runs_host_kernels)
    return Status(hipErrorNoBinaryForGpu,
                  fmt::format("kernel {} was compiled for the host only; device {} cannot run it",
                              d.name ? d.name : "<kernel>", device.ordinal()));
  if (p.extra) return invalid_value("single-source kernels take kernelParams, not extra");
  if (!d.packArgs && current && current->host_kernel && !p.kernelParams) {
    op.host_kernel = current->host_kernel;  // same arguments, new launch shape
    return Status();
  }
  WEFT_ASSIGN_OR_RETURN(op.host_kernel, make_host_kernel(d, p.kernelParams));
  return Status();
}

Status code_object_op(DispatchOp& op, const hipKernelNodeParams& p, Ref<Kernel> kernel) {
  const KernelInfo& info = kernel->info();
  uint64_t threads = uint64_t(p.blockDim.x) * p.blockDim.y * p.blockDim.z;
  if (threads > info.max_threads_per_block)
    return Status(hipErrorInvalidConfiguration,
                  fmt::format("block of {} threads exceeds kernel {}'s limit of {}", threads,
                              info.name, info.max_threads_per_block));
  if (p.extra) {
    WEFT_ASSIGN_OR_RETURN(op.kernarg, pack_extra(info, p.extra));
  } else {
    WEFT_ASSIGN_OR_RETURN(op.kernarg, pack_params(info, p.kernelParams));
  }
  op.kernel = std::move(kernel);
  return Status();
}

}  // namespace

Result<NodeParts> kernel_parts(const hipKernelNodeParams* p, const GraphNode* current) {
  if (!p) return invalid_value("null kernel node parameters");
  if (!p->func) return Status(hipErrorInvalidDeviceFunction, "null kernel function");
  if (p->kernelParams && p->extra) return invalid_value("give kernelParams or extra, not both");
  DeviceState* device = nullptr;
  if (current) {
    device = Runtime::get().device(current->as<KernelData>().device);
  } else {
    WEFT_ASSIGN_OR_RETURN(device, current_device());
  }
  WEFT_RETURN_IF_ERROR(check_launch(*device, p->gridDim, p->blockDim, p->sharedMemBytes));
  const DispatchOp* now = dispatch_of(current);
  bool same_function = current && current->as<KernelData>().func == p->func;

  DispatchOp op;
  op.dims.grid = p->gridDim;
  op.dims.block = p->blockDim;
  op.dims.dynamic_shared_bytes = p->sharedMemBytes;
  const weftHostKernel* d = find_host_kernel(p->func);
  if (!d && same_function && now && now->host_kernel) d = &now->host_kernel->descriptor();
  if (d) {
    WEFT_RETURN_IF_ERROR(host_kernel_op(op, *p, *d, same_function ? now : nullptr, *device));
  } else {
    auto kernel = code_object_kernel(p->func, *device);
    if (!kernel.ok() && same_function && now && now->kernel) kernel = now->kernel;
    // A registered kernel or hipFunction_t that cannot run here keeps its own
    // error (hipErrorNoBinaryForGpu when the fat binary has no code object for
    // the agent); only an address that names no kernel at all is reported so.
    bool named = Registry::get().function(p->func) || Registry::get().functions().find(p->func);
    if (!kernel.ok() && named) return kernel.status();
    if (!kernel.ok())
      return Status(hipErrorInvalidDeviceFunction,
                    fmt::format("{} is neither a registered kernel, a hipFunction_t, nor a "
                                "single-source kernel launched or captured before",
                                p->func));
    WEFT_RETURN_IF_ERROR(code_object_op(op, *p, kernel.value()));
  }
  KernelData data;
  data.func = p->func;
  data.device = device->ordinal();
  if (current) data.attributes = current->as<KernelData>().attributes;
  NodeParts parts{hipGraphNodeTypeKernel, std::move(data), {}};
  parts.ops.emplace_back(std::in_place_type<DispatchOp>, std::move(op));
  return parts;
}

void kernel_params_of(GraphNode& node, hipKernelNodeParams* out) {
  auto& data = node.as<KernelData>();
  const auto& op = std::get<DispatchOp>(node.ops()[0]);
  *out = hipKernelNodeParams{};
  out->func = const_cast<void*>(data.func);
  out->gridDim = op.dims.grid;
  out->blockDim = op.dims.block;
  out->sharedMemBytes = op.dims.dynamic_shared_bytes;
  if (data.arg_addresses.empty()) {
    if (op.host_kernel) {
      const weftHostKernel& d = op.host_kernel->descriptor();
      if (d.argAddresses && d.argCount > 0) {
        data.arg_addresses.resize(d.argCount);
        d.argAddresses(op.host_kernel->args(), data.arg_addresses.data());
      }
    } else if (op.kernel) {
      auto* base = const_cast<std::byte*>(op.kernarg.data());
      for (const KernelArgInfo& a : op.kernel->info().args)
        data.arg_addresses.push_back(base + a.offset);
    }
  }
  out->kernelParams = data.arg_addresses.empty() ? nullptr : data.arg_addresses.data();
}

// ---- copies ----

namespace {

struct Region {
  std::byte* origin;  // address of the region's first byte
  size_t pitch;       // bytes between rows
  size_t slice;       // bytes between slices
  size_t rows;        // rows per slice of the allocation (ysize)
};

Result<Region> region_of(const hipPitchedPtr& ptr, const hipPos& pos, const hipExtent& e,
                         const char* what) {
  size_t pitch = ptr.pitch;
  bool flat = e.height == 1 && e.depth == 1 && pos.y == 0 && pos.z == 0;
  if (pitch == 0 && flat) pitch = pos.x + e.width;
  if (pitch < pos.x + e.width)
    return invalid_value(fmt::format("{} pitch {} is smaller than the copied row ({} + {} bytes)",
                                     what, pitch, pos.x, e.width));
  size_t rows = ptr.ysize;
  if (e.depth > 1 || pos.z > 0) {
    if (rows < pos.y + e.height)
      return invalid_value(
          fmt::format("{} has {} rows per slice; the copy needs {}", what, rows, pos.y + e.height));
  } else if (rows < pos.y + e.height) {
    rows = pos.y + e.height;
  }
  auto* base = static_cast<std::byte*>(ptr.ptr);
  return Region{base + pos.z * pitch * rows + pos.y * pitch + pos.x, pitch, pitch * rows, rows};
}

}  // namespace

Result<NodeParts> copy_parts(const hipMemcpy3DParms* p) {
  if (!p) return invalid_value("null memcpy node parameters");
  if ((p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
    return invalid_value("a copy end names both an array and a pointer");
  if (p->srcArray || p->dstArray) {
    // Arrays in linear memory become copy commands like any pointer (array_copy.hpp).
    RegionSide dst, src;
    WEFT_ASSIGN_OR_RETURN(size_t width, region_sides(*p, dst, src));
    WEFT_ASSIGN_OR_RETURN(std::vector<CopyOp> ops,
                          plan_region(dst, src, width, p->extent.height, p->extent.depth));
    NodeParts parts{hipGraphNodeTypeMemcpy, CopyData{*p}, {}};
    for (const CopyOp& op : ops) parts.ops.emplace_back(std::in_place_type<CopyOp>, op);
    return parts;
  }
  const hipExtent& e = p->extent;
  if (e.width == 0 || e.height == 0 || e.depth == 0)
    return invalid_value(fmt::format("empty copy extent {}x{}x{}", e.width, e.height, e.depth));
  if (!p->srcPtr.ptr || !p->dstPtr.ptr) return invalid_value("null source or destination");
  WEFT_ASSIGN_OR_RETURN(Region src, region_of(p->srcPtr, p->srcPos, e, "source"));
  WEFT_ASSIGN_OR_RETURN(Region dst, region_of(p->dstPtr, p->dstPos, e, "destination"));
  NodeParts parts{hipGraphNodeTypeMemcpy, CopyData{*p}, {}};
  // One 2D command when the slices' rows follow each other in both buffers.
  bool merge = e.depth == 1 || (src.rows == e.height && dst.rows == e.height);
  size_t commands = merge ? 1 : e.depth;
  size_t height = merge ? e.height * e.depth : e.height;
  for (size_t z = 0; z < commands; ++z) {
    WEFT_ASSIGN_OR_RETURN(
        CopyOp op, make_copy(dst.origin + z * dst.slice, dst.pitch, src.origin + z * src.slice,
                             src.pitch, e.width, height, p->kind));
    parts.ops.emplace_back(std::in_place_type<CopyOp>, op);
  }
  // Slices past the first may start beyond the allocation each base lies in.
  WEFT_ASSIGN_OR_RETURN(auto sides, copy_sides(p->kind));
  const auto& last = std::get<CopyOp>(parts.ops.back());
  auto dst_span = span_2d(last.dst_pitch, last.width, last.height);
  auto src_span = span_2d(last.src_pitch, last.width, last.height);
  if (!dst_span || !src_span) return invalid_value("the copy extent overflows");
  WEFT_RETURN_IF_ERROR(
      check_region(p->dstPtr.ptr, last.dst, *dst_span, sides.first, "destination", Access::kWrite));
  WEFT_RETURN_IF_ERROR(
      check_region(p->srcPtr.ptr, last.src, *src_span, sides.second, "source", Access::kRead));
  return parts;
}

Result<NodeParts> copy_parts_1d(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
  if (bytes == 0) return invalid_value("zero-byte copy");
  if (!dst || !src) return invalid_value("null source or destination");
  WEFT_ASSIGN_OR_RETURN(CopyOp op, make_copy(dst, bytes, src, bytes, bytes, 1, kind));
  CopyData data;
  data.params.srcPtr = make_hipPitchedPtr(const_cast<void*>(src), bytes, bytes, 1);
  data.params.dstPtr = make_hipPitchedPtr(dst, bytes, bytes, 1);
  data.params.extent = make_hipExtent(bytes, 1, 1);
  data.params.kind = kind;
  NodeParts parts{hipGraphNodeTypeMemcpy, std::move(data), {}};
  parts.ops.emplace_back(std::in_place_type<CopyOp>, op);
  return parts;
}

Result<NodeParts> symbol_parts(bool to_symbol, const void* symbol, void* other, size_t bytes,
                               size_t offset, hipMemcpyKind kind) {
  if (to_symbol && kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToDevice &&
      kind != hipMemcpyDefault)
    return Status(hipErrorInvalidMemcpyDirection, "copies to a symbol go to the device");
  if (!to_symbol && kind != hipMemcpyDeviceToHost && kind != hipMemcpyDeviceToDevice &&
      kind != hipMemcpyDefault)
    return Status(hipErrorInvalidMemcpyDirection, "copies from a symbol come from the device");
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  WEFT_ASSIGN_OR_RETURN(
      std::byte * address,
      symbol_range(symbol, offset, bytes, *device, to_symbol ? Access::kWrite : Access::kRead));
  if (to_symbol) return copy_parts_1d(address, other, bytes, kind);
  return copy_parts_1d(other, address, bytes, kind);
}

Result<NodeParts> drv_copy_parts(const HIP_MEMCPY3D* p) {
  if (!p) return invalid_value("null memcpy node parameters");
  if (p->srcArray || p->dstArray || p->srcMemoryType == hipMemoryTypeArray ||
      p->dstMemoryType == hipMemoryTypeArray)
    return Status(hipErrorNotSupported, "graph memcpy nodes do not take HIP arrays yet");
  if (p->srcLOD || p->dstLOD) return invalid_value("mipmap levels must be 0");
  auto pointer = [](hipMemoryType type, const void* host, hipDeviceptr_t device) {
    return const_cast<void*>(type == hipMemoryTypeHost ? host : static_cast<const void*>(device));
  };
  hipMemcpy3DParms q{};
  q.srcPtr = make_hipPitchedPtr(pointer(p->srcMemoryType, p->srcHost, p->srcDevice), p->srcPitch,
                                p->WidthInBytes, p->srcHeight);
  q.dstPtr = make_hipPitchedPtr(pointer(p->dstMemoryType, p->dstHost, p->dstDevice), p->dstPitch,
                                p->WidthInBytes, p->dstHeight);
  q.srcPos = make_hipPos(p->srcXInBytes, p->srcY, p->srcZ);
  q.dstPos = make_hipPos(p->dstXInBytes, p->dstY, p->dstZ);
  q.extent = make_hipExtent(p->WidthInBytes, p->Height, p->Depth);
  q.kind = hipMemcpyDefault;
  return copy_parts(&q);
}

Result<NodeParts> memset_parts(const hipMemsetParams* p) {
  if (!p) return invalid_value("null memset node parameters");
  if (!p->dst) return invalid_value("null destination");
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
    return invalid_value(fmt::format("element size {} is not 1, 2 or 4", p->elementSize));
  if (p->width == 0 || p->height == 0)
    return invalid_value(fmt::format("empty memset {}x{}", p->width, p->height));
  size_t row = p->width * p->elementSize;
  size_t pitch = p->height == 1 && p->pitch == 0 ? row : p->pitch;
  if (p->height > 1 && pitch < row)
    return invalid_value(fmt::format("pitch {} is smaller than the row of {} bytes", pitch, row));
  uint32_t value = p->elementSize == 1 ? (p->value & 0xffu)
                 : p->elementSize == 2 ? (p->value & 0xffffu)
                                       : p->value;
  WEFT_ASSIGN_OR_RETURN(
      FillOp op,
      make_fill(p->dst, pitch, value, static_cast<uint8_t>(p->elementSize), p->width, p->height));
  NodeParts parts{hipGraphNodeTypeMemset, MemsetData{*p}, {}};
  parts.ops.emplace_back(std::in_place_type<FillOp>, op);
  return parts;
}

Result<NodeParts> host_parts(const hipHostNodeParams* p) {
  if (!p) return invalid_value("null host node parameters");
  if (!p->fn) return invalid_value("null host function");
  HostData data;
  data.params = *p;
  NodeParts parts{hipGraphNodeTypeHost, std::move(data), {}};
  hipHostFn_t fn = p->fn;
  void* user = p->userData;
  parts.ops.emplace_back(std::in_place_type<HostFuncOp>, HostFuncOp{[fn, user] { fn(user); }});
  return parts;
}

Result<NodeParts> event_parts(hipGraphNodeType type, hipEvent_t event) {
  if (!event) return invalid_value("null event");
  Ref<CoreEvent> e = Runtime::get().events().find(event);
  if (!e) return Status(hipErrorInvalidHandle, "event handle is unknown or was destroyed");
  NodeParts parts{type, EventData{e}, {}};
  if (type == hipGraphNodeTypeEventRecord)
    parts.ops.emplace_back(std::in_place_type<EventRecordOp>, EventRecordOp{e->driver_event_ref()});
  else parts.ops.emplace_back(std::in_place_type<EventWaitOp>, EventWaitOp{e->driver_event_ref()});
  return parts;
}

Result<NodeParts> child_parts(hipGraph_t child, const Graph* parent) {
  WEFT_ASSIGN_OR_RETURN(Graph * g, graph_of(child));
  if (g == parent) return invalid_value("a graph cannot contain itself");
  if (g->has_memory_nodes())
    return Status(hipErrorNotSupported, "child graphs cannot hold memory-allocation or free nodes");
  return NodeParts{hipGraphNodeTypeGraph, ChildData{g->clone()}, {}};
}

Result<NodeParts> alloc_parts(hipMemAllocNodeParams* p) {
  if (!p) return invalid_value("null allocation node parameters");
  if (p->bytesize == 0) return invalid_value("zero-byte allocation");
  if (p->poolProps.allocType != hipMemAllocationTypePinned)
    return invalid_value("graph allocations must be hipMemAllocationTypePinned");
  if (p->poolProps.location.type != hipMemLocationTypeDevice)
    return invalid_value("graph allocations must be located on a device");
  if (p->accessDescCount > 0 && !p->accessDescs)
    return invalid_value("accessDescCount is set but accessDescs is null");
  auto device = device_at(p->poolProps.location.id);
  if (!device.ok()) return invalid_value(device.status().message());
  WEFT_ASSIGN_OR_RETURN(Ref<AllocBlock> block, AllocBlock::create(*device.value(), p->bytesize));
  p->dptr = block->ptr();
  AllocData data;
  data.params = *p;
  data.params.accessDescs = nullptr;
  data.params.accessDescCount = 0;
  data.block = std::move(block);
  return NodeParts{hipGraphNodeTypeMemAlloc, std::move(data), {}};
}

Result<NodeParts> free_parts(void* ptr) {
  if (!ptr) return invalid_value("null pointer");
  if (!is_graph_memory(ptr))
    return invalid_value(fmt::format("{} was not allocated by a graph allocation node", ptr));
  return NodeParts{hipGraphNodeTypeMemFree, FreeData{ptr}, {}};
}

}  // namespace weft::api
