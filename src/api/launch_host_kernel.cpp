// SPDX-License-Identifier: MIT
// Kernel launch for single-source kernels (hipLaunchKernelGGL compiled by an
// ordinary C++ compiler; see include/hip/weft/kernel_abi.h).
#include "api/launch_host_kernel.hpp"
#include "api/api.hpp"
#include "api/launch_code_object.hpp"

#include "graph/host_kernels.hpp"

#include <weft/common/env.hpp>
#include <weft/common/log.hpp>

#include <hip/weft/kernel_abi.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <string>
#include <utility>

using namespace weft;
using namespace weft::api;

namespace weft::api {

namespace {

// What check_launch found wrong (out of line: the checks themselves are on
// every launch).
[[gnu::cold, gnu::noinline]] Status launch_error(const hipDeviceProp_tR0600& p, dim3 grid,
                                                 dim3 block, size_t shared_bytes) {
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    return invalid_value(
        fmt::format("grid {{{},{},{}}} has a zero dimension", grid.x, grid.y, grid.z));
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (threads == 0 || threads > uint64_t(p.maxThreadsPerBlock) ||
      block.x > unsigned(p.maxThreadsDim[0]) || block.y > unsigned(p.maxThreadsDim[1]) ||
      block.z > unsigned(p.maxThreadsDim[2]))
    return Status(
        hipErrorInvalidConfiguration,
        fmt::format("block {{{},{},{}}} is empty or exceeds the device limit of {} threads",
                    block.x, block.y, block.z, p.maxThreadsPerBlock));
  if (grid.x > unsigned(p.maxGridSize[0]) || grid.y > unsigned(p.maxGridSize[1]) ||
      grid.z > unsigned(p.maxGridSize[2]))
    return invalid_value("grid exceeds the device's maximum grid size");
  // A launch may use the opt-in limit without asking first, as on AMD GPUs (HIP programs
  // take 64 KiB for granted): the NVIDIA driver opts the kernel in itself above the 48 KiB
  // CUDA gives by default (drivers/cuda/queue.cpp).
  const size_t limit = std::max(p.sharedMemPerBlock, p.sharedMemPerBlockOptin);
  return invalid_value(
      fmt::format("{} bytes of dynamic shared memory exceed the limit of {}", shared_bytes, limit));
}

}  // namespace

// Checks a launch configuration against the device's limits, with HIP 7's codes.
Status check_launch(const DeviceState& device, dim3 grid, dim3 block, size_t shared_bytes) {
  if (!launch_shape_fits(device, grid, block, shared_bytes)) [[unlikely]]
    return launch_error(device.props(), grid, block, shared_bytes);
  return Status();
}

}  // namespace weft::api

namespace weft::api {

namespace {

// A single-source kernel on an agent that cannot run host code. Said once per kernel and
// device whatever the log level, as for a fat binary without an image for the device
// (RegisteredFunction::function_for): a g++-built program on a GPU should say so plainly.
[[gnu::cold]] Status no_binary_for_gpu(const HostKernel& kernel, const DeviceState& device) {
  Status status(hipErrorNoBinaryForGpu,
                fmt::format("kernel {} was compiled for the host only; device {} ({}) cannot run "
                            "it (a host compiler's kernels run on the CPU agent; weftcc "
                            "--offload-arch={} builds an image for this device)",
                            kernel.name(), device.ordinal(), device.driver_device().target_id(),
                            device.driver_device().target_id()));
  static std::mutex mutex;
  static auto* reported = new std::set<std::pair<std::string, int>>;
  bool first = false;
  {
    std::lock_guard lock(mutex);
    first = reported->emplace(kernel.name(), device.ordinal()).second;
  }
  if (first) log::write(log::Level::kError, "hipErrorNoBinaryForGpu: " + status.message());
  return status;
}

}  // namespace

Status submit_host_kernel(Ref<HostKernel> kernel, dim3 grid, dim3 block, size_t shared_bytes,
                          const Ref<Stream>& s, bool cooperative) {
  DeviceState& device = s->device();
  if (!device.driver_device().caps().runs_host_kernels) return no_binary_for_gpu(*kernel, device);
  WEFT_RETURN_IF_ERROR(check_launch(device, grid, block, shared_bytes));
  if (cooperative) {
    // What occupancy queries assume for a single-source kernel (facts_of_host_function).
    KernelInfo info;
    info.name = kernel->name();
    info.max_threads_per_block = static_cast<uint32_t>(device.props().maxThreadsPerBlock);
    WEFT_RETURN_IF_ERROR(check_cooperative(device, info, grid, block, shared_bytes));
  }
  DispatchOp op;
  op.host_kernel = std::move(kernel);
  op.dims.grid = grid;
  op.dims.block = block;
  op.dims.dynamic_shared_bytes = static_cast<uint32_t>(shared_bytes);
  op.cooperative = cooperative;
  WEFT_RETURN_IF_ERROR(s->submit(std::move(op)));
  if (env::settings().launch_blocking) return s->synchronize();
  return Status();
}

Status launch_host_kernel(Ref<HostKernel> kernel, dim3 grid, dim3 block, size_t shared_bytes,
                          hipStream_t stream, DefaultStream default_stream) {
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  return submit_host_kernel(std::move(kernel), grid, block, shared_bytes, s, false);
}

Result<Ref<HostKernel>> host_kernel_for(const void* function, void** args) {
  const weftHostKernel* d = graph::find_host_kernel(function);
  if (!d)
    return Status(
        hipErrorInvalidDeviceFunction,
        fmt::format("{} is not a registered kernel, nor a single-source kernel launched by "
                    "name before (weft learns a g++-built kernel's parameter types from "
                    "hipLaunchKernelGGL, or from hipLaunchKernel given the kernel itself "
                    "rather than a void*)",
                    function));
  return graph::make_host_kernel(*d, args);
}

}  // namespace weft::api

WEFT_EXPORT hipError_t weftLaunchHostKernel(const weftHostKernel* kernel, dim3 grid, dim3 block,
                                            size_t shared_bytes, hipStream_t stream) {
  // Own the argument blob first so every failure path below releases it.
  Ref<HostKernel> owned;
  if (kernel && kernel->abiVersion == WEFT_KERNEL_ABI_VERSION && kernel->entry) {
    owned = make_ref<HostKernel>(*kernel);
    graph::remember_host_kernel(*kernel);  // graph kernel nodes may name it later
  }
  return call(
      "hipLaunchKernelGGL",
      [&] {
    if (!owned) return Status(hipErrorInvalidDeviceFunction, "bad single-source kernel descriptor");
    return launch_host_kernel(owned, grid, block, shared_bytes, stream);
      },
      kernel ? kernel->name : nullptr, grid, block, shared_bytes, stream);
}

WEFT_EXPORT hipError_t weftLaunchFailed(const char* api, hipError_t error, const char* why) {
  return call(api ? api : "hipLaunchKernel",
              [&] { return Status(error, why ? why : "refused launch"); });
}
