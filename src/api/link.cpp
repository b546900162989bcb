// SPDX-License-Identifier: MIT
// hipLinkCreate / AddData / AddFile / Complete / Destroy. HIP's linker joins device
// code (LLVM bitcode through comgr on AMD). weft has no device linker, so a link state
// takes finished code objects only (hipJitInputObject, FatBinary, Cubin, Library: an
// ELF, an offload bundle, a CPU code object) and completes when it holds exactly one:
// the result is that object, ready for hipModuleLoadData. Bitcode, PTX and SPIR-V
// inputs, and two or more objects, are hipErrorNotSupported with the reason.
#include "api/api.hpp"
#include "runtime/handle_registry.hpp"

#include <fstream>
#include <iterator>
#include <mutex>
#include <vector>

using namespace weft;
using namespace weft::api;

namespace {

struct LinkState final : RefCounted {
  std::mutex mutex;
  std::vector<std::vector<std::byte>> inputs;
  std::vector<std::byte> output;  // valid until hipLinkDestroy, as HIP specifies
};

HandleRegistry<LinkState>& link_states() {
  static auto* registry = new HandleRegistry<LinkState>();  // leaked: used until exit
  return *registry;
}

Status check_options(unsigned count, const hipJitOption* options, void* const* values) {
  if (count && (!options || !values))
    return invalid_value("JIT options given without their arrays");
  for (unsigned i = 0; i < count; ++i)
    if (raw_value(options[i]) < 0 || raw_value(options[i]) >= hipJitOptionNumOptions)
      return invalid_value(
          fmt::format("option {} ({}) is not a hipJitOption", i, raw_value(options[i])));
  // They tune compilation; a finished object has none left to tune (as for hipModuleLoadDataEx).
  return Status();
}

Status check_input_type(hipJitInputType type) {
  switch (raw_value(type)) {
    case hipJitInputCubin:
    case hipJitInputFatBinary:
    case hipJitInputObject:
    case hipJitInputLibrary: return Status();
    case hipJitInputPtx:
    case hipJitInputNvvm:
    case hipJitInputLLVMBitcode:
    case hipJitInputLLVMBundledBitcode:
    case hipJitInputLLVMArchivesOfBundledBitcode:
    case hipJitInputSpirv:
      return Status(hipErrorNotSupported,
                    "weft has no device compiler or linker: only finished code objects "
                    "(hipJitInputObject, FatBinary, Cubin, Library) can be linked");
    default: return invalid_value(fmt::format("{} is not a hipJitInputType", raw_value(type)));
  }
}

Result<Ref<LinkState>> state_of(hipLinkState_t handle) {
  Ref<LinkState> state = link_states().find(handle);
  if (!state) return Status(hipErrorInvalidHandle, "unknown or destroyed link state");
  return state;
}

}  // namespace

WEFT_EXPORT hipError_t hipLinkCreate(unsigned int numOptions, hipJitOption* options,
                                     void** optionValues, hipLinkState_t* stateOut) {
  return call(
      "hipLinkCreate",
      [&]() -> Status {
        if (!stateOut) return invalid_value("null output pointer");
        WEFT_RETURN_IF_ERROR(check_options(numOptions, options, optionValues));
        auto state = make_ref<LinkState>();
        link_states().add(state);
        *stateOut = reinterpret_cast<hipLinkState_t>(state.get());
        return Status();
      },
      numOptions, options, optionValues, stateOut);
}

WEFT_EXPORT hipError_t hipLinkAddData(hipLinkState_t state, hipJitInputType type, void* data,
                                      size_t size, const char* name, unsigned int numOptions,
                                      hipJitOption* options, void** optionValues) {
  return call(
      "hipLinkAddData",
      [&]() -> Status {
        WEFT_ASSIGN_OR_RETURN(Ref<LinkState> s, state_of(state));
        if (!data || size == 0) return invalid_value("no input data");
        WEFT_RETURN_IF_ERROR(check_options(numOptions, options, optionValues));
        WEFT_RETURN_IF_ERROR(check_input_type(type));
        const auto* bytes = static_cast<const std::byte*>(data);
        std::lock_guard lock(s->mutex);
        s->inputs.emplace_back(bytes, bytes + size);
        return Status();
      },
      state, type, data, size, name, numOptions, options, optionValues);
}

WEFT_EXPORT hipError_t hipLinkAddFile(hipLinkState_t state, hipJitInputType type, const char* path,
                                      unsigned int numOptions, hipJitOption* options,
                                      void** optionValues) {
  return call(
      "hipLinkAddFile",
      [&]() -> Status {
        WEFT_ASSIGN_OR_RETURN(Ref<LinkState> s, state_of(state));
        if (!path || !*path) return invalid_value("no path");
        WEFT_RETURN_IF_ERROR(check_options(numOptions, options, optionValues));
        WEFT_RETURN_IF_ERROR(check_input_type(type));
        std::ifstream in(path, std::ios::binary);
        if (!in) return Status(hipErrorFileNotFound, fmt::format("{} cannot be read", path));
        std::vector<char> chars((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
        if (chars.empty()) return invalid_value(fmt::format("{} is empty", path));
        const auto* bytes = reinterpret_cast<const std::byte*>(chars.data());
        std::lock_guard lock(s->mutex);
        s->inputs.emplace_back(bytes, bytes + chars.size());
        return Status();
      },
      state, type, path, numOptions, options, optionValues);
}

WEFT_EXPORT hipError_t hipLinkComplete(hipLinkState_t state, void** hipBinOut, size_t* sizeOut) {
  return call(
      "hipLinkComplete",
      [&]() -> Status {
        WEFT_ASSIGN_OR_RETURN(Ref<LinkState> s, state_of(state));
        if (!hipBinOut || !sizeOut) return invalid_value("null output pointer");
        std::lock_guard lock(s->mutex);
        if (s->inputs.empty()) return invalid_value("nothing was added to the link state");
        if (s->inputs.size() > 1)
          return Status(
              hipErrorNotSupported,
              fmt::format(
                  "{} code objects cannot be linked into one: weft has no device linker (load "
                  "each with hipModuleLoadData)",
                  s->inputs.size()));
        s->output = s->inputs.front();
        *hipBinOut = s->output.data();
        *sizeOut = s->output.size();
        return Status();
      },
      state, hipBinOut, sizeOut);
}

WEFT_EXPORT hipError_t hipLinkDestroy(hipLinkState_t state) {
  return call(
      "hipLinkDestroy",
      [&]() -> Status {
        if (!link_states().remove(state))
          return Status(hipErrorInvalidHandle, "unknown or destroyed link state");
        return Status();
      },
      state);
}
