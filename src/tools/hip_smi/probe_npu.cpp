// SPDX-License-Identifier: MIT
// AMD NPU agents from the accel class (amdxdna).
#include "probe_npu.hpp"

#include <fmt/format.h>

#include "parse.hpp"
#include "system.hpp"

namespace weft::smi {
namespace {

struct NpuShape {
  const char* target;
  int columns;
};

// Columns of the AIE array per generation (fact sheet §2.1).
NpuShape shape_of(unsigned device, unsigned revision) {
  if (device == 0x1502) return {"aie2", 5};
  if (device == 0x17f0 && revision == 0x10) return {"aie2p", 8};
  if (device == 0x17f0) return {"aie2p", 0};
  return {"aie2", 0};
}

}  // namespace

std::vector<Agent> npu_agents(const SysRoot& root) {
  std::vector<Agent> out;
  for (const std::string& accel : root.list("/sys/class/accel")) {
    std::string dev = "/sys/class/accel/" + accel + "/device";
    std::string driver = root.link_name(dev + "/driver");
    if (driver != "amdxdna") continue;
    Agent a;
    a.kind = AgentKind::kNpu;
    a.vendor = "AMD";
    a.driver = driver;
    a.bus_id = normalize_bdf(root.link_name(dev));
    a.key = "amdxdna:" + a.bus_id;
    a.device_node = "/dev/accel/" + accel;
    unsigned device = static_cast<unsigned>(root.read_u64(dev + "/device").value_or(0));
    unsigned revision = static_cast<unsigned>(root.read_u64(dev + "/revision").value_or(0));
    NpuShape shape = shape_of(device, revision);
    a.target = shape.target;
    if (shape.columns > 0) a.compute_units = shape.columns;
    std::string vbnv = root.line(dev + "/vbnv");
    a.name = fmt::format("AMD Ryzen AI {}", npu_generation(device, revision));
    a.numa_node = pci_numa_node(root, a.bus_id);
    a.details["accel_node"] = a.device_node;
    a.details["device_id"] = fmt::format("0x{:04x}", device);
    a.details["revision"] = fmt::format("0x{:02x}", revision);
    if (!vbnv.empty()) a.details["vbnv"] = vbnv;
    if (std::string fw = root.line(dev + "/fw_version"); !fw.empty())
      a.details["firmware_version"] = fw;
    if (auto type = root.read_int(dev + "/device_type")) a.details["device_type"] = *type;
    a.hip_usable = true;
    if (auto problem = check_node(root, a.device_node)) {
      a.hip_usable = false;
      a.problems.push_back(problem->message + "; fix: " + problem->fix);
    }
    out.push_back(std::move(a));
  }
  return out;
}

void sample_npu(const SysRoot& root, Agent& a) {
  std::string dev = "/sys/bus/pci/devices/" + a.bus_id;
  // "active" or "suspended": an idle NPU is runtime-suspended.
  if (std::string state = root.line(dev + "/power/runtime_status"); !state.empty()) {
    a.details["runtime_status"] = state;
    a.perf_level = state;
  }
  a.pcie_speed_gts = parse_link_speed(root.line(dev + "/current_link_speed"));
  if (auto w = root.read_int(dev + "/current_link_width"); w && *w > 0)
    a.pcie_width = static_cast<int>(*w);
}

}  // namespace weft::smi
