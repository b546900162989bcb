// SPDX-License-Identifier: MIT
// The default view in three formats. The table follows the habits of nvidia-smi
// and rocm-smi (one row per agent, memory and utilisation at a glance, processes
// below); JSON and CSV carry every field under the names in docs/hip-smi.md.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "parse.hpp"
#include "views.hpp"

namespace weft::smi {
namespace {

constexpr const char* kNa = "N/A";

std::string fit(std::string text, size_t width) {
  if (text.size() <= width) return text;
  return text.substr(0, width - 1) + "~";
}

}  // namespace

std::string display_name(const Agent& a) {
  if (a.kind != AgentKind::kCpu) return a.name;
  std::string name = a.name;
  for (const char* noise : {"(R)", "(TM)", "(tm)", " Processor", " CPU"}) {
    for (size_t at; (at = name.find(noise)) != std::string::npos;)
      name.erase(at, std::strlen(noise));
  }
  if (size_t at = name.find(" w/ "); at != std::string::npos) name.erase(at);  // "w/ Radeon 890M"
  if (size_t at = name.find(" @ "); at != std::string::npos) name.erase(at);   // "@ 2.10GHz"
  return name;
}

namespace {

std::string num(const std::optional<double>& v, const char* unit, int decimals = 0) {
  if (!v) return kNa;
  return fmt::format("{:.{}f}{}", *v, decimals, unit);
}

template <typename T>
std::string num(const std::optional<T>& v, const char* unit) {
  if (!v) return kNa;
  return fmt::format("{}{}", *v, unit);
}

std::string power(const Agent& a) {
  if (!a.power_w && !a.power_cap_w) return kNa;
  std::string used = a.power_w ? fmt::format("{:.0f}", *a.power_w) : kNa;
  std::string cap = a.power_cap_w ? fmt::format("{:.0f}W", *a.power_cap_w) : kNa;
  return used + "W / " + cap;
}

std::string memory(const Agent& a) {
  if (!a.memory_total_bytes && !a.memory_used_bytes) return kNa;
  std::string used = a.memory_used_bytes ? mib(*a.memory_used_bytes) : kNa;
  std::string total = a.memory_total_bytes ? mib(*a.memory_total_bytes) : kNa;
  return used + " / " + total + " MiB";
}

std::string memory_percent(const Agent& a) {
  if (!a.memory_used_bytes || !a.memory_total_bytes || *a.memory_total_bytes == 0) return kNa;
  return fmt::format("{:.0f}%", 100.0 * static_cast<double>(*a.memory_used_bytes) /
                                    static_cast<double>(*a.memory_total_bytes));
}

std::string temperature(const Agent& a) {
  // Edge where the GPU has it, else junction (MI300 has no edge sensor).
  if (a.temperature_c) return fmt::format("{:.0f}C", *a.temperature_c);
  if (a.temperature_hotspot_c) return fmt::format("{:.0f}C", *a.temperature_hotspot_c);
  return kNa;
}

std::string header(const Snapshot& s, const std::string& version) {
  std::string out =
      fmt::format("hip-smi {}  |  host {}  |  Linux {}", version,
                  s.hostname.empty() ? "?" : s.hostname, s.kernel.empty() ? "?" : s.kernel);
  if (!s.timestamp.empty()) out += "  |  " + s.timestamp;
  out += "\n";
  std::vector<std::string> drivers;
  for (const DriverInfo& d : s.drivers) {
    if (!d.loaded) continue;
    std::string text = d.name + " " + d.version;
    if (d.name == "nvidia" && !s.cuda_version.empty()) text += " (CUDA " + s.cuda_version + ")";
    drivers.push_back(text);
  }
  if (!s.rocm_version.empty()) drivers.push_back("ROCm " + s.rocm_version);
  out += "Drivers: " + (drivers.empty() ? std::string("none of amdgpu, nvidia, amdxdna is loaded")
                                        : fmt::format("{}", fmt::join(drivers, "  |  ")));
  return out + "\n";
}

Json agent_json(const Agent& a) {
  Json j = Json::object();
  j["index"] = a.index;
  j["kind"] = kind_name(a.kind);
  j["vendor"] = a.vendor.empty() ? Json() : Json(a.vendor);
  j["name"] = a.name;
  j["target"] = a.target.empty() ? Json() : Json(a.target);
  j["bus_id"] = a.bus_id.empty() ? Json() : Json(a.bus_id);
  j["uuid"] = a.uuid.empty() ? Json() : Json(a.uuid);
  j["driver"] = a.driver.empty() ? Json() : Json(a.driver);
  j["driver_version"] = a.driver_version.empty() ? Json() : Json(a.driver_version);
  j["device_node"] = a.device_node.empty() ? Json() : Json(a.device_node);
  j["status"] = status_name(a.status);
  j["status_detail"] = a.status_detail.empty() ? Json() : Json(a.status_detail);
  j["hip_usable"] = a.hip_usable;
  Json problems = Json::array();
  for (const std::string& p : a.problems) problems.push_back(p);
  j["problems"] = problems;
  j["numa_node"] = a.numa_node;
  j["compute_units"] = a.compute_units;
  j["temperature_c"] = a.temperature_c;
  j["temperature_hotspot_c"] = a.temperature_hotspot_c;
  j["temperature_mem_c"] = a.temperature_mem_c;
  j["power_w"] = a.power_w;
  j["power_cap_w"] = a.power_cap_w;
  j["busy_percent"] = a.busy_percent;
  j["mem_busy_percent"] = a.mem_busy_percent;
  j["memory_used_bytes"] = a.memory_used_bytes;
  j["memory_total_bytes"] = a.memory_total_bytes;
  j["gtt_used_bytes"] = a.gtt_used_bytes;
  j["gtt_total_bytes"] = a.gtt_total_bytes;
  j["sclk_mhz"] = a.sclk_mhz;
  j["sclk_max_mhz"] = a.sclk_max_mhz;
  j["mclk_mhz"] = a.mclk_mhz;
  j["mclk_max_mhz"] = a.mclk_max_mhz;
  j["fan_rpm"] = a.fan_rpm;
  j["fan_percent"] = a.fan_percent;
  j["perf_level"] = a.perf_level.empty() ? Json() : Json(a.perf_level);
  j["pcie_speed_gts"] = a.pcie_speed_gts;
  j["pcie_width"] = a.pcie_width;
  j["pcie_max_speed_gts"] = a.pcie_max_speed_gts;
  j["pcie_max_width"] = a.pcie_max_width;
  j["details"] = a.details;
  return j;
}

// CSV columns: the scalar fields of agent_json, in the same order.
constexpr const char* kCsvColumns[] = {"timestamp",
                                       "index",
                                       "kind",
                                       "vendor",
                                       "name",
                                       "target",
                                       "bus_id",
                                       "uuid",
                                       "driver",
                                       "driver_version",
                                       "device_node",
                                       "status",
                                       "status_detail",
                                       "hip_usable",
                                       "numa_node",
                                       "compute_units",
                                       "temperature_c",
                                       "temperature_hotspot_c",
                                       "temperature_mem_c",
                                       "power_w",
                                       "power_cap_w",
                                       "busy_percent",
                                       "mem_busy_percent",
                                       "memory_used_bytes",
                                       "memory_total_bytes",
                                       "gtt_used_bytes",
                                       "gtt_total_bytes",
                                       "sclk_mhz",
                                       "sclk_max_mhz",
                                       "mclk_mhz",
                                       "mclk_max_mhz",
                                       "fan_rpm",
                                       "fan_percent",
                                       "perf_level",
                                       "pcie_speed_gts",
                                       "pcie_width",
                                       "pcie_max_speed_gts",
                                       "pcie_max_width"};

}  // namespace

std::string mib(uint64_t bytes) { return fmt::format("{}", (bytes + (1u << 19)) >> 20); }

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::optional<std::string> select_agents(Snapshot& s, const std::vector<std::string>& ids) {
  if (ids.empty()) return std::nullopt;
  std::vector<bool> keep(s.agents.size(), false);
  for (const std::string& id : ids) {
    bool matched = false;
    std::string lower = id;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    auto index = parse_int(id);
    for (size_t k = 0; k < s.agents.size(); ++k) {
      const Agent& a = s.agents[k];
      bool hit = (index && *index == a.index) || lower == kind_name(a.kind) ||
                 (!a.bus_id.empty() && (lower == a.bus_id || normalize_bdf(lower) == a.bus_id)) ||
                 (!a.uuid.empty() && (id == a.uuid || lower == [&] {
                   std::string u = a.uuid;
                   std::transform(u.begin(), u.end(), u.begin(),
                                  [](unsigned char c) { return std::tolower(c); });
                   return u;
                 }()));
      if (hit) keep[k] = matched = true;
    }
    if (!matched) return "no agent matches '" + id + "' (see the ID column of hip-smi)";
  }
  std::vector<Agent> agents;
  std::vector<std::string> kept_keys;
  for (size_t k = 0; k < s.agents.size(); ++k)
    if (keep[k]) {
      kept_keys.push_back(s.agents[k].key);
      agents.push_back(std::move(s.agents[k]));
    }
  s.agents = std::move(agents);
  auto kept = [&](const std::string& key) {
    return std::find(kept_keys.begin(), kept_keys.end(), key) != kept_keys.end();
  };
  std::erase_if(s.processes, [&](const Process& p) { return !kept(p.agent_key); });
  std::erase_if(s.links, [&](const Link& l) { return !kept(l.from_key) || !kept(l.to_key); });
  return std::nullopt;
}

std::string status_table(const Snapshot& s, const std::string& version) {
  std::string out = header(s, version);
  const std::string row_format =
      "{:>3} {:<4} {:<28} {:<12} {:>5} {:>13} {:>8} {:>8} {:>5} {:>21} {:>5}\n";
  std::string titles =
      fmt::format(fmt::runtime(row_format), "ID", "Kind", "Name", "Bus", "Temp", "Power / Cap",
                  "SCLK", "MCLK", "Busy", "Memory used / total", "Mem%");
  std::string rule(titles.size() - 1, '=');
  out += rule + "\n" + titles + rule + "\n";
  for (const Agent& a : s.agents) {
    if (a.status == QueryStatus::kOk || a.status == QueryStatus::kTimeout) {
      std::string busy = a.status == QueryStatus::kTimeout ? "TIMEOUT" : num(a.busy_percent, "%");
      out += fmt::format(fmt::runtime(row_format), a.index, kind_name(a.kind),
                         fit(display_name(a), 28), a.bus_id.empty() ? "-" : a.bus_id,
                         temperature(a), power(a), num(a.sclk_mhz, "MHz"), num(a.mclk_mhz, "MHz"),
                         busy, memory(a), memory_percent(a));
    } else {
      out +=
          fmt::format("{:>3} {:<4} {:<28} {:<12} ERROR: {}\n", a.index, kind_name(a.kind),
                      fit(display_name(a), 28), a.bus_id.empty() ? "-" : a.bus_id, a.status_detail);
    }
  }
  out += rule + "\n";

  out += "Processes:\n";
  if (s.processes.empty()) {
    out += "  No running processes found\n";
  } else {
    out += fmt::format("{:>3} {:>8}  {:<16} {:<24} {:>12}\n", "ID", "PID", "Type", "Process name",
                       "Memory");
    for (const Process& p : s.processes)
      out += fmt::format(
          "{:>3} {:>8}  {:<16} {:<24} {:>12}\n", p.agent, p.pid, p.type, fit(p.name, 24),
          p.memory_used_bytes ? mib(*p.memory_used_bytes) + " MiB" : std::string(kNa));
  }

  std::vector<std::string> notes;
  for (const Agent& a : s.agents) {
    if (a.status == QueryStatus::kTimeout)
      notes.push_back(fmt::format("{}: {}", a.index, a.status_detail));
    for (const std::string& p : a.problems)
      notes.push_back(fmt::format("{}: not usable by HIP: {}", a.index, p));
  }
  bool errors = std::any_of(s.agents.begin(), s.agents.end(),
                            [](const Agent& a) { return a.status == QueryStatus::kError; });
  if (!notes.empty() || errors) {
    out += "Notes:\n";
    for (const std::string& n : notes) out += "  ! " + n + "\n";
    out += "  Run `hip-smi doctor` for a diagnosis.\n";
  }
  return out;
}

Json status_json(const Snapshot& s, const std::string& version) {
  Json j = Json::object();
  j["schema_version"] = kSchemaVersion;
  j["hip_smi_version"] = version;
  j["timestamp"] = s.timestamp.empty() ? Json() : Json(s.timestamp);
  Json host = Json::object();
  host["hostname"] = s.hostname;
  host["kernel"] = s.kernel;
  host["rocm_version"] = s.rocm_version.empty() ? Json() : Json(s.rocm_version);
  host["cuda_version"] = s.cuda_version.empty() ? Json() : Json(s.cuda_version);
  j["host"] = host;
  Json drivers = Json::array();
  for (const DriverInfo& d : s.drivers) {
    Json o = Json::object();
    o["name"] = d.name;
    o["loaded"] = d.loaded;
    o["version"] = d.version.empty() ? Json() : Json(d.version);
    drivers.push_back(o);
  }
  j["drivers"] = drivers;
  Json agents = Json::array();
  for (const Agent& a : s.agents) agents.push_back(agent_json(a));
  j["agents"] = agents;
  Json processes = Json::array();
  for (const Process& p : s.processes) {
    Json o = Json::object();
    o["agent"] = p.agent;
    o["pid"] = p.pid;
    o["name"] = p.name;
    o["type"] = p.type;
    o["memory_used_bytes"] = p.memory_used_bytes;
    processes.push_back(o);
  }
  j["processes"] = processes;
  return j;
}

std::string status_csv_header() {
  return fmt::format("{}\n", fmt::join(std::begin(kCsvColumns), std::end(kCsvColumns), ","));
}

std::string status_csv_rows(const Snapshot& s) {
  std::string out;
  for (const Agent& a : s.agents) {
    Json j = agent_json(a);
    std::vector<std::string> fields;
    fields.push_back(csv_field(s.timestamp));
    for (size_t c = 1; c < std::size(kCsvColumns); ++c) {
      Json& v = j[kCsvColumns[c]];
      // Strings print bare, numbers as JSON prints them, null as an empty field.
      std::string text = v.is_null() ? "" : v.as_string() ? *v.as_string() : v.dump();
      fields.push_back(csv_field(text));
    }
    out += fmt::format("{}\n", fmt::join(fields, ","));
  }
  return out;
}

}  // namespace weft::smi
