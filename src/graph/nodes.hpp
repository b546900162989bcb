// SPDX-License-Identifier: MIT
// Node parameters from ops: what a captured op reports through the
// hipGraph*NodeGetParams calls. (The explicit API validates user parameters in
// src/api and builds both halves itself.) Pure functions.
#pragma once

#include "graph/graph.hpp"

namespace weft::graph {

hipMemcpyKind memcpy_kind(CopyDirection direction);

// hipKernelNodeParams::func for a dispatch: the single-source kernel function,
// else an opaque handle of the code-object kernel.
const void* kernel_function(const DispatchOp& op);

KernelData kernel_data(const DispatchOp& op, int device);
CopyData copy_data(const CopyOp& op);
MemsetData memset_data(const FillOp& op);

// The node type and data an op becomes when captured (not for event ops).
hipGraphNodeType node_type_of(const Op& op);
NodeData node_data_of(const Op& op, int device);

}  // namespace weft::graph
