// SPDX-License-Identifier: MIT
// AMDGPU code objects (HSA, code object v3-v6): the msgpack metadata note, kernel
// descriptors, and a reader that ties them to the ELF. Layouts are in
// shared/docs/hip-abi-facts.md section 4 and docs/code-objects.md.
// Pure functions; results view the input bytes.
#pragma once

#include <weft/codeobj/bytes.hpp>
#include <weft/codeobj/elf.hpp>
#include <weft/driver/status.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace weft::codeobj {

inline constexpr uint32_t kNoteAmdgpuMetadata = 32;

struct AmdgpuKernelArg {
  uint32_t offset = 0;
  uint32_t size = 0;
  std::string_view value_kind;  // by_value, global_buffer, hidden_*, ...
  std::string_view name;
  std::string_view address_space;
  bool hidden() const { return value_kind.substr(0, 7) == "hidden_"; }
};

struct AmdgpuKernelMeta {
  std::string_view name;
  std::string_view symbol;  // name + ".kd"
  uint32_t kernarg_segment_size = 0;
  uint32_t kernarg_segment_align = 0;
  uint32_t group_segment_fixed_size = 0;
  uint32_t private_segment_fixed_size = 0;
  uint32_t max_flat_workgroup_size = 0;
  uint32_t wavefront_size = 0;
  uint32_t sgpr_count = 0;
  uint32_t vgpr_count = 0;
  uint32_t agpr_count = 0;
  bool uses_dynamic_stack = false;
  std::vector<AmdgpuKernelArg> args;
};

struct AmdgpuMetadata {
  uint32_t version_major = 0;
  uint32_t version_minor = 0;
  std::string_view target;  // amdhsa.target, e.g. "amdgcn-amd-amdhsa--gfx90a"
  std::vector<AmdgpuKernelMeta> kernels;
};

// Decodes the desc of an NT_AMDGPU_METADATA note.
Result<AmdgpuMetadata> parse_amdgpu_metadata(Bytes msgpack);

struct KernelDescriptor {
  uint32_t group_segment_fixed_size = 0;
  uint32_t private_segment_fixed_size = 0;
  uint32_t kernarg_size = 0;
  int64_t kernel_code_entry_byte_offset = 0;
  uint32_t compute_pgm_rsrc3 = 0;
  uint32_t compute_pgm_rsrc1 = 0;
  uint32_t compute_pgm_rsrc2 = 0;
  uint16_t kernel_code_properties = 0;
  uint16_t kernarg_preload = 0;
};

inline constexpr size_t kKernelDescriptorSize = 64;

// Reads a 64-byte kernel descriptor (`<kernel>.kd`).
Result<KernelDescriptor> parse_kernel_descriptor(Bytes bytes);

struct AmdgpuKernel {
  AmdgpuKernelMeta meta;
  KernelDescriptor descriptor;
  uint64_t descriptor_vaddr = 0;
};

struct AmdgpuCodeObject {
  ElfFile elf;
  unsigned code_object_version = 0;  // 3..6
  std::string target;                // from e_flags, e.g. "gfx90a:sramecc+:xnack-"
  AmdgpuMetadata metadata;
  std::vector<AmdgpuKernel> kernels;
};

// Checks the ELF header, decodes the metadata and every kernel's descriptor.
Result<AmdgpuCodeObject> read_amdgpu_code_object(Bytes bytes);

}  // namespace weft::codeobj
