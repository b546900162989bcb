// SPDX-License-Identifier: MIT
// The compiler → runtime registration ABI (hip-abi-facts.md section 2):
// __hipRegisterFatBinary and friends, the <<<>>> call configuration, hipLaunchKernel,
// and the legacy hipConfigureCall / hipSetupArgument / hipLaunchByPtr path.
//
// Registration runs in static constructors before main: it records pointers and
// names only (codeobj/registry.hpp) and never fails the process.
#include "api/api.hpp"
#include "api/launch_code_object.hpp"
#include "codeobj/registry.hpp"

#include <cstring>
#include <vector>

using namespace weft;
using namespace weft::api;

namespace {

struct CallConfig {
  dim3 grid;
  dim3 block;
  size_t shared = 0;
  hipStream_t stream = nullptr;
  std::vector<std::byte> args;  // hipSetupArgument
};

// Per host thread, as the ABI nests pushes and pops on the launching thread.
// Kept here rather than in ThreadState: nothing else reads it.
thread_local std::vector<CallConfig> t_configs;

}  // namespace

WEFT_EXPORT void** __hipRegisterFatBinary(const void* data) {
  return Registry::get().add_fat_binary(data);
}

WEFT_EXPORT void __hipUnregisterFatBinary(void** modules) {
  Registry::get().remove_fat_binary(modules);
}

WEFT_EXPORT void __hipRegisterFunction(void** modules, const void* hostFunction,
                                       char* deviceFunction, const char* deviceName, unsigned int,
                                       uint3*, uint3*, dim3*, dim3*, int*) {
  Registry::get().add_function(modules, hostFunction, deviceName ? deviceName : deviceFunction);
}

WEFT_EXPORT void __hipRegisterVar(void** modules, void* var, char* hostVar, char* deviceVar, int,
                                  size_t size, int, int) {
  Registry::get().add_variable(modules, var, deviceVar ? deviceVar : hostVar, size);
}

WEFT_EXPORT void __hipRegisterManagedVar(void* hipModule, void** pointer, void* init_value,
                                         const char* name, size_t size, unsigned align) {
  Registry::get().add_managed(static_cast<void**>(hipModule), pointer, init_value, name, size,
                              align);
}

// A texture<> global: the image's copy of the reference is a variable of that name, which
// launches keep holding the host reference's texture object (api/texture_reference.cpp).
// The dimension and normalization flags are the reference's own fields already.
WEFT_EXPORT void __hipRegisterTexture(void** modules, void* texref, char* hostName,
                                      char* deviceName, int, int, int) {
  Registry::get().add_texture(modules, texref, deviceName ? deviceName : hostName);
}

WEFT_EXPORT void __hipRegisterSurface(void**, void*, char*, char* deviceVar, int, int) {
  log::warning("__hipRegisterSurface({}): surface references are not supported",
               deviceVar ? deviceVar : "?");
}

WEFT_EXPORT hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                  hipStream_t stream) {
  return call(
      "__hipPushCallConfiguration",
      [&] {
    t_configs.push_back(CallConfig{gridDim, blockDim, sharedMem, stream, {}});
    return Status();
      },
      gridDim, blockDim, sharedMem, stream);
}

WEFT_EXPORT hipError_t __hipPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem,
                                                 hipStream_t* stream) {
  return call(
      "__hipPopCallConfiguration",
      [&] {
    if (t_configs.empty())
      return Status(hipErrorInvalidConfiguration, "no call configuration was pushed");
    CallConfig c = std::move(t_configs.back());
    t_configs.pop_back();
    if (gridDim) *gridDim = c.grid;
    if (blockDim) *blockDim = c.block;
    if (sharedMem) *sharedMem = c.shared;
    if (stream) *stream = c.stream;
    return Status();
      },
      gridDim, blockDim, sharedMem, stream);
}

WEFT_EXPORT hipError_t hipLaunchKernel(const void* function_address, dim3 numBlocks, dim3 dimBlocks,
                                       void** args, size_t sharedMemBytes, hipStream_t stream) {
  return call(
      "hipLaunchKernel",
      [&] {
    return launch_registered(function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream,
                             kLegacy);
      },
      function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream);
}

WEFT_EXPORT hipError_t hipLaunchKernel_spt(const void* function_address, dim3 numBlocks,
                                           dim3 dimBlocks, void** args, size_t sharedMemBytes,
                                           hipStream_t stream) {
  return call(
      "hipLaunchKernel_spt",
      [&] {
    return launch_registered(function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream,
                             kPerThread);
      },
      function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream);
}

WEFT_EXPORT hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                        hipStream_t stream) {
  return call(
      "hipConfigureCall",
      [&] {
    t_configs.push_back(CallConfig{gridDim, blockDim, sharedMem, stream, {}});
    return Status();
      },
      gridDim, blockDim, sharedMem, stream);
}

WEFT_EXPORT hipError_t hipSetupArgument(const void* arg, size_t size, size_t offset) {
  return call(
      "hipSetupArgument",
      [&] {
    if (t_configs.empty())
      return Status(hipErrorInvalidConfiguration, "hipSetupArgument before hipConfigureCall");
    if (!arg && size) return invalid_value("null argument");
    if (offset > (1u << 20) || size > (1u << 20))
      return invalid_value("argument offset or size too large");
    auto& args = t_configs.back().args;
    if (args.size() < offset + size) args.resize(offset + size);
    if (size) std::memcpy(args.data() + offset, arg, size);
    return Status();
      },
      arg, size, offset);
}

WEFT_EXPORT hipError_t hipLaunchByPtr(const void* func) {
  return call(
      "hipLaunchByPtr",
      [&] {
    if (t_configs.empty())
      return Status(hipErrorInvalidConfiguration, "hipLaunchByPtr before hipConfigureCall");
    CallConfig c = std::move(t_configs.back());
    t_configs.pop_back();
    Ref<RegisteredFunction> registered = Registry::get().function(func);
    if (!registered) return Status(hipErrorInvalidDeviceFunction, "not a registered kernel");
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(c.stream));
    WEFT_ASSIGN_OR_RETURN(Ref<Function> f, registered->function_for(s->device()));
    WEFT_RETURN_IF_ERROR(refresh_texture_references(*registered, *s));
    return launch_function(*f, s, c.grid, c.block, c.shared, KernelArgs{nullptr, nullptr, &c.args},
                           registered->max_dynamic_shared.load());
      },
      func);
}
