// SPDX-License-Identifier: MIT
// NVIDIA GPU agents, processes and links through NVML.
#include "probe_nvml.hpp"

#include <fmt/format.h>

#include <cmath>

#include "parse.hpp"
#include "system.hpp"

namespace weft::smi {
namespace {

using nvml::kSuccess;

std::optional<double> gen_to_gts(unsigned gen) {
  static const double kRates[] = {0, 2.5, 5, 8, 16, 32, 64};
  if (gen == 0 || gen >= std::size(kRates)) return std::nullopt;
  return kRates[gen];
}

template <typename Fn, typename... Args>
std::optional<unsigned> query_uint(Fn fn, Args... args) {
  unsigned value = 0;
  if (!fn || fn(args..., &value) != kSuccess) return std::nullopt;
  return value;
}

// Compute or graphics processes, newest query first; each version has its own entry size.
std::vector<Process> processes(const SysRoot& root, const nvml::Api& api, nvml::Device dev,
                               const std::string& key, bool graphics) {
  struct Variant {
    nvml::ProcessQuery fn;
    bool v1;
  };
  Variant variants[] = {
      {graphics ? api.nvmlDeviceGetGraphicsRunningProcesses_v3
                : api.nvmlDeviceGetComputeRunningProcesses_v3,
       false},
      {graphics ? api.nvmlDeviceGetGraphicsRunningProcesses_v2
                : api.nvmlDeviceGetComputeRunningProcesses_v2,
       false},
      {graphics ? api.nvmlDeviceGetGraphicsRunningProcesses
                : api.nvmlDeviceGetComputeRunningProcesses,
       true},
  };
  std::vector<Process> out;
  for (const Variant& v : variants) {
    if (!v.fn) continue;
    // Processes come and go between the two calls: retry once with room to spare.
    for (int attempt = 0; attempt < 2; ++attempt) {
      unsigned count = 0;
      nvml::Return rc = v.fn(dev, &count, nullptr);
      if (rc == kSuccess) return out;  // none
      if (rc != nvml::kInsufficientSize) return out;
      count += 8;
      std::vector<nvml::ProcessInfo> full(v.v1 ? 0 : count);
      std::vector<nvml::ProcessInfoV1> old(v.v1 ? count : 0);
      rc = v.fn(dev, &count,
                v.v1 ? static_cast<void*>(old.data()) : static_cast<void*>(full.data()));
      if (rc == nvml::kInsufficientSize) continue;
      if (rc != kSuccess) return out;
      for (unsigned k = 0; k < count; ++k) {
        Process p;
        p.agent_key = key;
        p.pid = v.v1 ? old[k].pid : full[k].pid;
        unsigned long long bytes = v.v1 ? old[k].used_gpu_memory : full[k].used_gpu_memory;
        // NVML_VALUE_NOT_AVAILABLE (all ones) is "unknown", never 16 EB.
        if (bytes != nvml::kValueNotAvailable) p.memory_used_bytes = sane_bytes(bytes);
        p.type = graphics ? "graphics" : "compute";
        p.name = root.line("/proc/" + std::to_string(p.pid) + "/comm");
        out.push_back(std::move(p));
      }
      return out;
    }
    return out;
  }
  return out;
}

}  // namespace

NvmlState init_nvml(const SysRoot& root) {
  NvmlState s;
  auto* api = new nvml::Api();  // leaked on purpose: NVML outlives static destruction
  if (!nvml::load(*api, s.error)) return s;
  s.api = api;
  if (nvml::Return rc = api->nvmlInit_v2(); rc != kSuccess) {
    s.error = "nvmlInit_v2 failed: " + nvml::error_text(*api, rc);
    return s;
  }
  char text[96] = {};
  if (api->nvmlSystemGetDriverVersion &&
      api->nvmlSystemGetDriverVersion(text, sizeof(text)) == kSuccess)
    s.driver_version = text;
  int cuda = 0;
  auto cuda_fn = api->nvmlSystemGetCudaDriverVersion_v2 ? api->nvmlSystemGetCudaDriverVersion_v2
                                                        : api->nvmlSystemGetCudaDriverVersion;
  if (cuda_fn && cuda_fn(&cuda) == kSuccess && cuda > 0)
    s.cuda_version = fmt::format("{}.{}", cuda / 1000, (cuda % 1000) / 10);
  unsigned count = 0;
  if (nvml::Return rc = api->nvmlDeviceGetCount_v2(&count); rc != kSuccess) {
    s.error = "nvmlDeviceGetCount_v2 failed: " + nvml::error_text(*api, rc);
    return s;
  }
  for (unsigned i = 0; i < count; ++i) {
    NvmlDevice d;
    Agent& a = d.base;
    a.kind = AgentKind::kGpu;
    a.vendor = "NVIDIA";
    a.driver = "nvidia";
    a.driver_version = s.driver_version;
    a.key = fmt::format("nvidia:{}", i);
    if (nvml::Return rc = api->nvmlDeviceGetHandleByIndex_v2(i, &d.handle); rc != kSuccess) {
      a.name = "NVIDIA GPU";
      a.status = QueryStatus::kError;
      a.status_detail = "nvmlDeviceGetHandleByIndex_v2 failed: " + nvml::error_text(*api, rc);
      s.devices.push_back(std::move(d));
      continue;
    }
    char name[96] = {};
    if (api->nvmlDeviceGetName && api->nvmlDeviceGetName(d.handle, name, sizeof(name)) == kSuccess)
      a.name = name;
    else a.name = "NVIDIA GPU";
    char uuid[96] = {};
    if (api->nvmlDeviceGetUUID && api->nvmlDeviceGetUUID(d.handle, uuid, sizeof(uuid)) == kSuccess)
      a.uuid = uuid;
    nvml::PciInfo pci{};
    if (api->nvmlDeviceGetPciInfo_v3 && api->nvmlDeviceGetPciInfo_v3(d.handle, &pci) == kSuccess) {
      a.bus_id = normalize_bdf(pci.bus_id);
      a.key = "nvidia:" + a.bus_id;
      a.numa_node = pci_numa_node(root, a.bus_id);
      a.details["pci_device_id"] = fmt::format("0x{:04x}", pci.pci_device_id >> 16);
    }
    int major = 0, minor = 0;
    if (api->nvmlDeviceGetCudaComputeCapability &&
        api->nvmlDeviceGetCudaComputeCapability(d.handle, &major, &minor) == kSuccess) {
      a.target = fmt::format("sm_{}{}", major, minor);
      a.details["compute_capability"] = fmt::format("{}.{}", major, minor);
    }
    a.sclk_max_mhz = query_uint(api->nvmlDeviceGetMaxClockInfo, d.handle, nvml::kClockSm);
    a.mclk_max_mhz = query_uint(api->nvmlDeviceGetMaxClockInfo, d.handle, nvml::kClockMem);
    a.details["nvml_index"] = i;
    a.hip_usable = true;
    std::vector<std::string> nodes = {"/dev/nvidiactl"};
    if (auto m = query_uint(api->nvmlDeviceGetMinorNumber, d.handle)) {
      a.device_node = fmt::format("/dev/nvidia{}", *m);
      nodes.push_back(a.device_node);
    }
    for (const std::string& node : nodes) {
      if (auto problem = check_node(root, node)) {
        a.hip_usable = false;
        a.problems.push_back(problem->message + "; fix: " + problem->fix);
      }
    }
    s.devices.push_back(std::move(d));
  }
  s.ok = true;
  return s;
}

DeviceSample sample_nvml(const SysRoot& root, const NvmlState& s, const NvmlDevice& d) {
  DeviceSample out;
  out.agent = d.base;
  Agent& a = out.agent;
  if (!d.handle || !s.api) return out;
  const nvml::Api& api = *s.api;
  nvml::Device dev = d.handle;

  nvml::MemoryV2 m2{};
  m2.version = static_cast<unsigned>(sizeof(m2)) | (2u << 24);
  nvml::Memory m1{};
  if (api.nvmlDeviceGetMemoryInfo_v2 && api.nvmlDeviceGetMemoryInfo_v2(dev, &m2) == kSuccess) {
    a.memory_total_bytes = sane_bytes(m2.total);
    a.memory_used_bytes = sane_bytes(m2.used);
  } else if (api.nvmlDeviceGetMemoryInfo) {
    nvml::Return rc = api.nvmlDeviceGetMemoryInfo(dev, &m1);
    if (rc == nvml::kGpuIsLost) {
      a.status = QueryStatus::kError;
      a.status_detail = "GPU is lost (NVML_ERROR_GPU_IS_LOST): reset or reboot needed";
      return out;
    }
    if (rc == kSuccess) {
      a.memory_total_bytes = sane_bytes(m1.total);
      a.memory_used_bytes = sane_bytes(m1.used);
    }
  }
  nvml::Utilization u{};
  if (api.nvmlDeviceGetUtilizationRates && api.nvmlDeviceGetUtilizationRates(dev, &u) == kSuccess) {
    a.busy_percent = u.gpu;
    a.mem_busy_percent = u.memory;
  }
  if (auto t = query_uint(api.nvmlDeviceGetTemperature, dev, nvml::kTemperatureGpu)) {
    a.temperature_c = *t;
  } else if (api.nvmlDeviceGetTemperatureV) {
    nvml::TemperatureV1 t{static_cast<unsigned>(sizeof(nvml::TemperatureV1)) | (1u << 24),
                          nvml::kTemperatureGpu, 0};
    if (api.nvmlDeviceGetTemperatureV(dev, &t) == kSuccess) a.temperature_c = t.temperature;
  }
  if (auto mw = query_uint(api.nvmlDeviceGetPowerUsage, dev)) a.power_w = *mw / 1000.0;
  auto cap = query_uint(api.nvmlDeviceGetEnforcedPowerLimit, dev);
  if (!cap) cap = query_uint(api.nvmlDeviceGetPowerManagementLimit, dev);
  if (cap) a.power_cap_w = *cap / 1000.0;
  a.sclk_mhz = query_uint(api.nvmlDeviceGetClockInfo, dev, nvml::kClockSm);
  a.mclk_mhz = query_uint(api.nvmlDeviceGetClockInfo, dev, nvml::kClockMem);
  int pstate = 32;
  if (api.nvmlDeviceGetPerformanceState &&
      api.nvmlDeviceGetPerformanceState(dev, &pstate) == kSuccess && pstate >= 0 && pstate < 16)
    a.perf_level = fmt::format("P{}", pstate);
  if (auto fan = query_uint(api.nvmlDeviceGetFanSpeed, dev)) a.fan_percent = *fan;
  if (auto gen = query_uint(api.nvmlDeviceGetCurrPcieLinkGeneration, dev))
    a.pcie_speed_gts = gen_to_gts(*gen);
  if (auto w = query_uint(api.nvmlDeviceGetCurrPcieLinkWidth, dev); w && *w > 0)
    a.pcie_width = static_cast<int>(*w);
  if (auto gen = query_uint(api.nvmlDeviceGetMaxPcieLinkGeneration, dev))
    a.pcie_max_speed_gts = gen_to_gts(*gen);
  if (auto w = query_uint(api.nvmlDeviceGetMaxPcieLinkWidth, dev); w && *w > 0)
    a.pcie_max_width = static_cast<int>(*w);

  out.processes = processes(root, api, dev, a.key, false);
  for (Process& p : processes(root, api, dev, a.key, true)) {
    // A process with a CUDA context that also draws is listed once, as nvidia-smi's C+G.
    bool merged = false;
    for (Process& c : out.processes)
      if (c.pid == p.pid) {
        c.type = "compute+graphics";
        merged = true;
      }
    if (!merged) out.processes.push_back(std::move(p));
  }
  return out;
}

std::vector<Link> nvml_links(const NvmlState& s) {
  std::vector<Link> out;
  if (!s.api) return out;
  const nvml::Api& api = *s.api;
  size_t n = s.devices.size();
  std::vector<int> active(n, 0);
  std::vector<std::vector<std::string>> remote(n);
  for (size_t i = 0; i < n; ++i) {
    if (!api.nvmlDeviceGetNvLinkState || !s.devices[i].handle) continue;
    for (unsigned l = 0; l < nvml::kNvlinkMaxLinks; ++l) {
      int state = 0;
      if (api.nvmlDeviceGetNvLinkState(s.devices[i].handle, l, &state) != kSuccess || state != 1)
        continue;
      ++active[i];
      nvml::PciInfo pci{};
      if (api.nvmlDeviceGetNvLinkRemotePciInfo_v2 &&
          api.nvmlDeviceGetNvLinkRemotePciInfo_v2(s.devices[i].handle, l, &pci) == kSuccess)
        remote[i].push_back(normalize_bdf(pci.bus_id));
    }
  }
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      if (i == j || !s.devices[i].handle || !s.devices[j].handle) continue;
      Link link;
      link.from_key = s.devices[i].base.key;
      link.to_key = s.devices[j].base.key;
      int direct = 0;
      for (const std::string& bdf : remote[i]) direct += bdf == s.devices[j].base.bus_id;
      int p2p = -1;
      if (api.nvmlDeviceGetP2PStatus)
        api.nvmlDeviceGetP2PStatus(s.devices[i].handle, s.devices[j].handle, nvml::kP2pCapsNvlink,
                                   &p2p);
      if (direct > 0 || (p2p == nvml::kP2pStatusOk && active[i] > 0)) {
        // Through an NVSwitch every active link reaches every peer.
        link.count = direct > 0 ? direct : active[i];
        link.type = "nvlink";
        link.label = fmt::format("NV{}", *link.count);
      } else {
        int level = -1;
        if (!api.nvmlDeviceGetTopologyCommonAncestor ||
            api.nvmlDeviceGetTopologyCommonAncestor(s.devices[i].handle, s.devices[j].handle,
                                                    &level) != kSuccess)
          continue;
        link.type = "pcie";
        link.label = level <= 10 ? "PIX"
                   : level <= 20 ? "PXB"
                   : level <= 30 ? "PHB"
                   : level <= 40 ? "NODE"
                                 : "SYS";
      }
      out.push_back(std::move(link));
    }
  }
  return out;
}

}  // namespace weft::smi
