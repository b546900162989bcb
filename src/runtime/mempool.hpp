// SPDX-License-Identifier: MIT
// Memory pools: stream-ordered allocation (hipMallocAsync, hipFreeAsync,
// hipMallocFromPoolAsync), the hipMemPool* objects, and the per-device pool
// that graph memory nodes draw from. Built in the core on the driver contract
// (Device::allocate/deallocate, events), so every agent gets the same pools.
// docs/mempool.md describes the design.
//
// A pool hands out whole blocks obtained from its BlockSource (one
// Device::allocate each) and caches freed ones. A freed block carries the
// freeing stream, that stream's free epoch and an event recorded after the
// free; a later allocation reuses it when the attributes allow
// (stream_order.hpp explains the epochs). Cached blocks whose free completed
// go back to the agent at trim, at synchronize above the release threshold,
// and when the pool goes. Thread-safe: one mutex per pool; the pointer table's
// lock is taken inside it (a leaf); under it the only driver calls are event
// queries (Event::is_complete), never allocation or submission.
#pragma once

#include <weft/driver/device.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace weft {

class DeviceState;
class Stream;

// Where a pool's blocks come from and go back to. Thread-safe.
class BlockSource {
 public:
  virtual ~BlockSource() = default;
  virtual Result<void*> obtain(size_t bytes) = 0;
  virtual void give_back(void* ptr, size_t bytes) = 0;
  // Exportable sources (memfd): the descriptor and where a block lies in it.
  virtual int shareable_fd() const { return -1; }
  virtual bool locate(const void* ptr, uint64_t& offset, uint64_t& bytes) const {
    (void)ptr, (void)offset, (void)bytes;
    return false;
  }
};

// Device memory through the driver contract (every agent).
std::unique_ptr<BlockSource> make_driver_source(DeviceState& device);
// Blocks carved from one memfd (hipMemHandleTypePosixFileDescriptor pools; the
// agent's memory must be host memory). mempool_shareable.cpp.
Result<std::unique_ptr<BlockSource>> make_memfd_source();

struct PoolUsage {
  uint64_t reserved_current = 0, reserved_high = 0;
  uint64_t used_current = 0, used_high = 0;
};

class MemPool final : public RefCounted {
 public:
  enum class Origin {
    kDefault,   // a device's default pool
    kCreated,   // hipMemPoolCreate
    kGraph,     // graph memory nodes of a device (not a user handle)
    kImported,  // hipMemPoolImportFromShareableHandle: holds imported pointers only
  };

  MemPool(DeviceState& device, const hipMemPoolProps& props, Origin origin,
          std::unique_ptr<BlockSource> source);
  ~MemPool() override;

  DeviceState& device() const { return device_; }
  const hipMemPoolProps& props() const { return props_; }
  Origin origin() const { return origin_; }
  BlockSource& source() const { return *source_; }
  // Identity of an imported pool's memfd (st_dev, st_ino); zero otherwise.
  uint64_t file_dev = 0, file_ino = 0;

  // A block for `bytes` usable by `stream`'s later work (hipMallocAsync).
  Result<void*> allocate_async(size_t bytes, Stream& stream);
  // Frees `ptr` (a block of this pool) when `stream` reaches this point.
  Status free_async(void* ptr, Stream& stream);

  struct Block {
    void* ptr = nullptr;
    uint64_t generation = 0;  // tells a block apart from a later reuse of its address
  };
  // Not stream-ordered: for graph nodes, whose plans keep blocks alive themselves.
  Result<Block> allocate_now(size_t bytes);
  // Returns a block at once (its users are known to be done). `generation` 0
  // matches any; false when `ptr` is no live block (of that generation).
  bool free_now(void* ptr, uint64_t generation = 0);
  // hipMemPoolImportPointer: adopts a block mapped from another pool's memory.
  Status adopt(void* ptr, size_t mapped, size_t requested);

  // Returns cached blocks whose free completed until at most `keep` bytes stay reserved.
  void trim_to(uint64_t keep);
  // At synchronize: trims to the release threshold.
  void release_above_threshold();
  // hipDeviceReset: every block goes back to the agent, live ones too.
  void reset();
  bool has_cached_blocks();
  // Whether [ptr, ptr + bytes) touches a block this pool caches (freed, not given back).
  bool caches(const void* ptr, size_t bytes);

  Status set_attribute(int attr, const void* value);
  Status get_attribute(int attr, void* value);
  PoolUsage usage();

  // Access of device `ordinal` (the owner always has read-write).
  hipMemAccessFlags access(int ordinal);
  void set_access(int ordinal, hipMemAccessFlags flags);

 private:
  // How the freeing stream takes part in the legacy null stream's implicit
  // ordering (runtime/stream.hpp): a blocking stream's next work waits for the
  // null stream's earlier work, and the null stream's for every blocking stream's.
  enum class LegacyOrder : uint8_t { kNone, kNullStream, kBlockingStream };
  struct FreeBlock {
    void* ptr;
    size_t size;
    uint64_t stream_id;  // 0: freed outside any stream (complete)
    uint64_t epoch;
    Ref<Event> done;  // null: complete
    const DeviceState* stream_device = nullptr;
    LegacyOrder legacy = LegacyOrder::kNone;
  };
  struct LiveBlock {
    size_t size;
    size_t requested;
    uint64_t generation;
  };
  enum class Fit { kNone, kAfterWait, kOrdered, kSameStream };

  Result<Block> take_block(size_t bytes, Stream* stream);
  Fit fit_for(const FreeBlock& block, Stream* stream) const;
  void note_live(void* ptr, size_t size, size_t requested, uint64_t generation);  // mutex_ held
  void register_pointer(void* ptr, size_t requested);
  std::vector<FreeBlock> take_releasable(uint64_t keep);  // mutex_ held
  void give_back(std::vector<FreeBlock>& blocks);

  DeviceState& device_;
  const hipMemPoolProps props_;
  const Origin origin_;
  std::shared_ptr<BlockSource> source_;  // shared with blocks that outlive the pool (orphans)

  std::mutex mutex_;
  std::multimap<size_t, FreeBlock> free_;  // by size: best fit first
  std::unordered_map<void*, LiveBlock> live_;
  PoolUsage usage_;
  bool follow_event_deps_ = true;
  bool opportunistic_ = true;
  bool internal_deps_ = true;
  uint64_t release_threshold_ = 0;
  std::vector<hipMemAccessFlags> access_;  // by device ordinal
};

namespace mempool {

// The user-visible pool behind a handle (null when unknown or destroyed).
Ref<MemPool> find(hipMemPool_t handle);
inline hipMemPool_t handle_of(const MemPool& pool) {
  return reinterpret_cast<hipMemPool_t>(const_cast<MemPool*>(&pool));
}
// Registers a new pool's handle.
void add(const Ref<MemPool>& pool);
// Forgets a handle; the pool lives on while blocks of it are allocated.
Ref<MemPool> remove(hipMemPool_t handle);

Ref<MemPool> default_pool(DeviceState& device);
Ref<MemPool> current_pool(DeviceState& device);
void set_current_pool(DeviceState& device, Ref<MemPool> pool);
Ref<MemPool> graph_pool(DeviceState& device);

// The pool owning the block at `ptr` (its base), if any.
Ref<MemPool> owner_of(const void* ptr);

// Whether [ptr, ptr + bytes) touches a block that some pool caches: freed memory
// the agent still holds. The copy checks ask this only for addresses the pointer
// table does not know on agents that would otherwise be trusted with them (GPUs),
// so a fill of a freed block is refused there as it is on the CPU agent. One
// relaxed load while nothing is cached.
bool is_cached_block(const void* ptr, size_t bytes);

// After a stream, event or device synchronize: pools give back cached memory
// above their release thresholds. One relaxed load when nothing is cached.
void after_synchronize();
// hipDeviceReset, before the pointer table forgets the device's memory.
void device_reset(DeviceState& device);

}  // namespace mempool
}  // namespace weft
