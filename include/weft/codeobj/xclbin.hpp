// SPDX-License-Identifier: MIT
// The parts of an xclbin (XRT's "axlf" container, xclbin.h) that an AMD NPU
// needs: the section table and the AIE_PARTITION section, which holds the PDIs
// (the overlay a hardware context loads) with the DPU kernel IDs each serves,
// the partition's column width and its operations per cycle.
//
// Layout (little-endian): "xclbin2\0", i32 signature length, 28 reserved
// bytes, a 256-byte key block, u64 unique ID, then the 152-byte axlf_header
// at 304 (u64 m_length first, u32 m_numSections at +144), then 40-byte section
// headers from 456 {u32 kind, char name[16], u64 offset, u64 size}.
// Arrays inside AIE_PARTITION are {u32 count, u32 byte offset from the section}.
// Pure functions; results view the input bytes.
#pragma once

#include <weft/codeobj/bytes.hpp>
#include <weft/driver/status.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace weft::codeobj {

inline constexpr std::string_view kXclbinMagic{"xclbin2\0", 8};
inline constexpr uint32_t kXclbinSectionAiePartition = 32;
inline constexpr uint64_t kXclbinHeaderOffset = 304;
inline constexpr uint64_t kXclbinSectionTableOffset = 456;
inline constexpr uint64_t kXclbinSectionHeaderSize = 40;

struct XclbinSection {
  uint32_t kind = 0;
  std::string name;
  Bytes data;
};

struct XclbinPdi {
  std::array<uint8_t, 16> uuid{};
  Bytes image;
  std::vector<uint64_t> kernel_ids;  // every DPU kernel ID of its CDO groups
};

struct XclbinPartition {
  uint32_t operations_per_cycle = 0;
  uint16_t column_width = 0;
  std::vector<uint16_t> start_columns;
  std::vector<XclbinPdi> pdis;
};

struct Xclbin {
  uint64_t length = 0;  // m_length: the whole file
  std::vector<XclbinSection> sections;
  XclbinPartition partition;  // from the AIE_PARTITION section (required)

  // The PDI whose CDO groups list `kernel_id`, or null.
  const XclbinPdi* pdi_for_kernel(uint64_t kernel_id) const;
};

inline bool is_xclbin(Bytes bytes) { return starts_with(bytes, kXclbinMagic); }

// hipErrorInvalidImage, naming the field, for anything out of bounds or absent.
Result<Xclbin> parse_xclbin(Bytes bytes);

// Writer, for tests, seed corpora and tools: a minimal xclbin with one
// AIE_PARTITION section (what parse_xclbin reads, laid out as XRT lays it out).
struct XclbinPdiInput {
  std::array<uint8_t, 16> uuid{};
  std::vector<std::byte> image;
  std::vector<uint64_t> kernel_ids;
};
struct XclbinInput {
  uint32_t operations_per_cycle = 0;
  uint16_t column_width = 1;
  std::vector<uint16_t> start_columns;
  std::vector<XclbinPdiInput> pdis;
};
std::vector<std::byte> write_xclbin(const XclbinInput& input);

}  // namespace weft::codeobj
