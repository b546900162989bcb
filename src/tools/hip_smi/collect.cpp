// SPDX-License-Identifier: MIT
// One sample of every agent, device queries on worker threads under one deadline.
#include "collect.hpp"
#include "probe_weft.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <set>

#include "probe_amdgpu.hpp"
#include "probe_npu.hpp"
#include "system.hpp"

namespace weft::smi {
namespace {

std::string utc_now() {
  auto now = std::chrono::system_clock::now();
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03d}Z", tm, static_cast<int>(ms));
}

// An agent whose query did not come back in time keeps its static facts.
Agent timed_out(Agent a, std::chrono::milliseconds timeout, bool still_running_before) {
  a.status = QueryStatus::kTimeout;
  a.status_detail = still_running_before
                      ? "not responding: the previous query has not returned yet"
                      : fmt::format("not responding: no answer within {} ms", timeout.count());
  return a;
}

// Starts `fn` under `key` unless an earlier query of that key is still running.
template <typename R>
bool start_query(std::map<std::string, Pending<R>>& queries, const std::string& key,
                 std::function<R()> fn) {
  auto it = queries.find(key);
  if (it != queries.end() && !it->second.done()) return false;
  queries[key] = Pending<R>::start(std::move(fn));
  return true;
}

}  // namespace

const Agent* Snapshot::find(const std::string& key) const {
  for (const Agent& a : agents)
    if (a.key == key) return &a;
  return nullptr;
}

const char* kind_name(AgentKind kind) {
  switch (kind) {
    case AgentKind::kGpu: return "gpu";
    case AgentKind::kNpu: return "npu";
    case AgentKind::kCpu: return "cpu";
  }
  return "?";
}

const char* status_name(QueryStatus status) {
  switch (status) {
    case QueryStatus::kOk: return "ok";
    case QueryStatus::kTimeout: return "timeout";
    case QueryStatus::kError: return "error";
  }
  return "?";
}

Collector::Collector(const SysRoot& root, CollectOptions options) : root_(root), options_(options) {
  // Under a fixture root, NVML would describe this machine, not the fixture:
  // only a library named explicitly (a test's fake NVML) is used.
  const char* lib = std::getenv("HIP_SMI_NVML_LIB");
  nvml_enabled_ = !root_.is_fixture() || (lib && *lib);
}

const NvmlState* Collector::nvml(Clock::time_point deadline) {
  if (!nvml_enabled_) return nullptr;
  if (!nvml_init_.valid()) {
    const SysRoot* root = &root_;
    nvml_init_ = Pending<NvmlState>::start([root] { return init_nvml(*root); });
  }
  if (!nvml_init_.wait_until(deadline)) return nullptr;
  return nvml_init_.value();
}

Snapshot Collector::sample() {
  const auto start = Clock::now();
  const auto deadline = start + options_.timeout;
  const SysRoot* root = &root_;
  Snapshot s;
  cpu_load_.begin(root_);
  if (nvml_enabled_ && !nvml_init_.valid()) nvml(Clock::time_point::min());  // start loading now

  // AMD GPUs: static facts from KFD here, live values on worker threads.
  KfdTopology kfd = read_kfd_topology(root_);
  std::vector<Agent> amd;
  std::map<uint64_t, std::string> agent_of_gpu_id;
  std::set<std::string> keys;
  for (const KfdNode& node : kfd.gpus) {
    Agent a = amdgpu_agent(root_, node);
    if (!keys.insert(a.key).second) a.key += fmt::format("#{}", node.id);  // partitions share a BDF
    agent_of_gpu_id[node.gpu_id] = a.key;
    amd.push_back(a);
  }
  std::vector<bool> amd_started;
  for (const Agent& a : amd)
    amd_started.push_back(start_query<Agent>(agent_queries_, a.key, [root, a] {
      Agent sampled = a;
      sample_amdgpu(*root, sampled);
      return sampled;
    }));
  std::vector<Agent> npus = npu_agents(root_);
  std::vector<bool> npu_started;
  for (const Agent& a : npus)
    npu_started.push_back(start_query<Agent>(agent_queries_, a.key, [root, a] {
      Agent sampled = a;
      sample_npu(*root, sampled);
      return sampled;
    }));

  // Host facts while the devices answer.
  probe_host(root_, s);
  Agent cpu = probe_cpu(root_);
  s.numa = probe_numa(root_);
  cpu.details["numa_nodes"] = static_cast<int>(std::max<size_t>(1, s.numa.size()));

  const NvmlState* nvml_state = nvml(deadline);
  std::vector<Agent> nvidia;
  if (nvml_state && nvml_state->ok) {
    std::vector<bool> started;
    for (const NvmlDevice& d : nvml_state->devices) {
      const NvmlDevice* device = &d;
      started.push_back(start_query<DeviceSample>(
          nvml_queries_, d.base.key,
          [root, nvml_state, device] { return sample_nvml(*root, *nvml_state, *device); }));
    }
    for (size_t k = 0; k < nvml_state->devices.size(); ++k) {
      const NvmlDevice& d = nvml_state->devices[k];
      auto& q = nvml_queries_[d.base.key];
      if (q.wait_until(deadline) && q.value()) {
        nvidia.push_back(q.value()->agent);
        for (const Process& p : q.value()->processes) s.processes.push_back(p);
      } else if (q.done()) {
        Agent a = d.base;
        a.status = QueryStatus::kError;
        a.status_detail = "query failed: " + q.error();
        nvidia.push_back(a);
      } else {
        nvidia.push_back(timed_out(d.base, options_.timeout, !started[k]));
      }
    }
    if (options_.links) {
      if (!nvml_links_.valid() || nvml_links_.done())
        nvml_links_ =
            Pending<std::vector<Link>>::start([nvml_state] { return nvml_links(*nvml_state); });
      if (nvml_links_.wait_until(deadline) && nvml_links_.value())
        for (const Link& l : *nvml_links_.value()) s.links.push_back(l);
    }
  }

  auto collect = [&](std::vector<Agent>& list, const std::vector<bool>& started) {
    for (size_t k = 0; k < list.size(); ++k) {
      auto& q = agent_queries_[list[k].key];
      if (q.wait_until(deadline) && q.value()) {
        list[k] = *q.value();
      } else if (q.done()) {
        list[k].status = QueryStatus::kError;
        list[k].status_detail = "query failed: " + q.error();
      } else {
        list[k] = timed_out(list[k], options_.timeout, !started[k]);
      }
      s.agents.push_back(list[k]);
    }
  };
  collect(amd, amd_started);
  for (Agent& a : nvidia) s.agents.push_back(std::move(a));
  collect(npus, npu_started);
  add_placeholders(s, nvml_state, kfd.present);

  cpu.busy_percent = cpu_load_.end(root_, options_.cpu_window);
  for (Process& p : weft_processes(root_, cpu.key)) s.processes.push_back(std::move(p));
  s.agents.push_back(std::move(cpu));

  for (Process& p : kfd_processes(root_, agent_of_gpu_id)) s.processes.push_back(std::move(p));
  if (options_.links)
    for (Link& l : kfd_links(kfd)) s.links.push_back(std::move(l));
  for (DriverInfo& d : s.drivers) {
    if (d.name == "nvidia" && nvml_state && !nvml_state->driver_version.empty())
      d.version = nvml_state->driver_version;
    for (Agent& a : s.agents)
      if (a.driver == d.name && a.driver_version.empty()) a.driver_version = d.version;
  }
  if (nvml_state) s.cuda_version = nvml_state->cuda_version;
  s.rocm_version = root_.line("/opt/rocm/.info/version");
  assign_indices(s);
  if (options_.timestamp) s.timestamp = utc_now();
  return s;
}

void Collector::add_placeholders(Snapshot& s, const NvmlState* nvml_state, bool kfd_present) {
  // PCI devices that should be agents but no interface answered for: listed with
  // the reason, so a missing GPU is visible instead of silently absent.
  std::set<std::string> known;
  for (const Agent& a : s.agents) known.insert(a.bus_id);
  for (const PciDevice& d : scan_pci(root_)) {
    if (known.count(d.bdf)) continue;
    Agent a;
    a.bus_id = d.bdf;
    a.numa_node = d.numa_node;
    a.status = QueryStatus::kError;
    a.hip_usable = false;
    a.details["device_id"] = fmt::format("0x{:04x}", d.device);
    a.details["kernel_driver"] = d.driver.empty() ? Json() : Json(d.driver);
    if (d.vendor == kVendorAmd) {
      a.kind = AgentKind::kGpu;
      a.vendor = "AMD";
      a.driver = "amdgpu";
      a.key = "amdgpu:" + d.bdf;
      a.name = fmt::format("AMD GPU 0x{:04x}", d.device);
      if (d.driver.empty())
        a.status_detail = "no kernel driver bound (is the amdgpu module loaded?)";
      else if (d.driver != "amdgpu") a.status_detail = "bound to " + d.driver + ", not amdgpu";
      else if (!kfd_present)
        a.status_detail = "amdgpu is loaded but KFD is not (kernel built without CONFIG_HSA_AMD?)";
      else a.status_detail = "not in the KFD topology (no compute support for this GPU)";
    } else if (d.vendor == kVendorNvidia) {
      a.kind = AgentKind::kGpu;
      a.vendor = "NVIDIA";
      a.driver = "nvidia";
      a.key = "nvidia:" + d.bdf;
      a.name = fmt::format("NVIDIA GPU 0x{:04x}", d.device);
      if (d.driver.empty())
        a.status_detail = "no kernel driver bound (is the nvidia module loaded?)";
      else if (d.driver == "nouveau") a.status_detail = "bound to nouveau, which CUDA cannot use";
      else if (d.driver != "nvidia") a.status_detail = "bound to " + d.driver + ", not nvidia";
      else if (!nvml_enabled_)
        a.status_detail = "NVML is not consulted under --root (set HIP_SMI_NVML_LIB)";
      else if (!nvml_state)
        a.status_detail =
            fmt::format("NVML did not initialise within {} ms", options_.timeout.count());
      else if (!nvml_state->ok) a.status_detail = nvml_state->error;
      else a.status_detail = "not listed by NVML";
      // Only hip-smi's window (NVML) is missing: CUDA may still work.
      if (d.driver == "nvidia") a.hip_usable.reset();
    } else {
      a.kind = AgentKind::kNpu;
      a.vendor = "AMD";
      a.driver = "amdxdna";
      a.key = "amdxdna:" + d.bdf;
      a.name = fmt::format("AMD Ryzen AI {}", npu_generation(d.device, d.revision));
      if (d.driver.empty())
        a.status_detail =
            "no kernel driver bound (amdxdna needs Linux 6.14+ or the amd/xdna-driver DKMS module)";
      else if (d.driver != "amdxdna") a.status_detail = "bound to " + d.driver + ", not amdxdna";
      else a.status_detail = "amdxdna is bound but created no accel device";
    }
    s.agents.push_back(std::move(a));
  }
}

void Collector::assign_indices(Snapshot& s) {
  // GPUs first, then NPUs, then the CPU: the order in which weft numbers its
  // HIP devices (src/runtime/driver_registry.cpp).
  std::stable_sort(s.agents.begin(), s.agents.end(), [](const Agent& a, const Agent& b) {
    return static_cast<int>(a.kind) < static_cast<int>(b.kind);
  });
  std::map<std::string, int> index_of;
  for (size_t k = 0; k < s.agents.size(); ++k) {
    s.agents[k].index = static_cast<int>(k);
    index_of[s.agents[k].key] = static_cast<int>(k);
  }
  for (Process& p : s.processes) p.agent = index_of.count(p.agent_key) ? index_of[p.agent_key] : -1;
  std::stable_sort(s.processes.begin(), s.processes.end(), [](const Process& a, const Process& b) {
    return a.agent != b.agent ? a.agent < b.agent : a.pid < b.pid;
  });
}

}  // namespace weft::smi
