// SPDX-License-Identifier: MIT
// Code objects on an HSA agent. The image (a bare AMDGPU ELF, or a bundle from
// which the entry matching the agent's target ID is taken) is read with weft's
// own parsers for the kernel metadata (argument layout, hidden arguments), then
// loaded by ROCr through hsa_code_object_reader + hsa_executable. Kernels keep
// their module (and so the executable) alive. Module: thread-safe; Kernel: immutable.
#pragma once

#include <string>
#include <vector>
#include <weft/driver/device.hpp>

#include "aql.hpp"
#include "device.hpp"

namespace weft::hsa {

class HsaModule;

class HsaKernel final : public Kernel {
 public:
  // `module` keeps the executable loaded (null only in tests).
  HsaKernel(Ref<HsaModule> module, const HsaDevice& device, KernelInfo info, uint64_t object,
            std::vector<aql::HiddenArg> hidden, bool uses_hostcall)
      : module_(std::move(module)), device_(device), info_(std::move(info)), object_(object),
        hidden_(std::move(hidden)), uses_hostcall_(uses_hostcall) {}
  const KernelInfo& info() const override { return info_; }
  uint64_t kernel_object() const { return object_; }
  const std::vector<aql::HiddenArg>& hidden() const { return hidden_; }
  bool uses_hostcall() const { return uses_hostcall_; }
  const HsaDevice& device() const { return device_; }

 private:
  Ref<HsaModule> module_;
  const HsaDevice& device_;
  const KernelInfo info_;
  const uint64_t object_;
  const std::vector<aql::HiddenArg> hidden_;
  const bool uses_hostcall_;
};

// What weft reads from a kernel's metadata, before ROCr is involved.
struct KernelLayout {
  KernelInfo info;
  std::vector<aql::HiddenArg> hidden;
  bool uses_hostcall = false;
};

// Kernel layouts from an AMDGPU code object's metadata note, keyed by order of
// appearance; also returns the code object's target ID and version.
struct CodeObjectLayout {
  std::string target;
  unsigned version = 0;
  std::vector<KernelLayout> kernels;
};
Result<CodeObjectLayout> read_layout(std::span<const std::byte> elf);

class HsaModule final : public Module {
 public:
  static Result<Ref<Module>> load(Ref<HsaDevice> device, std::span<const std::byte> image);
  ~HsaModule() override;

  Result<Ref<Kernel>> kernel(std::string_view name) override;
  Result<std::span<std::byte>> global(std::string_view name) override;
  Result<std::vector<std::string>> kernel_names() override;
  HsaDevice& device() const { return *device_; }

 private:
  HsaModule(Ref<HsaDevice> device, CodeObjectLayout layout)
      : device_(std::move(device)), layout_(std::move(layout)) {}
  Ref<HsaDevice> device_;
  CodeObjectLayout layout_;
  hsa_code_object_reader_t reader_{0};
  hsa_executable_t executable_{0};
};

}  // namespace weft::hsa
