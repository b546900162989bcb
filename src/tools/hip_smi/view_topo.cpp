// SPDX-License-Identifier: MIT
// `hip-smi topo`: agents with their NUMA affinity, a link matrix between the
// device agents (nvidia-smi topo -m vocabulary, plus XGMI), and the NUMA nodes.
#include <fmt/format.h>

#include "parse.hpp"
#include "views.hpp"

namespace weft::smi {
namespace {

std::vector<const Agent*> devices(const Snapshot& s) {
  std::vector<const Agent*> out;
  for (const Agent& a : s.agents)
    if (a.kind != AgentKind::kCpu) out.push_back(&a);
  return out;
}

const Link* find_link(const Snapshot& s, const Agent& a, const Agent& b) {
  for (const Link& l : s.links)
    if (l.from_key == a.key && l.to_key == b.key) return &l;
  return nullptr;
}

// The matrix cell for a → b: a direct link, else the PCIe path the NUMA nodes imply.
std::string pair_label(const Snapshot& s, const Agent& a, const Agent& b) {
  if (&a == &b) return "X";
  if (const Link* l = find_link(s, a, b)) return l->label;
  if (s.numa.size() <= 1) return "NODE";
  if (!a.numa_node || !b.numa_node) return "PCIE";
  return *a.numa_node == *b.numa_node ? "NODE" : "SYS";
}

std::string column_name(const Agent& a) {
  return fmt::format("{}{}", a.kind == AgentKind::kNpu ? "NPU" : "GPU", a.index);
}

std::string affinity(const Snapshot& s, const Agent& a) {
  if (a.numa_node) {
    for (const NumaNode& n : s.numa)
      if (n.id == *a.numa_node) return format_range_list(n.cpus);
    return "N/A";
  }
  if (s.numa.size() == 1) return format_range_list(s.numa[0].cpus);
  return "N/A";
}

}  // namespace

std::string topo_table(const Snapshot& s, const std::string& version) {
  std::string out = fmt::format("hip-smi {} topo  |  host {}\n\n", version, s.hostname);
  out += fmt::format("{:>3} {:<4} {:<28} {:<12} {:>4}  {}\n", "ID", "Kind", "Name", "Bus", "NUMA",
                     "CPU affinity");
  for (const Agent& a : s.agents) {
    std::string numa =
        a.numa_node ? std::to_string(*a.numa_node) : (a.kind == AgentKind::kCpu ? "all" : "N/A");
    std::string cpus = a.kind == AgentKind::kCpu ? "all" : affinity(s, a);
    std::string name = display_name(a);
    if (name.size() > 28) name = name.substr(0, 27) + "~";
    out += fmt::format("{:>3} {:<4} {:<28} {:<12} {:>4}  {}\n", a.index, kind_name(a.kind), name,
                       a.bus_id.empty() ? "-" : a.bus_id, numa, cpus);
  }
  auto devs = devices(s);
  if (!devs.empty()) {
    out += "\nLinks:\n" + fmt::format("{:<7}", "");
    for (const Agent* b : devs) out += fmt::format("{:>7}", column_name(*b));
    out += "\n";
    for (const Agent* a : devs) {
      out += fmt::format("{:<7}", column_name(*a));
      for (const Agent* b : devs) out += fmt::format("{:>7}", pair_label(s, *a, *b));
      out += "\n";
    }
    out +=
        "\nLegend:\n"
        "  X     = self\n"
        "  XGMI  = AMD Infinity Fabric (xGMI) link between GPUs\n"
        "  NV#   = NVLink, # links (through NVSwitch: the links of the GPU)\n"
        "  PIX   = PCIe, through at most one PCIe switch\n"
        "  PXB   = PCIe, through several PCIe switches\n"
        "  PHB   = PCIe, through a PCIe host bridge\n"
        "  NODE  = PCIe, within one NUMA node\n"
        "  SYS   = PCIe, across NUMA nodes (the SMP interconnect)\n"
        "  PCIE  = PCIe, NUMA placement unknown\n";
  }
  // Each column is one field of /sys/devices/system/node/nodeN/meminfo, in MiB.
  out += "\nNUMA nodes (MiB, from nodeN/meminfo):\n";
  out += fmt::format("{:>5}  {:<24} {:>10} {:>10} {:>11}  {}\n", "Node", "CPUs", "MemTotal",
                     "MemFree", "Page cache", "Distances");
  auto column = [](const std::optional<uint64_t>& v) { return v ? mib(*v) : std::string("N/A"); };
  for (const NumaNode& n : s.numa)
    out += fmt::format("{:>5}  {:<24} {:>10} {:>10} {:>11}  {}\n", n.id, format_range_list(n.cpus),
                       column(n.memory_total_bytes), column(n.memory_free_bytes),
                       column(n.memory_file_bytes), fmt::join(n.distances, " "));
  // In virtual machines whose memory the hypervisor balloons or hot-plugs, the
  // per-node counts can be far below the system's (seen: node0 16 GiB, then 19 GiB,
  // of a 24 GiB VM). Say so rather than let the nodes look small.
  uint64_t nodes_total = 0;
  for (const NumaNode& n : s.numa) nodes_total += n.memory_total_bytes.value_or(0);
  for (const Agent& a : s.agents)
    if (a.kind == AgentKind::kCpu && a.memory_total_bytes && nodes_total &&
        nodes_total < *a.memory_total_bytes / 10 * 9)
      out += fmt::format(
          "Note: the nodes' MemTotal adds up to {} MiB, below the {} MiB of /proc/meminfo: the "
          "kernel "
          "counts part of the memory in no node (seen in VMs whose memory is ballooned or "
          "hot-plugged).\n",
          mib(nodes_total), mib(*a.memory_total_bytes));
  return out;
}

Json topo_json(const Snapshot& s, const std::string& version) {
  Json j = Json::object();
  j["schema_version"] = kSchemaVersion;
  j["hip_smi_version"] = version;
  j["timestamp"] = s.timestamp.empty() ? Json() : Json(s.timestamp);
  Json agents = Json::array();
  for (const Agent& a : s.agents) {
    Json o = Json::object();
    o["index"] = a.index;
    o["kind"] = kind_name(a.kind);
    o["name"] = a.name;
    o["bus_id"] = a.bus_id.empty() ? Json() : Json(a.bus_id);
    o["numa_node"] = a.numa_node;
    o["cpu_affinity"] = a.kind == AgentKind::kCpu ? Json() : Json(affinity(s, a));
    agents.push_back(o);
  }
  j["agents"] = agents;
  Json links = Json::array();
  auto devs = devices(s);
  for (const Agent* a : devs) {
    for (const Agent* b : devs) {
      if (a == b) continue;
      const Link* l = find_link(s, *a, *b);
      Json o = Json::object();
      o["from"] = a->index;
      o["to"] = b->index;
      o["label"] = pair_label(s, *a, *b);
      o["type"] = l ? Json(l->type) : Json("pcie");
      o["direct"] = l != nullptr && l->type != "pcie";
      o["weight"] = l ? Json(l->weight) : Json();
      o["hops"] = l ? Json(l->hops) : Json();
      o["count"] = l ? Json(l->count) : Json();
      o["max_bandwidth_mbps"] = l ? Json(l->max_bandwidth_mbps) : Json();
      links.push_back(o);
    }
  }
  j["links"] = links;
  Json numa = Json::array();
  for (const NumaNode& n : s.numa) {
    Json o = Json::object();
    o["node"] = n.id;
    o["cpus"] = format_range_list(n.cpus);
    o["memory_total_bytes"] = n.memory_total_bytes;
    o["memory_free_bytes"] = n.memory_free_bytes;
    o["memory_file_bytes"] = n.memory_file_bytes;
    Json d = Json::array();
    for (int v : n.distances) d.push_back(v);
    o["distances"] = d;
    numa.push_back(o);
  }
  j["numa_nodes"] = numa;
  return j;
}

std::string topo_csv(const Snapshot& s) {
  std::string out = "from,to,label,type,weight,hops,count,max_bandwidth_mbps\n";
  auto opt = [](const auto& v) { return v ? fmt::format("{}", *v) : std::string(); };
  auto devs = devices(s);
  for (const Agent* a : devs) {
    for (const Agent* b : devs) {
      if (a == b) continue;
      const Link* l = find_link(s, *a, *b);
      out += fmt::format("{},{},{},{},{},{},{},{}\n", a->index, b->index, pair_label(s, *a, *b),
                         l ? l->type : "pcie", l ? opt(l->weight) : "", l ? opt(l->hops) : "",
                         l ? opt(l->count) : "", l ? opt(l->max_bandwidth_mbps) : "");
    }
  }
  return out;
}

}  // namespace weft::smi
