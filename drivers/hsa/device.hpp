// SPDX-License-Identifier: MIT
// One ROCr GPU agent as a weft agent, and what its agents share (the System:
// the CPU agent's host pools, the list of GPU agents, the timestamp clock).
// Facts are read once at discovery; nothing else (no queue, no memory) is
// created until first use, so unused GPUs cost nothing at hipInit.
// Identity and properties are immutable; methods are thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include <weft/driver/device.hpp>

#include "api.hpp"

namespace weft::hsa {

// State shared by every agent of the driver. Immutable after discovery.
struct System {
  const Api* api = nullptr;
  hsa_agent_t cpu{0};                  // the host agent owning the system pools
  std::vector<hsa_agent_t> gpus;       // every GPU agent, in ROCr's order
  hsa_amd_memory_pool_t host_fine{0};  // fine-grained system memory (hipHostMalloc)
  hsa_amd_memory_pool_t kernarg{0};    // the pool flagged KERNARG_INIT
  uint64_t timestamp_hz = 0;           // HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY
};

// Facts read once per GPU agent.
struct AgentFacts {
  hipDeviceProp_tR0600 props{};
  std::string target;               // canonical target ID, "gfx90a:sramecc+:xnack-"
  std::string isa_name;             // "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"
  hsa_amd_memory_pool_t coarse{0};  // device-local, coarse-grained (hipMalloc)
  hsa_amd_memory_pool_t fine{0};    // device-local, fine-grained (hipDeviceMallocFinegrained)
  uint64_t coarse_bytes = 0;
  uint32_t queue_max_packets = 0;  // HSA_AGENT_INFO_QUEUE_MAX_SIZE
  uint32_t queues_max = 0;         // HSA_AGENT_INFO_QUEUES_MAX
  uint32_t physical_cus = 0;
};

// Reads every property ROCr reports for `agent` into HIP's layout.
Result<AgentFacts> read_agent_facts(const Api& api, hsa_agent_t agent);
// "gfx90a:sramecc+:xnack-" from "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"
// (features in canonical order); empty when the name is not an AMDGPU ISA.
std::string target_from_isa_name(std::string_view isa_name);

class HwQueue;
class SignalPool;

// A completion signal from the device's pool: value 1 when handed out, 0 once
// the work that carries it is done. Returns to the pool on its last release
// (holders keep it until it has completed). Thread-safe.
class Signal final : public RefCounted {
 public:
  Signal(std::shared_ptr<SignalPool> pool, hsa_signal_t handle)
      : pool_(std::move(pool)), handle_(handle) {}
  ~Signal() override;
  hsa_signal_t handle() const { return handle_; }

 private:
  std::shared_ptr<SignalPool> pool_;
  hsa_signal_t handle_;
};

class SignalPool : public std::enable_shared_from_this<SignalPool> {
 public:
  explicit SignalPool(const Api& api) : api_(api) {}
  ~SignalPool();
  // A signal with value `initial` (1 for a completion signal).
  Result<Ref<Signal>> take(hsa_signal_value_t initial = 1);
  void give_back(hsa_signal_t s);

 private:
  const Api& api_;
  std::mutex mutex_;
  std::vector<hsa_signal_t> free_;
};

class HsaDevice final : public Device {
 public:
  HsaDevice(std::shared_ptr<const System> system, hsa_agent_t agent, AgentFacts facts);
  ~HsaDevice() override;

  AgentKind kind() const override { return AgentKind::kGpu; }
  const DeviceCaps& caps() const override { return caps_; }
  std::string target_id() const override { return facts_.target; }
  void properties(hipDeviceProp_tR0600& props) const override { props = facts_.props; }
  Result<int> attribute(hipDeviceAttribute_t attr) const override;
  MemoryInfo memory_info() const override;

  Result<void*> allocate(MemoryKind kind, size_t bytes, unsigned flags) override;
  Status deallocate(void* ptr, size_t bytes, MemoryKind kind) override;
  Result<void*> register_host(void* ptr, size_t bytes, unsigned flags) override;
  Status unregister_host(void* ptr) override;

  Result<Ref<Queue>> create_queue(const QueueOptions& options) override;
  Result<Ref<Event>> create_event(const EventOptions& options) override;
  Result<Ref<Module>> load_module(std::span<const std::byte> image) override;

  Result<bool> can_access_peer(Device& peer) override;
  Status enable_peer_access(Device& peer) override;
  Status disable_peer_access(Device& peer) override;
  Result<hipIpcMemHandle_t> ipc_export_memory(void* base) override;
  Result<IpcMapping> ipc_open_memory(const hipIpcMemHandle_t& handle, unsigned flags) override;
  Status ipc_close_memory(void* ptr) override;

  const Api& api() const { return *system_->api; }
  const System& system() const { return *system_; }
  hsa_agent_t agent() const { return agent_; }
  const AgentFacts& facts() const { return facts_; }
  SignalPool& signals() { return *signals_; }
  const std::shared_ptr<SignalPool>& signal_pool() const { return signals_; }

  // The hardware queue a new weft queue runs on (docs/hsa.md, "Queues"): a ring
  // of its own while fewer than max_hw_queues() exist, else the least shared one
  // of the same priority.
  Result<std::shared_ptr<HwQueue>> acquire_hw_queue(int priority);
  void release_hw_queue(const std::shared_ptr<HwQueue>& q);
  static unsigned max_hw_queues();  // WEFT_HSA_HW_QUEUES, default 8

 private:
  struct HwSlot {
    std::shared_ptr<HwQueue> queue;
    int priority = 0;
    unsigned users = 0;
  };

  const std::shared_ptr<const System> system_;
  const hsa_agent_t agent_;
  const AgentFacts facts_;
  DeviceCaps caps_;
  std::shared_ptr<SignalPool> signals_;

  mutable std::mutex mutex_;  // guards everything below
  std::vector<HwSlot> hw_queues_;
  std::map<void*, size_t> device_allocations_;  // for peer grants and free-memory accounting
  size_t allocated_bytes_ = 0;
  std::vector<hsa_agent_t> peers_;  // agents granted access to this device's memory
  std::map<void*, size_t> ipc_mappings_;
};

}  // namespace weft::hsa
