// SPDX-License-Identifier: MIT
// The host CPU as a HIP agent: "device" memory is host memory, kernels are
// single-source C++ run by the WorkerPool. Always present. Thread-safe.
#pragma once

#include "worker_pool.hpp"

#include <weft/driver/device.hpp>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace weft::cpu {

struct HostFacts {
  std::string model_name;
  unsigned usable_cores = 1;  // from the process affinity mask
  unsigned numa_nodes = 1;
  int clock_khz = 0;
  int l2_cache_bytes = 0;
  size_t total_memory = 0;
};

HostFacts read_host_facts();

class CpuDevice final : public Device {
 public:
  static constexpr int kWarpSize = 32;
  static constexpr int kMaxThreadsPerBlock = 1024;
  static constexpr size_t kSharedMemPerBlock = 64 * 1024;
  // Blocks of one launch resident per core, whatever their size: what occupancy
  // queries report, and so the most blocks per core a cooperative launch may have
  // (each gets an OS thread; beyond a few per core, grid.sync() is mostly the OS
  // scheduler's time). Ordinary launches run one block per worker at a time.
  static constexpr int kResidentBlocksPerCore = 4;

  explicit CpuDevice(HostFacts facts, unsigned workers, size_t fiber_stack_bytes);

  AgentKind kind() const override { return AgentKind::kCpu; }
  const DeviceCaps& caps() const override { return caps_; }
  std::string target_id() const override;
  void properties(hipDeviceProp_tR0600& props) const override;
  MemoryInfo memory_info() const override;
  // The fibers' stacks (WEFT_CPU_STACK_SIZE, then hipDeviceSetLimit(hipLimitStackSize)).
  size_t thread_stack_bytes() const override { return fiber_stack_bytes_->load(); }
  Status set_thread_stack_bytes(size_t bytes) override;
  // What hipDeviceProp_t cannot say: the wall clock's rate (device_clock.h's wall_clock64()).
  Result<int> attribute(hipDeviceAttribute_t attr) const override;

  Result<void*> allocate(MemoryKind kind, size_t bytes, unsigned flags) override;
  Status deallocate(void* ptr, size_t bytes, MemoryKind kind) override;
  Result<void*> register_host(void* ptr, size_t bytes, unsigned flags) override;
  Status unregister_host(void* ptr) override;

  Result<Ref<Queue>> create_queue(const QueueOptions& options) override;
  Result<Ref<Event>> create_event(const EventOptions& options) override;
  // Graph plans (drivers/cpu/command_buffer.cpp).
  Result<Ref<CommandBuffer>> create_command_buffer() override;
  // CPU code objects (drivers/cpu/module.cpp).
  Result<Ref<Module>> load_module(std::span<const std::byte> image) override;

  // Virtual memory (drivers/cpu/virtual_memory.cpp): physical memory is a memfd,
  // reservations are PROT_NONE mappings, maps are MAP_SHARED views of the memfd.
  Result<size_t> vm_granularity(bool recommended) const override;
  Result<Ref<PhysicalMemory>> vm_create(size_t bytes, bool exportable) override;
  Result<void*> vm_reserve(size_t bytes, size_t alignment, void* hint) override;
  Status vm_free_range(void* base, size_t bytes) override;
  Status vm_map(void* address, size_t bytes, PhysicalMemory& memory, size_t offset) override;
  Status vm_unmap(void* address, size_t bytes) override;
  Status vm_set_access(void* address, size_t bytes, VmAccess access) override;
  Result<int> vm_export_fd(PhysicalMemory& memory) override;
  Result<Ref<PhysicalMemory>> vm_import_fd(int fd) override;

  // Inter-process handles (drivers/cpu/ipc.cpp, docs/ipc.md): device allocations of
  // SharedHeap::kMinBytes and more are memfd pages; interprocess events count their
  // records in a shared page.
  Result<hipIpcMemHandle_t> ipc_export_memory(void* base) override;
  Result<IpcMapping> ipc_open_memory(const hipIpcMemHandle_t& handle, unsigned flags) override;
  Status ipc_close_memory(void* ptr) override;
  Result<hipIpcEventHandle_t> ipc_export_event(Event& event) override;
  Result<Ref<Event>> ipc_open_event(const hipIpcEventHandle_t& handle) override;

  // External memory and semaphores (drivers/cpu/external.cpp): memory files mapped
  // MAP_SHARED; semaphores on an eventfd or a memory file's first 64-bit word.
  Result<Ref<ExternalMemory>> import_external_memory(const ExternalMemoryDesc& desc) override;
  Result<Ref<ExternalSemaphore>> import_external_semaphore(int fd,
                                                           ExternalSemaphoreKind kind) override;

 private:
  HostFacts facts_;
  DeviceCaps caps_;
  // Shared with the queues, which read it when a kernel starts.
  std::shared_ptr<std::atomic<size_t>> fiber_stack_bytes_;
  std::atomic<size_t> allocated_bytes_{0};
  size_t available_at_start_ = 0;
  // Never destroyed: queue threads may run past static destruction.
  WorkerPool* pool_;
  std::mutex ipc_mutex_;
  std::map<void*, size_t> ipc_mappings_;  // hipIpcOpenMemHandle address → bytes mapped
};

}  // namespace weft::cpu
