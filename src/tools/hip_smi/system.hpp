// SPDX-License-Identifier: MIT
// Machine-wide facts: the PCI devices that could be agents, kernel modules and
// their versions, host name and kernel release. Read through a SysRoot.
#pragma once

#include <string>
#include <vector>

#include "model.hpp"
#include "sysroot.hpp"

namespace weft::smi {

inline constexpr unsigned kVendorAmd = 0x1002;
inline constexpr unsigned kVendorAmdNpu = 0x1022;  // XDNA NPUs use AMD's CPU vendor ID
inline constexpr unsigned kVendorNvidia = 0x10de;

struct PciDevice {
  std::string bdf;
  unsigned vendor = 0;
  unsigned device = 0;
  unsigned revision = 0;
  unsigned class_code = 0;  // 24 bits: 0x030000 VGA, 0x038000 display, 0x120000 accelerator
  std::string driver;       // bound driver, "" when none
  std::optional<int> numa_node;
};

// GPUs (display and processing-accelerator classes of AMD and NVIDIA) and AMD
// NPUs on the PCI bus, in bus order.
std::vector<PciDevice> scan_pci(const SysRoot& root);
bool is_amd_npu(const PciDevice& d);
const char* npu_generation(unsigned device, unsigned revision);  // "NPU1", "NPU4", …

// amdgpu, nvidia and amdxdna, loaded or not.
std::vector<DriverInfo> probe_drivers(const SysRoot& root, const std::string& kernel);
void probe_host(const SysRoot& root, Snapshot& s);

// Why the caller cannot open a device node read-write, and what would fix it;
// nullopt when it can.
struct AccessProblem {
  std::string message;  // "/dev/kfd is crw-rw---- root:render: user alice has no read/write access"
  std::string fix;      // "sudo usermod -aG render alice, then log in again"
};
std::optional<AccessProblem> check_node(const SysRoot& root, const std::string& node);

// The PCI device's NUMA node; nullopt when the kernel says -1 (no affinity).
std::optional<int> pci_numa_node(const SysRoot& root, const std::string& bdf);

}  // namespace weft::smi
