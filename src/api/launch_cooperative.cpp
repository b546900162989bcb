// SPDX-License-Identifier: MIT
// Cooperative launches: hipLaunchCooperativeKernel and friends. Every block of
// such a launch is resident at once, so blocks may wait for each other
// (grid.sync(), hip/hip_cooperative_groups.h). The CPU agent runs each block on an
// OS thread of its own (drivers/cpu/cooperative.hpp), the NVIDIA agent launches with
// cuLaunchCooperativeKernel; agents whose queues honour DispatchOp::cooperative say so
// (DeviceCaps::cooperative_launches). The grid may have at most as many blocks as the
// occupancy queries say fit at once.
#include "api/api.hpp"
#include "api/launch_code_object.hpp"
#include "api/launch_host_kernel.hpp"

#include "graph/host_kernels.hpp"

#include <weft/common/env.hpp>

#include <hip/weft/kernel_abi.h>

#include <vector>

using namespace weft;
using namespace weft::api;

namespace weft::api {

Status check_cooperative(const DeviceState& device, const KernelInfo& info, dim3 grid, dim3 block,
                         size_t dynamic_shared) {
  const auto& p = device.props();
  if (!p.cooperativeLaunch || !device.driver_device().caps().cooperative_launches)
    return Status(hipErrorNotSupported,
                  fmt::format("device {} ({}) does not run cooperative launches", device.ordinal(),
                              device.driver_device().target_id()));
  const uint64_t threads = uint64_t(block.x) * block.y * block.z;
  const uint64_t blocks = uint64_t(grid.x) * grid.y * grid.z;
  const int per_unit = active_blocks_per_unit(p, info, static_cast<int>(threads), dynamic_shared);
  const uint64_t limit = uint64_t(per_unit) * uint64_t(p.multiProcessorCount);
  if (blocks > limit)
    return Status(
        hipErrorCooperativeLaunchTooLarge,
        fmt::format("cooperative grid of {} blocks exceeds the {} that can be resident at once "
                    "on device {} ({} per unit x {} units for blocks of {} threads)",
                    blocks, limit, device.ordinal(), per_unit, p.multiProcessorCount, threads));
  return Status();
}

}  // namespace weft::api

namespace {

Status submit_cooperative_host_kernel(Ref<HostKernel> kernel, dim3 grid, dim3 block,
                                      size_t shared_bytes, const Ref<Stream>& s) {
  return submit_host_kernel(std::move(kernel), grid, block, shared_bytes, s, true);
}

// hipLaunchCooperativeKernel by address: a registered code-object kernel, or a
// single-source kernel the runtime already knows (launched once, or captured).
Status launch_cooperative_address(const void* f, dim3 grid, dim3 block, void** params,
                                  size_t shared_bytes, hipStream_t stream,
                                  DefaultStream default_stream) {
  if (!f) return Status(hipErrorInvalidDeviceFunction, "null kernel");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  if (Ref<RegisteredFunction> registered = Registry::get().function(f)) {
    WEFT_ASSIGN_OR_RETURN(Ref<Function> function, registered->function_for(s->device()));
    WEFT_RETURN_IF_ERROR(refresh_texture_references(*registered, *s));
    return launch_function(*function, s, grid, block, shared_bytes,
                           KernelArgs{params, nullptr, nullptr},
                           registered->max_dynamic_shared.load(std::memory_order_relaxed), true);
  }
  const weftHostKernel* known = graph::find_host_kernel(f);
  if (!known)
    return Status(
        hipErrorInvalidDeviceFunction,
        fmt::format("{} is neither a registered kernel nor a single-source kernel weft knows "
                    "(pass the kernel function itself: <hip/hip_runtime.h> has an overload "
                    "for single-source kernels)",
                    f));
  WEFT_ASSIGN_OR_RETURN(Ref<HostKernel> kernel, graph::make_host_kernel(*known, params));
  return submit_cooperative_host_kernel(std::move(kernel), grid, block, shared_bytes, s);
}

}  // namespace

WEFT_EXPORT hipError_t weftLaunchCooperativeHostKernel(const weftHostKernel* kernel, dim3 grid,
                                                       dim3 block, void** kernelParams,
                                                       size_t shared_bytes, hipStream_t stream) {
  return call(
      "hipLaunchCooperativeKernel",
      [&] {
    if (!kernel || kernel->abiVersion != WEFT_KERNEL_ABI_VERSION || !kernel->entry ||
        !kernel->packArgs || !kernel->function)
      return Status(hipErrorInvalidDeviceFunction, "bad single-source kernel descriptor");
    const char* name = kernel->name ? kernel->name : "<kernel>";
    if (kernel->argCount > 0 && !kernelParams)
      return invalid_value(fmt::format("kernel {} takes {} arguments but kernelParams is null",
                                       name, kernel->argCount));
    // The entry's first argument is the kernel itself (kernel_abi.h).
    std::vector<void*> params{const_cast<void*>(static_cast<const void*>(&kernel->function))};
    for (uint32_t i = 0; i < kernel->argCount; ++i) {
      if (!kernelParams[i])
        return invalid_value(fmt::format("kernelParams[{}] of kernel {} is null", i, name));
      params.push_back(kernelParams[i]);
    }
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
    weftHostKernel k = *kernel;
    k.args = kernel->packArgs(params.data());
    // Graph kernel-node queries would read the blob as the kernel's own arguments.
    k.function = nullptr;
    k.argCount = 0;
    k.packArgs = nullptr;
    k.argAddresses = nullptr;
    return submit_cooperative_host_kernel(make_ref<HostKernel>(k), grid, block, shared_bytes, s);
      },
      kernel ? kernel->name : nullptr, grid, block, kernelParams, shared_bytes, stream);
}

WEFT_EXPORT hipError_t hipLaunchCooperativeKernel(const void* f, dim3 gridDim, dim3 blockDimX,
                                                  void** kernelParams, unsigned int sharedMemBytes,
                                                  hipStream_t stream) {
  return call(
      "hipLaunchCooperativeKernel",
      [&] {
    return launch_cooperative_address(f, gridDim, blockDimX, kernelParams, sharedMemBytes, stream,
                                      kLegacy);
      },
      f, gridDim, blockDimX, kernelParams, sharedMemBytes, stream);
}

WEFT_EXPORT hipError_t hipLaunchCooperativeKernel_spt(const void* f, dim3 gridDim, dim3 blockDim,
                                                      void** kernelParams, uint32_t sharedMemBytes,
                                                      hipStream_t hStream) {
  return call(
      "hipLaunchCooperativeKernel_spt",
      [&] {
    return launch_cooperative_address(f, gridDim, blockDim, kernelParams, sharedMemBytes, hStream,
                                      kPerThread);
      },
      f, gridDim, blockDim, kernelParams, sharedMemBytes, hStream);
}

WEFT_EXPORT hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams* launchParamsList,
                                                             int numDevices, unsigned int flags) {
  return call(
      "hipLaunchCooperativeKernelMultiDevice",
      [&] {
    if (!launchParamsList) return invalid_value("null launch parameter list");
    if (numDevices <= 0)
      return invalid_value(fmt::format("numDevices {} must be positive", numDevices));
    constexpr unsigned known =
        hipCooperativeLaunchMultiDeviceNoPreSync | hipCooperativeLaunchMultiDeviceNoPostSync;
    if (flags & ~known) return invalid_value(fmt::format("unknown flags {:#x}", flags));
    // One grid spans the launches only when there is one: with a single device,
    // the multi-grid is the grid (and pre/post synchronization is the stream's order).
    if (numDevices > 1)
      return Status(
          hipErrorNotSupported,
          fmt::format("a multi-device cooperative launch over {} devices; only one device can run "
                      "cooperative launches",
                      numDevices));
    const hipLaunchParams& p = launchParamsList[0];
    return launch_cooperative_address(p.func, p.gridDim, p.blockDim, p.args, p.sharedMem, p.stream,
                                      kLegacy);
      },
      launchParamsList, numDevices, flags);
}

WEFT_EXPORT hipError_t hipModuleLaunchCooperativeKernel(
    hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
    unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
    unsigned int sharedMemBytes, hipStream_t stream, void** kernelParams) {
  return call(
      "hipModuleLaunchCooperativeKernel",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Ref<Function> function, function_of(f));
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
    return launch_function(*function, s, dim3(gridDimX, gridDimY, gridDimZ),
                           dim3(blockDimX, blockDimY, blockDimZ), sharedMemBytes,
                           KernelArgs{kernelParams, nullptr, nullptr},
                           function->max_dynamic_shared.load(std::memory_order_relaxed), true);
      },
      f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, stream,
      kernelParams);
}
