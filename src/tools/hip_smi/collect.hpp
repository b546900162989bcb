// SPDX-License-Identifier: MIT
// Takes one sample of every agent. Static facts are read on the calling thread;
// every query that can touch a device runs on a worker thread, and all of them
// share one deadline: an agent that misses it is reported as not responding
// while the others print. A query still running from an earlier sample (watch
// mode) is not started again.
// Externally synchronized: one Collector per thread.
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "model.hpp"
#include "pending.hpp"
#include "probe_cpu.hpp"
#include "probe_nvml.hpp"
#include "sysroot.hpp"

namespace weft::smi {

struct CollectOptions {
  std::chrono::milliseconds timeout{2000};   // per sample, for every device query
  std::chrono::milliseconds cpu_window{50};  // /proc/stat sampling window
  bool timestamp = true;
  bool links = false;  // topology (topo view)
};

class Collector {
 public:
  Collector(const SysRoot& root, CollectOptions options);
  Snapshot sample();

  // The NVML state once it finished loading (doctor), waiting until `deadline`.
  const NvmlState* nvml(Clock::time_point deadline);
  bool nvml_enabled() const { return nvml_enabled_; }

 private:
  void add_placeholders(Snapshot& s, const NvmlState* nvml_state, bool kfd_present);
  void assign_indices(Snapshot& s);

  const SysRoot& root_;
  CollectOptions options_;
  CpuLoad cpu_load_;
  bool nvml_enabled_ = false;
  Pending<NvmlState> nvml_init_;
  std::map<std::string, Pending<Agent>> agent_queries_;
  std::map<std::string, Pending<DeviceSample>> nvml_queries_;
  Pending<std::vector<Link>> nvml_links_;
};

}  // namespace weft::smi
