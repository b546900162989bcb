// SPDX-License-Identifier: MIT
// NVIDIA GPU agents through NVML. Loading NVML and nvmlInit can take seconds on a
// machine without the persistence daemon, and a sick GPU can stall any call, so
// everything here runs on worker threads (collect.cpp waits with a deadline).
#pragma once

#include <string>
#include <vector>

#include "model.hpp"
#include "nvml.hpp"
#include "sysroot.hpp"

namespace weft::smi {

struct NvmlDevice {
  nvml::Device handle = nullptr;
  Agent base;  // static facts: name, UUID, bus ID, target, maximum clocks, access
};

// What loading and initialising NVML gave. `api` lives for the whole process.
struct NvmlState {
  bool ok = false;
  std::string error;
  const nvml::Api* api = nullptr;
  std::string driver_version;
  std::string cuda_version;  // "13.0"
  std::vector<NvmlDevice> devices;
};

// Loads NVML, initialises it and lists the devices with their static facts.
NvmlState init_nvml(const SysRoot& root);

struct DeviceSample {
  Agent agent;
  std::vector<Process> processes;
};
// Live values of one device.
DeviceSample sample_nvml(const SysRoot& root, const NvmlState& state, const NvmlDevice& device);

// NVLink and PCIe relations between every pair (nvidia-smi topo's vocabulary).
std::vector<Link> nvml_links(const NvmlState& state);

}  // namespace weft::smi
