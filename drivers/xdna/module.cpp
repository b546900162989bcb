// SPDX-License-Identifier: MIT
#include "module.hpp"

#include "uapi.hpp"

#include <algorithm>
#include <cstring>
#include <map>

namespace weft::xdna {
namespace {

// CU masks: the header's two extra-mask bits allow four 32-bit masks.
constexpr size_t kMaxCus = 128;

// Explicit arguments packed as a GPU's are: each at the next offset aligned to
// its size, so kernelParams and `extra` buffers look as they would elsewhere.
KernelInfo kernel_info(const codeobj::NpuKernel& k) {
  KernelInfo info;
  info.name = k.name;
  uint32_t at = 0;
  for (const auto& a : k.args) {
    at = (at + a.size - 1) / a.size * a.size;
    info.args.push_back({at, a.size});
    at += a.size;
  }
  info.kernarg_size = (at + 7) / 8 * 8;
  info.kernarg_align = 8;
  info.max_threads_per_block = 1;
  return info;
}

Result<Bo> upload(HwContext& context, codeobj::Bytes bytes, const char* what) {
  XdnaDevice& device = context.device();
  auto bo = device.create_bo(uapi::kBoDev, bytes.size());
  if (!bo.ok()) return Status(bo.status().code(), bo.status().message() + " (" + what + ")");
  context.bos.push_back(bo.value());
  std::memcpy(bo.value().host, bytes.data(), bytes.size());
  WEFT_RETURN_IF_ERROR(device.sync_bo(bo.value(), uapi::kSyncToDevice));
  return bo;
}

}  // namespace

HwContext::~HwContext() {
  // XRT's order: the syncobj, then the context, then the BOs it used.
  if (syncobj) {
    uapi::SyncobjDestroy destroy;
    destroy.handle = syncobj;
    (void)device_->ioctl(uapi::kSyncobjDestroy, &destroy, "SYNCOBJ_DESTROY");
  }
  if (handle) {
    uapi::DestroyHwctx destroy;
    destroy.handle = handle;
    (void)device_->ioctl(uapi::kDestroyHwctx, &destroy, "DESTROY_HWCTX");
  }
  for (Bo& bo : bos) device_->destroy_bo(bo);
}

Result<Ref<Module>> XdnaModule::load(Ref<XdnaDevice> device, std::span<const std::byte> image) {
  WEFT_ASSIGN_OR_RETURN(codeobj::NpuObject object, codeobj::parse_npu_object(image));
  if (object.target != device->target_id())
    return Status(hipErrorNoBinaryForGpu, "NPU code object for " + object.target +
                                              " cannot run on this " + device->target_id() +
                                              " NPU");
  const auto& partition = object.xclbin.partition;
  if (partition.column_width > device->metadata().cols)
    return Status(hipErrorNoBinaryForGpu,
                  "NPU code object needs " + std::to_string(partition.column_width) +
                      " columns; this NPU has " + std::to_string(device->metadata().cols));
  if (object.kernels.size() > kMaxCus)
    return Status(hipErrorInvalidImage,
                  "NPU code object holds " + std::to_string(object.kernels.size()) +
                      " kernels; a hardware context takes at most " + std::to_string(kMaxCus));
  WEFT_RETURN_IF_ERROR(device->ensure_heap());

  auto context = make_ref<HwContext>(device);
  uapi::QosInfo qos{};
  uapi::CreateHwctx create;
  create.qos_p = reinterpret_cast<uintptr_t>(&qos);
  create.max_opc = partition.operations_per_cycle;
  create.num_tiles = uint32_t(partition.column_width) * device->metadata().core.row_count;
  WEFT_RETURN_IF_ERROR(device->ioctl(uapi::kCreateHwctx, &create, "CREATE_HWCTX"));
  context->handle = create.handle;
  context->syncobj = create.syncobj_handle;

  // One DEV BO per PDI the kernels use, one CU per kernel (its index is the
  // kernel's position, the bit its launches set in the CU mask).
  std::map<const codeobj::XclbinPdi*, uint32_t> pdi_bos;
  std::vector<std::byte> config(sizeof(uapi::ConfigCuHeader) +
                                object.kernels.size() * sizeof(uapi::CuConfig));
  uapi::ConfigCuHeader header;
  header.num_cus = static_cast<uint16_t>(object.kernels.size());
  std::memcpy(config.data(), &header, sizeof(header));
  for (size_t i = 0; i < object.kernels.size(); ++i) {
    const codeobj::NpuKernel& k = object.kernels[i];
    auto found = pdi_bos.find(k.pdi);
    if (found == pdi_bos.end()) {
      WEFT_ASSIGN_OR_RETURN(Bo bo, upload(*context, k.pdi->image, "a PDI"));
      found = pdi_bos.emplace(k.pdi, bo.handle).first;
    }
    uapi::CuConfig cu;
    cu.cu_bo = found->second;
    cu.cu_func = k.cu_func;
    std::memcpy(config.data() + sizeof(header) + i * sizeof(cu), &cu, sizeof(cu));
  }
  uapi::ConfigHwctx configure;
  configure.handle = context->handle;
  configure.param_type = uapi::kConfigCu;
  configure.param_val = reinterpret_cast<uintptr_t>(config.data());
  configure.param_val_size = static_cast<uint32_t>(config.size());
  WEFT_RETURN_IF_ERROR(device->ioctl(uapi::kConfigHwctx, &configure, "CONFIG_HWCTX(CONFIG_CU)"));

  auto module = make_ref<XdnaModule>();
  module->context_ = context;
  for (size_t i = 0; i < object.kernels.size(); ++i) {
    const codeobj::NpuKernel& k = object.kernels[i];
    auto kernel = make_ref<XdnaKernel>();
    WEFT_ASSIGN_OR_RETURN(kernel->instructions,
                          upload(*context, k.instructions, "an instruction stream"));
    kernel->info_ = kernel_info(k);
    kernel->layout = k;
    kernel->layout.instructions = {};
    kernel->layout.pdi = nullptr;
    kernel->context = context;
    kernel->cu_index = static_cast<uint32_t>(i);
    module->kernels_.push_back(std::move(kernel));
  }
  return Ref<Module>(module);
}

Result<Ref<Kernel>> XdnaModule::kernel(std::string_view name) {
  for (const auto& k : kernels_)
    if (k->info().name == name) return Ref<Kernel>(k);
  return Status(hipErrorNotFound, "NPU module has no kernel " + std::string(name));
}

Result<std::span<std::byte>> XdnaModule::global(std::string_view name) {
  return Status(hipErrorNotFound,
                "NPU code objects have no global variables (asked for " + std::string(name) + ")");
}

Result<std::vector<std::string>> XdnaModule::kernel_names() {
  std::vector<std::string> names;
  for (const auto& k : kernels_) names.push_back(k->info().name);
  return names;
}

}  // namespace weft::xdna
