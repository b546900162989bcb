// SPDX-License-Identifier: MIT
// CPU code objects on the CPU agent: host shared objects built with
// <hip/weft/cpu_code_object.h> (ABI in docs/code-objects.md), loaded from bytes
// through a memfd and dlopen. The ELF is parsed first, so malformed input is
// hipErrorInvalidImage, never a crash. Thread-safe; kernels are immutable.
#pragma once

#include <atomic>
#include <string>

#include <hip/weft/kernel_abi.h>
#include <weft/driver/device.hpp>

#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace weft::cpu {

// The dlopen'ed object; kernels and the module share it, so a kernel still in
// flight keeps its code mapped after hipModuleUnload.
class LoadedObject final : public RefCounted {
 public:
  LoadedObject(void* handle, int fd) : handle_(handle), fd_(fd) {}
  ~LoadedObject() override;
  void* handle() const { return handle_; }

 private:
  void* handle_;
  int fd_;
};

class CpuKernel final : public Kernel {
 public:
  CpuKernel(KernelInfo info, weftKernelEntry entry, Ref<LoadedObject> object,
            std::string fiber_reason = {})
      : info_(std::move(info)), entry_(entry), object_(std::move(object)),
        fiber_reason_(std::move(fiber_reason)) {}
  const KernelInfo& info() const override { return info_; }
  weftKernelEntry entry() const { return entry_; }
  // Why weftcc's block-loop pass left this kernel to the fiber engine (empty: it did
  // not, or the object was not built with it); logged at its first launch.
  const std::string& fiber_reason() const { return fiber_reason_; }
  bool first_launch() const { return !launched_.exchange(true, std::memory_order_relaxed); }

 private:
  KernelInfo info_;
  weftKernelEntry entry_;
  Ref<LoadedObject> object_;
  std::string fiber_reason_;
  mutable std::atomic<bool> launched_{false};
};

struct CpuGlobal {
  std::byte* address = nullptr;
  size_t size = 0;
};

class CpuModule final : public Module {
 public:
  // Validates and loads a CPU code object (a host ELF shared object).
  static Result<Ref<Module>> load(std::span<const std::byte> image);

  Result<Ref<Kernel>> kernel(std::string_view name) override;
  Result<std::span<std::byte>> global(std::string_view name) override;
  Result<std::vector<std::string>> kernel_names() override;

 private:
  friend class ModuleBuilder;
  Ref<LoadedObject> object_;
  // By linker (mangled) name and by the name written in WEFT_CPU_KERNEL.
  std::unordered_map<std::string, Ref<CpuKernel>> kernels_;
  std::unordered_map<std::string, CpuGlobal> globals_;  // data symbols of the object
};

// The entry point of a code-object kernel dispatched to the CPU agent
// (hipErrorInvalidDeviceFunction when the kernel is not a CPU code-object kernel).
Result<weftKernelEntry> code_object_entry(const Kernel* kernel);

}  // namespace weft::cpu
