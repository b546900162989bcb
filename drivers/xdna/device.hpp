// SPDX-License-Identifier: MIT
// XdnaDevice: one AMD NPU (an amdxdna accel node). Its memory is SHMEM buffer
// objects: host pages mapped into this process that the NPU reaches through
// the IOMMU, so a device pointer is the BO's host mapping (device pointers are
// host pointers; copies and fills run on the host). Kernels get the BO's
// device address (`xdna_addr`), looked up here from the pointer. The client
// heap (DEV_HEAP, 64 MiB) holding instruction streams and PDIs is created when
// the first module loads. Thread-safe.
#pragma once

#include <weft/driver/device.hpp>

#include "uapi.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>

namespace weft::xdna {

// What sysfs says about one accel node (docs/xdna.md, "Enumeration").
struct NodeFacts {
  std::string accel;      // "accel0"
  std::string node_path;  // "/dev/accel/accel0"
  std::string bdf;        // "0000:c5:00.1"
  unsigned device_id = 0, revision = 0;
  std::string vbnv, firmware;
};

// The NPU generation a PCI device and revision is (fact sheet §2.1).
struct NpuGeneration {
  const char* name;    // "NPU1"
  const char* target;  // "aie2", "aie2p"
};
NpuGeneration npu_generation(unsigned device_id, unsigned revision);

// One buffer object of this device.
struct Bo {
  uint32_t handle = 0;
  uint32_t type = 0;
  uint64_t size = 0;       // bytes asked for
  uint64_t xdna_addr = 0;  // device address
  std::byte* host = nullptr;
  size_t mapped_bytes = 0;  // of our own mmap (0 for DEV BOs, which live in the heap mapping)
};

class XdnaDevice final : public Device {
 public:
  // Opens the node and reads the AIE metadata; an error names what failed.
  static Result<Ref<XdnaDevice>> open(const NodeFacts& facts, int ordinal);
  ~XdnaDevice() override;

  AgentKind kind() const override { return AgentKind::kNpu; }
  const DeviceCaps& caps() const override { return caps_; }
  std::string target_id() const override { return generation_.target; }
  void properties(hipDeviceProp_tR0600& props) const override;
  MemoryInfo memory_info() const override;

  Result<void*> allocate(MemoryKind kind, size_t bytes, unsigned flags) override;
  Status deallocate(void* ptr, size_t bytes, MemoryKind kind) override;
  Result<void*> register_host(void* ptr, size_t bytes, unsigned flags) override;
  Status unregister_host(void* ptr) override;

  Result<Ref<Queue>> create_queue(const QueueOptions& options) override;
  Result<Ref<Event>> create_event(const EventOptions& options) override;
  Result<Ref<Module>> load_module(std::span<const std::byte> image) override;

  // ---- For the driver's own queues and modules.
  int fd() const { return fd_; }
  const uapi::AieMetadata& metadata() const { return metadata_; }
  // An ioctl through the OS table; the errno status names `what` on failure.
  Status ioctl(unsigned long request, void* arg, const char* what) const;
  // Creates a BO and makes it reachable from the host: SHMEM, CMD and the heap
  // are mapped with mmap; DEV BOs are found inside the heap's mapping.
  Result<Bo> create_bo(uint32_t type, uint64_t size);
  void destroy_bo(Bo& bo);
  Status sync_bo(const Bo& bo, uint32_t direction) const;
  // The allocation holding `ptr` (hipMalloc memory of this device) and the
  // offset of `ptr` in it.
  std::optional<std::pair<Bo, uint64_t>> find_allocation(const void* ptr) const;
  // The heap must exist before a hardware context is created.
  Status ensure_heap();
  // How long a command may run before the queue calls it hung.
  std::chrono::milliseconds command_timeout() const { return std::chrono::milliseconds(30000); }

 private:
  XdnaDevice(const NodeFacts& facts, int ordinal, int fd);

  const NodeFacts facts_;
  const int ordinal_;
  const int fd_;
  const NpuGeneration generation_;
  const size_t host_bytes_;
  uapi::AieMetadata metadata_{};
  uapi::FirmwareVersion firmware_{};
  uint32_t clock_mhz_ = 0;
  DeviceCaps caps_;
  std::atomic<size_t> allocated_bytes_{0};

  mutable std::shared_mutex allocations_mutex_;
  std::map<uintptr_t, Bo> allocations_;  // by host address; guarded by allocations_mutex_

  std::mutex heap_mutex_;
  Bo heap_;  // handle 0 until created; guarded by heap_mutex_ until then, immutable after
  std::atomic<bool> heap_ready_{false};
};

}  // namespace weft::xdna
