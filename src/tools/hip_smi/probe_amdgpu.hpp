// SPDX-License-Identifier: MIT
// AMD GPU agents: the KFD topology names them (static facts, read on the main
// thread: plain sysfs, never touches the GPU), then each GPU's amdgpu sysfs and
// hwmon files are sampled on a worker thread (those reads can wake or wait for
// the GPU). KFD's per-process files give the process list.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model.hpp"
#include "parse.hpp"
#include "sysroot.hpp"

namespace weft::smi {

struct KfdNode {
  int id = 0;
  uint64_t gpu_id = 0;
  std::string name;
  Properties props;
  std::vector<Properties> io_links;
  uint64_t vram_bytes = 0;  // sum of the frame-buffer mem_banks (heap types 1 and 2)
};

struct KfdTopology {
  bool present = false;  // /sys/class/kfd/kfd/topology exists (amdgpu with KFD)
  std::vector<KfdNode> cpus;
  std::vector<KfdNode> gpus;
};

KfdTopology read_kfd_topology(const SysRoot& root);

// The agent as far as KFD knows it: name placeholder, target, CUs, bus ID,
// render node, access of /dev/kfd and the render node.
Agent amdgpu_agent(const SysRoot& root, const KfdNode& node);

// Fills the live values from amdgpu sysfs and hwmon (may block on a sick GPU:
// call it on a worker thread).
void sample_amdgpu(const SysRoot& root, Agent& agent);

// Compute processes from /sys/class/kfd/kfd/proc; `agent_of_gpu_id` maps KFD
// gpu_id to agent keys.
std::vector<Process> kfd_processes(const SysRoot& root,
                                   const std::map<uint64_t, std::string>& agent_of_gpu_id);

// XGMI and PCIe links between KFD GPU nodes.
std::vector<Link> kfd_links(const KfdTopology& topo);

}  // namespace weft::smi
