// SPDX-License-Identifier: MIT
// Launching code-object kernels (registered by hipcc-built programs or loaded
// through the module API): kernel-argument packing with the GPU rules, the checks
// every launch entry point shares, and the occupancy calculator.
#pragma once

#include "api/api.hpp"
#include "codeobj/registry.hpp"

#include <vector>

namespace weft::api {

// Where a launch's arguments come from: exactly one of these is set.
struct KernelArgs {
  void** params = nullptr;                         // kernelParams / hipLaunchKernel args
  void** extra = nullptr;                          // HIP_LAUNCH_PARAM_* list
  const std::vector<std::byte>* packed = nullptr;  // hipSetupArgument buffer
};

// Packs `args[i]` (pointers to the values) at each argument's offset.
Result<std::vector<std::byte>> pack_params(const KernelInfo& info, void** params);
// Copies the buffer an `extra` list names (BUFFER_POINTER, BUFFER_SIZE, END).
Result<std::vector<std::byte>> pack_extra(const KernelInfo& info, void** extra);

// Validates and submits a launch of `function` on `stream` (which must belong to
// the function's device). `max_dynamic_shared` is the hipFuncSetAttribute limit
// (-1 when unset). `cooperative`: hipLaunchCooperativeKernel (check_cooperative).
Status launch_function(const Function& function, Stream& stream, dim3 grid, dim3 block,
                       size_t dynamic_shared, const KernelArgs& args, int max_dynamic_shared,
                       bool cooperative = false);
inline Status launch_function(const Function& function, const Ref<Stream>& stream, dim3 grid,
                              dim3 block, size_t dynamic_shared, const KernelArgs& args,
                              int max_dynamic_shared, bool cooperative = false) {
  return launch_function(function, *stream, grid, block, dynamic_shared, args, max_dynamic_shared,
                         cooperative);
}

// hipExtModuleLaunchKernel / hipHccModuleLaunchKernel: a grid of gx x gy x gz work-items
// in blocks of lx x ly x lz, with `start`/`stop` (when not null) recorded around it.
Status launch_in_work_items(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
                            uint32_t ly, uint32_t lz, size_t shared, hipStream_t stream,
                            void** params, void** extra, hipEvent_t start, hipEvent_t stop);

// A cooperative launch's grid must fit on the device at once: at most
// active_blocks_per_unit() x multiProcessorCount blocks (hipErrorCooperativeLaunchTooLarge),
// on a device whose queues run cooperative dispatches (api/launch_cooperative.cpp).
Status check_cooperative(const DeviceState& device, const KernelInfo& info, dim3 grid, dim3 block,
                         size_t dynamic_shared);

// Before a launch of a registered kernel on `stream`: a binary with texture references
// (texture<> globals) gets the host references' current texture objects copied into
// its image's copies on the stream's device, in stream order, where they changed since
// the last copy there (api/texture_reference.cpp, docs/textures.md).
Status refresh_texture_references(RegisteredFunction& registered, Stream& stream);

// hipLaunchKernel for a registered host function.
Status launch_registered(const void* host_function, dim3 grid, dim3 block, void** args,
                         size_t dynamic_shared, hipStream_t stream, DefaultStream default_stream);

// What the occupancy and attribute queries know about a kernel.
struct KernelFacts {
  KernelInfo info;
  DeviceState* device = nullptr;
  int max_dynamic_shared = -1;
};
// The kernel behind a host function pointer on the current device: a registered
// kernel, or (on agents that run single-source kernels) the function itself.
Result<KernelFacts> facts_of_host_function(const void* host_function);
Result<KernelFacts> facts_of_function(hipFunction_t function);
// The live Function behind a hipFunction_t (hipErrorInvalidResourceHandle otherwise).
Result<Ref<Function>> function_of(hipFunction_t function);

// The launch paths' lookups without Result layers (they run on every launch):
// the live Function or stream a handle names, or null, for which the caller asks
// function_of / resolve_stream (which also answer the special stream handles
// and report what is wrong).
inline Ref<Function> live_function(hipFunction_t function) {
  return function ? Registry::get().functions().find(function) : Ref<Function>();
}
inline Ref<Stream> live_stream(hipStream_t stream) {
  if (stream == nullptr || stream == hipStreamLegacy || stream == hipStreamPerThread)
    return Ref<Stream>();
  return Runtime::get().streams().find(stream);
}

// Blocks of `block_size` threads that fit on one compute unit at once.
int active_blocks_per_unit(const hipDeviceProp_tR0600& props, const KernelInfo& info,
                           int block_size, size_t dynamic_shared);
// hipOccupancyMaxPotentialBlockSize: the block size with the most resident threads.
void best_block_size(const hipDeviceProp_tR0600& props, const KernelInfo& info,
                     size_t dynamic_shared, int block_size_limit, int* grid_size, int* block_size);

}  // namespace weft::api
