// SPDX-License-Identifier: MIT
// The driver contract: what every kind of agent (CPU, AMD GPU, NVIDIA GPU, NPU)
// provides to the core runtime. Read this file first when writing a driver;
// drivers/cpu is the reference implementation.
//
//   Driver ──► Device ──► Queue (in order)   ◄── Op (op.hpp)
//                   ├──► Event (completion + timing)
//                   ├──► Module ──► Kernel (code objects)
//                   └──► CommandBuffer (optional, for graphs)
//
// Rules: nothing throws; failures return Status/Result with a message naming the
// failing call. Optional methods default to hipErrorNotSupported. A driver never
// branches on another driver's type; cross-driver event waits go through the
// Event interface.
#pragma once

#include <hip/hip_runtime_api.h>
#include <weft/driver/external.hpp>
#include <weft/driver/image.hpp>
#include <weft/driver/op.hpp>
#include <weft/driver/op_observer.hpp>
#include <weft/driver/ref.hpp>
#include <weft/driver/status.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace weft {

enum class AgentKind { kCpu, kGpu, kNpu };

enum class MemoryKind {
  kDevice,      // hipMalloc
  kHostPinned,  // hipHostMalloc: host memory the device reaches directly
  kManaged,     // hipMallocManaged: one address valid on host and device
};

// Optional features are data, never driver-type checks.
struct DeviceCaps {
  bool runs_host_kernels = false;              // can execute single-source (g++-compiled) kernels
  bool host_can_access_device_memory = false;  // device pointers are plain host pointers
  // The driver holds device memory the runtime's pointer table never lists (module
  // globals its vendor loader placed), so the API leaves a device address it does not
  // know to the driver instead of refusing it. False where device memory is host
  // memory: there an unknown address would be a wild write.
  bool owns_unlisted_device_memory = false;
  bool timing_events = true;
  bool queue_cu_masks = false;  // create_queue honours QueueOptions::cu_mask
  // The queues honour DispatchOp::cooperative (every block of the launch resident at
  // once, so blocks may wait for each other at grid.sync()).
  bool cooperative_launches = false;
  // A device fault (failed device assert, illegal address, launch failure) loses the
  // device's context for good: every later call fails and hipDeviceReset cannot bring
  // it back; only a new process can (CUDA's sticky errors). False where a reset
  // recovers (the CPU agent).
  bool faults_lose_context = false;
  // Queue::submit() is done with what an op lends when it returns (CUDA copies
  // kernelParams inside cuLaunchKernel and keeps no reference to the function or
  // the event it records), so a direct launch may lend the caller's argument array
  // (DispatchOp::borrowed_args) instead of packing a copy, and a launch or record
  // may lend its kernel or event (DispatchOp::borrowed_kernel,
  // EventRecordOp::borrowed_event) instead of taking a reference.
  bool ops_read_at_submit = false;
};

struct MemoryInfo {
  size_t free_bytes = 0;
  size_t total_bytes = 0;
};

// Signals completion of queue work. Thread-safe.
class Event : public RefCounted {
 public:
  // True when the most recent record completed, or if it was never recorded.
  virtual bool is_complete() = 0;
  // Blocks the calling thread until the most recent record completes.
  virtual Status synchronize() = 0;
  // Milliseconds from `start`'s completion to this event's. Both must have
  // completed and have timing enabled; the driver checks they are its own.
  virtual Result<float> elapsed_ms_since(Event& start) = 0;
  // True once the event has been submitted in an EventRecordOp at least once.
  virtual bool ever_recorded() = 0;
};

// An in-order command queue. submit() returns before the work runs. Thread-safe.
class Queue : public RefCounted {
 public:
  // Takes the op by reference, so it is not moved again on its way in; the
  // queue may move from it (the caller's op is then spent).
  virtual Status submit(Op&& op) = 0;
  // Waits for all submitted work; returns the first asynchronous error of that
  // work (and keeps returning it: errors from the device are sticky).
  virtual Status synchronize() = 0;
  // True when all submitted work has finished.
  virtual bool is_idle() = 0;
  // Optional (tracing, op_observer.hpp): submit() that also tells `observer` when
  // the op started and ended. The default brackets the op with host functions
  // (times as exact as the queue's host callbacks); override it to timestamp ops.
  virtual Status submit_observed(Op&& op, Ref<OpObserver> observer) {
    Status status = submit(HostFuncOp{[observer] { observer->started(op_clock_ns()); }});
    if (status.ok()) status = submit(std::move(op));
    if (status.ok()) status = submit(HostFuncOp{[observer] { observer->ended(op_clock_ns()); }});
    return status;
  }
  // Optional (image.hpp): a copy with a native array side, in queue order. Only
  // queues of a device whose create_array() works get one.
  virtual Status submit_array_copy(const ArrayCopyOp& op) {
    (void)op;
    return Status(hipErrorNotSupported, "this queue copies no native arrays");
  }
};

// One explicit kernel argument, where the code object describes it (offset and
// size in the packed kernarg blob).
struct KernelArgInfo {
  uint32_t offset = 0;
  uint32_t size = 0;
};

struct KernelInfo {
  std::string name;
  std::vector<KernelArgInfo> args;  // explicit arguments in order; empty when unknown
  uint32_t kernarg_size = 0;
  uint32_t kernarg_align = 8;
  uint32_t static_shared_bytes = 0;
  uint32_t private_bytes = 0;
  uint32_t max_threads_per_block = 1024;
  uint32_t num_registers = 0;
};

// A kernel resolved inside a loaded module. Immutable.
class Kernel : public RefCounted {
 public:
  virtual const KernelInfo& info() const = 0;
};

// A code object loaded on one device. Thread-safe.
class Module : public RefCounted {
 public:
  virtual Result<Ref<Kernel>> kernel(std::string_view name) = 0;
  // Address and size of a global variable of the module, in device memory.
  virtual Result<std::span<std::byte>> global(std::string_view name) = 0;
  // Optional: the names of the module's kernels, each once, in a stable order
  // (hipModuleGetFunctionCount, hipLibraryEnumerateKernels). Every name is
  // accepted by kernel().
  virtual Result<std::vector<std::string>> kernel_names() {
    return Status(hipErrorNotSupported, "this agent's modules cannot list their kernels");
  }
};

// A pre-recorded, replayable list of ops (graphs). Externally synchronized while
// recording; immutable once finalized.
class CommandBuffer : public RefCounted {
 public:
  virtual Status record(const Op& op) = 0;
  virtual Status finalize() = 0;
  virtual Status submit(Queue& queue) = 0;

  // Optional: records `op` to run after the earlier records `deps` (indices in
  // record order). Records always come in an order that satisfies their deps,
  // so an in-order buffer may ignore them; a driver that builds native graphs
  // (CUgraph, barrier-AND packets) turns them into edges.
  virtual Status record_after(const Op& op, std::span<const uint32_t> deps) {
    (void)deps;
    return record(op);
  }
  // Optional, after finalize(): replace the op of record `index`, or skip it
  // in later submits. Submits made before the call are unaffected. Graph
  // updates call these once per changed op, so they should cost O(1).
  virtual Status update(size_t index, const Op& op) {
    (void)index;
    (void)op;
    return Status(hipErrorNotSupported, "this command buffer cannot be patched");
  }
  virtual Status set_enabled(size_t index, bool enabled) {
    (void)index;
    (void)enabled;
    return Status(hipErrorNotSupported, "this command buffer cannot be patched");
  }
};

struct QueueOptions {
  int priority = 0;  // HIP convention: lower is more urgent (0 normal, -1 high)
  // hipExtStreamCreateWithCUMask: bit i of word i/32 enables compute unit i; empty
  // means all. Only drivers with DeviceCaps::queue_cu_masks get a non-empty one,
  // with at least one unit below multiProcessorCount enabled.
  std::vector<uint32_t> cu_mask{};
};

struct EventOptions {
  bool timing = true;
  bool blocking_sync = false;  // host waits sleep rather than spin
  bool interprocess = false;   // hipEventInterprocess: exportable with ipc_export_event()
};

// Memory of another process mapped into this one by Device::ipc_open_memory().
struct IpcMapping {
  void* ptr = nullptr;
  size_t bytes = 0;
};

// Physical memory made by Device::vm_create() (hipMemCreate) or vm_import_fd(),
// mapped into reserved address ranges with Device::vm_map(). Immutable; it lives
// while the runtime holds a handle or a mapping of it.
class PhysicalMemory : public RefCounted {
 public:
  // Bytes; SIZE_MAX where the vendor library cannot tell (memory imported on
  // NVIDIA), and then vm_map() is the check.
  virtual size_t size() const = 0;
};

// What the agent may do with a mapped range (hipMemAccessFlags).
enum class VmAccess { kNone, kRead, kReadWrite };

// One agent. Immutable identity; thread-safe methods.
class Device : public RefCounted {
 public:
  virtual AgentKind kind() const = 0;
  virtual const DeviceCaps& caps() const = 0;
  // Target ID of the ISA, e.g. "gfx90a:sramecc+:xnack-", "sm_90", "x86_64".
  virtual std::string target_id() const = 0;

  // Fills every field the agent can answer truthfully; the rest stay zero.
  virtual void properties(hipDeviceProp_tR0600& props) const = 0;
  // Attributes with no field in hipDeviceProp_t; the core answers the others
  // from properties().
  virtual Result<int> attribute(hipDeviceAttribute_t) const {
    return Status(hipErrorNotSupported, "attribute not provided by this driver");
  }
  virtual MemoryInfo memory_info() const = 0;
  // The stack of each GPU thread (hipLimitStackSize) on agents that size it in
  // software, else 0 (the runtime then only stores what it was given).
  virtual size_t thread_stack_bytes() const { return 0; }
  // Sets it for kernels that start after the call; the size in effect may be
  // rounded up.
  virtual Status set_thread_stack_bytes(size_t) { return Status(); }

  virtual Result<void*> allocate(MemoryKind kind, size_t bytes, unsigned flags) = 0;
  // `bytes` is the size given to allocate().
  virtual Status deallocate(void* ptr, size_t bytes, MemoryKind kind) = 0;
  // Makes user host memory reachable by the device; returns the device address.
  virtual Result<void*> register_host(void* ptr, size_t bytes, unsigned flags) = 0;
  virtual Status unregister_host(void* ptr) = 0;

  virtual Result<Ref<Queue>> create_queue(const QueueOptions& options) = 0;
  virtual Result<Ref<Event>> create_event(const EventOptions& options) = 0;

  virtual Result<Ref<Module>> load_module(std::span<const std::byte> image) {
    (void)image;
    return Status(hipErrorNotSupported, "this agent loads no code objects");
  }
  virtual Result<Ref<CommandBuffer>> create_command_buffer() {
    return Status(hipErrorNotSupported, "no native command buffers");
  }

  // ---- Optional: peer access between agents of one driver. `peer` may be any
  // agent; a driver answers false for agents that are not its own.
  // Whether this agent can map `peer`'s device memory once access is enabled.
  virtual Result<bool> can_access_peer(Device& peer) {
    (void)peer;
    return Status(hipErrorNotSupported, "this agent has no peer access");
  }
  // Lets this agent's kernels and copies reach `peer`'s device memory.
  virtual Status enable_peer_access(Device& peer) {
    (void)peer;
    return Status(hipErrorNotSupported, "this agent has no peer access");
  }
  virtual Status disable_peer_access(Device& peer) {
    (void)peer;
    return Status(hipErrorNotSupported, "this agent has no peer access");
  }

  // ---- Optional: inter-process sharing of device memory and events.
  // `base` is an address returned by allocate(MemoryKind::kDevice).
  virtual Result<hipIpcMemHandle_t> ipc_export_memory(void* base) {
    (void)base;
    return Status(hipErrorNotSupported, "this agent has no IPC memory handles");
  }
  // Maps memory another process exported; `flags` are hipIpcMemLazyEnablePeerAccess bits.
  virtual Result<IpcMapping> ipc_open_memory(const hipIpcMemHandle_t& handle, unsigned flags) {
    (void)handle;
    (void)flags;
    return Status(hipErrorNotSupported, "this agent has no IPC memory handles");
  }
  virtual Status ipc_close_memory(void* ptr) {
    (void)ptr;
    return Status(hipErrorNotSupported, "this agent has no IPC memory handles");
  }
  // `event` was created by this agent with EventOptions::interprocess.
  virtual Result<hipIpcEventHandle_t> ipc_export_event(Event& event) {
    (void)event;
    return Status(hipErrorNotSupported, "this agent has no IPC event handles");
  }
  virtual Result<Ref<Event>> ipc_open_event(const hipIpcEventHandle_t& handle) {
    (void)handle;
    return Status(hipErrorNotSupported, "this agent has no IPC event handles");
  }

  // ---- Optional: virtual memory management (hipMemCreate/AddressReserve/Map…,
  // docs/vmm.md). The runtime validates arguments (alignment to the granularity,
  // ranges inside one reservation, no overlapping mappings) before calling these;
  // the driver only does the work.
  // Sizes, offsets and addresses of VMM calls are multiples of this; `recommended`
  // asks for the size that performs best.
  virtual Result<size_t> vm_granularity(bool recommended) const {
    (void)recommended;
    return Status(hipErrorNotSupported, "this agent has no virtual memory management");
  }
  // Physical memory of `bytes`; `exportable`: vm_export_fd() must work on it.
  virtual Result<Ref<PhysicalMemory>> vm_create(size_t bytes, bool exportable) {
    (void)bytes;
    (void)exportable;
    return Status(hipErrorNotSupported, "this agent has no virtual memory management");
  }
  // Reserves an address range that nothing may touch until mapped; `hint` is a
  // preferred base (may be ignored), `alignment` a power of two or 0.
  virtual Result<void*> vm_reserve(size_t bytes, size_t alignment, void* hint) {
    (void)bytes;
    (void)alignment;
    (void)hint;
    return Status(hipErrorNotSupported, "this agent has no virtual memory management");
  }
  // Gives back a whole range from vm_reserve(); nothing is mapped in it any more.
  virtual Status vm_free_range(void* base, size_t bytes) {
    (void)base;
    (void)bytes;
    return Status(hipErrorNotSupported, "this agent has no virtual memory management");
  }
  // Maps [offset, offset + bytes) of `memory` at `address`, inside a reserved,
  // unmapped part of a range; inaccessible until vm_set_access().
  virtual Status vm_map(void* address, size_t bytes, PhysicalMemory& memory, size_t offset) {
    (void)address;
    (void)bytes;
    (void)memory;
    (void)offset;
    return Status(hipErrorNotSupported, "this agent has no virtual memory management");
  }
  // Returns a mapped span to reserved, inaccessible address space.
  virtual Status vm_unmap(void* address, size_t bytes) {
    (void)address;
    (void)bytes;
    return Status(hipErrorNotSupported, "this agent has no virtual memory management");
  }
  virtual Status vm_set_access(void* address, size_t bytes, VmAccess access) {
    (void)address;
    (void)bytes;
    (void)access;
    return Status(hipErrorNotSupported, "this agent has no virtual memory management");
  }
  // A new POSIX file descriptor for `memory` (the caller owns it), and back.
  virtual Result<int> vm_export_fd(PhysicalMemory& memory) {
    (void)memory;
    return Status(hipErrorNotSupported, "this agent cannot export virtual memory handles");
  }
  // Does not take ownership of `fd`.
  virtual Result<Ref<PhysicalMemory>> vm_import_fd(int fd) {
    (void)fd;
    return Status(hipErrorNotSupported, "this agent cannot import virtual memory handles");
  }

  // ---- Optional: external memory and semaphores (external.hpp). The core checked
  // that the descriptor is open and of a kind that can carry them.
  virtual Result<Ref<ExternalMemory>> import_external_memory(const ExternalMemoryDesc& desc) {
    (void)desc;
    return Status(hipErrorNotSupported, "this agent cannot import external memory");
  }
  virtual Result<Ref<ExternalSemaphore>> import_external_semaphore(int fd,
                                                                   ExternalSemaphoreKind kind) {
    (void)fd;
    (void)kind;
    return Status(hipErrorNotSupported, "this agent cannot import external semaphores");
  }
  // ---- Optional: native arrays, textures and surfaces (image.hpp). Without them
  // the core keeps arrays in linear device memory.
  virtual Result<Ref<NativeArray>> create_array(const ArrayShape& shape) {
    (void)shape;
    return Status(hipErrorNotSupported, "this agent has no native arrays");
  }
  // Returns the vendor's object handle (CUtexObject, CUsurfObject).
  virtual Result<uint64_t> create_texture(const NativeTexture& texture) {
    (void)texture;
    return Status(hipErrorNotSupported, "this agent has no native texture objects");
  }
  virtual Status destroy_texture(uint64_t handle) {
    (void)handle;
    return Status(hipErrorNotSupported, "this agent has no native texture objects");
  }
  virtual Result<uint64_t> create_surface(const NativeResource& resource) {
    (void)resource;
    return Status(hipErrorNotSupported, "this agent has no native surface objects");
  }
  virtual Status destroy_surface(uint64_t handle) {
    (void)handle;
    return Status(hipErrorNotSupported, "this agent has no native surface objects");
  }
};

// A family of agents behind one vendor interface. Thread-compatible: the core
// calls devices() once, during initialization.
class Driver {
 public:
  virtual ~Driver() = default;
  virtual std::string_view name() const = 0;
  // The driver's agents; empty (not an error) when its hardware or library is
  // absent, with the reason in status_note().
  virtual std::vector<Ref<Device>> devices() = 0;
  virtual std::string status_note() const = 0;
  // True when the vendor library already applies CUDA_VISIBLE_DEVICES to the
  // agents it reports (libcuda does); the core then leaves them unfiltered.
  virtual bool applies_cuda_visible_devices() const { return false; }
};

}  // namespace weft
