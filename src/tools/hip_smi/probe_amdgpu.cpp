// SPDX-License-Identifier: MIT
// AMD GPU agents from KFD topology and amdgpu sysfs.
#include "probe_amdgpu.hpp"

#include <fmt/format.h>

#include <cmath>

#include "system.hpp"

namespace weft::smi {
namespace {

constexpr const char* kTopology = "/sys/class/kfd/kfd/topology/nodes";
constexpr int kIoLinkPcie = 2;
constexpr int kIoLinkXgmi = 11;

double round_to(double value, double step) { return std::round(value / step) * step; }

std::string device_dir(const SysRoot& root, const Agent& a) {
  // renderD<minor>/device is the PCI device; fall back to the bus ID.
  std::string by_render =
      "/sys/class/drm/" + a.device_node.substr(a.device_node.rfind('/') + 1) + "/device";
  if (!a.device_node.empty() && root.exists(by_render)) return by_render;
  return "/sys/bus/pci/devices/" + a.bus_id;
}

void sample_hwmon(const SysRoot& root, const std::string& dev, Agent& a) {
  for (const std::string& hw : root.list(dev + "/hwmon")) {
    std::string dir = dev + "/hwmon/" + hw;
    for (int k = 1; k <= 3; ++k) {
      auto milli = root.read_int(fmt::format("{}/temp{}_input", dir, k));
      if (!milli) continue;
      std::string label = root.line(fmt::format("{}/temp{}_label", dir, k));
      double celsius = static_cast<double>(*milli) / 1000.0;
      if (label == "junction") a.temperature_hotspot_c = celsius;
      else if (label == "mem") a.temperature_mem_c = celsius;
      else if (label == "edge" || label.empty()) a.temperature_c = celsius;
    }
    // Average socket power where the ASIC has it, else the instantaneous input.
    auto micro = root.read_u64(dir + "/power1_average");
    const char* power_source = "average";
    if (!micro || *micro == 0) {
      if (auto input = root.read_u64(dir + "/power1_input")) {
        micro = input;
        power_source = "input";
      }
    }
    if (micro) {
      a.power_w = round_to(static_cast<double>(*micro) / 1e6, 0.001);
      a.details["power_source"] = power_source;
    }
    if (auto cap = root.read_u64(dir + "/power1_cap"))
      a.power_cap_w = round_to(static_cast<double>(*cap) / 1e6, 0.001);
    if (auto rpm = root.read_u64(dir + "/fan1_input")) a.fan_rpm = static_cast<uint32_t>(*rpm);
    if (auto pwm = root.read_u64(dir + "/pwm1"))
      a.fan_percent = round_to(static_cast<double>(*pwm) * 100.0 / 255.0, 0.1);
    // Clock sensors in Hz, used when pp_dpm_* is missing.
    if (!a.sclk_mhz)
      if (auto hz = root.read_u64(dir + "/freq1_input"))
        a.sclk_mhz = static_cast<uint32_t>(*hz / 1000000);
    if (!a.mclk_mhz)
      if (auto hz = root.read_u64(dir + "/freq2_input"))
        a.mclk_mhz = static_cast<uint32_t>(*hz / 1000000);
    break;  // amdgpu registers one hwmon device per GPU
  }
}

std::string marketing_name(const SysRoot& root, const std::string& dev, unsigned device,
                           unsigned revision) {
  std::string product = root.line(dev + "/product_name");
  if (!product.empty()) return product;
  for (const char* ids : {"/usr/share/libdrm/amdgpu.ids", "/opt/amdgpu/share/libdrm/amdgpu.ids"}) {
    if (auto text = root.read(ids, 1 << 20)) {
      std::string name = lookup_amdgpu_ids(*text, device, revision);
      if (!name.empty()) return name;
    }
  }
  return {};
}

}  // namespace

KfdTopology read_kfd_topology(const SysRoot& root) {
  KfdTopology t;
  t.present = root.exists(kTopology);
  for (const std::string& entry : root.list(kTopology)) {
    auto id = parse_int(entry);
    if (!id) continue;
    std::string dir = std::string(kTopology) + "/" + entry;
    KfdNode n;
    n.id = static_cast<int>(*id);
    n.props = Properties(root.read(dir + "/properties").value_or(""));
    n.gpu_id = root.read_u64(dir + "/gpu_id").value_or(0);
    n.name = root.line(dir + "/name");
    for (const std::string& bank : root.list(dir + "/mem_banks")) {
      Properties p(root.read(dir + "/mem_banks/" + bank + "/properties").value_or(""));
      uint64_t heap = p.get("heap_type", 0);
      if (heap == 1 || heap == 2) n.vram_bytes += p.get("size_in_bytes");
    }
    for (const std::string& link : root.list(dir + "/io_links"))
      n.io_links.emplace_back(root.read(dir + "/io_links/" + link + "/properties").value_or(""));
    // simd_count 0 is a CPU-only node; gpu_id 0 likewise.
    if (n.props.get("simd_count") > 0 && n.gpu_id != 0) t.gpus.push_back(std::move(n));
    else t.cpus.push_back(std::move(n));
  }
  return t;
}

Agent amdgpu_agent(const SysRoot& root, const KfdNode& node) {
  Agent a;
  a.kind = AgentKind::kGpu;
  a.vendor = "AMD";
  a.driver = "amdgpu";
  const Properties& p = node.props;
  a.target = gfx_name(p.get("gfx_target_version"));
  a.bus_id = format_bdf(p.get("domain"), p.get("location_id"));
  a.key = "amdgpu:" + a.bus_id;
  // A partitioned GPU (MI300 CPX) has several KFD nodes on one PCI function.
  if (p.has("num_xcc")) a.details["xcc"] = p.get("num_xcc");
  uint64_t simd_per_cu = p.get("simd_per_cu", 0);
  if (simd_per_cu > 0) a.compute_units = static_cast<int>(p.get("simd_count") / simd_per_cu);
  if (uint64_t unique = p.get("unique_id"); unique != 0)
    a.uuid = fmt::format("GPU-{:016x}", unique);
  if (auto minor = p.u64("drm_render_minor"))
    a.device_node = fmt::format("/dev/dri/renderD{}", *minor);
  if (uint64_t clk = p.get("max_engine_clk_fcompute"); clk > 0)
    a.sclk_max_mhz = static_cast<uint32_t>(clk);
  if (node.vram_bytes > 0) a.memory_total_bytes = node.vram_bytes;
  a.name = "AMD GPU " + a.target;  // replaced by the marketing name when sampled
  a.details["kfd_node"] = node.id;
  a.details["gpu_id"] = node.gpu_id;
  a.details["gfx_target_version"] = p.get("gfx_target_version");
  a.details["device_id"] = fmt::format("0x{:04x}", p.get("device_id"));
  if (uint64_t hive = p.get("hive_id"); hive != 0)
    a.details["xgmi_hive_id"] = fmt::format("0x{:x}", hive);
  a.details["wavefront_size"] = p.get("wave_front_size");
  a.details["render_node"] = a.device_node.empty() ? Json() : Json(a.device_node);

  // HIP opens /dev/kfd and the render node; sysfs needs neither.
  a.hip_usable = true;
  for (const std::string& dev : {std::string("/dev/kfd"), a.device_node}) {
    if (dev.empty()) continue;
    if (auto problem = check_node(root, dev)) {
      a.hip_usable = false;
      a.problems.push_back(problem->message + "; fix: " + problem->fix);
    }
  }
  return a;
}

void sample_amdgpu(const SysRoot& root, Agent& a) {
  std::string dev = device_dir(root, a);
  unsigned device = static_cast<unsigned>(root.read_u64(dev + "/device").value_or(0));
  unsigned revision = static_cast<unsigned>(root.read_u64(dev + "/revision").value_or(0));
  if (std::string name = marketing_name(root, dev, device, revision); !name.empty()) a.name = name;
  a.numa_node = pci_numa_node(root, a.bus_id);
  for (const std::string& entry : root.list(dev + "/drm"))
    if (entry.rfind("card", 0) == 0) a.details["card"] = entry;
  if (std::string v = root.line(dev + "/vbios_version"); !v.empty()) a.details["vbios_version"] = v;
  if (std::string v = root.line(dev + "/mem_info_vram_vendor"); !v.empty())
    a.details["vram_vendor"] = v;

  if (auto v = root.read_u64(dev + "/gpu_busy_percent")) a.busy_percent = static_cast<double>(*v);
  if (auto v = root.read_u64(dev + "/mem_busy_percent"))
    a.mem_busy_percent = static_cast<double>(*v);
  if (auto v = root.read_u64(dev + "/mem_info_vram_total")) a.memory_total_bytes = sane_bytes(*v);
  if (auto v = root.read_u64(dev + "/mem_info_vram_used")) a.memory_used_bytes = sane_bytes(*v);
  if (auto v = root.read_u64(dev + "/mem_info_gtt_total")) a.gtt_total_bytes = sane_bytes(*v);
  if (auto v = root.read_u64(dev + "/mem_info_gtt_used")) a.gtt_used_bytes = sane_bytes(*v);

  if (auto text = root.read(dev + "/pp_dpm_sclk")) {
    DpmLevels l = parse_dpm_levels(*text);
    a.sclk_mhz = l.current;
    if (l.max()) a.sclk_max_mhz = l.max();
  }
  if (auto text = root.read(dev + "/pp_dpm_mclk")) {
    DpmLevels l = parse_dpm_levels(*text);
    a.mclk_mhz = l.current;
    a.mclk_max_mhz = l.max();
  }
  a.perf_level = root.line(dev + "/power_dpm_force_performance_level");
  a.pcie_speed_gts = parse_link_speed(root.line(dev + "/current_link_speed"));
  if (auto w = root.read_int(dev + "/current_link_width"); w && *w > 0)
    a.pcie_width = static_cast<int>(*w);
  a.pcie_max_speed_gts = parse_link_speed(root.line(dev + "/max_link_speed"));
  if (auto w = root.read_int(dev + "/max_link_width"); w && *w > 0)
    a.pcie_max_width = static_cast<int>(*w);
  sample_hwmon(root, dev, a);
}

std::vector<Process> kfd_processes(const SysRoot& root,
                                   const std::map<uint64_t, std::string>& agent_of_gpu_id) {
  std::vector<Process> out;
  const std::string base = "/sys/class/kfd/kfd/proc";
  for (const std::string& pid_text : root.list(base)) {
    auto pid = parse_int(pid_text);
    if (!pid) continue;
    std::string comm = root.line("/proc/" + pid_text + "/comm");
    for (const auto& [gpu_id, key] : agent_of_gpu_id) {
      auto vram = root.read_u64(fmt::format("{}/{}/vram_{}", base, pid_text, gpu_id));
      if (!vram) continue;  // this process has no queues or memory on that GPU
      Process p;
      p.agent_key = key;
      p.pid = *pid;
      p.name = comm;
      p.type = "compute";
      p.memory_used_bytes = sane_bytes(*vram);
      out.push_back(std::move(p));
    }
  }
  return out;
}

std::vector<Link> kfd_links(const KfdTopology& topo) {
  std::map<int, std::string> key_of_node;
  for (const KfdNode& g : topo.gpus)
    key_of_node[g.id] = "amdgpu:" + format_bdf(g.props.get("domain"), g.props.get("location_id"));
  std::vector<Link> out;
  for (const KfdNode& g : topo.gpus) {
    for (const Properties& l : g.io_links) {
      int type = static_cast<int>(l.get("type"));
      int to = static_cast<int>(l.get("node_to"));
      auto peer = key_of_node.find(to);
      if (peer == key_of_node.end() || (type != kIoLinkXgmi && type != kIoLinkPcie)) continue;
      Link link;
      link.from_key = key_of_node[g.id];
      link.to_key = peer->second;
      link.type = type == kIoLinkXgmi ? "xgmi" : "pcie";
      link.label = type == kIoLinkXgmi ? "XGMI" : "PCIE";
      link.hops = 1;
      if (auto w = l.u64("weight")) link.weight = static_cast<int>(*w);
      if (auto bw = l.u64("max_bandwidth"); bw && *bw > 0) link.max_bandwidth_mbps = *bw;
      out.push_back(std::move(link));
    }
  }
  return out;
}

}  // namespace weft::smi
