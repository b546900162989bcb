// SPDX-License-Identifier: MIT
// AMD NPU agents: /sys/class/accel/accel*/ bound to amdxdna. Only sysfs is read:
// the amdxdna GET_INFO queries need the device opened, which binds the caller's
// address space to the NPU (IOMMU SVA) and wakes it, too much for a status tool.
#pragma once

#include <vector>

#include "model.hpp"
#include "sysroot.hpp"

namespace weft::smi {

// The accel devices driven by amdxdna, static facts only.
std::vector<Agent> npu_agents(const SysRoot& root);
// Live values (runtime power state); call on a worker thread.
void sample_npu(const SysRoot& root, Agent& agent);

}  // namespace weft::smi
