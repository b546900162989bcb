// SPDX-License-Identifier: MIT
// Clang offload bundles: the container hipcc puts in `.hip_fatbin` and that
// hipModuleLoadData accepts. Plain bundles start with "__CLANG_OFFLOAD_BUNDLE__";
// compressed ones ("CCOB", versions 1-3, zlib or zstd) decompress to a plain one.
//
// Entry IDs are `<kind>-<triple>[-<target-id>]`, e.g.
//   hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-   (AMD GPU)
//   hipv4-nvptx64-nvidia-cuda--sm_90                   (NVIDIA, weft convention)
//   hipv4-x86_64-unknown-linux-gnu-x86_64              (weft CPU code object)
//   host-x86_64-unknown-linux                          (empty host entry)
// Pure functions; results view the input bytes.
#pragma once

#include <weft/codeobj/bytes.hpp>
#include <weft/driver/status.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace weft::codeobj {

inline constexpr std::string_view kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
inline constexpr std::string_view kCompressedBundleMagic = "CCOB";

struct BundleEntry {
  std::string_view id;
  uint64_t offset = 0;  // from the bundle start
  uint64_t size = 0;
  Bytes data;
};

struct Bundle {
  std::vector<BundleEntry> entries;
  uint64_t extent = 0;  // bytes from the start to the end of the last entry or header
};

// The parts of an entry ID. `triple` has four fields (arch-vendor-os-env; env may
// be empty); `target` is the target ID after it, empty when absent.
struct BundleEntryId {
  std::string_view kind;
  std::string_view triple;
  std::string_view arch;  // first field of the triple
  std::string_view target;
};

inline bool is_bundle(Bytes bytes) { return starts_with(bytes, kBundleMagic); }
inline bool is_compressed_bundle(Bytes bytes) { return starts_with(bytes, kCompressedBundleMagic); }

Result<Bundle> parse_bundle(Bytes bytes);
BundleEntryId parse_entry_id(std::string_view id);
// True for kinds that carry device code objects for HIP (hipv4, hip, hcc).
bool is_hip_code_object_kind(std::string_view kind);

enum class Compression : uint16_t { kZlib = 0, kZstd = 1 };

struct CompressedBundleHeader {
  uint16_t version = 0;
  Compression method = Compression::kZlib;
  uint64_t header_size = 0;
  uint64_t total_size = 0;  // 0 when the version does not record it (v1)
  uint64_t uncompressed_size = 0;
  uint64_t hash = 0;
};

Result<CompressedBundleHeader> parse_compressed_header(Bytes bytes);
// Decompresses a CCOB container into the plain bundle it holds. Refuses outputs
// larger than `max_output` bytes.
Result<std::vector<std::byte>> decompress_bundle(Bytes bytes, uint64_t max_output = 1ull << 32);

// Writers, for tools and tests. Entries are placed in order, each aligned to
// `alignment` bytes (4096 as clang does).
struct BundleInput {
  std::string id;
  std::vector<std::byte> data;
};
std::vector<std::byte> write_bundle(const std::vector<BundleInput>& entries,
                                    uint64_t alignment = 4096);
// Compresses a plain bundle as CCOB `version` (1-3). The hash field is written as
// zero: weft does not check it.
Result<std::vector<std::byte>> compress_bundle(Bytes bundle, Compression method, uint16_t version);

}  // namespace weft::codeobj
