// SPDX-License-Identifier: MIT
// Every environment setting weft reads, parsed once in one place.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace weft::env {

struct Settings {
  int log_level = 0;                 // AMD_LOG_LEVEL / WEFT_LOG_LEVEL (0..4)
  std::optional<std::string> visible_devices;       // HIP_VISIBLE_DEVICES
  std::optional<std::string> cuda_visible_devices;  // CUDA_VISIBLE_DEVICES (AMD's alias)
  bool launch_blocking = false;      // HIP_LAUNCH_BLOCKING / AMD_SERIALIZE_KERNEL&2
  bool cpu_agent = true;             // WEFT_CPU_AGENT=0 hides the CPU agent
  unsigned cpu_workers = 0;          // WEFT_CPU_WORKERS (0 = one per usable core)
  size_t cpu_fiber_stack_bytes = 256 * 1024;  // WEFT_CPU_STACK_SIZE
};

const Settings& settings();

// Parses a HIP_VISIBLE_DEVICES-style list: comma-separated indices below `count`;
// stops at the first invalid entry and drops duplicates, keeping order.
std::vector<int> parse_visible_list(const std::string& text, int count);

}  // namespace weft::env
