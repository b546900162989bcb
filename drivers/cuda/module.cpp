// SPDX-License-Identifier: MIT
#include "module.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "status.hpp"

namespace weft::cuda {
namespace {

int function_attribute(const Api& api, CUfunction f, CUfunction_attribute attr) {
  int value = 0;
  return api.cuFuncGetAttribute(&value, attr, f) == CUDA_SUCCESS ? value : 0;
}

// The explicit parameters as CUDA lays them out; empty when the driver cannot say.
std::vector<KernelArgInfo> parameter_layout(const Api& api, CUfunction f) {
  std::vector<KernelArgInfo> args;
  if (!api.cuFuncGetParamInfo) return args;
  for (size_t index = 0;; ++index) {
    size_t offset = 0, size = 0;
    if (api.cuFuncGetParamInfo(f, index, &offset, &size) != CUDA_SUCCESS) break;
    args.push_back(KernelArgInfo{static_cast<uint32_t>(offset), static_cast<uint32_t>(size)});
  }
  return args;
}

}  // namespace

bool is_ptx_text(std::span<const std::byte> image) {
  // ELF cubins start with 0x7f 'E' 'L' 'F'; fatbins with the magic 0xBA55ED50.
  // PTX is text: comments, directives and whitespace first.
  for (std::byte b : image.first(std::min<size_t>(image.size(), 256))) {
    auto c = static_cast<unsigned char>(b);
    if (std::isspace(c)) continue;
    return c == '/' || c == '.';
  }
  return false;
}

CudaKernel::CudaKernel(Ref<CudaModule> module, CUfunction function, KernelInfo info)
    : module_(std::move(module)), function_(function), info_(std::move(info)) {}

const CudaDevice& CudaKernel::device() const { return module_->device(); }

Status CudaKernel::allow_dynamic_shared(uint32_t bytes) const {
  uint32_t limit = dynamic_shared_limit_.load(std::memory_order_relaxed);
  if (bytes <= limit) return Status();
  WEFT_CU_RETURN_IF_ERROR(module_->device().api().cuFuncSetAttribute(
      function_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(bytes)));
  while (limit < bytes &&
         !dynamic_shared_limit_.compare_exchange_weak(limit, bytes, std::memory_order_relaxed)) {
  }
  return Status();
}

CudaModule::CudaModule(Ref<CudaDevice> device, CUmodule module)
    : device_(std::move(device)), module_(module) {}

CudaModule::~CudaModule() {
  if (device_->make_current().ok()) (void)device_->api().cuModuleUnload(module_);
}

Result<Ref<Kernel>> CudaModule::kernel(std::string_view name) {
  const Api& api = device_->api();
  WEFT_RETURN_IF_ERROR(device_->make_current());
  std::string key(name);
  CUfunction f = nullptr;
  CUresult r = api.cuModuleGetFunction(&f, module_, key.c_str());
  if (r == CUDA_ERROR_NOT_FOUND)
    return Status(hipErrorNotFound, "no kernel named " + key + " in the module");
  WEFT_RETURN_IF_ERROR(status_from_cuda(r, "cuModuleGetFunction"));
  KernelInfo info;
  info.name = key;
  info.args = parameter_layout(api, f);
  for (const auto& a : info.args)
    info.kernarg_size = std::max(info.kernarg_size, a.offset + a.size);
  info.kernarg_align = 8;
  info.static_shared_bytes =
      static_cast<uint32_t>(function_attribute(api, f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
  info.private_bytes =
      static_cast<uint32_t>(function_attribute(api, f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES));
  info.max_threads_per_block =
      static_cast<uint32_t>(function_attribute(api, f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
  info.num_registers =
      static_cast<uint32_t>(function_attribute(api, f, CU_FUNC_ATTRIBUTE_NUM_REGS));
  return Ref<Kernel>(make_ref<CudaKernel>(Ref<CudaModule>(this), f, std::move(info)));
}

Result<std::span<std::byte>> CudaModule::global(std::string_view name) {
  WEFT_RETURN_IF_ERROR(device_->make_current());
  std::string key(name);
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
  CUresult r = device_->api().cuModuleGetGlobal(&ptr, &bytes, module_, key.c_str());
  if (r == CUDA_ERROR_NOT_FOUND)
    return Status(hipErrorNotFound, "no global named " + key + " in the module");
  WEFT_RETURN_IF_ERROR(status_from_cuda(r, "cuModuleGetGlobal"));
  return std::span<std::byte>(reinterpret_cast<std::byte*>(ptr), bytes);
}

}  // namespace weft::cuda
