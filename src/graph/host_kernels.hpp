// SPDX-License-Identifier: MIT
// Single-source kernels (compiled by the host compiler, include/hip/weft/
// kernel_abi.h) known by their function address, so a graph kernel node can
// name one through hipKernelNodeParams::func and pass its arguments as
// kernelParams. A kernel becomes known when it is first launched or captured.
// Thread-safe; remember() costs a thread-local lookup once a kernel is known.
#pragma once

#include <weft/driver/op.hpp>
#include <weft/driver/status.hpp>

namespace weft::graph {

// Notes the kernel behind a launch (no-op for descriptors without graph fields).
void remember_host_kernel(const weftHostKernel& descriptor);

// The descriptor (args null) of a known kernel function, or null.
const weftHostKernel* find_host_kernel(const void* function);

// A new HostKernel of the same kernel with arguments from `kernel_params`
// (hipErrorInvalidValue when the kernel cannot take them that way).
Result<Ref<HostKernel>> make_host_kernel(const weftHostKernel& descriptor,
                                         void* const* kernel_params);

}  // namespace weft::graph
