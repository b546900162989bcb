// SPDX-License-Identifier: MIT
// The AMD GPU driver: one agent per ROCr GPU agent, in ROCr's order
// (ROCR_VISIBLE_DEVICES is applied inside ROCr; HIP_VISIBLE_DEVICES by the
// core). With no libhsa-runtime64, a failing hsa_init (no /dev/kfd) or no GPU
// agent it reports zero agents and says why in status_note(); nothing aborts.
#include <unistd.h>

#include <memory>
#include <string>
#include <weft/driver/device.hpp>

#include "api.hpp"
#include "device.hpp"

namespace weft::hsa {
namespace {

constexpr const char* kKfdPath = "/dev/kfd";

struct AgentScan {
  const Api* api = nullptr;
  std::vector<hsa_agent_t> gpus;
  hsa_agent_t cpu{0};
};

hsa_status_t scan_agent(hsa_agent_t agent, void* data) {
  auto* scan = static_cast<AgentScan*>(data);
  hsa_device_type_t type{};
  if (scan->api->hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_SUCCESS;
  if (type == HSA_DEVICE_TYPE_GPU) scan->gpus.push_back(agent);
  if (type == HSA_DEVICE_TYPE_CPU && !scan->cpu.handle) scan->cpu = agent;
  return HSA_STATUS_SUCCESS;
}

struct HostPools {
  const Api* api = nullptr;
  hsa_amd_memory_pool_t fine{0}, kernarg{0};
  bool fine_is_kernarg = false;
};

hsa_status_t scan_host_pool(hsa_amd_memory_pool_t pool, void* data) {
  auto* scan = static_cast<HostPools*>(data);
  hsa_amd_segment_t segment{};
  uint32_t flags = 0;
  bool alloc = false;
  const Api& api = *scan->api;
  (void)api.hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
  (void)api.hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  (void)api.hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED,
                                         &alloc);
  if (segment != HSA_AMD_SEGMENT_GLOBAL || !alloc) return HSA_STATUS_SUCCESS;
  if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !scan->kernarg.handle)
    scan->kernarg = pool;
  // Host allocations prefer a fine-grained pool that is not the kernarg pool.
  bool fine = flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
  bool kernarg = flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT;
  if (fine && (!scan->fine.handle || (scan->fine_is_kernarg && !kernarg))) {
    scan->fine = pool;
    scan->fine_is_kernarg = kernarg;
  }
  return HSA_STATUS_SUCCESS;
}

class HsaDriver final : public Driver {
 public:
  std::string_view name() const override { return "hsa"; }

  std::vector<Ref<Device>> devices() override {
    std::vector<Ref<Device>> out;
    // ROCr cannot start without the KFD device node; checking first keeps
    // start-up on machines without AMD GPUs free of loading ROCr (≈10-20 ms).
    if (!testing_api_installed() && access(kKfdPath, F_OK) != 0) {
      note_ = std::string(kKfdPath) +
              " not present (amdgpu kernel driver not loaded, or not passed into this "
              "container): ROCr not loaded";
      return out;
    }
    const Api* api = hsa::api();
    if (!api) {
      note_ = load_error();
      return out;
    }
    if (hsa_status_t s = api->hsa_init(); s != HSA_STATUS_SUCCESS) {
      note_ = "hsa_init failed: " + status_text(*api, s) +
              " (no /dev/kfd, or no access to it: is amdgpu loaded "
              "and the user in the render/video group?)";
      return out;
    }
    AgentScan scan;
    scan.api = api;
    if (hsa_status_t s = api->hsa_iterate_agents(scan_agent, &scan); s != HSA_STATUS_SUCCESS) {
      note_ = "hsa_iterate_agents failed: " + status_text(*api, s);
      return out;
    }
    if (scan.gpus.empty()) {
      note_ = "ROCr reports no GPU agent (ROCR_VISIBLE_DEVICES may hide them)";
      return out;
    }
    HostPools pools;
    pools.api = api;
    if (scan.cpu.handle)
      (void)api->hsa_amd_agent_iterate_memory_pools(scan.cpu, scan_host_pool, &pools);
    if (!pools.fine.handle || !pools.kernarg.handle) {
      note_ = "ROCr reports no fine-grained or kernarg system memory pool";
      return out;
    }
    auto system = std::make_shared<System>();
    system->api = api;
    system->cpu = scan.cpu;
    system->gpus = scan.gpus;
    system->host_fine = pools.fine;
    system->kernarg = pools.kernarg;
    (void)api->hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &system->timestamp_hz);
    std::string skipped;
    for (size_t i = 0; i < scan.gpus.size(); ++i) {
      auto facts = read_agent_facts(*api, scan.gpus[i]);
      if (!facts.ok()) {
        skipped += "; GPU agent " + std::to_string(i) + " skipped: " + facts.status().message();
        continue;
      }
      out.push_back(
          Ref<Device>(make_ref<HsaDevice>(system, scan.gpus[i], std::move(facts).value())));
    }
    uint16_t major = 0, minor = 0;
    (void)api->hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
    (void)api->hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor);
    note_ = std::to_string(out.size()) + " GPU agent(s), HSA " + std::to_string(major) + "." +
            std::to_string(minor) + skipped;
    return out;
  }

  std::string status_note() const override { return note_; }

 private:
  std::string note_ = "not probed yet";
};

}  // namespace

std::unique_ptr<Driver> make_driver() { return std::make_unique<HsaDriver>(); }

}  // namespace weft::hsa
