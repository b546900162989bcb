// SPDX-License-Identifier: MIT
#include "fake_hsa.hpp"

#include <hsa/amd_hsa_queue.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>

namespace fake_hsa {
namespace {

struct FakeSignal {
  std::atomic<int64_t> value{0};
  uint64_t start = 0, end = 0;
  int doorbell_of = -1;  // queue index when this is a doorbell
};

struct Handler {
  hsa_signal_t signal;
  hsa_signal_condition_t cond;
  hsa_signal_value_t value;
  hsa_amd_signal_handler fn;
  void* arg;
};

State* g_state = nullptr;
std::recursive_mutex g_gpu;
std::vector<Handler> g_handlers;            // guarded by g_gpu
std::map<uint64_t, std::string> g_symbols;  // symbol handle → name
std::map<std::string, void*> g_globals;

FakeSignal* sig(hsa_signal_t s) { return reinterpret_cast<FakeSignal*>(s.handle); }

bool satisfied(int64_t v, hsa_signal_condition_t c, int64_t want) {
  switch (c) {
    case HSA_SIGNAL_CONDITION_EQ: return v == want;
    case HSA_SIGNAL_CONDITION_NE: return v != want;
    case HSA_SIGNAL_CONDITION_LT: return v < want;
    default: return v >= want;
  }
}

amd_queue_t* amd(hsa_queue_t* q) { return reinterpret_cast<amd_queue_t*>(q); }

int gpu_index(hsa_agent_t a) {
  int i = int(a.handle) - 0x100;
  return i >= 0 && i < int(g_state->gpus.size()) ? i : -1;
}

void complete(hsa_signal_t s) {
  if (!s.handle) return;
  FakeSignal* f = sig(s);
  f->start = g_state->clock++;
  f->end = g_state->clock++;
  f->value.fetch_sub(1);
}

// The bytes recorded for a dispatch: up to 512 from kernarg_address, within
// the allocation that holds them.
std::vector<std::byte> kernarg_bytes(const void* address) {
  auto* p = static_cast<const std::byte*>(address);
  auto it = g_state->allocations.upper_bound(const_cast<std::byte*>(p));
  if (it == g_state->allocations.begin()) return {};
  --it;
  auto* base = static_cast<const std::byte*>(it->first);
  if (p < base || p >= base + it->second.size) return {};
  size_t n = std::min<size_t>(512, size_t(base + it->second.size - p));
  return std::vector<std::byte>(p, p + n);
}

// ---- the symbol table

hsa_status_t status_string(hsa_status_t s, const char** text) {
  *text = s == HSA_STATUS_ERROR_OUT_OF_RESOURCES ? "HSA_STATUS_ERROR_OUT_OF_RESOURCES (fake)"
                                                 : "HSA_STATUS_ERROR (fake)";
  return HSA_STATUS_SUCCESS;
}
hsa_status_t init() { return g_state->init_result; }
hsa_status_t shut_down() { return HSA_STATUS_SUCCESS; }
hsa_status_t system_get_info(hsa_system_info_t a, void* v) {
  if (a == HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY) *static_cast<uint64_t*>(v) = 1000000000ull;
  else if (a == HSA_SYSTEM_INFO_VERSION_MAJOR) *static_cast<uint16_t*>(v) = 1;
  else if (a == HSA_SYSTEM_INFO_VERSION_MINOR) *static_cast<uint16_t*>(v) = 1;
  else return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}
hsa_status_t iterate_agents(hsa_status_t (*cb)(hsa_agent_t, void*), void* data) {
  if (hsa_status_t s = cb(hsa_agent_t{kCpuAgent}, data); s != HSA_STATUS_SUCCESS) return s;
  for (size_t i = 0; i < g_state->gpus.size(); ++i)
    if (hsa_status_t s = cb(hsa_agent_t{gpu_agent(int(i))}, data); s != HSA_STATUS_SUCCESS)
      return s;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void* v) {
  int g = gpu_index(agent);
  if (agent.handle == kCpuAgent) {
    if (attribute != HSA_AGENT_INFO_DEVICE) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *static_cast<hsa_device_type_t*>(v) = HSA_DEVICE_TYPE_CPU;
    return HSA_STATUS_SUCCESS;
  }
  if (g < 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  const GpuConfig& c = g_state->gpus[size_t(g)];
  auto u32 = [&](uint32_t x) { *static_cast<uint32_t*>(v) = x; };
  switch (int(attribute)) {
    case HSA_AGENT_INFO_DEVICE: *static_cast<hsa_device_type_t*>(v) = HSA_DEVICE_TYPE_GPU; break;
    case HSA_AGENT_INFO_NAME: std::strncpy(static_cast<char*>(v), "gfx-name", 64); break;
    case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
      std::strncpy(static_cast<char*>(v), c.product.c_str(), 64);
      break;
    case HSA_AMD_AGENT_INFO_UUID: std::strcpy(static_cast<char*>(v), "GPU-0123456789abcdef"); break;
    case HSA_AGENT_INFO_WAVEFRONT_SIZE: u32(c.wave); break;
    case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE: u32(1024); break;
    case HSA_AGENT_INFO_WORKGROUP_MAX_DIM: {
      uint16_t d[3] = {1024, 1024, 1024};
      std::memcpy(v, d, sizeof(d));
      break;
    }
    case HSA_AGENT_INFO_GRID_MAX_DIM: {
      hsa_dim3_t d{0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
      std::memcpy(v, &d, sizeof(d));
      break;
    }
    case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY: u32(1700); break;
    case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY: u32(1600); break;
    case HSA_AMD_AGENT_INFO_MEMORY_WIDTH: u32(4096); break;
    case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT: u32(c.cus); break;
    case HSA_AGENT_INFO_CACHE_SIZE: {
      uint32_t sizes[4] = {16384, 8u << 20, 0, 0};
      std::memcpy(v, sizes, sizeof(sizes));
      break;
    }
    case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU: u32(32); break;
    case HSA_AMD_AGENT_INFO_BDFID: u32(uint32_t(0x23 + g) << 8 | 2u << 3); break;
    case HSA_AMD_AGENT_INFO_DOMAIN: u32(1); break;
    case HSA_AMD_AGENT_INFO_ASIC_REVISION: u32(1); break;
    case HSA_AMD_AGENT_INFO_HDP_FLUSH: std::memset(v, 0, sizeof(hsa_amd_hdp_flush_t)); break;
    case HSA_AGENT_INFO_QUEUE_MAX_SIZE: u32(c.queue_max_packets); break;
    case HSA_AGENT_INFO_QUEUES_MAX: u32(128); break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t iterate_isas(hsa_agent_t agent, hsa_status_t (*cb)(hsa_isa_t, void*), void* data) {
  int g = gpu_index(agent);
  if (g < 0) return HSA_STATUS_ERROR_INVALID_AGENT;
  return cb(hsa_isa_t{uint64_t(0x500 + g)}, data);
}
hsa_status_t isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void* v) {
  const std::string& name = g_state->gpus.at(size_t(isa.handle - 0x500)).isa;
  if (attribute == HSA_ISA_INFO_NAME_LENGTH) *static_cast<uint32_t*>(v) = uint32_t(name.size() + 1);
  else if (attribute == HSA_ISA_INFO_NAME) std::memcpy(v, name.c_str(), name.size() + 1);
  else return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t iterate_pools(hsa_agent_t agent, hsa_status_t (*cb)(hsa_amd_memory_pool_t, void*),
                           void* data) {
  std::vector<uint64_t> pools;
  if (agent.handle == kCpuAgent) {
    pools = {kHostCoarsePool, kKernargPool, kHostFinePool};
  } else {
    int g = gpu_index(agent);
    if (g < 0) return HSA_STATUS_ERROR_INVALID_AGENT;
    pools = {0x3000 + uint64_t(g), coarse_pool(g)};
    if (g_state->gpus[size_t(g)].fine_pool) pools.push_back(fine_pool(g));
  }
  for (uint64_t p : pools)
    if (hsa_status_t s = cb(hsa_amd_memory_pool_t{p}, data); s != HSA_STATUS_SUCCESS) return s;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t pool_get_info(hsa_amd_memory_pool_t pool, hsa_amd_memory_pool_info_t attribute,
                           void* v) {
  uint64_t p = pool.handle;
  bool group = p >= 0x3000 && p < 0x4000;
  hsa_amd_segment_t segment = group ? HSA_AMD_SEGMENT_GROUP : HSA_AMD_SEGMENT_GLOBAL;
  uint32_t flags = 0;
  size_t size = 0;
  if (p >= 0x1000 && p < 0x2000) {
    flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
    size = g_state->gpus.at(size_t(p - 0x1000)).coarse_bytes;
  } else if (p >= 0x2000 && p < 0x3000) {
    flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
    size = 1ull << 30;
  } else if (group) {
    size = 65536;
  } else if (p == kHostFinePool) {
    flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
    size = 256ull << 30;
  } else if (p == kKernargPool) {
    flags =
        HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT;
    size = 256ull << 30;
  } else if (p == kHostCoarsePool) {
    flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
    size = 256ull << 30;
  }
  switch (attribute) {
    case HSA_AMD_MEMORY_POOL_INFO_SEGMENT: *static_cast<hsa_amd_segment_t*>(v) = segment; break;
    case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS: *static_cast<uint32_t*>(v) = flags; break;
    case HSA_AMD_MEMORY_POOL_INFO_SIZE: *static_cast<size_t*>(v) = size; break;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED: *static_cast<bool*>(v) = !group; break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t agent_pool_get_info(hsa_agent_t agent, hsa_amd_memory_pool_t pool,
                                 hsa_amd_agent_memory_pool_info_t, void* v) {
  int g = gpu_index(agent);
  bool own = pool.handle == coarse_pool(g) || pool.handle == fine_pool(g);
  *static_cast<hsa_amd_memory_pool_access_t*>(v) =
      own ? HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT
          : HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t pool_allocate(hsa_amd_memory_pool_t pool, size_t size, uint32_t, void** ptr) {
  size_t rounded = (size + 4095) & ~size_t(4095);
  void* p = std::aligned_alloc(4096, rounded);
  if (!p) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  std::memset(p, 0, rounded);
  std::lock_guard lock(g_gpu);
  g_state->allocations[p] = Allocation{pool.handle, size, {}};
  *ptr = p;
  return HSA_STATUS_SUCCESS;
}
hsa_status_t pool_free(void* ptr) {
  std::lock_guard lock(g_gpu);
  auto it = g_state->allocations.find(ptr);
  if (it == g_state->allocations.end()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  g_state->allocations.erase(it);
  g_state->freed.push_back(ptr);
  std::free(ptr);
  return HSA_STATUS_SUCCESS;
}
hsa_status_t allow_access(uint32_t n, const hsa_agent_t* agents, const uint32_t*, const void* ptr) {
  std::lock_guard lock(g_gpu);
  auto it = g_state->allocations.find(const_cast<void*>(ptr));
  if (it == g_state->allocations.end()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < n; ++i) it->second.allowed.push_back(agents[i].handle);
  return HSA_STATUS_SUCCESS;
}
hsa_status_t memory_lock(void* host, size_t size, hsa_agent_t*, int, void** agent_ptr) {
  g_state->locked[host] = size;
  *agent_ptr = host;
  return HSA_STATUS_SUCCESS;
}
hsa_status_t memory_unlock(void* host) {
  return g_state->locked.erase(host) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}
hsa_status_t pointer_info(const void* ptr, hsa_amd_pointer_info_t* info, void* (*)(size_t),
                          uint32_t*, hsa_agent_t**) {
  std::lock_guard lock(g_gpu);
  info->type = HSA_EXT_POINTER_TYPE_UNKNOWN;
  auto* p = static_cast<const std::byte*>(ptr);
  auto it = g_state->allocations.upper_bound(const_cast<std::byte*>(p));
  if (it != g_state->allocations.begin()) {
    --it;
    auto* base = static_cast<const std::byte*>(it->first);
    if (p >= base && p < base + it->second.size) {
      info->type = HSA_EXT_POINTER_TYPE_HSA;
      info->agentBaseAddress = it->first;
      info->hostBaseAddress = it->first;
      info->sizeInBytes = it->second.size;
      return HSA_STATUS_SUCCESS;
    }
  }
  for (auto& [base, size] : g_state->locked) {
    auto* b = static_cast<const std::byte*>(base);
    if (p >= b && p < b + size) {
      info->type = HSA_EXT_POINTER_TYPE_LOCKED;
      info->hostBaseAddress = base;
      info->agentBaseAddress = base;
      info->sizeInBytes = size;
    }
  }
  return HSA_STATUS_SUCCESS;
}
hsa_status_t async_copy(void* dst, hsa_agent_t dst_agent, const void* src, hsa_agent_t src_agent,
                        size_t size, uint32_t n, const hsa_signal_t* deps,
                        hsa_signal_t completion) {
  std::lock_guard lock(g_gpu);
  Copy c;
  c.dst = dst;
  c.src = src;
  c.size = size;
  c.dst_agent = dst_agent;
  c.src_agent = src_agent;
  c.deps.assign(deps, deps + n);
  c.completion = completion;
  g_state->copies.push_back(c);
  return HSA_STATUS_SUCCESS;
}
hsa_status_t memory_fill(void* ptr, uint32_t value, size_t count) {
  auto* p = static_cast<uint32_t*>(ptr);
  for (size_t i = 0; i < count; ++i) p[i] = value;
  std::lock_guard lock(g_gpu);
  g_state->fills.emplace_back(ptr, uint32_t(count));
  return HSA_STATUS_SUCCESS;
}
hsa_status_t memory_copy(void* dst, const void* src, size_t size) {
  std::memmove(dst, src, size);
  return HSA_STATUS_SUCCESS;
}
hsa_status_t ipc_create(void* ptr, size_t, hsa_amd_ipc_memory_t* handle) {
  std::memset(handle, 0, sizeof(*handle));
  uint64_t p = reinterpret_cast<uint64_t>(ptr);
  std::memcpy(handle, &p, sizeof(p));
  return HSA_STATUS_SUCCESS;
}
hsa_status_t ipc_attach(const hsa_amd_ipc_memory_t* handle, size_t, uint32_t, const hsa_agent_t*,
                        void** mapped) {
  uint64_t p = 0;
  std::memcpy(&p, handle, sizeof(p));
  *mapped = reinterpret_cast<void*>(p);
  return HSA_STATUS_SUCCESS;
}
hsa_status_t ipc_detach(void*) { return HSA_STATUS_SUCCESS; }

hsa_status_t signal_create(hsa_signal_value_t initial, uint32_t, const hsa_agent_t*,
                           hsa_signal_t* out) {
  auto* f = new FakeSignal;
  f->value = initial;
  out->handle = reinterpret_cast<uint64_t>(f);
  std::lock_guard lock(g_gpu);
  ++g_state->signals_created;
  ++g_state->signals_live;
  return HSA_STATUS_SUCCESS;
}
hsa_status_t signal_destroy(hsa_signal_t s) {
  delete sig(s);
  std::lock_guard lock(g_gpu);
  --g_state->signals_live;
  return HSA_STATUS_SUCCESS;
}
hsa_signal_value_t signal_load(hsa_signal_t s) { return sig(s)->value.load(); }
void signal_store_relaxed(hsa_signal_t s, hsa_signal_value_t v) { sig(s)->value.store(v); }
void signal_store_screlease(hsa_signal_t s, hsa_signal_value_t v) {
  FakeSignal* f = sig(s);
  if (f->doorbell_of >= 0) {
    std::lock_guard lock(g_gpu);
    hsa_queue_t* q = g_state->queues[size_t(f->doorbell_of)].queue;
    auto* slot = static_cast<std::byte*>(q->base_address) + (uint64_t(v) & (q->size - 1)) * 64;
    uint16_t header = __atomic_load_n(reinterpret_cast<uint16_t*>(slot), __ATOMIC_ACQUIRE);
    g_state->ring_events.push_back(
        RingEvent{RingEvent::kDoorbell, f->doorbell_of, uint64_t(v), header});
  }
  f->value.store(v);
}
hsa_signal_value_t signal_wait(hsa_signal_t s, hsa_signal_condition_t cond, hsa_signal_value_t want,
                               uint64_t, hsa_wait_state_t) {
  for (int i = 0; i < 200; ++i) {
    if (!g_state->manual) run_gpu();
    int64_t v = sig(s)->value.load();
    if (satisfied(v, cond, want)) return v;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return sig(s)->value.load();
}
hsa_status_t async_handler(hsa_signal_t s, hsa_signal_condition_t cond, hsa_signal_value_t value,
                           hsa_amd_signal_handler fn, void* arg) {
  std::lock_guard lock(g_gpu);
  g_handlers.push_back(Handler{s, cond, value, fn, arg});
  return HSA_STATUS_SUCCESS;
}

hsa_status_t queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                          void (*cb)(hsa_status_t, hsa_queue_t*, void*), void* data, uint32_t,
                          uint32_t, hsa_queue_t** out) {
  int g = gpu_index(agent);
  if (g < 0 || (size & (size - 1)) != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(g_gpu);
  size_t bytes = sizeof(amd_queue_t) + size_t(size) * 64;
  void* block = std::aligned_alloc(64, (bytes + 63) & ~size_t(63));
  std::memset(block, 0, bytes);
  auto* aq = static_cast<amd_queue_t*>(block);
  aq->hsa_queue.type = type;
  aq->hsa_queue.size = size;
  aq->hsa_queue.base_address = static_cast<std::byte*>(block) + sizeof(amd_queue_t);
  aq->hsa_queue.id = g_state->queues.size();
  aq->private_segment_aperture_base_hi = kPrivateApertureHi;
  aq->group_segment_aperture_base_hi = kGroupApertureHi;
  for (uint32_t i = 0; i < size; ++i)
    reinterpret_cast<uint16_t*>(static_cast<std::byte*>(aq->hsa_queue.base_address) +
                                size_t(i) * 64)[0] = HSA_PACKET_TYPE_INVALID;
  auto* bell = new FakeSignal;
  bell->doorbell_of = int(g_state->queues.size());
  aq->hsa_queue.doorbell_signal.handle = reinterpret_cast<uint64_t>(bell);
  FakeQueue fq;
  fq.block = block;
  fq.queue = &aq->hsa_queue;
  fq.callback = cb;
  fq.data = data;
  fq.agent = agent.handle;
  g_state->queues.push_back(fq);
  *out = &aq->hsa_queue;
  return HSA_STATUS_SUCCESS;
}
FakeQueue* find_queue(hsa_queue_t* q) {
  for (auto& f : g_state->queues)
    if (f.queue == q) return &f;
  return nullptr;
}
hsa_status_t queue_destroy(hsa_queue_t* q) {
  std::lock_guard lock(g_gpu);
  FakeQueue* f = find_queue(q);
  if (!f) return HSA_STATUS_ERROR_INVALID_QUEUE;
  f->dead = true;  // the memory stays: the test reads the packets afterwards
  return HSA_STATUS_SUCCESS;
}
uint64_t load_read_index(const hsa_queue_t* q) {
  if (!g_state->manual) run_gpu();
  return __atomic_load_n(&amd(const_cast<hsa_queue_t*>(q))->read_dispatch_id, __ATOMIC_ACQUIRE);
}
uint64_t add_write_index(const hsa_queue_t* q, uint64_t n) {
  uint64_t index =
      __atomic_fetch_add(&amd(const_cast<hsa_queue_t*>(q))->write_dispatch_id, n, __ATOMIC_ACQ_REL);
  std::lock_guard lock(g_gpu);
  g_state->ring_events.push_back(RingEvent{RingEvent::kReserve, int(q->id), index, 0});
  return index;
}
hsa_status_t queue_set_priority(hsa_queue_t* q, hsa_amd_queue_priority_t) {
  std::lock_guard lock(g_gpu);
  find_queue(q)->priority_calls++;
  return HSA_STATUS_SUCCESS;
}
hsa_status_t profiler_enable(hsa_queue_t* q, int enable) {
  std::lock_guard lock(g_gpu);
  find_queue(q)->profiling = enable != 0;
  return HSA_STATUS_SUCCESS;
}
hsa_status_t dispatch_time(hsa_agent_t, hsa_signal_t s, hsa_amd_profiling_dispatch_time_t* t) {
  t->start = sig(s)->start;
  t->end = sig(s)->end;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t reader_create(const void*, size_t size, hsa_code_object_reader_t* r) {
  g_state->code_objects.push_back(size);
  r->handle = 0x7000 + g_state->code_objects.size();
  return HSA_STATUS_SUCCESS;
}
hsa_status_t reader_destroy(hsa_code_object_reader_t) { return HSA_STATUS_SUCCESS; }
hsa_status_t executable_create(hsa_profile_t, hsa_default_float_rounding_mode_t, const char*,
                               hsa_executable_t* e) {
  e->handle = 0x8000;
  return HSA_STATUS_SUCCESS;
}
hsa_status_t executable_load(hsa_executable_t, hsa_agent_t, hsa_code_object_reader_t, const char*,
                             hsa_loaded_code_object_t*) {
  return HSA_STATUS_SUCCESS;
}
hsa_status_t executable_freeze(hsa_executable_t, const char*) { return HSA_STATUS_SUCCESS; }
hsa_status_t executable_destroy(hsa_executable_t) { return HSA_STATUS_SUCCESS; }
hsa_status_t get_symbol(hsa_executable_t, const char* name, const hsa_agent_t*,
                        hsa_executable_symbol_t* out) {
  std::lock_guard lock(g_gpu);
  g_state->loaded_symbols.push_back(name);
  uint64_t h = 0x9000 + g_symbols.size();
  g_symbols[h] = name;
  out->handle = h;
  return HSA_STATUS_SUCCESS;
}
hsa_status_t symbol_info(hsa_executable_symbol_t s, hsa_executable_symbol_info_t attribute,
                         void* v) {
  std::string name = g_symbols.at(s.handle);
  switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
      *static_cast<uint64_t*>(v) = kernel_object_of(name);
      break;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE: {
      auto it = g_state->kernarg_sizes.find(name);
      *static_cast<uint32_t*>(v) = it == g_state->kernarg_sizes.end() ? 0 : it->second;
      break;
    }
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
      *static_cast<uint32_t*>(v) = 1024;
      break;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
      *static_cast<uint32_t*>(v) = 48;
      break;
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS: {
      void*& g = g_globals[name];
      if (!g) g = std::calloc(1, 64);
      *static_cast<uint64_t*>(v) = reinterpret_cast<uint64_t>(g);
      break;
    }
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE: *static_cast<uint32_t*>(v) = 64; break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace

State& state() { return *g_state; }

uint64_t kernel_object_of(const std::string& symbol) {
  return 0xC0DE0000ull + std::hash<std::string>{}(symbol) % 0xFFFF * 64;
}

int64_t signal_value(hsa_signal_t s) { return sig(s)->value.load(); }

int run_gpu() {
  std::lock_guard lock(g_gpu);
  int consumed = 0;
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t qi = 0; qi < g_state->queues.size(); ++qi) {
      FakeQueue& fq = g_state->queues[qi];
      if (fq.dead) continue;
      amd_queue_t* aq = amd(fq.queue);
      for (;;) {
        uint64_t read = __atomic_load_n(&aq->read_dispatch_id, __ATOMIC_ACQUIRE);
        if (read >= __atomic_load_n(&aq->write_dispatch_id, __ATOMIC_ACQUIRE)) break;
        auto* slot =
            static_cast<std::byte*>(fq.queue->base_address) + (read & (fq.queue->size - 1)) * 64;
        uint16_t header = __atomic_load_n(reinterpret_cast<uint16_t*>(slot), __ATOMIC_ACQUIRE);
        unsigned type = header & 0xFF;
        if (type == HSA_PACKET_TYPE_INVALID) break;  // reserved but not yet published
        Packet p;
        p.queue = int(qi);
        p.index = read;
        std::memcpy(p.bytes.data(), slot, 64);
        hsa_signal_t completion{0};
        if (type == HSA_PACKET_TYPE_BARRIER_AND) {
          hsa_barrier_and_packet_t b;
          std::memcpy(&b, slot, 64);
          bool blocked = false;
          for (auto d : b.dep_signal)
            if (d.handle && sig(d)->value.load() != 0) blocked = true;
          if (blocked) break;
          completion = b.completion_signal;
        } else if (type == HSA_PACKET_TYPE_KERNEL_DISPATCH) {
          hsa_kernel_dispatch_packet_t d;
          std::memcpy(&d, slot, 64);
          p.kernarg = kernarg_bytes(d.kernarg_address);
          if (g_state->fault_object && d.kernel_object == g_state->fault_object) {
            g_state->packets.push_back(p);
            fq.dead = true;
            __atomic_store_n(&aq->read_dispatch_id, read + 1, __ATOMIC_RELEASE);
            fq.callback(g_state->fault_status, fq.queue, fq.data);
            break;
          }
          completion = d.completion_signal;
        }
        g_state->packets.push_back(p);
        complete(completion);
        __atomic_store_n(reinterpret_cast<uint16_t*>(slot), uint16_t(HSA_PACKET_TYPE_INVALID),
                         __ATOMIC_RELEASE);
        __atomic_store_n(&aq->read_dispatch_id, read + 1, __ATOMIC_RELEASE);
        ++consumed;
        progress = true;
      }
    }
    for (Copy& c : g_state->copies) {
      if (c.done) continue;
      bool ready = true;
      for (auto d : c.deps)
        if (d.handle && sig(d)->value.load() != 0) ready = false;
      if (!ready) continue;
      std::memmove(c.dst, c.src, c.size);
      c.done = true;
      complete(c.completion);
      progress = true;
    }
    for (size_t i = 0; i < g_handlers.size(); ++i) {
      Handler h = g_handlers[i];
      int64_t v = sig(h.signal)->value.load();
      if (!satisfied(v, h.cond, h.value)) continue;
      g_handlers.erase(g_handlers.begin() + long(i));
      if (h.fn(v, h.arg)) g_handlers.push_back(h);
      progress = true;
      break;
    }
  }
  return consumed;
}

FakeHsa::FakeHsa() {
  // Static storage: a driver object released late (after the test) still finds
  // a valid table and state.
  static weft::hsa::Api table;
  static State fresh_state;
  {
    std::lock_guard lock(g_gpu);
    g_handlers.clear();
    fresh_state = State{};
    g_state = &fresh_state;
  }
  table = weft::hsa::Api{};
  api_ = &table;
  weft::hsa::Api& a = *api_;
  a.hsa_status_string = status_string;
  a.hsa_init = init;
  a.hsa_shut_down = shut_down;
  a.hsa_system_get_info = system_get_info;
  a.hsa_iterate_agents = iterate_agents;
  a.hsa_agent_get_info = agent_get_info;
  a.hsa_agent_iterate_isas = iterate_isas;
  a.hsa_isa_get_info_alt = isa_get_info_alt;
  a.hsa_amd_agent_iterate_memory_pools = iterate_pools;
  a.hsa_amd_memory_pool_get_info = pool_get_info;
  a.hsa_amd_agent_memory_pool_get_info = agent_pool_get_info;
  a.hsa_amd_memory_pool_allocate = pool_allocate;
  a.hsa_amd_memory_pool_free = pool_free;
  a.hsa_amd_agents_allow_access = allow_access;
  a.hsa_amd_memory_lock = memory_lock;
  a.hsa_amd_memory_unlock = memory_unlock;
  a.hsa_amd_memory_async_copy = async_copy;
  a.hsa_amd_memory_fill = memory_fill;
  a.hsa_memory_copy = memory_copy;
  a.hsa_amd_pointer_info = pointer_info;
  a.hsa_amd_ipc_memory_create = ipc_create;
  a.hsa_amd_ipc_memory_attach = ipc_attach;
  a.hsa_amd_ipc_memory_detach = ipc_detach;
  a.hsa_signal_create = signal_create;
  a.hsa_signal_destroy = signal_destroy;
  a.hsa_signal_load_scacquire = signal_load;
  a.hsa_signal_store_relaxed = signal_store_relaxed;
  a.hsa_signal_store_screlease = signal_store_screlease;
  a.hsa_signal_wait_scacquire = signal_wait;
  a.hsa_amd_signal_async_handler = async_handler;
  a.hsa_queue_create = queue_create;
  a.hsa_queue_destroy = queue_destroy;
  a.hsa_queue_load_read_index_scacquire = load_read_index;
  a.hsa_queue_add_write_index_scacq_screl = add_write_index;
  a.hsa_amd_queue_set_priority = queue_set_priority;
  a.hsa_amd_profiling_set_profiler_enabled = profiler_enable;
  a.hsa_amd_profiling_get_dispatch_time = dispatch_time;
  a.hsa_code_object_reader_create_from_memory = reader_create;
  a.hsa_code_object_reader_destroy = reader_destroy;
  a.hsa_executable_create_alt = executable_create;
  a.hsa_executable_load_agent_code_object = executable_load;
  a.hsa_executable_freeze = executable_freeze;
  a.hsa_executable_destroy = executable_destroy;
  a.hsa_executable_get_symbol_by_name = get_symbol;
  a.hsa_executable_symbol_get_info = symbol_info;
  weft::hsa::set_api_for_testing(api_);
}

FakeHsa::~FakeHsa() {
  weft::hsa::reset_api_for_testing();
  // The test's driver objects are gone (FakeHsa is declared first): free what
  // the double handed out and the driver did not give back.
  std::lock_guard lock(g_gpu);
  for (auto& [p, a] : g_state->allocations) std::free(p);
  g_state->allocations.clear();
  for (auto& q : g_state->queues) {
    delete sig(q.queue->doorbell_signal);
    std::free(q.block);
  }
  g_state->queues.clear();
  for (auto& [name, p] : g_globals) std::free(p);
  g_globals.clear();
  g_symbols.clear();
  g_handlers.clear();
}

}  // namespace fake_hsa
