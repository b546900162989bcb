// SPDX-License-Identifier: MIT
#include "module.hpp"

#include <weft/codeobj/amdgpu.hpp>
#include <weft/codeobj/image.hpp>
#include <weft/codeobj/target_id.hpp>

namespace weft::hsa {
namespace {}  // namespace

Result<CodeObjectLayout> read_layout(std::span<const std::byte> elf) {
  auto co = codeobj::read_amdgpu_code_object(elf);
  if (!co.ok()) return Status(hipErrorInvalidImage, co.status().message());
  CodeObjectLayout out;
  out.target = co.value().target;
  out.version = co.value().code_object_version;
  for (const auto& k : co.value().kernels) {
    const auto& m = k.meta;
    KernelLayout layout;
    KernelInfo& info = layout.info;
    info.name = std::string(m.name);
    info.kernarg_size = m.kernarg_segment_size;
    info.kernarg_align = std::max<uint32_t>(m.kernarg_segment_align, 8);
    info.static_shared_bytes = m.group_segment_fixed_size;
    info.private_bytes = m.private_segment_fixed_size;
    info.max_threads_per_block = m.max_flat_workgroup_size ? m.max_flat_workgroup_size : 1024;
    info.num_registers = m.vgpr_count;
    for (const auto& a : m.args) {
      aql::HiddenKind kind;
      if (aql::hidden_kind(a.value_kind, kind)) {
        layout.hidden.push_back(aql::HiddenArg{kind, a.offset, a.size});
        if (kind == aql::HiddenKind::kHostcallBuffer || kind == aql::HiddenKind::kPrintfBuffer)
          layout.uses_hostcall = true;
      } else {
        info.args.push_back(KernelArgInfo{a.offset, a.size});
      }
    }
    out.kernels.push_back(std::move(layout));
  }
  return out;
}

Result<Ref<Module>> HsaModule::load(Ref<HsaDevice> device, std::span<const std::byte> image) {
  // A bundle handed straight to the driver: take the entry for this agent.
  std::span<const std::byte> elf = image;
  auto opened = codeobj::OpenedImage::open(image);
  if (!opened.ok()) return Status(hipErrorInvalidImage, opened.status().message());
  if (opened.value().kind() != codeobj::ImageKind::kElf) {
    const auto* chosen = opened.value().select(device->target_id());
    if (!chosen)
      return Status(hipErrorNoBinaryForGpu, "no code object for " + device->target_id() +
                                                "; the image carries " +
                                                opened.value().targets_text());
    elf = chosen->data;
  }
  WEFT_ASSIGN_OR_RETURN(CodeObjectLayout layout, read_layout(elf));
  if (!codeobj::is_compatible(layout.target, device->target_id()))
    return Status(hipErrorNoBinaryForGpu,
                  "code object for " + layout.target + " does not run on " + device->target_id());
  const Api& api = device->api();
  Ref<HsaModule> m(new HsaModule(device, std::move(layout)));
  hsa_status_t s =
      api.hsa_code_object_reader_create_from_memory(elf.data(), elf.size(), &m->reader_);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api, s, hipErrorInvalidImage,
                           "hsa_code_object_reader_create_from_memory");
  s = api.hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                    nullptr, &m->executable_);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api, s, hipErrorOutOfMemory, "hsa_executable_create_alt");
  s = api.hsa_executable_load_agent_code_object(m->executable_, device->agent(), m->reader_,
                                                nullptr, nullptr);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api, s, hipErrorInvalidImage, "hsa_executable_load_agent_code_object");
  s = api.hsa_executable_freeze(m->executable_, nullptr);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api, s, hipErrorInvalidImage, "hsa_executable_freeze");
  return Ref<Module>(std::move(m));
}

HsaModule::~HsaModule() {
  const Api& api = device_->api();
  if (executable_.handle) (void)api.hsa_executable_destroy(executable_);
  if (reader_.handle) (void)api.hsa_code_object_reader_destroy(reader_);
}

Result<std::vector<std::string>> HsaModule::kernel_names() {
  std::vector<std::string> names;
  for (const auto& k : layout_.kernels) names.push_back(k.info.name);
  return names;
}

Result<Ref<Kernel>> HsaModule::kernel(std::string_view name) {
  const KernelLayout* layout = nullptr;
  for (const auto& k : layout_.kernels)
    if (k.info.name == name) layout = &k;
  if (!layout)
    return Status(hipErrorNotFound, "no kernel named " + std::string(name) + " in the module");
  const Api& api = device_->api();
  hsa_agent_t agent = device_->agent();
  hsa_executable_symbol_t symbol{0};
  std::string symbol_name = std::string(name) + ".kd";
  hsa_status_t s =
      api.hsa_executable_get_symbol_by_name(executable_, symbol_name.c_str(), &agent, &symbol);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api, s, hipErrorNotFound, "hsa_executable_get_symbol_by_name",
                           "for " + symbol_name);
  uint64_t object = 0;
  uint32_t kernarg = 0, group = 0, priv = 0;
  s = api.hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object);
  if (s == HSA_STATUS_SUCCESS)
    s = api.hsa_executable_symbol_get_info(
        symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg);
  if (s == HSA_STATUS_SUCCESS)
    s = api.hsa_executable_symbol_get_info(
        symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group);
  if (s == HSA_STATUS_SUCCESS)
    s = api.hsa_executable_symbol_get_info(
        symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &priv);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api, s, hipErrorInvalidDeviceFunction, "hsa_executable_symbol_get_info");
  // ROCr's figures come from the loaded descriptor; they win over the metadata.
  KernelInfo info = layout->info;
  info.kernarg_size = std::max(info.kernarg_size, kernarg);
  info.static_shared_bytes = group;
  info.private_bytes = priv;
  return Ref<Kernel>(make_ref<HsaKernel>(Ref<HsaModule>(this), *device_, std::move(info), object,
                                         layout->hidden, layout->uses_hostcall));
}

Result<std::span<std::byte>> HsaModule::global(std::string_view name) {
  const Api& api = device_->api();
  hsa_agent_t agent = device_->agent();
  hsa_executable_symbol_t symbol{0};
  std::string n(name);
  hsa_status_t s = api.hsa_executable_get_symbol_by_name(executable_, n.c_str(), &agent, &symbol);
  if (s != HSA_STATUS_SUCCESS)
    return Status(hipErrorNotFound, "no global named " + n + " in the module");
  uint64_t address = 0;
  uint32_t size = 0;
  s = api.hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS,
                                         &address);
  if (s == HSA_STATUS_SUCCESS)
    s = api.hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &size);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api, s, hipErrorNotFound, "hsa_executable_symbol_get_info");
  return std::span<std::byte>(reinterpret_cast<std::byte*>(address), size);
}

}  // namespace weft::hsa
