// SPDX-License-Identifier: MIT
// The host CPU agent: /proc/cpuinfo (first block only: the file costs a
// frequency query per CPU on large machines), /sys/devices/system/{cpu,node},
// /proc/meminfo, /proc/stat, /proc/loadavg and the CPU's hwmon sensor.
#pragma once

#include <optional>
#include <vector>

#include "model.hpp"
#include "parse.hpp"
#include "pending.hpp"
#include "sysroot.hpp"

namespace weft::smi {

// CPU busy share from two /proc/stat samples. Not thread-safe.
class CpuLoad {
 public:
  // Takes the first sample when there is none yet (start of a one-shot run).
  void begin(const SysRoot& root);
  // Busy percent since the previous sample, waiting until at least `window`
  // has passed since it. When the counters did not move (a fixture's static
  // file) the share since boot is reported instead, so fixture output is stable.
  std::optional<double> end(const SysRoot& root, std::chrono::milliseconds window);

 private:
  std::optional<CpuTicks> last_;
  Clock::time_point last_at_{};
};

Agent probe_cpu(const SysRoot& root);
std::vector<NumaNode> probe_numa(const SysRoot& root);

}  // namespace weft::smi
