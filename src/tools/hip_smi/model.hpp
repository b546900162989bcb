// SPDX-License-Identifier: MIT
// What one hip-smi sample knows: agents, processes, links, NUMA nodes. The
// probes fill it; the views (table, JSON, CSV, topo) only print it. Every
// measured value is optional: unknown or unsupported prints as N/A / null.
// Plain data; built on one thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"

namespace weft::smi {

inline constexpr int kSchemaVersion = 1;

enum class AgentKind { kGpu, kNpu, kCpu };
const char* kind_name(AgentKind kind);

// How the query of one agent went (not whether HIP can use it: see hip_usable).
enum class QueryStatus { kOk, kTimeout, kError };
const char* status_name(QueryStatus status);

struct Agent {
  int index = -1;   // assigned after probing: GPUs, NPUs, then the CPU
  std::string key;  // stable identity across samples: "amdgpu:0000:0c:00.0"
  AgentKind kind = AgentKind::kCpu;
  std::string vendor;  // "AMD", "NVIDIA", "Intel"
  std::string name;
  std::string target;  // gfx942, sm_90, aie2p, x86_64
  std::string bus_id;  // 0000:0c:00.0; empty for the CPU
  std::string uuid;
  std::string driver;  // amdgpu, nvidia, amdxdna, linux
  std::string driver_version;
  std::string device_node;  // /dev/dri/renderD128, /dev/nvidia0, /dev/accel/accel0

  QueryStatus status = QueryStatus::kOk;
  std::string status_detail;          // why a query timed out or failed
  std::optional<bool> hip_usable;     // can this user's HIP programs open it
  std::vector<std::string> problems;  // one line each, shown under the table

  std::optional<int> numa_node;
  std::optional<int> compute_units;             // CUs, SMs, NPU columns, logical CPUs
  std::optional<double> temperature_c;          // edge / GPU / package
  std::optional<double> temperature_hotspot_c;  // junction
  std::optional<double> temperature_mem_c;
  std::optional<double> power_w;
  std::optional<double> power_cap_w;
  std::optional<double> busy_percent;
  std::optional<double> mem_busy_percent;
  std::optional<uint64_t> memory_used_bytes;
  std::optional<uint64_t> memory_total_bytes;
  std::optional<uint64_t> gtt_used_bytes;
  std::optional<uint64_t> gtt_total_bytes;
  std::optional<uint32_t> sclk_mhz;
  std::optional<uint32_t> sclk_max_mhz;
  std::optional<uint32_t> mclk_mhz;
  std::optional<uint32_t> mclk_max_mhz;
  std::optional<uint32_t> fan_rpm;
  std::optional<double> fan_percent;
  std::string perf_level;  // amdgpu power_dpm_force_performance_level, NVIDIA P-state
  std::optional<double> pcie_speed_gts;
  std::optional<int> pcie_width;
  std::optional<double> pcie_max_speed_gts;
  std::optional<int> pcie_max_width;

  Json details = Json::object();  // kind-specific extras (documented, additive)
};

struct Process {
  std::string agent_key;
  int agent = -1;  // index, filled with the agents'
  int64_t pid = 0;
  std::string name;
  std::string type;  // "compute" or "graphics"
  std::optional<uint64_t> memory_used_bytes;
};

// A direct link between two agents.
struct Link {
  std::string from_key, to_key;
  std::string type;           // "xgmi", "pcie", "nvlink"
  std::string label;          // matrix cell: XGMI, NV18, PIX, PXB, PHB, NODE, SYS
  std::optional<int> weight;  // KFD io_link weight (lower is closer)
  std::optional<int> hops;
  std::optional<int> count;  // NVLink lanes
  std::optional<uint64_t> max_bandwidth_mbps;
};

struct NumaNode {
  int id = 0;
  std::vector<int> cpus;
  std::optional<uint64_t> memory_total_bytes;
  std::optional<uint64_t> memory_free_bytes;
  // FilePages: the page cache, reclaimable on demand. A node full of cached files
  // shows little MemFree; this column says why.
  std::optional<uint64_t> memory_file_bytes;
  std::vector<int> distances;  // to node 0, 1, … as the kernel lists them
};

struct DriverInfo {
  std::string name;  // amdgpu, nvidia, amdxdna
  bool loaded = false;
  std::string version;  // module version, or "in-tree" with the kernel release
};

struct Snapshot {
  std::string timestamp;  // ISO 8601 UTC; empty with --no-timestamp
  std::string hostname;
  std::string kernel;
  std::vector<DriverInfo> drivers;
  std::string cuda_version;  // from NVML: the CUDA version the driver supports
  std::string rocm_version;  // /opt/rocm/.info/version, when installed
  std::vector<Agent> agents;
  std::vector<Process> processes;
  std::vector<Link> links;
  std::vector<NumaNode> numa;

  const Agent* find(const std::string& key) const;
};

}  // namespace weft::smi
