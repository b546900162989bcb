// SPDX-License-Identifier: MIT
// Graph-owned memory (memory-allocation nodes). weft allocates a node's block
// when the node is created, so hipMemAllocNodeParams::dptr is known at once and
// stays the same for every instantiation and replay: a replay allocates
// nothing. Blocks come from the device's graph pool (runtime/mempool.hpp), a
// pool without a handle that keeps freed blocks for later nodes until
// hipDeviceGraphMemTrim. The block is registered in the pointer table (copies
// into it are bounds-checked; hipFree on it takes it back) and returns to the
// pool when the last node or plan referring to it goes away. Thread-safe.
#pragma once

#include <weft/driver/device.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace weft {
class DeviceState;
}

namespace weft::graph {

class AllocBlock final : public RefCounted {
 public:
  static Result<Ref<AllocBlock>> create(DeviceState& device, size_t bytes);
  ~AllocBlock() override;

  void* ptr() const { return ptr_; }
  size_t size() const { return size_; }
  DeviceState& device() const { return device_; }

  // Executable graphs using the block (HIP lets only one exist at a time).
  std::atomic<int> execs{0};

 private:
  AllocBlock(DeviceState& device, Ref<RefCounted> pool, void* ptr, size_t size, uint64_t generation)
      : device_(device), pool_(std::move(pool)), ptr_(ptr), size_(size), generation_(generation) {}
  DeviceState& device_;
  Ref<RefCounted> pool_;  // the device's graph MemPool (kept opaque: graph.hpp is widely included)
  void* ptr_;
  size_t size_;
  uint64_t generation_;
};

// hipDeviceGetGraphMemAttribute / hipDeviceSetGraphMemAttribute.
struct GraphMemoryUsage {
  uint64_t used_current = 0;
  uint64_t used_high = 0;
  uint64_t reserved_current = 0;  // used plus blocks kept for later graphs
  uint64_t reserved_high = 0;
};
GraphMemoryUsage graph_memory_usage(DeviceState& device);
// Whether `ptr` is the address of a live graph allocation.
bool is_graph_memory(const void* ptr);
void reset_graph_memory_high(DeviceState& device, bool reserved);
// hipDeviceGraphMemTrim: kept blocks go back to the agent.
void trim_graph_memory(DeviceState& device);

}  // namespace weft::graph
