// SPDX-License-Identifier: MIT
#include "graph/graph_memory.hpp"

#include "runtime/runtime.hpp"

#include <weft/common/log.hpp>

#include <mutex>
#include <unordered_set>
#include <vector>

namespace weft::graph {
namespace {

struct Usage {
  std::atomic<uint64_t> current{0};
  std::atomic<uint64_t> high{0};
};

struct LiveBlocks {
  std::mutex mutex;
  std::unordered_set<const void*> ptrs;
};

LiveBlocks& live_blocks() {
  static LiveBlocks* live = new LiveBlocks();
  return *live;
}

Usage& usage_of(int device) {
  // One slot per possible ordinal; the device table never changes after init.
  static std::vector<Usage> table(static_cast<size_t>(std::max(1, Runtime::get().device_count())));
  return table.at(static_cast<size_t>(device));
}

}  // namespace

Result<Ref<AllocBlock>> AllocBlock::create(DeviceState& device, size_t bytes) {
  WEFT_ASSIGN_OR_RETURN(void* ptr, device.driver_device().allocate(MemoryKind::kDevice, bytes, 0));
  AllocationRecord record;
  record.base = static_cast<std::byte*>(ptr);
  record.size = bytes;
  record.device = device.ordinal();
  record.kind = AllocationKind::kDevice;
  record.device_ptr = ptr;
  record.stream_ordered = true;
  Runtime::get().pointers().insert(record);
  {
    std::lock_guard lock(live_blocks().mutex);
    live_blocks().ptrs.insert(ptr);
  }
  Usage& u = usage_of(device.ordinal());
  uint64_t now = u.current.fetch_add(bytes) + bytes;
  for (uint64_t high = u.high.load(); now > high && !u.high.compare_exchange_weak(high, now);) {
  }
  return Ref<AllocBlock>(new AllocBlock(device, ptr, bytes));
}

AllocBlock::~AllocBlock() {
  usage_of(device_.ordinal()).current.fetch_sub(size_);
  {
    std::lock_guard lock(live_blocks().mutex);
    live_blocks().ptrs.erase(ptr_);
  }
  // hipFree may already have taken the block (HIP allows freeing graph memory
  // outside the graph); then the pointer table no longer lists it.
  if (!Runtime::get().pointers().erase(ptr_)) return;
  Status status = device_.driver_device().deallocate(ptr_, size_, MemoryKind::kDevice);
  if (!status.ok()) log::error("graph memory {} could not be released: {}", ptr_, status.message());
}

bool is_graph_memory(const void* ptr) {
  std::lock_guard lock(live_blocks().mutex);
  return live_blocks().ptrs.count(ptr) != 0;
}

GraphMemoryUsage graph_memory_usage(int device) {
  Usage& u = usage_of(device);
  return GraphMemoryUsage{u.current.load(), u.high.load()};
}

void reset_graph_memory_high(int device) {
  Usage& u = usage_of(device);
  u.high.store(u.current.load());
}

}  // namespace weft::graph
