// SPDX-License-Identifier: MIT
// NullDevice: one agent of the null driver. Its "device memory" is host memory
// from the C allocator, so device pointers are host pointers; its queues run
// ops on the submitting thread (queue.hpp). Immutable identity, thread-safe.
#pragma once

#include <weft/driver/device.hpp>

#include <atomic>
#include <cstddef>
#include <string>

namespace weft::null {

class NullDevice final : public Device {
 public:
  // `ordinal`: the agent's index within this driver (names and UUIDs differ by it).
  explicit NullDevice(int ordinal);

  AgentKind kind() const override { return AgentKind::kGpu; }
  const DeviceCaps& caps() const override { return caps_; }
  std::string target_id() const override { return "null"; }
  void properties(hipDeviceProp_tR0600& props) const override;
  MemoryInfo memory_info() const override;

  Result<void*> allocate(MemoryKind kind, size_t bytes, unsigned flags) override;
  Status deallocate(void* ptr, size_t bytes, MemoryKind kind) override;
  Result<void*> register_host(void* ptr, size_t bytes, unsigned flags) override;
  Status unregister_host(void* ptr) override;

  Result<Ref<Queue>> create_queue(const QueueOptions& options) override;
  Result<Ref<Event>> create_event(const EventOptions& options) override;

  // Everything else (attribute, load_module, create_command_buffer, peer access,
  // IPC, thread stack size) keeps the contract's default: hipErrorNotSupported,
  // or "nothing to size" for the stack. A new driver overrides what it has.

 private:
  const int ordinal_;
  const size_t total_bytes_;  // the host's physical memory
  DeviceCaps caps_;
  std::atomic<size_t> allocated_bytes_{0};  // for memory_info(); relaxed is enough
};

}  // namespace weft::null
