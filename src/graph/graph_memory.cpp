// SPDX-License-Identifier: MIT
#include "graph/graph_memory.hpp"

#include "runtime/mempool.hpp"
#include "runtime/runtime.hpp"

#include <weft/common/log.hpp>

#include <mutex>
#include <unordered_set>

namespace weft::graph {
namespace {

struct LiveBlocks {
  std::mutex mutex;
  std::unordered_multiset<const void*>
      ptrs;  // an address freed outside its graph may serve a second node
};

LiveBlocks& live_blocks() {
  static LiveBlocks* live = new LiveBlocks();
  return *live;
}

}  // namespace

Result<Ref<AllocBlock>> AllocBlock::create(DeviceState& device, size_t bytes) {
  Ref<MemPool> pool = mempool::graph_pool(device);
  WEFT_ASSIGN_OR_RETURN(MemPool::Block block, pool->allocate_now(bytes));
  {
    std::lock_guard lock(live_blocks().mutex);
    live_blocks().ptrs.insert(block.ptr);
  }
  return Ref<AllocBlock>(
      new AllocBlock(device, Ref<RefCounted>(pool.get()), block.ptr, bytes, block.generation));
}

AllocBlock::~AllocBlock() {
  {
    std::lock_guard lock(live_blocks().mutex);
    auto& ptrs = live_blocks().ptrs;
    if (auto it = ptrs.find(ptr_); it != ptrs.end()) ptrs.erase(it);
  }
  // hipFree or hipFreeAsync may already have returned the block (HIP allows
  // freeing graph memory outside the graph), and the address may since belong
  // to a new block: the generation tells them apart.
  (void)static_cast<MemPool*>(pool_.get())->free_now(ptr_, generation_);
}

bool is_graph_memory(const void* ptr) {
  std::lock_guard lock(live_blocks().mutex);
  return live_blocks().ptrs.count(ptr) != 0;
}

GraphMemoryUsage graph_memory_usage(DeviceState& device) {
  PoolUsage u = mempool::graph_pool(device)->usage();
  return GraphMemoryUsage{u.used_current, u.used_high, u.reserved_current, u.reserved_high};
}

void reset_graph_memory_high(DeviceState& device, bool reserved) {
  uint64_t zero = 0;
  (void)mempool::graph_pool(device)->set_attribute(
      reserved ? hipMemPoolAttrReservedMemHigh : hipMemPoolAttrUsedMemHigh, &zero);
}

void trim_graph_memory(DeviceState& device) { mempool::graph_pool(device)->trim_to(0); }

}  // namespace weft::graph
