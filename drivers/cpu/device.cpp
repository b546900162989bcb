// SPDX-License-Identifier: MIT
#include "device.hpp"

#include "command_buffer.hpp"
#include "event.hpp"
#include "queue.hpp"
#include "shared_heap.hpp"

#include <hip/weft/device_clock.h>

#include <sched.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace weft::cpu {
namespace {

constexpr size_t kAllocationAlignment = 256;  // what HIP promises for hipMalloc

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

int parse_cache_size(const std::string& text) {  // "1024K", "32M"
  if (text.empty()) return 0;
  long value = std::strtol(text.c_str(), nullptr, 10);
  char unit = text.back();
  if (unit == 'K') value *= 1024;
  if (unit == 'M') value *= 1024 * 1024;
  return static_cast<int>(value);
}

}  // namespace

namespace {
// A fiber's stack holds the engine's frames too, so small GPU-style limits (AMD's
// default is 1 KiB) are raised to this; sizes are whole pages.
constexpr size_t kMinStackBytes = 16 * 1024;
constexpr size_t kMaxStackBytes = size_t(1) << 30;

size_t round_stack_bytes(size_t bytes) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  bytes = std::max(bytes, kMinStackBytes);
  return (bytes + page - 1) / page * page;
}

size_t available_host_memory(size_t total) {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    if (line.rfind("MemAvailable:", 0) == 0) {
      size_t kib = static_cast<size_t>(std::strtoull(line.c_str() + 13, nullptr, 10));
      return std::min(total, kib * 1024);
    }
  }
  return total;
}
}  // namespace

HostFacts read_host_facts() {
  HostFacts f;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    auto value = [&] {
      auto colon = line.find(':');
      return colon == std::string::npos ? std::string() : line.substr(colon + 2);
    };
    if (f.model_name.empty() && line.rfind("model name", 0) == 0) f.model_name = value();
    if (f.clock_khz == 0 && line.rfind("cpu MHz", 0) == 0)
      f.clock_khz = static_cast<int>(std::strtod(value().c_str(), nullptr) * 1000);
  }
  if (f.model_name.empty()) f.model_name = "Host CPU";
  std::string max_khz = read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  if (!max_khz.empty()) f.clock_khz = std::atoi(max_khz.c_str());

  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) f.usable_cores = std::max(1, CPU_COUNT(&set));
  else f.usable_cores = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));

  std::error_code ec;
  unsigned nodes = 0;
  for (auto& entry : std::filesystem::directory_iterator("/sys/devices/system/node", ec))
    if (entry.path().filename().string().rfind("node", 0) == 0) ++nodes;
  f.numa_nodes = std::max(1u, nodes);

  for (int index = 0; index < 8; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    if (read_first_line(dir + "/level") == "2")
      f.l2_cache_bytes = parse_cache_size(read_first_line(dir + "/size"));
  }
  struct sysinfo si {};
  if (sysinfo(&si) == 0) f.total_memory = static_cast<size_t>(si.totalram) * si.mem_unit;
  return f;
}

Status CpuDevice::set_thread_stack_bytes(size_t bytes) {
  if (bytes > kMaxStackBytes)
    return Status(
        hipErrorInvalidValue,
        fmt::format("stack size {} is above the CPU agent's limit of {} bytes per GPU thread",
                    bytes, kMaxStackBytes));
  fiber_stack_bytes_->store(round_stack_bytes(bytes));
  return Status();
}

CpuDevice::CpuDevice(HostFacts facts, unsigned workers, size_t fiber_stack_bytes)
    : facts_(std::move(facts)), fiber_stack_bytes_(std::make_shared<std::atomic<size_t>>(
                                    round_stack_bytes(fiber_stack_bytes))) {
  available_at_start_ = available_host_memory(facts_.total_memory);
  caps_.runs_host_kernels = true;
  caps_.host_can_access_device_memory = true;
  caps_.owns_unlisted_device_memory = false;  // every device address is in the pointer table
  caps_.timing_events = true;
  caps_.queue_cu_masks = true;        // a mask picks the pool threads (worker_pool.hpp)
  caps_.cooperative_launches = true;  // one OS thread per block (cooperative.hpp)
  // The thread that submits a dispatch works too, so the pool has one fewer.
  pool_ = new WorkerPool(workers > 0 ? workers - 1 : 0);
}

std::string CpuDevice::target_id() const {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "host";
#endif
}

void CpuDevice::properties(hipDeviceProp_tR0600& p) const {
  std::memset(&p, 0, sizeof(p));
  std::snprintf(p.name, sizeof(p.name), "%s", facts_.model_name.c_str());
  std::snprintf(p.gcnArchName, sizeof(p.gcnArchName), "%s", target_id().c_str());
  std::memcpy(p.uuid.bytes, "weft-cpu-agent-0", 16);
  p.totalGlobalMem = facts_.total_memory;
  p.sharedMemPerBlock = kSharedMemPerBlock;
  p.sharedMemPerBlockOptin = kSharedMemPerBlock;
  p.sharedMemPerMultiprocessor = kSharedMemPerBlock;
  p.maxSharedMemoryPerMultiProcessor = kSharedMemPerBlock;
  p.regsPerBlock = 0;
  p.warpSize = kWarpSize;
  p.memPitch = SIZE_MAX / 2;
  p.maxThreadsPerBlock = kMaxThreadsPerBlock;
  p.maxThreadsDim[0] = p.maxThreadsDim[1] = p.maxThreadsDim[2] = kMaxThreadsPerBlock;
  p.maxGridSize[0] = p.maxGridSize[1] = p.maxGridSize[2] = 0x7fffffff;
  p.clockRate = facts_.clock_khz;
  p.totalConstMem = kSharedMemPerBlock;
  // No compute capability exists for a CPU; 1.0 keeps version checks meaningful.
  p.major = 1;
  p.minor = 0;
  p.textureAlignment = 256;
  p.texturePitchAlignment = 256;
  p.multiProcessorCount = static_cast<int>(facts_.usable_cores);
  p.integrated = 1;
  p.canMapHostMemory = 1;
  p.computeMode = 0;
  p.concurrentKernels = 1;
  p.asyncEngineCount = 1;
  p.unifiedAddressing = 1;
  p.l2CacheSize = facts_.l2_cache_bytes;
  p.maxThreadsPerMultiProcessor = kMaxThreadsPerBlock * kResidentBlocksPerCore;
  p.streamPrioritiesSupported = 1;
  p.managedMemory = 1;
  p.hostNativeAtomicSupported = 1;
  p.pageableMemoryAccess = 1;
  p.concurrentManagedAccess = 1;
  p.canUseHostPointerForRegisteredMem = 1;
  p.pageableMemoryAccessUsesHostPageTables = 1;
  p.directManagedMemAccessFromHost = 1;
  p.maxBlocksPerMultiProcessor = kResidentBlocksPerCore;
  p.cooperativeLaunch = 1;             // drivers/cpu/cooperative.hpp
  p.cooperativeMultiDeviceLaunch = 1;  // with this one device
  p.hostRegisterSupported = 1;
  p.ipcEventSupported = 1;  // drivers/cpu/ipc.cpp
  p.memoryPoolsSupported = 1;
  // The core shares this agent's pools as memfds (src/runtime/mempool_shareable.*).
  p.memoryPoolSupportedHandleTypes = hipMemHandleTypePosixFileDescriptor;
  p.clockInstructionRate = facts_.clock_khz;
  p.arch.hasGlobalInt32Atomics = 1;
  p.arch.hasGlobalFloatAtomicExch = 1;
  p.arch.hasSharedInt32Atomics = 1;
  p.arch.hasSharedFloatAtomicExch = 1;
  p.arch.hasFloatAtomicAdd = 1;
  p.arch.hasGlobalInt64Atomics = 1;
  p.arch.hasSharedInt64Atomics = 1;
  p.arch.hasDoubles = 1;
  p.arch.hasThreadFenceSystem = 1;
  p.arch.hasSyncThreadsExt = 1;
  p.arch.has3dGrid = 1;
}

MemoryInfo CpuDevice::memory_info() const {
  MemoryInfo info;
  info.total_bytes = facts_.total_memory;
  // The kernel counts pages only once touched (and reclaims cache for them), so
  // MemAvailable alone hardly moves when weft allocates. Free memory is what was
  // available when the agent started, less what weft handed out since, and never
  // more than the kernel says is available now.
  size_t allocated = allocated_bytes_.load(std::memory_order_relaxed);
  size_t budget = available_at_start_ > allocated ? available_at_start_ - allocated : 0;
  info.free_bytes = std::min(available_host_memory(info.total_bytes), budget);
  return info;
}

Result<int> CpuDevice::attribute(hipDeviceAttribute_t attr) const {
  // Kernels here read wall_clock64() from the steady clock in nanoseconds, not at the core's
  // clockRate the properties would otherwise report for it.
  if (attr == hipDeviceAttributeWallClockRate) return ::weft::detail::wall_clock_khz;
  return Status(hipErrorNotSupported, "attribute not provided by the CPU agent driver");
}

Result<void*> CpuDevice::allocate(MemoryKind kind, size_t bytes, unsigned) {
  // The agent's memory is the host's: more than physical memory can never fit.
  if (bytes > facts_.total_memory)
    return Status(hipErrorOutOfMemory, "allocation larger than the host's physical memory");
  // Device memory large enough to be worth its own mapping is shareable (IPC).
  if (kind == MemoryKind::kDevice && bytes >= SharedHeap::kMinBytes)
    if (SharedHeap* heap = SharedHeap::get()) {
      WEFT_ASSIGN_OR_RETURN(void* shared, heap->allocate(bytes));
      allocated_bytes_.fetch_add(bytes, std::memory_order_relaxed);
      return shared;
    }
  void* ptr = nullptr;
  if (posix_memalign(&ptr, kAllocationAlignment, bytes) != 0 || !ptr)
    return Status(hipErrorOutOfMemory, "posix_memalign failed");
  allocated_bytes_.fetch_add(bytes, std::memory_order_relaxed);
  return ptr;
}

Status CpuDevice::deallocate(void* ptr, size_t bytes, MemoryKind kind) {
  SharedHeap* heap =
      kind == MemoryKind::kDevice && bytes >= SharedHeap::kMinBytes ? SharedHeap::get() : nullptr;
  if (!heap || !heap->release(ptr)) std::free(ptr);
  allocated_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
  return Status();
}

Result<void*> CpuDevice::register_host(void* ptr, size_t, unsigned) { return ptr; }

Status CpuDevice::unregister_host(void*) { return Status(); }

Result<Ref<Queue>> CpuDevice::create_queue(const QueueOptions& options) {
  return Ref<Queue>(make_ref<CpuQueue>(*pool_, fiber_stack_bytes_, options.cu_mask));
}

Result<Ref<Event>> CpuDevice::create_event(const EventOptions& options) {
  if (options.interprocess) {
    WEFT_ASSIGN_OR_RETURN(std::shared_ptr<SharedEventPage> page, SharedEventPage::create());
    return Ref<Event>(make_ref<CpuEvent>(options, std::move(page)));
  }
  return Ref<Event>(make_ref<CpuEvent>(options));
}

Result<Ref<CommandBuffer>> CpuDevice::create_command_buffer() {
  return Ref<CommandBuffer>(make_ref<CpuCommandBuffer>());
}

}  // namespace weft::cpu
