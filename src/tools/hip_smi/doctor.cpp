// SPDX-License-Identifier: MIT
// The doctor checks and the verdict.
#include "doctor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "parse.hpp"
#include "system.hpp"

namespace weft::smi {
namespace {

const char* level_tag(Level l) {
  switch (l) {
    case Level::kOk: return " ok ";
    case Level::kInfo: return "info";
    case Level::kWarn: return "warn";
    case Level::kFail: return "FAIL";
  }
  return "?";
}

const char* level_name(Level l) {
  switch (l) {
    case Level::kOk: return "ok";
    case Level::kInfo: return "info";
    case Level::kWarn: return "warn";
    case Level::kFail: return "fail";
  }
  return "?";
}

std::string agent_label(const Agent& a) {
  return fmt::format("{} {}",
                     a.kind == AgentKind::kNpu   ? "NPU"
                     : a.kind == AgentKind::kCpu ? "CPU"
                                                 : "GPU",
                     a.index);
}

class Doctor {
 public:
  Doctor(const SysRoot& root, const Snapshot& s) : root_(root), s_(s), pci_(scan_pci(root)) {}

  void add(Level level, std::string subject, std::string message, std::string fix = {},
           std::vector<int> agents = {}) {
    report_.checks.push_back(
        {level, std::move(subject), std::move(message), std::move(fix), std::move(agents)});
  }

  const DriverInfo* driver(const std::string& name) const {
    for (const DriverInfo& d : s_.drivers)
      if (d.name == name) return &d;
    return nullptr;
  }

  std::vector<const Agent*> agents_of(const std::string& driver_name) const {
    std::vector<const Agent*> out;
    for (const Agent& a : s_.agents)
      if (a.driver == driver_name) out.push_back(&a);
    return out;
  }

  static std::vector<int> indices(const std::vector<const Agent*>& agents) {
    std::vector<int> out;
    for (const Agent* a : agents) out.push_back(a->index);
    return out;
  }

  bool pci_has(unsigned vendor, bool npu) const {
    return std::any_of(pci_.begin(), pci_.end(), [&](const PciDevice& d) {
      return npu ? is_amd_npu(d) : d.vendor == vendor;
    });
  }

  // Device node checks shared by every vendor.
  void node(const std::string& path, const std::string& what, std::vector<int> agents,
            Level missing_level) {
    if (auto problem = check_node(root_, path)) {
      bool missing = !root_.access(path).exists;
      add(missing ? missing_level : Level::kFail, path, what + ": " + problem->message,
          problem->fix,
          missing_level == Level::kFail || !missing ? std::move(agents) : std::vector<int>{});
    } else {
      add(Level::kOk, path, what + ": read/write access (" + root_.access(path).describe() + ")");
    }
  }

  void library(const std::string& soname, const std::string& purpose, const std::string& fix,
               std::vector<int> agents, Level missing_level) {
    std::string where = root_.find_library(soname);
    if (where.empty()) add(missing_level, soname, "not found: " + purpose, fix, std::move(agents));
    else add(Level::kOk, soname, "found: " + where);
  }

  void agent_lines(const std::vector<const Agent*>& agents) {
    for (const Agent* a : agents) {
      std::string what =
          fmt::format("{} ({}{}{})", a->name, a->bus_id, a->target.empty() ? "" : ", ", a->target);
      if (a->status == QueryStatus::kError && !a->hip_usable.has_value())
        add(Level::kWarn, agent_label(*a),
            what + ": hip-smi cannot read its status: " + a->status_detail);
      else if (a->status == QueryStatus::kError)
        add(Level::kFail, agent_label(*a), what + ": " + a->status_detail, "", {a->index});
      else if (a->status == QueryStatus::kTimeout)
        add(Level::kWarn, agent_label(*a), what + ": " + a->status_detail,
            "the device may be hung or resetting; check `dmesg` for driver errors");
      else if (a->hip_usable.value_or(false))
        add(Level::kOk, agent_label(*a), what + ": present, device nodes accessible");
      // Access problems are reported by the device node checks.
    }
  }

  void cpu() {
    for (const Agent& a : s_.agents) {
      if (a.kind != AgentKind::kCpu) continue;
      add(Level::kOk, agent_label(a),
          fmt::format("{}: {} logical CPUs, {} NUMA node(s); always available to HIP", a.name,
                      a.compute_units.value_or(0), s_.numa.empty() ? 1 : s_.numa.size()));
      const char* env = std::getenv("WEFT_CPU_AGENT");
      if (env && std::string(env) == "0")
        add(Level::kWarn, "WEFT_CPU_AGENT", "is 0: weft hides the CPU agent from HIP programs",
            "unset WEFT_CPU_AGENT to use it");
    }
  }

  void amd() {
    const DriverInfo* module = driver("amdgpu");
    auto gpus = agents_of("amdgpu");
    if (!pci_has(kVendorAmd, false) && gpus.empty() && !(module && module->loaded)) {
      add(Level::kInfo, "AMD GPU", "none on the PCI bus");
      return;
    }
    std::vector<int> all = indices(gpus);
    if (!module || !module->loaded) {
      add(Level::kFail, "amdgpu", "kernel module not loaded",
          "sudo modprobe amdgpu (and see `sudo dmesg | grep amdgpu`)", all);
    } else {
      add(Level::kOk, "amdgpu", "kernel module loaded, version " + module->version);
      if (!root_.exists("/sys/class/kfd/kfd/topology"))
        add(Level::kFail, "KFD",
            "amdgpu is loaded but /sys/class/kfd is missing: no compute (KFD) support",
            "use a kernel built with CONFIG_HSA_AMD=y (every distribution kernel has it)", all);
      else
        add(Level::kOk, "KFD",
            fmt::format("topology lists {} GPU node(s)",
                        std::count_if(gpus.begin(), gpus.end(), [](const Agent* a) {
                          return a->status != QueryStatus::kError;
                        })));
    }
    agent_lines(gpus);
    if (module && module->loaded) {
      node("/dev/kfd", "AMD compute device (HIP opens it for every AMD GPU)", all, Level::kFail);
      for (const Agent* a : gpus)
        if (!a->device_node.empty())
          node(a->device_node, fmt::format("render node of GPU {}", a->index), {a->index},
               Level::kFail);
    }
    std::string rocm = root_.line("/opt/rocm/.info/version");
    if (!rocm.empty()) add(Level::kInfo, "ROCm", "version " + rocm + " in /opt/rocm");
    library(
        "libhsa-runtime64.so.1", "weft's AMD GPU driver loads ROCm's HSA runtime from it",
        "install ROCm's ROCR runtime (Debian/Ubuntu: apt install libhsa-runtime64-1, or ROCm from "
        "repo.radeon.com) or add its folder, e.g. /opt/rocm/lib, to LD_LIBRARY_PATH",
        all, Level::kFail);
  }

  void nvidia(const NvmlState* nvml, bool nvml_enabled) {
    const DriverInfo* module = driver("nvidia");
    auto gpus = agents_of("nvidia");
    if (!pci_has(kVendorNvidia, false) && gpus.empty() && !(module && module->loaded)) {
      add(Level::kInfo, "NVIDIA GPU", "none on the PCI bus");
      return;
    }
    std::vector<int> all = indices(gpus);
    bool loaded = module && module->loaded;
    if (!loaded) {
      add(Level::kFail, "nvidia", "kernel module not loaded",
          "install the NVIDIA driver (nvidia-driver or cuda-drivers), blacklist nouveau if it is "
          "bound, "
          "and run `sudo modprobe nvidia`",
          all);
    } else {
      add(Level::kOk, "nvidia", "kernel module loaded, version " + module->version);
    }
    agent_lines(gpus);
    library("libcuda.so.1", "weft's NVIDIA driver loads the CUDA driver API from it",
            "install the NVIDIA driver's user-space part (libcuda1 / libnvidia-compute)", all,
            Level::kFail);
    library("libnvidia-ml.so.1", "hip-smi reads NVIDIA status through NVML",
            "install the NVIDIA driver's NVML library (libnvidia-ml1 / libnvidia-compute)", {},
            Level::kWarn);
    if (!loaded) return;  // no device nodes or NVML without the module
    node("/dev/nvidiactl", "NVIDIA control device", all, Level::kFail);
    for (const Agent* a : gpus)
      if (!a->device_node.empty())
        node(a->device_node, fmt::format("device node of GPU {}", a->index), {a->index},
             Level::kFail);
    if (!root_.access("/dev/nvidia-uvm").exists)
      add(Level::kInfo, "/dev/nvidia-uvm",
          "not created yet: nvidia-modprobe makes it at the first CUDA call");
    else node("/dev/nvidia-uvm", "NVIDIA unified memory device (CUDA needs it)", all, Level::kFail);
    if (!nvml_enabled)
      add(Level::kInfo, "NVML",
          "not consulted under --root (set HIP_SMI_NVML_LIB to a test library)");
    else if (!nvml)
      add(Level::kWarn, "NVML",
          "did not initialise before the deadline (driver without persistence mode?)",
          "enable persistence mode (sudo nvidia-smi -pm 1 or nvidia-persistenced), or raise "
          "--timeout-ms");
    else if (!nvml->ok) add(Level::kWarn, "NVML", nvml->error);
    else
      add(Level::kOk, "NVML",
          fmt::format("driver {}, CUDA {}, {} GPU(s)", nvml->driver_version,
                      nvml->cuda_version.empty() ? "?" : nvml->cuda_version, nvml->devices.size()));
  }

  void npu() {
    const DriverInfo* module = driver("amdxdna");
    auto npus = agents_of("amdxdna");
    if (!pci_has(0, true) && npus.empty() && !(module && module->loaded)) {
      add(Level::kInfo, "AMD NPU", "none on the PCI bus");
      return;
    }
    std::vector<int> all = indices(npus);
    if (!module || !module->loaded) {
      std::string why = "kernel module not loaded";
      auto parts = split(s_.kernel, '.');
      auto major = parts.size() > 1 ? parse_int(parts[0]) : std::nullopt;
      auto minor = parts.size() > 1
                     ? parse_int(parts[1].substr(0, parts[1].find_first_not_of("0123456789")))
                     : std::nullopt;
      bool old = major && minor && (*major < 6 || (*major == 6 && *minor < 14));
      if (old) why += fmt::format(" (Linux {} predates amdxdna, which arrived in 6.14)", s_.kernel);
      add(Level::kFail, "amdxdna", why,
          old ? "install amd/xdna-driver (DKMS) or a kernel >= 6.14" : "sudo modprobe amdxdna",
          all);
    } else {
      add(Level::kOk, "amdxdna", "kernel module loaded, version " + module->version);
    }
    agent_lines(npus);
    for (const PciDevice& d : pci_) {
      if (!is_amd_npu(d)) continue;
      std::string dir = fmt::format("/lib/firmware/amdnpu/{:04x}_{:02x}", d.device, d.revision);
      bool found = false;
      for (const char* suffix : {"", ".zst", ".xz"})
        found = found || root_.exists(dir + "/npu.sbin" + suffix);
      if (found) add(Level::kOk, "firmware", dir + "/npu.sbin present");
      else
        add(Level::kFail, "firmware", dir + "/npu.sbin missing: amdxdna cannot start the NPU",
            "install a recent linux-firmware package (it ships amdnpu/)", all);
    }
    for (const Agent* a : npus)
      if (!a->device_node.empty())
        node(a->device_node, fmt::format("accel node of NPU {}", a->index), {a->index},
             Level::kFail);
    // XRT and weft pin buffers; a small memlock limit fails allocations.
    if (auto text = root_.read("/proc/self/limits")) {
      for (std::string_view row : split(*text, '\n')) {
        if (row.rfind("Max locked memory", 0) != 0) continue;
        auto words = split(trim(row.substr(17)), ' ');
        std::string soft(words.empty() ? "" : words[0]);
        auto bytes = parse_u64(soft);
        if (soft == "unlimited" || (bytes && *bytes >= (uint64_t{1} << 30)))
          add(Level::kOk, "memlock", "locked-memory limit " + soft);
        else
          add(Level::kWarn, "memlock",
              fmt::format("locked-memory limit is {} bytes; NPU buffers are pinned", soft),
              "raise it: `ulimit -l unlimited`, or `* - memlock unlimited` in "
              "/etc/security/limits.conf");
      }
    }
  }

  DoctorReport finish() {
    std::set<int> unusable;
    std::map<int, std::string> reason;
    for (const Check& c : report_.checks) {
      if (c.level != Level::kFail) continue;
      report_.ok = false;
      for (int index : c.agents) {
        unusable.insert(index);
        bool about_agent = std::any_of(s_.agents.begin(), s_.agents.end(), [&](const Agent& a) {
          return a.index == index && agent_label(a) == c.subject;
        });
        if (!reason.count(index))
          reason[index] = about_agent ? c.message : c.subject + ": " + c.message;
      }
    }
    std::vector<std::string> good, bad;
    for (const Agent& a : s_.agents) {
      ++report_.expected;
      // Unknown usability (hip-smi could not read an NVIDIA GPU) counts as usable
      // unless a check failed for it.
      bool usable = !unusable.count(a.index) && a.hip_usable.value_or(true);
      if (usable) {
        report_.usable.push_back(a.index);
        good.push_back(agent_label(a));
      } else {
        bad.push_back(fmt::format("{} ({})", agent_label(a),
                                  reason.count(a.index) ? reason[a.index] : a.status_detail));
      }
    }
    size_t fails = std::count_if(report_.checks.begin(), report_.checks.end(),
                                 [](const Check& c) { return c.level == Level::kFail; });
    size_t warns = std::count_if(report_.checks.begin(), report_.checks.end(),
                                 [](const Check& c) { return c.level == Level::kWarn; });
    if (report_.ok && bad.empty()) {
      report_.verdict = fmt::format("OK: all {} agent(s) usable by HIP ({}){}", report_.expected,
                                    fmt::join(good, ", "),
                                    warns ? fmt::format("; {} warning(s) above", warns) : "");
    } else {
      report_.ok = false;
      report_.verdict = fmt::format(
          "{} of {} agent(s) usable by HIP ({}). Not usable: {}. Fix the {} FAIL line(s) above.",
          good.size(), report_.expected,
          good.empty() ? "none" : fmt::format("{}", fmt::join(good, ", ")), fmt::join(bad, "; "),
          fails);
    }
    return report_;
  }

 private:
  const SysRoot& root_;
  const Snapshot& s_;
  std::vector<PciDevice> pci_;
  DoctorReport report_;
};

}  // namespace

DoctorReport run_doctor(const SysRoot& root, const Snapshot& s, const NvmlState* nvml,
                        bool nvml_enabled) {
  Doctor d(root, s);
  d.add(Level::kInfo, "kernel",
        "Linux " + (s.kernel.empty() ? std::string("?") : s.kernel) +
            (root.is_fixture() ? " (fixture " + root.root() + ")" : ""));
  d.add(Level::kInfo, "user",
        fmt::format("{} (uid {}), groups: {}", root.identity().user, root.identity().uid,
                    fmt::join(root.identity().groups, ",")));
  d.cpu();
  d.amd();
  d.nvidia(nvml, nvml_enabled);
  d.npu();
  return d.finish();
}

std::string doctor_text(const DoctorReport& r, const std::string& version) {
  std::string out = fmt::format("hip-smi {} doctor\n\n", version);
  for (const Check& c : r.checks) {
    out += fmt::format("[{}] {}: {}\n", level_tag(c.level), c.subject, c.message);
    if (!c.fix.empty() && (c.level == Level::kFail || c.level == Level::kWarn))
      out += "       fix: " + c.fix + "\n";
  }
  return out + "\nVerdict: " + r.verdict + "\n";
}

Json doctor_json(const DoctorReport& r, const std::string& version) {
  Json j = Json::object();
  j["schema_version"] = kSchemaVersion;
  j["hip_smi_version"] = version;
  j["ok"] = r.ok;
  j["verdict"] = r.verdict;
  j["expected_agents"] = r.expected;
  Json usable = Json::array();
  for (int i : r.usable) usable.push_back(i);
  j["usable_agents"] = usable;
  Json checks = Json::array();
  for (const Check& c : r.checks) {
    Json o = Json::object();
    o["level"] = level_name(c.level);
    o["subject"] = c.subject;
    o["message"] = c.message;
    o["fix"] = c.fix.empty() ? Json() : Json(c.fix);
    Json agents = Json::array();
    for (int i : c.agents) agents.push_back(i);
    o["agents"] = agents;
    checks.push_back(o);
  }
  j["checks"] = checks;
  return j;
}

}  // namespace weft::smi
