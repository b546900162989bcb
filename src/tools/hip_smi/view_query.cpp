// SPDX-License-Identifier: MIT
// Views for scripts: `-L` (one line per agent, as nvidia-smi -L) and `--query`
// (chosen fields as CSV, as nvidia-smi --query-gpu ... --format=csv,noheader,
// nounits). Field names follow nvidia-smi's where one exists, so existing
// scripts keep working; docs/hip-smi.md lists them.
#include <fmt/format.h>

#include <functional>

#include "views.hpp"

namespace weft::smi {
namespace {

struct Field {
  const char* name;
  const char* unit;  // "" when the value has none
  const char* help;
  std::function<std::optional<std::string>(const Snapshot&, const Agent&)> value;
};

std::optional<std::string> text(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}
template <typename T>
std::optional<std::string> number(const std::optional<T>& v) {
  if (!v) return std::nullopt;
  return fmt::format("{}", *v);
}
std::optional<std::string> fixed(const std::optional<double>& v, int decimals) {
  if (!v) return std::nullopt;
  return fmt::format("{:.{}f}", *v, decimals);
}
std::optional<std::string> mebibytes(const std::optional<uint64_t>& v) {
  if (!v) return std::nullopt;
  return mib(*v);
}

const std::vector<Field>& fields() {
  static const std::vector<Field> all = {
      {"timestamp", "", "time of the sample (ISO 8601 UTC; empty with --no-timestamp)",
       [](const Snapshot& s, const Agent&) { return text(s.timestamp); }},
      {"index", "", "hip-smi's agent index (the ID column)",
       [](const Snapshot&, const Agent& a) { return number(std::optional<int>(a.index)); }},
      {"kind", "", "gpu, npu or cpu",
       [](const Snapshot&, const Agent& a) { return text(kind_name(a.kind)); }},
      {"vendor", "", "AMD, NVIDIA, Intel, ...",
       [](const Snapshot&, const Agent& a) { return text(a.vendor); }},
      {"name", "", "product name", [](const Snapshot&, const Agent& a) { return text(a.name); }},
      {"target", "", "ISA: gfx942, sm_90, aie2p, x86_64",
       [](const Snapshot&, const Agent& a) { return text(a.target); }},
      {"pci.bus_id", "", "PCI address (0000:03:00.0)",
       [](const Snapshot&, const Agent& a) { return text(a.bus_id); }},
      {"uuid", "", "device UUID", [](const Snapshot&, const Agent& a) { return text(a.uuid); }},
      {"driver", "", "kernel driver",
       [](const Snapshot&, const Agent& a) { return text(a.driver); }},
      {"driver_version", "", "kernel driver version",
       [](const Snapshot&, const Agent& a) { return text(a.driver_version); }},
      {"status", "", "ok, timeout or error (the query of this agent)",
       [](const Snapshot&, const Agent& a) { return text(status_name(a.status)); }},
      {"numa_node", "", "NUMA node of the device",
       [](const Snapshot&, const Agent& a) { return number(a.numa_node); }},
      {"compute_units", "", "CUs, SMs, NPU columns or logical CPUs",
       [](const Snapshot&, const Agent& a) { return number(a.compute_units); }},
      {"temperature.gpu", "C", "edge (GPU) or package (CPU) temperature",
       [](const Snapshot&, const Agent& a) { return fixed(a.temperature_c, 0); }},
      {"temperature.hotspot", "C", "junction temperature",
       [](const Snapshot&, const Agent& a) { return fixed(a.temperature_hotspot_c, 0); }},
      {"temperature.memory", "C", "memory temperature",
       [](const Snapshot&, const Agent& a) { return fixed(a.temperature_mem_c, 0); }},
      {"power.draw", "W", "power in use",
       [](const Snapshot&, const Agent& a) { return fixed(a.power_w, 2); }},
      {"power.limit", "W", "power cap",
       [](const Snapshot&, const Agent& a) { return fixed(a.power_cap_w, 2); }},
      {"utilization.gpu", "%", "busy percentage (CPU: all cores)",
       [](const Snapshot&, const Agent& a) { return fixed(a.busy_percent, 0); }},
      {"utilization.memory", "%", "memory controller busy percentage",
       [](const Snapshot&, const Agent& a) { return fixed(a.mem_busy_percent, 0); }},
      {"memory.total", "MiB", "memory size (CPU: MemTotal)",
       [](const Snapshot&, const Agent& a) { return mebibytes(a.memory_total_bytes); }},
      {"memory.used", "MiB", "memory in use",
       [](const Snapshot&, const Agent& a) { return mebibytes(a.memory_used_bytes); }},
      {"memory.free", "MiB", "memory.total - memory.used",
       [](const Snapshot&, const Agent& a) -> std::optional<std::string> {
         if (!a.memory_total_bytes || !a.memory_used_bytes) return std::nullopt;
         uint64_t used = std::min(*a.memory_used_bytes, *a.memory_total_bytes);
         return mib(*a.memory_total_bytes - used);
       }},
      {"clocks.sm", "MHz", "shader (compute) clock",
       [](const Snapshot&, const Agent& a) { return number(a.sclk_mhz); }},
      {"clocks.mem", "MHz", "memory clock",
       [](const Snapshot&, const Agent& a) { return number(a.mclk_mhz); }},
      {"clocks.max.sm", "MHz", "highest shader clock",
       [](const Snapshot&, const Agent& a) { return number(a.sclk_max_mhz); }},
      {"clocks.max.mem", "MHz", "highest memory clock",
       [](const Snapshot&, const Agent& a) { return number(a.mclk_max_mhz); }},
      {"fan.speed", "%", "fan speed",
       [](const Snapshot&, const Agent& a) { return fixed(a.fan_percent, 0); }},
      {"pstate", "", "performance level (NVIDIA P-state, amdgpu DPM level)",
       [](const Snapshot&, const Agent& a) { return text(a.perf_level); }},
      {"pcie.link.speed.current", "GT/s", "PCIe link speed",
       [](const Snapshot&, const Agent& a) { return fixed(a.pcie_speed_gts, 1); }},
      {"pcie.link.width.current", "", "PCIe lanes in use",
       [](const Snapshot&, const Agent& a) { return number(a.pcie_width); }},
      {"processes", "", "processes using the agent",
       [](const Snapshot& s, const Agent& a) -> std::optional<std::string> {
         int n = 0;
         for (const Process& p : s.processes) n += p.agent_key == a.key;
         return std::to_string(n);
       }},
  };
  return all;
}

const Field* find(const std::string& name) {
  for (const Field& f : fields())
    if (name == f.name) return &f;
  return nullptr;
}

}  // namespace

std::string list_text(const Snapshot& s) {
  std::string out;
  for (const Agent& a : s.agents) {
    std::vector<std::string> facts;
    if (!a.target.empty()) facts.push_back(a.target);
    if (!a.bus_id.empty()) facts.push_back("bus " + a.bus_id);
    if (!a.uuid.empty()) facts.push_back("UUID: " + a.uuid);
    out += fmt::format("{} {}: {}", kind_name(a.kind), a.index, a.name);
    if (!facts.empty()) out += fmt::format(" ({})", fmt::join(facts, ", "));
    out += "\n";
  }
  return out;
}

std::optional<std::string> check_query_fields(const std::vector<std::string>& names) {
  for (const std::string& n : names)
    if (!find(n)) return "--query: unknown field '" + n + "' (hip-smi --help-query lists them)";
  return std::nullopt;
}

std::string query_csv_header(const std::vector<std::string>& names, bool units) {
  std::vector<std::string> titles;
  for (const std::string& n : names) {
    const Field* f = find(n);
    titles.push_back(units && f && *f->unit ? fmt::format("{} [{}]", n, f->unit) : n);
  }
  return fmt::format("{}\n", fmt::join(titles, ", "));
}

std::string query_csv_rows(const Snapshot& s, const std::vector<std::string>& names, bool units) {
  std::string out;
  for (const Agent& a : s.agents) {
    std::vector<std::string> cells;
    for (const std::string& n : names) {
      const Field* f = find(n);
      std::optional<std::string> v = f ? f->value(s, a) : std::nullopt;
      if (!v) cells.emplace_back("[N/A]");
      else cells.push_back(csv_field(units && *f->unit ? *v + " " + f->unit : *v));
    }
    out += fmt::format("{}\n", fmt::join(cells, ", "));
  }
  return out;
}

std::string query_fields_help() {
  std::string out;
  for (const Field& f : fields())
    out += fmt::format("| `{}` | {} | {} |\n", f.name, *f.unit ? f.unit : "", f.help);
  return out;
}

}  // namespace weft::smi
