// SPDX-License-Identifier: MIT
// weft's NPU code object (docs/code-objects.md, "NPU code objects"): one file
// holding an xclbin (the PDI overlay and its partition) and, per kernel, the
// instruction stream mlir-aie/IRON emit (`aiecc.py --aie-generate-npu-insts`)
// with the kernel's argument layout in the ERT START_CU register map.
//
// Layout, little-endian, every offset from the file's start:
//   header (64 bytes)
//     0  "WEFTNPU\0"           8  u32 version (1)     12 u32 kernel count
//    16  u64 total size        24 char target[16] ("aie2", "aie2p"; NUL-padded)
//    40  u64 xclbin offset     48 u64 xclbin size     56 u64 kernel table offset
//   kernel record (64 bytes each)
//     0  u64 name offset       8  u32 name size       12 u32 DPU kernel ID (selects the PDI)
//    16  u64 instr offset     24  u64 instr size (bytes, a multiple of 4)
//    32  u64 args offset      40  u32 arg count       44 u32 register-map size (bytes)
//    48  u16 opcode slot      50  u16 instr slot      52 u16 ninstr slot  54 u16 0
//    56  u32 opcode value     60  u8 CU function      61 3 zero bytes
//   argument record (16 bytes each)
//     0  u32 kind (1 buffer, 2 scalar)   4 u32 size   8 u32 register-map offset   12 u32 0
// Slots are byte offsets in the register map: the opcode is a u64, the
// instruction buffer's device address a u64, the instruction count (32-bit
// words) a u32; a buffer argument's device address a u64. Nothing overlaps.
// Pure functions; results view the input bytes.
#pragma once

#include <weft/codeobj/bytes.hpp>
#include <weft/codeobj/xclbin.hpp>
#include <weft/driver/status.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace weft::codeobj {

inline constexpr std::string_view kNpuObjectMagic{"WEFTNPU\0", 8};
inline constexpr uint32_t kNpuObjectVersion = 1;
inline constexpr uint64_t kNpuHeaderSize = 64, kNpuKernelRecordSize = 64, kNpuArgRecordSize = 16;
// The START_CU payload after the CU mask is at most 0x7ff - 1 words (header count field).
inline constexpr uint32_t kNpuMaxRegmapBytes = (0x7ff - 1) * 4;

enum class NpuArgKind : uint32_t { kBuffer = 1, kScalar = 2 };

struct NpuArg {
  NpuArgKind kind = NpuArgKind::kBuffer;
  uint32_t size = 8;
  uint32_t regmap_offset = 0;
};

struct NpuKernel {
  std::string name;
  uint32_t dpu_kernel_id = 0;
  Bytes instructions;
  std::vector<NpuArg> args;
  uint32_t regmap_size = 0;
  uint16_t opcode_slot = 0, instr_slot = 0, ninstr_slot = 0;
  uint32_t opcode_value = 0;
  uint8_t cu_func = 0;
  const XclbinPdi* pdi = nullptr;  // into NpuObject::xclbin
};

struct NpuObject {
  std::string target;
  uint64_t total_size = 0;
  Bytes xclbin_bytes;
  Xclbin xclbin;
  std::vector<NpuKernel> kernels;
};

inline bool is_npu_object(Bytes bytes) { return starts_with(bytes, kNpuObjectMagic); }

// Everything checked: bounds, sizes, slots inside the register map and not
// overlapping, unique names, a PDI for every kernel. hipErrorInvalidImage otherwise.
Result<NpuObject> parse_npu_object(Bytes bytes);

// The target ID in the header only (image selection, before a full parse).
Result<std::string> npu_object_target(Bytes bytes);

// The mlir-aie (IRON) xclbin kernel's register map (fact sheet §2.7): opcode
// u64 at 0x00 (value 3), instruction address at 0x08, instruction count at
// 0x10, then `buffers` buffer addresses from 0x14, 8 bytes apart.
struct NpuKernelInput {
  std::string name;
  uint32_t dpu_kernel_id = 0x901;
  std::vector<uint32_t> instructions;
  std::vector<NpuArg> args;
  uint32_t regmap_size = 0;
  uint16_t opcode_slot = 0x00, instr_slot = 0x08, ninstr_slot = 0x10;
  uint32_t opcode_value = 3;
  uint8_t cu_func = 1;
};
NpuKernelInput mlir_aie_kernel(std::string name, std::vector<uint32_t> instructions,
                               unsigned buffers);

// Writer, for tests, seed corpora and tools.
std::vector<std::byte> write_npu_object(std::string_view target,
                                        const std::vector<std::byte>& xclbin,
                                        const std::vector<NpuKernelInput>& kernels);

}  // namespace weft::codeobj
