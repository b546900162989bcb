// SPDX-License-Identifier: MIT
// NPU modules: weft's NPU code object (include/weft/codeobj/npu_object.hpp)
// loaded on one NPU. Loading creates a hardware context on a column partition
// of the xclbin's width, attaches one CU per kernel (CONFIG_CU with that
// kernel's PDI) and uploads every instruction stream into a DEV BO. A launch
// names the CU in the ERT packet's CU mask (docs/xdna.md, "Launch").
#pragma once

#include <weft/codeobj/npu_object.hpp>
#include <weft/driver/device.hpp>

#include "device.hpp"

#include <string>
#include <vector>

namespace weft::xdna {

// A hardware context and the BOs it uses (PDIs, instruction streams); kernels
// and the module share it, so it lives while any of them does.
class HwContext final : public RefCounted {
 public:
  explicit HwContext(Ref<XdnaDevice> device) : device_(std::move(device)) {}
  ~HwContext() override;

  XdnaDevice& device() const { return *device_; }
  uint32_t handle = 0;
  uint32_t syncobj = 0;
  std::vector<Bo> bos;  // destroyed after the context

 private:
  Ref<XdnaDevice> device_;
};

class XdnaKernel final : public Kernel {
 public:
  const KernelInfo& info() const override { return info_; }

  KernelInfo info_;
  codeobj::NpuKernel layout;  // register map layout (its byte views are cleared after loading)
  Ref<HwContext> context;
  Bo instructions;  // owned by `context`
  uint32_t cu_index = 0;
};

class XdnaModule final : public Module {
 public:
  static Result<Ref<Module>> load(Ref<XdnaDevice> device, std::span<const std::byte> image);

  Result<Ref<Kernel>> kernel(std::string_view name) override;
  Result<std::span<std::byte>> global(std::string_view name) override;
  Result<std::vector<std::string>> kernel_names() override;

 private:
  Ref<HwContext> context_;
  std::vector<Ref<XdnaKernel>> kernels_;
};

}  // namespace weft::xdna
