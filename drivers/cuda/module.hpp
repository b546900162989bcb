// SPDX-License-Identifier: MIT
// Code objects on a CUDA device: cubin, fatbin or PTX, loaded with
// cuModuleLoadData. Kernels carry their CUfunction and the argument layout
// CUDA reports (cuFuncGetParamInfo), and keep their module loaded. kernel()
// makes a new Kernel per call (callers cache; a cache here would be a cycle).
// Module: thread-safe; Kernel: immutable.
#pragma once

#include <atomic>
#include <string>
#include <weft/driver/device.hpp>

#include "device.hpp"

namespace weft::cuda {

class CudaModule;

class CudaKernel final : public Kernel {
 public:
  CudaKernel(Ref<CudaModule> module, CUfunction function, KernelInfo info);
  const KernelInfo& info() const override { return info_; }
  CUfunction function() const { return function_; }
  const CudaDevice& device() const;
  // Raises the kernel's dynamic shared memory limit when a launch needs more than
  // CUDA's default 48 KiB (HIP has no opt-in step). Thread-safe.
  Status allow_dynamic_shared(uint32_t bytes) const;

 private:
  Ref<CudaModule> module_;  // keeps the CUmodule loaded while the kernel lives
  const CUfunction function_;
  const KernelInfo info_;
  mutable std::atomic<uint32_t> dynamic_shared_limit_{48 * 1024};
};

class CudaModule final : public Module {
 public:
  CudaModule(Ref<CudaDevice> device, CUmodule module);
  ~CudaModule() override;

  Result<Ref<Kernel>> kernel(std::string_view name) override;
  Result<std::span<std::byte>> global(std::string_view name) override;

  CudaDevice& device() const { return *device_; }

 private:
  Ref<CudaDevice> device_;
  const CUmodule module_;
};

// True when `image` looks like PTX text rather than an ELF cubin or a fatbin.
bool is_ptx_text(std::span<const std::byte> image);

}  // namespace weft::cuda
