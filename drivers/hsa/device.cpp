// SPDX-License-Identifier: MIT
#include "device.hpp"

#include <weft/codeobj/target_id.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "module.hpp"
#include "queue.hpp"

namespace weft::hsa {
namespace {

template <typename T>
T agent_info(const Api& api, hsa_agent_t agent, int attribute, T fallback = T{}) {
  T value{};
  if (api.hsa_agent_get_info(agent, hsa_agent_info_t(attribute), &value) != HSA_STATUS_SUCCESS)
    return fallback;
  return value;
}

template <typename T>
T pool_info(const Api& api, hsa_amd_memory_pool_t pool, hsa_amd_memory_pool_info_t attribute) {
  T value{};
  (void)api.hsa_amd_memory_pool_get_info(pool, attribute, &value);
  return value;
}

struct PoolScan {
  const Api* api = nullptr;
  hsa_amd_memory_pool_t coarse{0}, fine{0}, group{0};
  uint64_t coarse_bytes = 0, group_bytes = 0;
};

hsa_status_t scan_pool(hsa_amd_memory_pool_t pool, void* data) {
  auto* scan = static_cast<PoolScan*>(data);
  const Api& api = *scan->api;
  auto segment = pool_info<hsa_amd_segment_t>(api, pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT);
  if (segment == HSA_AMD_SEGMENT_GROUP) {
    scan->group = pool;
    scan->group_bytes = pool_info<size_t>(api, pool, HSA_AMD_MEMORY_POOL_INFO_SIZE);
    return HSA_STATUS_SUCCESS;
  }
  if (segment != HSA_AMD_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  if (!pool_info<bool>(api, pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED))
    return HSA_STATUS_SUCCESS;
  auto flags = pool_info<uint32_t>(api, pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS);
  if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !scan->coarse.handle) {
    scan->coarse = pool;
    scan->coarse_bytes = pool_info<size_t>(api, pool, HSA_AMD_MEMORY_POOL_INFO_SIZE);
  } else if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !scan->fine.handle) {
    scan->fine = pool;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t first_isa(hsa_isa_t isa, void* data) {
  *static_cast<hsa_isa_t*>(data) = isa;
  return HSA_STATUS_INFO_BREAK;
}

void copy_text(char* dst, size_t cap, std::string_view text) {
  size_t n = std::min(cap - 1, text.size());
  std::memcpy(dst, text.data(), n);
  dst[n] = '\0';
}

// gfx90a → 9.0, gfx1030 → 10.3, gfx1100 → 11.0 (major: all but the last two
// hex digits; minor: the one before the stepping).
void gfx_version(std::string_view processor, int& major, int& minor) {
  major = minor = 0;
  if (processor.substr(0, 3) != "gfx" || processor.size() < 6) return;
  std::string_view digits = processor.substr(3);
  major = std::atoi(std::string(digits.substr(0, digits.size() - 2)).c_str());
  char m = digits[digits.size() - 2];
  minor = m >= '0' && m <= '9' ? m - '0' : m - 'a' + 10;
}

int clamp_int(uint64_t v) { return v > uint64_t(INT_MAX) ? INT_MAX : int(v); }

}  // namespace

std::string target_from_isa_name(std::string_view isa_name) {
  size_t at = isa_name.find("--");
  if (isa_name.substr(0, 6) != "amdgcn" || at == std::string_view::npos) return "";
  auto parsed = codeobj::parse_target_id(isa_name.substr(at + 2));
  return parsed.ok() ? parsed.value().str() : std::string();
}

Result<AgentFacts> read_agent_facts(const Api& api, hsa_agent_t agent) {
  AgentFacts f;
  hipDeviceProp_tR0600& p = f.props;

  hsa_isa_t isa{0};
  (void)api.hsa_agent_iterate_isas(agent, first_isa, &isa);
  if (!isa.handle) return Status(hipErrorNoDevice, "hsa_agent_iterate_isas reported no ISA");
  uint32_t length = 0;
  if (hsa_status_t s = api.hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &length);
      s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api, s, hipErrorNoDevice, "hsa_isa_get_info_alt(NAME_LENGTH)");
  std::string name(length, '\0');
  if (hsa_status_t s = api.hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name.data());
      s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api, s, hipErrorNoDevice, "hsa_isa_get_info_alt(NAME)");
  name.resize(std::strlen(name.c_str()));
  f.isa_name = name;
  f.target = target_from_isa_name(name);
  if (f.target.empty()) return Status(hipErrorNoDevice, "ISA " + name + " is not an AMDGPU target");

  PoolScan scan;
  scan.api = &api;
  (void)api.hsa_amd_agent_iterate_memory_pools(agent, scan_pool, &scan);
  if (!scan.coarse.handle)
    return Status(hipErrorNoDevice, "agent has no coarse-grained device memory pool");
  f.coarse = scan.coarse;
  f.fine = scan.fine;
  f.coarse_bytes = scan.coarse_bytes;

  char product[64] = {};
  if (api.hsa_agent_get_info(agent, hsa_agent_info_t(HSA_AMD_AGENT_INFO_PRODUCT_NAME), product) !=
          HSA_STATUS_SUCCESS ||
      !product[0])
    (void)api.hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, product);
  product[sizeof(product) - 1] = '\0';
  copy_text(p.name, sizeof(p.name), product);
  copy_text(p.gcnArchName, sizeof(p.gcnArchName), f.target);

  char uuid[24] = {};
  if (api.hsa_agent_get_info(agent, hsa_agent_info_t(HSA_AMD_AGENT_INFO_UUID), uuid) ==
          HSA_STATUS_SUCCESS &&
      std::strncmp(uuid, "GPU-", 4) == 0)
    std::memcpy(p.uuid.bytes, uuid + 4, std::min<size_t>(16, std::strlen(uuid + 4)));

  p.totalGlobalMem = f.coarse_bytes;
  p.totalConstMem = f.coarse_bytes;
  p.sharedMemPerBlock = scan.group_bytes;
  p.sharedMemPerBlockOptin = scan.group_bytes;
  p.sharedMemPerMultiprocessor = scan.group_bytes;
  p.maxSharedMemoryPerMultiProcessor = scan.group_bytes;
  p.warpSize = int(agent_info<uint32_t>(api, agent, HSA_AGENT_INFO_WAVEFRONT_SIZE, 64));
  p.maxThreadsPerBlock =
      int(agent_info<uint32_t>(api, agent, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, 1024));
  auto wg = agent_info<std::array<uint16_t, 3>>(api, agent, HSA_AGENT_INFO_WORKGROUP_MAX_DIM);
  auto grid = agent_info<hsa_dim3_t>(api, agent, HSA_AGENT_INFO_GRID_MAX_DIM);
  for (int i = 0; i < 3; ++i) p.maxThreadsDim[i] = wg[i];
  p.maxGridSize[0] = clamp_int(grid.x);
  p.maxGridSize[1] = clamp_int(grid.y);
  p.maxGridSize[2] = clamp_int(grid.z);
  p.clockRate =
      int(agent_info<uint32_t>(api, agent, HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY)) * 1000;
  p.memoryClockRate =
      int(agent_info<uint32_t>(api, agent, HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY)) * 1000;
  p.memoryBusWidth = int(agent_info<uint32_t>(api, agent, HSA_AMD_AGENT_INFO_MEMORY_WIDTH));
  f.physical_cus = agent_info<uint32_t>(api, agent, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT);
  p.multiProcessorCount = int(f.physical_cus);
  auto caches = agent_info<std::array<uint32_t, 4>>(api, agent, HSA_AGENT_INFO_CACHE_SIZE);
  p.l2CacheSize = int(caches[1]);
  uint32_t waves = agent_info<uint32_t>(api, agent, HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU);
  p.maxThreadsPerMultiProcessor = int(waves * uint32_t(p.warpSize));
  uint32_t bdf = agent_info<uint32_t>(api, agent, HSA_AMD_AGENT_INFO_BDFID);
  p.pciBusID = int((bdf >> 8) & 0xFF);
  p.pciDeviceID = int((bdf >> 3) & 0x1F);
  p.pciDomainID = int(agent_info<uint32_t>(api, agent, HSA_AMD_AGENT_INFO_DOMAIN));
  p.asicRevision = int(agent_info<uint32_t>(api, agent, HSA_AMD_AGENT_INFO_ASIC_REVISION));
  p.cooperativeLaunch = 0;  // no cooperative dispatch path yet (docs/hsa.md)
  auto hdp = agent_info<hsa_amd_hdp_flush_t>(api, agent, HSA_AMD_AGENT_INFO_HDP_FLUSH);
  p.hdpMemFlushCntl = hdp.HDP_MEM_FLUSH_CNTL;
  p.hdpRegFlushCntl = hdp.HDP_REG_FLUSH_CNTL;
  f.queue_max_packets = agent_info<uint32_t>(api, agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE);
  f.queues_max = agent_info<uint32_t>(api, agent, HSA_AGENT_INFO_QUEUES_MAX);

  auto processor = codeobj::parse_target_id(f.target);
  gfx_version(processor.ok() ? processor.value().processor : "", p.major, p.minor);
  p.concurrentKernels = 1;
  p.canMapHostMemory = 1;
  p.unifiedAddressing = 1;
  p.managedMemory = 1;
  p.asyncEngineCount = 1;
  p.deviceOverlap = 1;
  p.streamPrioritiesSupported = api.hsa_amd_queue_set_priority ? 1 : 0;
  p.hostRegisterSupported = 1;
  p.ipcEventSupported = 0;
  p.computeMode = 0;
  p.clockInstructionRate = p.clockRate;
  p.arch.hasGlobalInt32Atomics = p.arch.hasGlobalFloatAtomicExch = p.arch.hasSharedInt32Atomics = 1;
  p.arch.hasSharedFloatAtomicExch = p.arch.hasFloatAtomicAdd = p.arch.hasGlobalInt64Atomics = 1;
  p.arch.hasSharedInt64Atomics = p.arch.hasDoubles = p.arch.hasWarpVote = p.arch.hasWarpBallot = 1;
  p.arch.hasWarpShuffle = p.arch.hasFunnelShift = p.arch.hasThreadFenceSystem = 1;
  p.arch.hasSyncThreadsExt = p.arch.has3dGrid = 1;
  return f;
}

// ---------------------------------------------------------------- signals

Signal::~Signal() { pool_->give_back(handle_); }

SignalPool::~SignalPool() {
  for (hsa_signal_t s : free_) (void)api_.hsa_signal_destroy(s);
}

Result<Ref<Signal>> SignalPool::take(hsa_signal_value_t initial) {
  hsa_signal_t s{0};
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      s = free_.back();
      free_.pop_back();
    }
  }
  if (s.handle) {
    api_.hsa_signal_store_relaxed(s, initial);
  } else if (hsa_status_t st = api_.hsa_signal_create(initial, 0, nullptr, &s);
             st != HSA_STATUS_SUCCESS) {
    return status_from_hsa(api_, st, hipErrorOutOfMemory, "hsa_signal_create");
  }
  return make_ref<Signal>(shared_from_this(), s);
}

void SignalPool::give_back(hsa_signal_t s) {
  std::lock_guard lock(mutex_);
  free_.push_back(s);
}

// ---------------------------------------------------------------- device

HsaDevice::HsaDevice(std::shared_ptr<const System> system, hsa_agent_t agent, AgentFacts facts)
    : system_(std::move(system)), agent_(agent), facts_(std::move(facts)),
      signals_(std::make_shared<SignalPool>(*system_->api)) {
  caps_.runs_host_kernels = false;
  caps_.host_can_access_device_memory = false;
  caps_.owns_unlisted_device_memory = true;  // globals of ROCr-loaded executables
  caps_.timing_events = true;
}

HsaDevice::~HsaDevice() = default;

unsigned HsaDevice::max_hw_queues() {
  static const unsigned n = [] {
    const char* v = std::getenv("WEFT_HSA_HW_QUEUES");
    int parsed = v ? std::atoi(v) : 0;
    return parsed > 0 ? unsigned(parsed) : 8u;
  }();
  return n;
}

Result<std::shared_ptr<HwQueue>> HsaDevice::acquire_hw_queue(int priority) {
  std::lock_guard lock(mutex_);
  unsigned limit = max_hw_queues();
  if (facts_.queues_max) limit = std::min(limit, facts_.queues_max);
  HwSlot* best = nullptr;
  for (auto& slot : hw_queues_)
    if (slot.users == 0 && slot.priority == priority) {
      best = &slot;  // an idle ring of the right priority: reuse it
      break;
    }
  if (!best && hw_queues_.size() < limit) {
    WEFT_ASSIGN_OR_RETURN(std::shared_ptr<HwQueue> q, HwQueue::create(*this, priority));
    hw_queues_.push_back(HwSlot{std::move(q), priority, 0});
    best = &hw_queues_.back();
  }
  if (!best) {
    for (auto& slot : hw_queues_) {
      bool better =
          !best || (slot.priority == priority && best->priority != priority) ||
          ((slot.priority == priority) == (best->priority == priority) && slot.users < best->users);
      if (better) best = &slot;
    }
  }
  ++best->users;
  return best->queue;
}

void HsaDevice::release_hw_queue(const std::shared_ptr<HwQueue>& q) {
  std::lock_guard lock(mutex_);
  for (auto& slot : hw_queues_)
    if (slot.queue == q && slot.users) --slot.users;
}

Result<Ref<Queue>> HsaDevice::create_queue(const QueueOptions& options) {
  WEFT_ASSIGN_OR_RETURN(std::shared_ptr<HwQueue> hw,
                        acquire_hw_queue(options.priority < 0 ? -1 : 0));
  return Ref<Queue>(make_ref<HsaQueue>(Ref<HsaDevice>(this), std::move(hw)));
}

Result<Ref<Event>> HsaDevice::create_event(const EventOptions& options) {
  if (options.interprocess)
    return Status(hipErrorNotSupported,
                  "interprocess events are not implemented on AMD GPU agents yet");
  return Ref<Event>(make_ref<HsaEvent>(Ref<HsaDevice>(this), options));
}

Result<Ref<Module>> HsaDevice::load_module(std::span<const std::byte> image) {
  return HsaModule::load(Ref<HsaDevice>(this), image);
}

Result<int> HsaDevice::attribute(hipDeviceAttribute_t attr) const {
  switch (attr) {
    case hipDeviceAttributePhysicalMultiProcessorCount: return int(facts_.physical_cus);
    case hipDeviceAttributeFineGrainSupport: return facts_.fine.handle ? 1 : 0;
    case hipDeviceAttributeCanUseStreamWaitValue: return 0;
    case hipDeviceAttributeWallClockRate: return int(system_->timestamp_hz / 1000);
    default: return Status(hipErrorNotSupported, "attribute not provided by the AMD GPU agent");
  }
}

MemoryInfo HsaDevice::memory_info() const {
  // ROCm 5.2's stable API reports no free-memory figure: what weft has not
  // allocated itself is reported free.
  std::lock_guard lock(mutex_);
  MemoryInfo m;
  m.total_bytes = facts_.coarse_bytes;
  m.free_bytes = allocated_bytes_ < m.total_bytes ? m.total_bytes - allocated_bytes_ : 0;
  return m;
}

Result<void*> HsaDevice::allocate(MemoryKind kind, size_t bytes, unsigned flags) {
  const Api& a = api();
  if (bytes == 0) bytes = 1;
  void* p = nullptr;
  if (kind == MemoryKind::kDevice) {
    // hipDeviceMallocFinegrained (1) takes the fine-grained device pool.
    hsa_amd_memory_pool_t pool = (flags & 1) && facts_.fine.handle ? facts_.fine : facts_.coarse;
    hsa_status_t s = a.hsa_amd_memory_pool_allocate(pool, bytes, 0, &p);
    if (s != HSA_STATUS_SUCCESS)
      return status_from_hsa(a, s, hipErrorOutOfMemory, "hsa_amd_memory_pool_allocate (device)",
                             "for " + std::to_string(bytes) + " bytes");
    std::lock_guard lock(mutex_);
    if (!peers_.empty()) {
      if (hsa_status_t g =
              a.hsa_amd_agents_allow_access(uint32_t(peers_.size()), peers_.data(), nullptr, p);
          g != HSA_STATUS_SUCCESS) {
        (void)a.hsa_amd_memory_pool_free(p);
        return status_from_hsa(a, g, hipErrorOutOfMemory, "hsa_amd_agents_allow_access (peers)");
      }
    }
    device_allocations_[p] = bytes;
    allocated_bytes_ += bytes;
    return p;
  }
  // Host-pinned and managed memory: fine-grained system memory every GPU agent
  // of the driver may reach (hipHostMalloc memory is portable).
  hsa_status_t s = a.hsa_amd_memory_pool_allocate(system_->host_fine, bytes, 0, &p);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(a, s, hipErrorOutOfMemory, "hsa_amd_memory_pool_allocate (host)",
                           "for " + std::to_string(bytes) + " bytes");
  s = a.hsa_amd_agents_allow_access(uint32_t(system_->gpus.size()), system_->gpus.data(), nullptr,
                                    p);
  if (s != HSA_STATUS_SUCCESS) {
    (void)a.hsa_amd_memory_pool_free(p);
    return status_from_hsa(a, s, hipErrorOutOfMemory, "hsa_amd_agents_allow_access (host)");
  }
  return p;
}

Status HsaDevice::deallocate(void* ptr, size_t bytes, MemoryKind kind) {
  (void)bytes;
  if (kind == MemoryKind::kDevice) {
    std::lock_guard lock(mutex_);
    auto it = device_allocations_.find(ptr);
    if (it != device_allocations_.end()) {
      allocated_bytes_ -= it->second;
      device_allocations_.erase(it);
    }
  }
  hsa_status_t s = api().hsa_amd_memory_pool_free(ptr);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api(), s, hipErrorInvalidValue, "hsa_amd_memory_pool_free");
  return Status();
}

Result<void*> HsaDevice::register_host(void* ptr, size_t bytes, unsigned flags) {
  (void)flags;
  void* agent_ptr = nullptr;
  hsa_agent_t agents[64];
  uint32_t n = uint32_t(std::min<size_t>(system_->gpus.size(), 64));
  std::copy_n(system_->gpus.begin(), n, agents);
  hsa_status_t s = api().hsa_amd_memory_lock(ptr, bytes, agents, int(n), &agent_ptr);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api(), s, hipErrorOutOfMemory, "hsa_amd_memory_lock");
  return agent_ptr;
}

Status HsaDevice::unregister_host(void* ptr) {
  hsa_status_t s = api().hsa_amd_memory_unlock(ptr);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api(), s, hipErrorHostMemoryNotRegistered, "hsa_amd_memory_unlock");
  return Status();
}

Result<bool> HsaDevice::can_access_peer(Device& peer_any) {
  auto* peer = dynamic_cast<HsaDevice*>(&peer_any);
  if (!peer || &peer->system() != system_.get() || peer == this) return false;
  hsa_amd_memory_pool_access_t access = HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
  (void)api().hsa_amd_agent_memory_pool_get_info(agent_, peer->facts().coarse,
                                                 HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access);
  return access != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
}

Status HsaDevice::enable_peer_access(Device& peer_any) {
  WEFT_ASSIGN_OR_RETURN(bool can, can_access_peer(peer_any));
  if (!can)
    return Status(hipErrorPeerAccessUnsupported,
                  "ROCr reports no access path to that device's memory");
  auto& peer = static_cast<HsaDevice&>(peer_any);
  // This agent must be allowed on every allocation of the peer, now and later.
  std::lock_guard lock(peer.mutex_);
  for (hsa_agent_t a : peer.peers_)
    if (a.handle == agent_.handle)
      return Status(hipErrorPeerAccessAlreadyEnabled, "peer access already enabled");
  peer.peers_.push_back(agent_);
  for (auto& [ptr, size] : peer.device_allocations_) {
    hsa_status_t s = api().hsa_amd_agents_allow_access(uint32_t(peer.peers_.size()),
                                                       peer.peers_.data(), nullptr, ptr);
    if (s != HSA_STATUS_SUCCESS)
      return status_from_hsa(api(), s, hipErrorInvalidValue, "hsa_amd_agents_allow_access");
  }
  return Status();
}

Status HsaDevice::disable_peer_access(Device& peer_any) {
  auto* peer = dynamic_cast<HsaDevice*>(&peer_any);
  if (!peer || &peer->system() != system_.get())
    return Status(hipErrorInvalidDevice, "not an AMD GPU agent of this driver");
  // ROCr has no call that revokes access: later allocations stop being shared.
  std::lock_guard lock(peer->mutex_);
  auto it = std::find_if(peer->peers_.begin(), peer->peers_.end(),
                         [&](hsa_agent_t a) { return a.handle == agent_.handle; });
  if (it == peer->peers_.end())
    return Status(hipErrorPeerAccessNotEnabled, "peer access was not enabled");
  peer->peers_.erase(it);
  return Status();
}

Result<hipIpcMemHandle_t> HsaDevice::ipc_export_memory(void* base) {
  size_t size = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = device_allocations_.find(base);
    if (it == device_allocations_.end())
      return Status(hipErrorInvalidValue,
                    "IPC export needs the base address of a device allocation");
    size = it->second;
  }
  hsa_amd_ipc_memory_t h;
  hsa_status_t s = api().hsa_amd_ipc_memory_create(base, size, &h);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api(), s, hipErrorInvalidValue, "hsa_amd_ipc_memory_create");
  hipIpcMemHandle_t out;
  std::memset(&out, 0, sizeof(out));
  static_assert(sizeof(h) + sizeof(uint64_t) <= sizeof(out.reserved));
  std::memcpy(out.reserved, &h, sizeof(h));
  uint64_t size64 = size;
  std::memcpy(out.reserved + sizeof(h), &size64, sizeof(size64));
  return out;
}

Result<IpcMapping> HsaDevice::ipc_open_memory(const hipIpcMemHandle_t& handle, unsigned flags) {
  (void)flags;
  hsa_amd_ipc_memory_t h;
  uint64_t size = 0;
  std::memcpy(&h, handle.reserved, sizeof(h));
  std::memcpy(&size, handle.reserved + sizeof(h), sizeof(size));
  void* p = nullptr;
  hsa_status_t s = api().hsa_amd_ipc_memory_attach(&h, size, 1, &agent_, &p);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api(), s, hipErrorInvalidValue, "hsa_amd_ipc_memory_attach");
  std::lock_guard lock(mutex_);
  ipc_mappings_[p] = size;
  return IpcMapping{p, size_t(size)};
}

Status HsaDevice::ipc_close_memory(void* ptr) {
  {
    std::lock_guard lock(mutex_);
    if (!ipc_mappings_.erase(ptr))
      return Status(hipErrorInvalidValue, "not an address opened from an IPC handle");
  }
  hsa_status_t s = api().hsa_amd_ipc_memory_detach(ptr);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api(), s, hipErrorInvalidValue, "hsa_amd_ipc_memory_detach");
  return Status();
}

}  // namespace weft::hsa
