// SPDX-License-Identifier: MIT
// PCI scan, kernel modules, host name: the machine-wide facts.
#include "system.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "parse.hpp"

namespace weft::smi {

std::vector<PciDevice> scan_pci(const SysRoot& root) {
  std::vector<PciDevice> out;
  for (const std::string& bdf : root.list("/sys/bus/pci/devices")) {
    std::string dir = "/sys/bus/pci/devices/" + bdf;
    auto class_code = root.read_u64(dir + "/class");
    if (!class_code) continue;
    unsigned base = static_cast<unsigned>(*class_code >> 16);
    // Display (0x03), processing accelerator (0x12), signal processing (0x11, the NPUs).
    if (base != 0x03 && base != 0x12 && base != 0x11) continue;
    PciDevice d;
    d.bdf = normalize_bdf(bdf);
    d.class_code = static_cast<unsigned>(*class_code);
    d.vendor = static_cast<unsigned>(root.read_u64(dir + "/vendor").value_or(0));
    d.device = static_cast<unsigned>(root.read_u64(dir + "/device").value_or(0));
    d.revision = static_cast<unsigned>(root.read_u64(dir + "/revision").value_or(0));
    bool gpu = (d.vendor == kVendorAmd || d.vendor == kVendorNvidia) && base != 0x11;
    if (!gpu && !is_amd_npu(d)) continue;
    d.driver = root.link_name(dir + "/driver");
    d.numa_node = pci_numa_node(root, d.bdf);
    out.push_back(std::move(d));
  }
  // Bus order: fixed-width hex sorts correctly as text (not naturally: 9a > 18).
  std::sort(out.begin(), out.end(),
            [](const PciDevice& a, const PciDevice& b) { return a.bdf < b.bdf; });
  return out;
}

bool is_amd_npu(const PciDevice& d) {
  if (d.vendor != kVendorAmdNpu) return false;
  return d.device == 0x1502 || (d.device >= 0x17f0 && d.device <= 0x17f3) ||
         (d.device >= 0x1b0a && d.device <= 0x1b0c);
}

const char* npu_generation(unsigned device, unsigned revision) {
  if (device == 0x1502) return "NPU1";
  if (device == 0x17f0 && revision == 0x10) return "NPU4";
  if (device == 0x17f0 && revision == 0x11) return "NPU5";
  if (device == 0x17f0 && revision == 0x20) return "NPU6";
  return "NPU";
}

std::optional<int> pci_numa_node(const SysRoot& root, const std::string& bdf) {
  auto node = root.read_int("/sys/bus/pci/devices/" + bdf + "/numa_node");
  if (!node || *node < 0) return std::nullopt;
  return static_cast<int>(*node);
}

std::optional<AccessProblem> check_node(const SysRoot& root, const std::string& node) {
  NodeAccess a = root.access(node);
  if (a.readable && a.writable) return std::nullopt;
  const Identity& me = root.identity();
  AccessProblem p;
  if (!a.exists) {
    p.message = node + " does not exist";
    p.fix = "load the kernel driver that creates it (see the module checks)";
    return p;
  }
  p.message =
      fmt::format("{} is {}: user {} has no read/write access", node, a.describe(), me.user);
  bool group_grants = (a.mode & 060) == 060 && a.group != "root";
  bool in_group = std::find(me.groups.begin(), me.groups.end(), a.group) != me.groups.end();
  bool configured = std::find(me.configured_groups.begin(), me.configured_groups.end(), a.group) !=
                    me.configured_groups.end();
  if (group_grants && configured && !in_group)
    p.fix = fmt::format(
        "you were added to group '{}' but this session predates it: log out and back in "
        "(or run `newgrp {}`)",
        a.group, a.group);
  else if (group_grants)
    p.fix = fmt::format("sudo usermod -aG {} {}, then log out and back in", a.group, me.user);
  else
    p.fix = fmt::format(
        "only {} may open it: add a udev rule giving a group (e.g. render) rw access", a.owner);
  return p;
}

std::vector<DriverInfo> probe_drivers(const SysRoot& root, const std::string& kernel) {
  std::vector<DriverInfo> out;
  for (const char* name : {"amdgpu", "nvidia", "amdxdna"}) {
    DriverInfo d;
    d.name = name;
    std::string dir = std::string("/sys/module/") + name;
    d.loaded = root.exists(dir);
    if (d.loaded) {
      // Out-of-tree (DKMS) modules carry a version; in-tree ones are the kernel's.
      d.version = root.line(dir + "/version");
      if (d.version.empty()) d.version = "in-tree " + kernel;
    }
    out.push_back(std::move(d));
  }
  return out;
}

void probe_host(const SysRoot& root, Snapshot& s) {
  s.hostname = root.line("/proc/sys/kernel/hostname");
  s.kernel = root.line("/proc/sys/kernel/osrelease");
  s.drivers = probe_drivers(root, s.kernel);
}

}  // namespace weft::smi
