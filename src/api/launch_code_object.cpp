// SPDX-License-Identifier: MIT
// Code-object kernel launches: argument packing, checks, submission, occupancy.
#include "api/launch_code_object.hpp"

#include "api/held.hpp"
#include "api/launch_host_kernel.hpp"

#include <weft/common/env.hpp>

#include <algorithm>
#include <cstring>

namespace weft::api {
namespace {

size_t explicit_end(const KernelInfo& info) {
  size_t end = 0;
  for (const auto& a : info.args) end = std::max<size_t>(end, size_t(a.offset) + a.size);
  return end;
}

// Whether a launch may lend the caller's kernelParams to the queue instead of
// packing them (DispatchOp::borrowed_args): the device's queues read them during
// submit, the kernel's layout is known, and every argument pointer is there
// (pack_params reports the ones that are not).
bool can_lend(const Stream& stream, const KernelInfo& info, void** params, bool cooperative) {
  if (cooperative || !params || info.args.empty() || !stream.ops_read_at_submit()) return false;
  for (size_t i = 0; i < info.args.size(); ++i)
    if (!params[i]) return false;
  return true;
}

}  // namespace

Result<std::vector<std::byte>> pack_params(const KernelInfo& info, void** params) {
  std::vector<std::byte> out(std::max<size_t>(info.kernarg_size, explicit_end(info)));
  if (info.args.empty()) return out;  // no explicit arguments (hidden ones are the driver's)
  if (!params)
    return invalid_value(fmt::format("kernel {} takes {} arguments but the argument array is null",
                                     info.name, info.args.size()));
  for (size_t i = 0; i < info.args.size(); ++i) {
    if (!params[i])
      return invalid_value(fmt::format("argument {} of kernel {} is a null pointer", i, info.name));
    std::memcpy(out.data() + info.args[i].offset, params[i], info.args[i].size);
  }
  return out;
}

Result<std::vector<std::byte>> pack_extra(const KernelInfo& info, void** extra) {
  const void* buffer = nullptr;
  const size_t* size = nullptr;
  for (size_t i = 0; extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) buffer = extra[i + 1];
    else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE)
      size = static_cast<const size_t*>(extra[i + 1]);
    else
      return invalid_value(
          fmt::format("unknown key {} in the `extra` launch parameters", extra[i]));
  }
  if (!buffer || !size)
    return invalid_value(
        "`extra` needs HIP_LAUNCH_PARAM_BUFFER_POINTER and HIP_LAUNCH_PARAM_BUFFER_SIZE");
  size_t needed = explicit_end(info);
  if (*size < needed)
    return invalid_value(fmt::format("kernel {} needs {} bytes of arguments; `extra` gives {}",
                                     info.name, needed, *size));
  std::vector<std::byte> out(std::max<size_t>(info.kernarg_size, *size));
  std::memcpy(out.data(), buffer, *size);
  return out;
}

Status launch_function(const Function& function, Stream& stream, dim3 grid, dim3 block,
                       size_t dynamic_shared, const KernelArgs& args, int max_dynamic_shared,
                       bool cooperative) {
  DeviceState& device = stream.device();
  const KernelInfo& info = function.info();
  if (&device != &function.device())
    return Status(
        hipErrorInvalidHandle,
        fmt::format("kernel {} was loaded on device {} but the stream belongs to device {}",
                    info.name, function.device().ordinal(), device.ordinal()));
  if (!launch_shape_fits(device, grid, block, dynamic_shared + info.static_shared_bytes))
      [[unlikely]]
    return check_launch(device, grid, block, dynamic_shared + info.static_shared_bytes);
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (threads > info.max_threads_per_block)
    return Status(hipErrorInvalidConfiguration,
                  fmt::format("block of {} threads exceeds kernel {}'s limit of {}", threads,
                              info.name, info.max_threads_per_block));
  if (max_dynamic_shared >= 0 && dynamic_shared > size_t(max_dynamic_shared))
    return invalid_value(
        fmt::format("{} bytes of dynamic shared memory exceed the {} set with hipFuncSetAttribute",
                    dynamic_shared, max_dynamic_shared));
  if (cooperative)
    WEFT_RETURN_IF_ERROR(check_cooperative(device, info, grid, block, dynamic_shared));
  // Built in the Op itself: no move of a DispatchOp into a variant on the way.
  Op queued(std::in_place_type<DispatchOp>);
  DispatchOp& op = std::get<DispatchOp>(queued);
  // The caller holds the function, and so its kernel, until submit() returns.
  if (stream.ops_read_at_submit()) op.borrowed_kernel = function.kernel().get();
  else op.kernel = function.kernel();
  op.cooperative = cooperative;
  op.dims.grid = grid;
  op.dims.block = block;
  op.dims.dynamic_shared_bytes = static_cast<uint32_t>(dynamic_shared);
  if (args.packed) {
    op.kernarg = *args.packed;
    op.kernarg.resize(std::max<size_t>(op.kernarg.size(), info.kernarg_size));
  } else if (args.extra) {
    WEFT_ASSIGN_OR_RETURN(op.kernarg, pack_extra(info, args.extra));
  } else if (can_lend(stream, info, args.params, cooperative)) {
    op.borrowed_args = args.params;  // the queue reads them during submit (no copy)
  } else {
    WEFT_ASSIGN_OR_RETURN(op.kernarg, pack_params(info, args.params));
  }
  WEFT_RETURN_IF_ERROR(stream.submit(std::move(queued)));
  static const bool launch_blocking = env::settings().launch_blocking;  // fixed at startup
  if (launch_blocking) [[unlikely]]
    return stream.synchronize();
  return Status();
}

Status launch_registered(const void* host_function, dim3 grid, dim3 block, void** args,
                         size_t dynamic_shared, hipStream_t stream, DefaultStream default_stream) {
  // The registered kernel and the stream are held for the launch, without
  // reference counts (api/held.hpp); the device's Function lives as long as the
  // registered kernel.
  hazard::Record* record = hazard::record();
  RegisteredFunction* registered =
      record ? Registry::get().function_held(host_function, record->held[hazard::kHoldFirst])
             : nullptr;
  hazard::HoldEnd registered_hold;
  Ref<RegisteredFunction> registered_ref;
  if (registered) {
    registered_hold.arm(record->held[hazard::kHoldFirst]);
  } else {
    registered_ref = Registry::get().function(host_function);
    registered = registered_ref.get();
  }
  if (!registered) {
    // Not from a code object: a single-source kernel weft has seen launched by name?
    if (!host_function) return Status(hipErrorInvalidDeviceFunction, "null kernel");
    WEFT_ASSIGN_OR_RETURN(Ref<HostKernel> kernel, host_kernel_for(host_function, args));
    return launch_host_kernel(std::move(kernel), grid, block, dynamic_shared, stream,
                              default_stream);
  }
  Held<Stream> s;
  if (stream != nullptr && stream != hipStreamLegacy && stream != hipStreamPerThread)
    s.find(Runtime::get().streams(), stream, hazard::kHoldSecond);
  if (!s) {
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> resolved, resolve_stream(stream, default_stream));
    s.set(std::move(resolved));
  }
  const Function* function = registered->loaded_for(s->device().ordinal());
  Ref<Function> loaded;
  if (!function) [[unlikely]] {
    WEFT_ASSIGN_OR_RETURN(loaded, registered->function_for(s->device()));
    function = loaded.get();
  }
  if (registered->fatbin().has_textures()) [[unlikely]]  // most programs have none
    WEFT_RETURN_IF_ERROR(refresh_texture_references(*registered, *s));
  return launch_function(*function, *s, grid, block, dynamic_shared,
                         KernelArgs{args, nullptr, nullptr},
                         registered->max_dynamic_shared.load(std::memory_order_relaxed));
}

Result<Ref<Function>> function_of(hipFunction_t handle) {
  if (!handle) return Status(hipErrorInvalidResourceHandle, "null function handle");
  Ref<Function> f = Registry::get().functions().find(handle);
  if (!f)
    return Status(hipErrorInvalidResourceHandle,
                  "function handle is unknown or its module was unloaded");
  return f;
}

Result<KernelFacts> facts_of_function(hipFunction_t handle) {
  WEFT_ASSIGN_OR_RETURN(Ref<Function> f, function_of(handle));
  return KernelFacts{f->info(), &f->device(), f->max_dynamic_shared.load()};
}

Result<KernelFacts> facts_of_host_function(const void* host_function) {
  if (!host_function) return Status(hipErrorInvalidDeviceFunction, "null kernel");
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  if (Ref<RegisteredFunction> registered = Registry::get().function(host_function)) {
    WEFT_ASSIGN_OR_RETURN(Ref<Function> f, registered->function_for(*device));
    return KernelFacts{f->info(), device, registered->max_dynamic_shared.load()};
  }
  if (!device->driver_device().caps().runs_host_kernels)
    return Status(
        hipErrorInvalidDeviceFunction,
        fmt::format("{} is not a registered kernel", static_cast<const void*>(host_function)));
  // A single-source kernel compiled by the host compiler: the agent's own limits.
  KernelFacts facts;
  facts.device = device;
  facts.info.name = "<single-source kernel>";
  facts.info.max_threads_per_block = static_cast<uint32_t>(device->props().maxThreadsPerBlock);
  return facts;
}

int active_blocks_per_unit(const hipDeviceProp_tR0600& p, const KernelInfo& info, int block_size,
                           size_t dynamic_shared) {
  int max_block = std::min<int>(p.maxThreadsPerBlock, static_cast<int>(info.max_threads_per_block));
  if (block_size <= 0 || block_size > max_block) return 0;
  size_t shared = dynamic_shared + info.static_shared_bytes;
  if (shared > std::max(p.sharedMemPerBlock, p.sharedMemPerBlockOptin)) return 0;  // check_launch
  int warp = p.warpSize > 0 ? p.warpSize : 1;
  long threads = (block_size + warp - 1) / warp * warp;
  long limit = p.maxBlocksPerMultiProcessor > 0 ? p.maxBlocksPerMultiProcessor : 1L << 30;
  if (p.maxThreadsPerMultiProcessor > 0)
    limit = std::min<long>(limit, p.maxThreadsPerMultiProcessor / threads);
  size_t shared_per_unit = p.maxSharedMemoryPerMultiProcessor ? p.maxSharedMemoryPerMultiProcessor
                                                              : p.sharedMemPerMultiprocessor;
  if (shared > 0 && shared_per_unit > 0)
    limit = std::min<long>(limit, long(shared_per_unit / shared));
  if (info.num_registers > 0 && p.regsPerMultiprocessor > 0)
    limit = std::min<long>(limit, p.regsPerMultiprocessor / (long(info.num_registers) * threads));
  return static_cast<int>(std::max<long>(limit, 0));
}

void best_block_size(const hipDeviceProp_tR0600& p, const KernelInfo& info, size_t dynamic_shared,
                     int block_size_limit, int* grid_size, int* block_size) {
  int max_block = std::min<int>(p.maxThreadsPerBlock, static_cast<int>(info.max_threads_per_block));
  if (block_size_limit > 0) max_block = std::min(max_block, block_size_limit);
  int warp = p.warpSize > 0 ? p.warpSize : 1;
  int best = 0, best_blocks = 0;
  long best_threads = -1;
  for (int size = max_block; size > 0; size = (size % warp) ? size - size % warp : size - warp) {
    int blocks = active_blocks_per_unit(p, info, size, dynamic_shared);
    if (long(blocks) * size > best_threads) {
      best_threads = long(blocks) * size;
      best = size;
      best_blocks = blocks;
    }
  }
  *block_size = best_threads > 0 ? best : 0;
  *grid_size = best_threads > 0 ? best_blocks * p.multiProcessorCount : 0;
}

}  // namespace weft::api
