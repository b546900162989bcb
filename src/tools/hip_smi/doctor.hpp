// SPDX-License-Identifier: MIT
// `hip-smi doctor`: finds the GPUs and NPUs the PCI bus says exist and checks,
// for each, everything a HIP program needs on the way to using it: the kernel
// module, the device nodes and this user's access to them, the vendor library
// weft loads. Ends with one verdict line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model.hpp"
#include "probe_nvml.hpp"
#include "sysroot.hpp"

namespace weft::smi {

enum class Level { kOk, kInfo, kWarn, kFail };

struct Check {
  Level level = Level::kOk;
  std::string subject;  // "amdgpu", "GPU 1", "libcuda.so.1"
  std::string message;
  std::string fix;          // empty when nothing to do
  std::vector<int> agents;  // agents this check makes unusable (FAIL only)
};

struct DoctorReport {
  std::vector<Check> checks;
  int expected = 0;  // agents that should exist (CPU + GPUs and NPUs on the PCI bus)
  std::vector<int> usable;
  std::string verdict;
  bool ok = true;
};

// `nvml` is null when NVML was not consulted or did not answer in time.
DoctorReport run_doctor(const SysRoot& root, const Snapshot& s, const NvmlState* nvml,
                        bool nvml_enabled);
std::string doctor_text(const DoctorReport& r, const std::string& version);
Json doctor_json(const DoctorReport& r, const std::string& version);

}  // namespace weft::smi
