// SPDX-License-Identifier: MIT
// The host CPU agent and the NUMA nodes.
#include "probe_cpu.hpp"

#include <fmt/format.h>

#include <cmath>
#include <thread>

namespace weft::smi {
namespace {

std::string squeeze_spaces(std::string_view text) {
  std::string out;
  for (char c : trim(text)) {
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  return out;
}

// Package temperature from the CPU's hwmon driver, in °C.
std::optional<double> cpu_temperature(const SysRoot& root) {
  for (const std::string& hw : root.list("/sys/class/hwmon")) {
    std::string dir = "/sys/class/hwmon/" + hw;
    std::string name = root.line(dir + "/name");
    // k10temp/zenpower: temp1 is Tctl; coretemp: temp1 is "Package id 0".
    if (name != "k10temp" && name != "coretemp" && name != "zenpower") continue;
    if (auto milli = root.read_int(dir + "/temp1_input"))
      return static_cast<double>(*milli) / 1000.0;
  }
  return std::nullopt;
}

}  // namespace

void CpuLoad::begin(const SysRoot& root) {
  if (last_) return;
  if (auto text = root.read("/proc/stat", 4096)) last_ = parse_proc_stat(*text);
  last_at_ = Clock::now();
}

std::optional<double> CpuLoad::end(const SysRoot& root, std::chrono::milliseconds window) {
  auto waited = Clock::now() - last_at_;
  if (last_ && waited < window) std::this_thread::sleep_for(window - waited);
  std::optional<CpuTicks> now;
  if (auto text = root.read("/proc/stat", 4096)) now = parse_proc_stat(*text);
  if (!now) return std::nullopt;
  std::optional<CpuTicks> before = last_;
  last_ = now;
  last_at_ = Clock::now();
  double busy = 0;
  if (before && now->total > before->total && now->idle >= before->idle) {
    double total = static_cast<double>(now->total - before->total);
    double idle = static_cast<double>(now->idle - before->idle);
    busy = 100.0 * (1.0 - idle / total);
  } else if (now->total > 0) {
    busy = 100.0 * (1.0 - static_cast<double>(now->idle) / static_cast<double>(now->total));
  } else {
    return std::nullopt;
  }
  return std::round(std::clamp(busy, 0.0, 100.0) * 10.0) / 10.0;
}

Agent probe_cpu(const SysRoot& root) {
  Agent a;
  a.key = "cpu";
  a.kind = AgentKind::kCpu;
  a.hip_usable = true;  // the embedded default agent needs no device node

  // The first processor block is enough for the model; the rest is in sysfs.
  std::string vendor_id, implementer;
  std::optional<double> cpuinfo_mhz;
  if (auto text = root.read("/proc/cpuinfo", 8192)) {
    for (std::string_view row : split(*text, '\n')) {
      if (trim(row).empty()) break;  // end of the first block
      auto [key, value] = split_pair(row, ':');
      key = trim(key);
      value = trim(value);
      if (key == "model name" || key == "Model" || key == "Hardware") {
        if (a.name.empty()) a.name = squeeze_spaces(value);
      } else if (key == "vendor_id") {
        vendor_id = std::string(value);
      } else if (key == "CPU implementer") {
        implementer = std::string(value);
      } else if (key == "cpu MHz") {
        cpuinfo_mhz = parse_double(value);
      }
    }
  }
  if (vendor_id == "GenuineIntel") a.vendor = "Intel";
  else if (vendor_id == "AuthenticAMD") a.vendor = "AMD";
  else if (!vendor_id.empty()) a.vendor = vendor_id;
  else if (implementer == "0x41") a.vendor = "Arm";
  a.target = !vendor_id.empty() ? "x86_64" : !implementer.empty() ? "aarch64" : "host";
  if (a.name.empty()) a.name = "Host CPU";

  std::vector<int> online = parse_range_list(root.line("/sys/devices/system/cpu/online"));
  int logical = static_cast<int>(online.size());
  if (logical > 0) a.compute_units = logical;
  // Threads per core and CPUs per package from cpu0's topology.
  std::string topo =
      "/sys/devices/system/cpu/cpu" + std::to_string(online.empty() ? 0 : online[0]) + "/topology/";
  size_t per_core = parse_range_list(root.line(topo + "thread_siblings_list")).size();
  size_t per_package = parse_range_list(root.line(topo + "package_cpus_list")).size();
  if (per_package == 0)
    per_package = parse_range_list(root.line(topo + "core_siblings_list")).size();
  if (logical > 0 && per_core > 0) a.details["cores"] = logical / static_cast<int>(per_core);
  a.details["threads"] = a.compute_units;
  if (logical > 0 && per_package > 0)
    a.details["sockets"] =
        (logical + static_cast<int>(per_package) - 1) / static_cast<int>(per_package);

  std::string freq = topo.substr(0, topo.size() - 9) + "cpufreq/";
  if (auto khz = root.read_u64(freq + "scaling_cur_freq"))
    a.sclk_mhz = static_cast<uint32_t>(*khz / 1000);
  else if (cpuinfo_mhz) a.sclk_mhz = static_cast<uint32_t>(std::lround(*cpuinfo_mhz));
  if (auto khz = root.read_u64(freq + "cpuinfo_max_freq"))
    a.sclk_max_mhz = static_cast<uint32_t>(*khz / 1000);

  if (auto text = root.read("/proc/meminfo", 16384)) {
    auto info = parse_meminfo(*text);
    if (info.count("MemTotal")) {
      a.memory_total_bytes = info["MemTotal"];
      uint64_t available = info.count("MemAvailable") ? info["MemAvailable"] : info["MemFree"];
      a.memory_used_bytes = info["MemTotal"] - std::min(available, info["MemTotal"]);
    }
  }
  if (auto text = root.read("/proc/loadavg", 256)) {
    Json loads = Json::array();
    auto words = split(trim(*text), ' ');
    for (size_t k = 0; k < 3 && k < words.size(); ++k) loads.push_back(parse_double(words[k]));
    a.details["load_average"] = loads;
  }
  a.temperature_c = cpu_temperature(root);
  return a;
}

std::vector<NumaNode> probe_numa(const SysRoot& root) {
  std::vector<NumaNode> nodes;
  std::vector<int> ids = parse_range_list(root.line("/sys/devices/system/node/online"));
  for (int id : ids) {
    NumaNode n;
    n.id = id;
    std::string dir = "/sys/devices/system/node/node" + std::to_string(id);
    n.cpus = parse_range_list(root.line(dir + "/cpulist"));
    if (auto text = root.read(dir + "/meminfo", 16384)) {
      auto info = parse_meminfo(*text);
      if (info.count("MemTotal")) n.memory_total_bytes = info["MemTotal"];
      if (info.count("MemFree")) n.memory_free_bytes = info["MemFree"];
      if (info.count("FilePages")) n.memory_file_bytes = info["FilePages"];
    }
    for (std::string_view d : split(root.line(dir + "/distance"), ' '))
      if (auto v = parse_int(d)) n.distances.push_back(static_cast<int>(*v));
    nodes.push_back(std::move(n));
  }
  return nodes;
}

}  // namespace weft::smi
