// SPDX-License-Identifier: MIT
#include "graph/nodes.hpp"

#include "graph/host_kernels.hpp"

namespace weft::graph {

hipMemcpyKind memcpy_kind(CopyDirection direction) {
  switch (direction) {
    case CopyDirection::kHostToHost: return hipMemcpyHostToHost;
    case CopyDirection::kHostToDevice: return hipMemcpyHostToDevice;
    case CopyDirection::kDeviceToHost: return hipMemcpyDeviceToHost;
    case CopyDirection::kDeviceToDevice: return hipMemcpyDeviceToDevice;
  }
  return hipMemcpyDefault;
}

const void* kernel_function(const DispatchOp& op) {
  if (op.host_kernel) {
    const weftHostKernel& d = op.host_kernel->descriptor();
    return d.function ? d.function : reinterpret_cast<const void*>(d.entry);
  }
  return op.kernel.get();
}

KernelData kernel_data(const DispatchOp& op, int device) {
  KernelData data;
  data.func = kernel_function(op);
  data.device = device;
  if (op.host_kernel) remember_host_kernel(op.host_kernel->descriptor());
  return data;
}

CopyData copy_data(const CopyOp& op) {
  CopyData data;
  hipMemcpy3DParms& p = data.params;
  size_t src_pitch = op.height > 1 ? op.src_pitch : op.width;
  size_t dst_pitch = op.height > 1 ? op.dst_pitch : op.width;
  p.srcPtr = make_hipPitchedPtr(const_cast<void*>(op.src), src_pitch, op.width, op.height);
  p.dstPtr = make_hipPitchedPtr(op.dst, dst_pitch, op.width, op.height);
  p.extent = make_hipExtent(op.width, op.height, 1);
  p.kind = memcpy_kind(op.direction);
  return data;
}

MemsetData memset_data(const FillOp& op) {
  MemsetData data;
  data.params.dst = op.dst;
  data.params.elementSize = op.element_size;
  data.params.width = op.width_elements;
  data.params.height = op.height;
  data.params.pitch = op.height > 1 ? op.pitch : op.width_elements * op.element_size;
  data.params.value = op.value;
  return data;
}

hipGraphNodeType node_type_of(const Op& op) {
  switch (op.index()) {
    case 0: return hipGraphNodeTypeKernel;
    case 1: return hipGraphNodeTypeMemcpy;
    case 2: return hipGraphNodeTypeMemset;
    case 3: return hipGraphNodeTypeHost;
    case 4: return hipGraphNodeTypeEventRecord;
    default: return hipGraphNodeTypeWaitEvent;
  }
}

NodeData node_data_of(const Op& op, int device) {
  if (auto* d = std::get_if<DispatchOp>(&op)) return kernel_data(*d, device);
  if (auto* c = std::get_if<CopyOp>(&op)) return copy_data(*c);
  if (auto* f = std::get_if<FillOp>(&op)) return memset_data(*f);
  if (auto* h = std::get_if<HostFuncOp>(&op)) {
    HostData data;
    data.captured = std::make_shared<std::function<void()>>(h->fn);
    data.params.fn = &run_captured_host_function;
    data.params.userData = data.captured.get();
    return data;
  }
  return EmptyData{};
}

}  // namespace weft::graph
