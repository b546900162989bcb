// SPDX-License-Identifier: MIT
// One CUDA device as a weft agent. Its primary context is retained on first use
// (not at discovery, so unused GPUs cost nothing) and made current on whichever
// thread calls in. Identity and properties are immutable; methods are thread-safe.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <vector>
#include <weft/driver/device.hpp>

#include "api.hpp"
#include "host_lane.hpp"

namespace weft::cuda {

// Facts read once at discovery (no context needed).
struct DeviceFacts {
  hipDeviceProp_tR0600 props{};
  std::string target;              // "sm_90"
  bool stream_wait_value = false;  // cuStreamWaitValue32 usable (see host_lane.hpp)
};

// Reads every property CUDA reports for `device` into HIP's layout.
Result<DeviceFacts> read_device_facts(const Api& api, CUdevice device);

class CudaDevice final : public Device {
 public:
  CudaDevice(const Api& api, CUdevice device, DeviceFacts facts);
  ~CudaDevice() override;

  AgentKind kind() const override { return AgentKind::kGpu; }
  const DeviceCaps& caps() const override { return caps_; }
  std::string target_id() const override { return facts_.target; }
  void properties(hipDeviceProp_tR0600& props) const override { props = facts_.props; }
  Result<int> attribute(hipDeviceAttribute_t attr) const override;
  MemoryInfo memory_info() const override;
  // hipLimitStackSize is CUDA's CU_LIMIT_STACK_SIZE (per-thread stack, bytes): set with
  // cuCtxSetLimit, read back with cuCtxGetLimit (0 before the first set: the core's default).
  size_t thread_stack_bytes() const override {
    return stack_bytes_.load(std::memory_order_relaxed);
  }
  Status set_thread_stack_bytes(size_t bytes) override;

  Result<void*> allocate(MemoryKind kind, size_t bytes, unsigned flags) override;
  Status deallocate(void* ptr, size_t bytes, MemoryKind kind) override;
  Result<void*> register_host(void* ptr, size_t bytes, unsigned flags) override;
  Status unregister_host(void* ptr) override;

  Result<Ref<Queue>> create_queue(const QueueOptions& options) override;
  Result<Ref<Event>> create_event(const EventOptions& options) override;
  Result<Ref<Module>> load_module(std::span<const std::byte> image) override;
  // Graph plans as native CUgraphs (command_buffer.hpp); hipErrorNotSupported
  // when libcuda lacks the graph entry points.
  Result<Ref<CommandBuffer>> create_command_buffer() override;

  Result<bool> can_access_peer(Device& peer) override;
  Status enable_peer_access(Device& peer) override;
  Status disable_peer_access(Device& peer) override;
  Result<hipIpcMemHandle_t> ipc_export_memory(void* base) override;
  Result<IpcMapping> ipc_open_memory(const hipIpcMemHandle_t& handle, unsigned flags) override;
  Status ipc_close_memory(void* ptr) override;
  Result<hipIpcEventHandle_t> ipc_export_event(Event& event) override;
  Result<Ref<Event>> ipc_open_event(const hipIpcEventHandle_t& handle) override;

  // Virtual memory through cuMemCreate/cuMemAddressReserve/cuMemMap/cuMemSetAccess
  // (virtual_memory.cpp); hipErrorNotSupported when libcuda lacks them.
  Result<size_t> vm_granularity(bool recommended) const override;
  Result<Ref<PhysicalMemory>> vm_create(size_t bytes, bool exportable) override;
  Result<void*> vm_reserve(size_t bytes, size_t alignment, void* hint) override;
  Status vm_free_range(void* base, size_t bytes) override;
  Status vm_map(void* address, size_t bytes, PhysicalMemory& memory, size_t offset) override;
  Status vm_unmap(void* address, size_t bytes) override;
  Status vm_set_access(void* address, size_t bytes, VmAccess access) override;
  Result<int> vm_export_fd(PhysicalMemory& memory) override;
  Result<Ref<PhysicalMemory>> vm_import_fd(int fd) override;

  // External memory and semaphores through cuImportExternal* (external.cpp);
  // hipErrorNotSupported when libcuda lacks them.
  Result<Ref<ExternalMemory>> import_external_memory(const ExternalMemoryDesc& desc) override;
  Result<Ref<ExternalSemaphore>> import_external_semaphore(int fd,
                                                           ExternalSemaphoreKind kind) override;
  // CUDA arrays, texture and surface objects (image.cpp); hipErrorNotSupported
  // when libcuda lacks the entry points.
  Result<Ref<NativeArray>> create_array(const ArrayShape& shape) override;
  Result<uint64_t> create_texture(const NativeTexture& texture) override;
  Status destroy_texture(uint64_t handle) override;
  Result<uint64_t> create_surface(const NativeResource& resource) override;
  Status destroy_surface(uint64_t handle) override;

  const Api& api() const { return api_; }
  CUdevice handle() const { return device_; }
  const DeviceFacts& facts() const { return facts_; }
  // Retains the primary context on first call and makes it current on this thread.
  Status make_current();
  // Runs `call` (a CUDA call on objects of this device's context: a launch on one
  // of its streams, an event record, a kernel-node patch) without making the
  // context current first, which would cost a cuCtxGetCurrent per call; CUDA
  // takes such calls in the objects' context. Where CUDA refuses one, and the
  // context was not current on this thread (a new thread, or other code switched
  // it), the context is made current and the call repeated once; a refusal with
  // the context current is the call's own and is returned as it is.
  template <typename Call>
  CUresult call_in_context(Call&& call) {
    CUresult r = call();
    if (r == CUDA_SUCCESS) [[likely]]
      return r;
    return adopt_context_after_failure() ? call() : r;
  }
  // True when the context was not current on this thread and now is.
  bool adopt_context_after_failure();
  // The primary context; valid after a successful make_current().
  CUcontext context() const { return context_.load(std::memory_order_acquire); }
  WordPool& words() { return words_; }

 private:
  Status retain_context();
  // Frees what host lanes handed over (free_on_lane_later); the caller may block.
  void free_deferred();
  // A lane cannot free pinned memory (or device memory without cuMemFreeAsync):
  // cuMemFreeHost waits for the device and, while it waits, holds up every other
  // thread's CUDA calls, the ones that would let the device finish (bench/RESULTS.md,
  // session 13 probe). The block waits here for the next free by an ordinary
  // thread, which may block as cuMemFree does, or for the device's end.
  struct DeferredFree {
    void* ptr;
    MemoryKind kind;
  };
  void free_on_lane_later(void* ptr, MemoryKind kind);

  const Api& api_;
  const CUdevice device_;
  const DeviceFacts facts_;
  DeviceCaps caps_;
  std::mutex context_mutex_;
  std::atomic<CUcontext> context_{nullptr};
  int least_priority_ = 0;  // CUDA's stream priority range, read with the context
  int greatest_priority_ = 0;
  std::atomic<size_t> stack_bytes_{0};  // CU_LIMIT_STACK_SIZE after the last set
  WordPool words_;
  std::mutex deferred_mutex_;
  std::vector<DeferredFree> deferred_;
  std::atomic<bool> has_deferred_{false};  // lets ordinary frees skip the mutex
};

}  // namespace weft::cuda
