// SPDX-License-Identifier: MIT
// Every environment setting weft reads, parsed once in one place. docs/settings.md
// lists them with their defaults and what an invalid value falls back to; each
// invalid value adds one line to `warnings`, which the log writes at its first use
// (the parser cannot log itself: the log asks it for the level).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace weft::env {

struct Settings {
  int log_level = 0;                                // AMD_LOG_LEVEL / WEFT_LOG_LEVEL (0..5)
  bool log_level_set = false;                       // one of them was given as an integer
  uint32_t log_mask = 0x7FFFFFFF;                   // AMD_LOG_MASK (AMD's category bits)
  std::optional<std::string> visible_devices;       // HIP_VISIBLE_DEVICES
  std::optional<std::string> cuda_visible_devices;  // CUDA_VISIBLE_DEVICES (AMD's alias)
  bool launch_blocking = false;                     // HIP_LAUNCH_BLOCKING / AMD_SERIALIZE_KERNEL&2
  bool cpu_agent = true;                            // WEFT_CPU_AGENT=0 hides the CPU agent
  unsigned cpu_workers = 0;                         // WEFT_CPU_WORKERS (0 = one per usable core)
  size_t cpu_fiber_stack_bytes = 256 * 1024;        // WEFT_CPU_STACK_SIZE
  std::optional<std::string> runtime_dir;           // XDG_RUNTIME_DIR (hip-smi registration)
  std::vector<std::string> warnings;                // one line per invalid value, with its fallback
};

inline constexpr size_t kMinFiberStack = 16 * 1024;
inline constexpr size_t kMaxFiberStack = size_t(1) << 30;

const Settings& settings();

// Parses the settings from a lookup function (getenv in the library; a map in
// the unit tests).
Settings parse(const char* (*lookup)(const char* name));

// Parses a HIP_VISIBLE_DEVICES-style list: comma-separated indices below `count`;
// stops at the first invalid entry and drops duplicates, keeping order.
std::vector<int> parse_visible_list(const std::string& text, int count);

}  // namespace weft::env
