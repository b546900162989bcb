// SPDX-License-Identifier: MIT
// Pure parsers for the kernel's text formats (sysfs, procfs) and a few naming
// rules. No I/O: tests/hip_smi/parse_test.cpp covers each one.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace weft::smi {

std::string_view trim(std::string_view text);
std::vector<std::string_view> split(std::string_view text, char sep);
// "key=value" → {"key", "value"}; no separator → {text, ""}.
std::pair<std::string_view, std::string_view> split_pair(std::string_view text, char sep);

std::optional<int64_t> parse_int(std::string_view text);    // decimal or 0x hex
std::optional<uint64_t> parse_u64(std::string_view text);   // decimal or 0x hex
std::optional<double> parse_double(std::string_view text);  // leading number only

// KFD `properties` files: one "key value" per line, values decimal.
class Properties {
 public:
  Properties() = default;
  explicit Properties(std::string_view text);
  std::optional<uint64_t> u64(std::string_view key) const;
  uint64_t get(std::string_view key, uint64_t fallback = 0) const;
  bool has(std::string_view key) const { return values_.count(std::string(key)) > 0; }

 private:
  std::map<std::string, std::string> values_;
};

// amdgpu pp_dpm_* files: "<idx>: <value>Mhz [*]" per line (deep-sleep "S:" lines too).
struct DpmLevels {
  std::vector<uint32_t> mhz;        // every level in file order
  std::optional<uint32_t> current;  // the level marked '*'
  std::optional<uint32_t> max() const;
};
DpmLevels parse_dpm_levels(std::string_view text);

// KFD gfx_target_version (major*10000 + minor*100 + stepping) → "gfx942".
std::string gfx_name(uint64_t version);

// Kernel range lists ("0-3,8,10-11") and back.
std::vector<int> parse_range_list(std::string_view text);
std::string format_range_list(const std::vector<int>& values);

// /proc/stat "cpu" line → busy and total ticks. total = first 8 fields;
// idle = idle + iowait (guest time is already inside user and nice).
struct CpuTicks {
  uint64_t total = 0;
  uint64_t idle = 0;
};
std::optional<CpuTicks> parse_proc_stat(std::string_view text);

// /proc/meminfo and node*/meminfo: "Key: N kB" (node files prefix "Node N ").
// Values are returned in bytes.
std::map<std::string, uint64_t> parse_meminfo(std::string_view text);

// "16.0 GT/s PCIe" → 16.0; "8 GT/s" → 8; "Unknown" → nullopt.
std::optional<double> parse_link_speed(std::string_view text);

// PCI bus ID of KFD's domain and location_id (bus<<8 | dev<<3 | fn).
std::string format_bdf(uint64_t domain, uint64_t location_id);
// Any spelling ("00000000:18:00.0", "18:00.0", upper case) → "0000:18:00.0".
std::string normalize_bdf(std::string_view text);

// libdrm's amdgpu.ids ("DEVID,\tREV,\tName"); device and revision must both match,
// as in libdrm (one device ID names several boards by revision).
std::string lookup_amdgpu_ids(std::string_view text, unsigned device, unsigned revision);

// A 64-bit counter that a driver reports as "not available" (all ones) or that
// is absurd for a byte count (≥ 2^62, the "16 EB" bug) is unknown, not a value.
std::optional<uint64_t> sane_bytes(uint64_t value);

}  // namespace weft::smi
