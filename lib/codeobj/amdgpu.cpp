// SPDX-License-Identifier: MIT
#include <weft/codeobj/amdgpu.hpp>

#include <weft/codeobj/msgpack.hpp>
#include <weft/codeobj/target_id.hpp>

namespace weft::codeobj {
namespace {

Status read_u32(const MsgValue& map, std::string_view key, uint32_t& out, bool required) {
  const MsgValue* v = map.find(key);
  if (!v) {
    if (required) return invalid_image(text_of("AMDGPU metadata: kernel lacks ", key));
    return Status();
  }
  auto u = v->as_uint();
  if (!u || *u > UINT32_MAX)
    return invalid_image(text_of("AMDGPU metadata: ", key, " is not a 32-bit count"));
  out = static_cast<uint32_t>(*u);
  return Status();
}

std::string_view string_or_empty(const MsgValue& map, std::string_view key) {
  const MsgValue* v = map.find(key);
  return v && v->as_string() ? *v->as_string() : std::string_view();
}

Status read_arg(const MsgValue& m, AmdgpuKernelArg& arg) {
  if (m.type != MsgValue::Type::kMap)
    return invalid_image("AMDGPU metadata: an argument is not a map");
  WEFT_RETURN_IF_ERROR(read_u32(m, ".offset", arg.offset, true));
  WEFT_RETURN_IF_ERROR(read_u32(m, ".size", arg.size, true));
  const MsgValue* kind = m.find(".value_kind");
  if (!kind || !kind->as_string())
    return invalid_image("AMDGPU metadata: argument lacks .value_kind");
  arg.value_kind = *kind->as_string();
  arg.name = string_or_empty(m, ".name");
  arg.address_space = string_or_empty(m, ".address_space");
  return Status();
}

Status read_kernel(const MsgValue& m, AmdgpuKernelMeta& k) {
  if (m.type != MsgValue::Type::kMap)
    return invalid_image("AMDGPU metadata: a kernel entry is not a map");
  const MsgValue* name = m.find(".name");
  const MsgValue* symbol = m.find(".symbol");
  if (!name || !name->as_string() || !symbol || !symbol->as_string())
    return invalid_image("AMDGPU metadata: kernel lacks .name or .symbol");
  k.name = *name->as_string();
  k.symbol = *symbol->as_string();
  WEFT_RETURN_IF_ERROR(read_u32(m, ".kernarg_segment_size", k.kernarg_segment_size, true));
  WEFT_RETURN_IF_ERROR(read_u32(m, ".kernarg_segment_align", k.kernarg_segment_align, true));
  WEFT_RETURN_IF_ERROR(read_u32(m, ".group_segment_fixed_size", k.group_segment_fixed_size, true));
  WEFT_RETURN_IF_ERROR(
      read_u32(m, ".private_segment_fixed_size", k.private_segment_fixed_size, true));
  WEFT_RETURN_IF_ERROR(read_u32(m, ".max_flat_workgroup_size", k.max_flat_workgroup_size, false));
  WEFT_RETURN_IF_ERROR(read_u32(m, ".wavefront_size", k.wavefront_size, false));
  WEFT_RETURN_IF_ERROR(read_u32(m, ".sgpr_count", k.sgpr_count, false));
  WEFT_RETURN_IF_ERROR(read_u32(m, ".vgpr_count", k.vgpr_count, false));
  WEFT_RETURN_IF_ERROR(read_u32(m, ".agpr_count", k.agpr_count, false));
  if (const MsgValue* v = m.find(".uses_dynamic_stack"); v && v->as_bool())
    k.uses_dynamic_stack = *v->as_bool();
  if (const MsgValue* args = m.find(".args")) {
    if (args->type != MsgValue::Type::kArray)
      return invalid_image("AMDGPU metadata: .args is not an array");
    k.args.resize(args->array.size());
    for (size_t i = 0; i < k.args.size(); ++i) {
      WEFT_RETURN_IF_ERROR(read_arg(args->array[i], k.args[i]));
      const AmdgpuKernelArg& a = k.args[i];
      if (uint64_t(a.offset) + a.size > k.kernarg_segment_size)
        return invalid_image(text_of("AMDGPU metadata: argument ", i, " of ", k.name,
                                     " lies outside the kernarg segment"));
    }
  }
  return Status();
}

}  // namespace

Result<AmdgpuMetadata> parse_amdgpu_metadata(Bytes bytes) {
  WEFT_ASSIGN_OR_RETURN(MsgValue root, parse_msgpack(bytes));
  if (root.type != MsgValue::Type::kMap)
    return invalid_image("AMDGPU metadata: top level is not a map");
  AmdgpuMetadata md;
  const MsgValue* version = root.find("amdhsa.version");
  if (!version || version->type != MsgValue::Type::kArray || version->array.size() < 2 ||
      !version->array[0].as_uint() || !version->array[1].as_uint())
    return invalid_image("AMDGPU metadata: missing or bad amdhsa.version");
  md.version_major = static_cast<uint32_t>(*version->array[0].as_uint());
  md.version_minor = static_cast<uint32_t>(*version->array[1].as_uint());
  if (md.version_major != 1)
    return invalid_image(text_of("AMDGPU metadata: unsupported version ", md.version_major));
  md.target = string_or_empty(root, "amdhsa.target");
  const MsgValue* kernels = root.find("amdhsa.kernels");
  if (kernels) {
    if (kernels->type != MsgValue::Type::kArray)
      return invalid_image("AMDGPU metadata: amdhsa.kernels is not an array");
    md.kernels.resize(kernels->array.size());
    for (size_t i = 0; i < md.kernels.size(); ++i)
      WEFT_RETURN_IF_ERROR(read_kernel(kernels->array[i], md.kernels[i]));
  }
  return md;
}

Result<KernelDescriptor> parse_kernel_descriptor(Bytes b) {
  if (b.size() < kKernelDescriptorSize)
    return invalid_image("kernel descriptor: shorter than 64 bytes");
  KernelDescriptor kd;
  kd.group_segment_fixed_size = *read_le<uint32_t>(b, 0);
  kd.private_segment_fixed_size = *read_le<uint32_t>(b, 4);
  kd.kernarg_size = *read_le<uint32_t>(b, 8);
  kd.kernel_code_entry_byte_offset = *read_le<int64_t>(b, 16);
  kd.compute_pgm_rsrc3 = *read_le<uint32_t>(b, 44);
  kd.compute_pgm_rsrc1 = *read_le<uint32_t>(b, 48);
  kd.compute_pgm_rsrc2 = *read_le<uint32_t>(b, 52);
  kd.kernel_code_properties = *read_le<uint16_t>(b, 56);
  kd.kernarg_preload = *read_le<uint16_t>(b, 58);
  return kd;
}

Result<AmdgpuCodeObject> read_amdgpu_code_object(Bytes bytes) {
  AmdgpuCodeObject co;
  WEFT_ASSIGN_OR_RETURN(co.elf, parse_elf(bytes));
  const ElfFile& elf = co.elf;
  if (elf.machine != kElfMachineAmdgpu)
    return invalid_image(text_of("not an AMDGPU ELF (e_machine ", elf.machine, ")"));
  if (elf.os_abi != kElfOsAbiAmdgpuHsa)
    return invalid_image(text_of("AMDGPU ELF: OS ABI ", elf.os_abi, " is not HSA"));
  if (elf.abi_version < 1 || elf.abi_version > 4)
    return invalid_image(text_of("AMDGPU ELF: code object ABI version ", elf.abi_version,
                                 " is not supported (v3-v6)"));
  co.code_object_version = elf.abi_version + 2u;
  WEFT_ASSIGN_OR_RETURN(co.target, amdgpu_target_from_flags(elf.flags, elf.abi_version));
  WEFT_ASSIGN_OR_RETURN(std::vector<ElfNote> notes, elf_notes(elf));
  const ElfNote* md_note = nullptr;
  for (const ElfNote& n : notes)
    if (n.name == "AMDGPU" && n.type == kNoteAmdgpuMetadata) md_note = &n;
  if (!md_note) return invalid_image("AMDGPU ELF: no NT_AMDGPU_METADATA note");
  WEFT_ASSIGN_OR_RETURN(co.metadata, parse_amdgpu_metadata(md_note->desc));
  for (const AmdgpuKernelMeta& meta : co.metadata.kernels) {
    const ElfSymbol* kd_sym = elf.symbol(meta.symbol);
    if (!kd_sym)
      return invalid_image(text_of("AMDGPU ELF: kernel descriptor ", meta.symbol, " is missing"));
    auto kd_bytes = elf.bytes_at(kd_sym->value, kKernelDescriptorSize);
    if (!kd_bytes)
      return invalid_image(
          text_of("AMDGPU ELF: kernel descriptor ", meta.symbol, " lies outside the file"));
    AmdgpuKernel k;
    k.meta = meta;
    k.descriptor_vaddr = kd_sym->value;
    WEFT_ASSIGN_OR_RETURN(k.descriptor, parse_kernel_descriptor(*kd_bytes));
    co.kernels.push_back(std::move(k));
  }
  return co;
}

}  // namespace weft::codeobj
