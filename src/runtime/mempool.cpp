// SPDX-License-Identifier: MIT
#include "runtime/mempool.hpp"

#include <weft/common/log.hpp>
#include "runtime/runtime.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <iterator>
#include <limits>
#include <shared_mutex>

namespace weft {
namespace {

// Blocks are multiples of this, so requests of nearby sizes share blocks.
constexpr size_t kBlockAlign = 256;
// A cached block serves a request of at least half its size (less would waste
// more than the block saves).
constexpr size_t kMaxFitRatio = 2;

// Cached blocks in all pools: after_synchronize() does nothing while it is 0.
std::atomic<uint64_t> g_cached_blocks{0};

uint64_t next_generation() {
  static std::atomic<uint64_t> counter{0};
  return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

class DriverSource final : public BlockSource {
 public:
  explicit DriverSource(DeviceState& device) : device_(device) {}
  Result<void*> obtain(size_t bytes) override {
    return device_.driver_device().allocate(MemoryKind::kDevice, bytes, 0);
  }
  void give_back(void* ptr, size_t bytes) override {
    Status status = device_.driver_device().deallocate(ptr, bytes, MemoryKind::kDevice);
    if (!status.ok()) log::error("pool memory {} could not be released: {}", ptr, status.message());
  }

 private:
  DeviceState& device_;
};

void raise_high(uint64_t current, uint64_t& high) { high = std::max(high, current); }

// Cached blocks of destroyed pools whose frees were still queued: released once
// their events complete (at the next synchronize or trim), so the last
// hipFreeAsync of a destroyed pool never waits for its stream.
struct Orphan {
  void* ptr;
  size_t size;
  Ref<Event> done;
  std::shared_ptr<BlockSource> source;
};
struct Orphans {
  std::mutex mutex;
  std::vector<Orphan> list;
};
Orphans& orphans() {
  static Orphans* o = new Orphans();
  return *o;
}

void release_orphans() {
  std::vector<Orphan> ready;
  {
    Orphans& o = orphans();
    std::lock_guard lock(o.mutex);
    auto keep = std::partition(o.list.begin(), o.list.end(),
                               [](const Orphan& x) { return !x.done->is_complete(); });
    std::move(keep, o.list.end(), std::back_inserter(ready));
    o.list.erase(keep, o.list.end());
  }
  for (Orphan& x : ready) {
    x.source->give_back(x.ptr, x.size);
    g_cached_blocks.fetch_sub(1, std::memory_order_relaxed);
  }
}

}  // namespace

std::unique_ptr<BlockSource> make_driver_source(DeviceState& device) {
  return std::make_unique<DriverSource>(device);
}

MemPool::MemPool(DeviceState& device, const hipMemPoolProps& props, Origin origin,
                 std::unique_ptr<BlockSource> source)
    : device_(device), props_(props), origin_(origin), source_(std::move(source)),
      access_(static_cast<size_t>(std::max(1, Runtime::get().device_count())),
              hipMemAccessFlagsProtNone) {
  access_.at(static_cast<size_t>(device.ordinal())) = hipMemAccessFlagsProtReadWrite;
  // Graph memory stays reserved until hipDeviceGraphMemTrim, as in CUDA.
  if (origin == Origin::kGraph) release_threshold_ = std::numeric_limits<uint64_t>::max();
}

MemPool::~MemPool() {
  // The last reference goes when the handle is gone and no block is allocated;
  // blocks whose frees are still queued become orphans.
  std::vector<FreeBlock> blocks;
  for (auto& [size, block] : free_) {
    if (block.done && !block.done->is_complete()) {
      // Still counted in g_cached_blocks until released.
      Orphans& o = orphans();
      std::lock_guard lock(o.mutex);
      o.list.push_back(Orphan{block.ptr, block.size, std::move(block.done), source_});
    } else {
      blocks.push_back(std::move(block));
      g_cached_blocks.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  free_.clear();
  give_back(blocks);
}

MemPool::Fit MemPool::fit_for(const FreeBlock& block, Stream* stream) const {
  bool complete = !block.done || block.done->is_complete();
  if (!stream) return complete ? Fit::kOrdered : Fit::kNone;
  // Stream order alone keeps the two uses apart.
  if (block.stream_id == stream->id()) return Fit::kSameStream;
  if (follow_event_deps_ && block.stream_id != 0 &&
      stream->pool_clock.seen(block.stream_id) >= block.epoch)
    return Fit::kOrdered;
  // The allocating stream's next work will wait for the free (legacy null stream rules).
  if (follow_event_deps_ && block.stream_device == &stream->device() &&
      ((block.legacy == LegacyOrder::kNullStream && stream->blocking()) ||
       (block.legacy == LegacyOrder::kBlockingStream && stream->kind() == Stream::Kind::kNull)))
    return Fit::kOrdered;
  if (opportunistic_ && complete) return Fit::kOrdered;
  if (internal_deps_) return Fit::kAfterWait;
  return Fit::kNone;
}

void MemPool::note_live(void* ptr, size_t size, size_t requested, uint64_t generation) {
  live_[ptr] = LiveBlock{size, requested, generation};
  usage_.used_current += size;
  raise_high(usage_.used_current, usage_.used_high);
}

void MemPool::register_pointer(void* ptr, size_t requested) {
  AllocationRecord record;
  record.base = static_cast<std::byte*>(ptr);
  record.size = requested;
  record.device = device_.ordinal();
  record.kind = AllocationKind::kDevice;
  record.device_ptr = ptr;
  record.stream_ordered = true;
  record.pool = Ref<RefCounted>(this);
  Runtime::get().pointers().insert(record);
}

Result<MemPool::Block> MemPool::take_block(size_t bytes, Stream* stream) {
  if (origin_ == Origin::kImported)
    return Status(hipErrorInvalidValue, "an imported pool only holds imported pointers");
  if (bytes > std::numeric_limits<size_t>::max() - kBlockAlign)
    return Status(hipErrorOutOfMemory, fmt::format("{} bytes cannot be allocated", bytes));
  const size_t need = (bytes + kBlockAlign - 1) / kBlockAlign * kBlockAlign;
  const size_t widest = need > std::numeric_limits<size_t>::max() / kMaxFitRatio
                          ? std::numeric_limits<size_t>::max()
                          : need * kMaxFitRatio;
  Block out;
  out.generation = next_generation();
  FreeBlock chosen{};
  Fit chosen_fit = Fit::kNone;
  {
    std::lock_guard lock(mutex_);
    auto best = free_.end();
    for (auto it = free_.lower_bound(need); it != free_.end() && it->first <= widest; ++it) {
      Fit fit = fit_for(it->second, stream);
      if (fit > chosen_fit) {
        best = it;
        chosen_fit = fit;
        if (fit == Fit::kSameStream) break;
      }
    }
    if (best != free_.end()) {
      chosen = std::move(best->second);
      free_.erase(best);
      g_cached_blocks.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  if (chosen_fit != Fit::kNone) {
    // The allocating stream waits for the free it did not follow (allowed by
    // hipMemPoolReuseAllowInternalDependencies).
    if (chosen_fit == Fit::kAfterWait) {
      Status status = stream->submit(EventWaitOp{chosen.done});
      if (!status.ok()) {
        std::lock_guard lock(mutex_);
        free_.emplace(chosen.size, std::move(chosen));
        g_cached_blocks.fetch_add(1, std::memory_order_relaxed);
        return status;
      }
    }
    if (stream && chosen.stream_id != 0) stream->pool_clock.advance(chosen.stream_id, chosen.epoch);
    {
      std::lock_guard lock(mutex_);
      note_live(chosen.ptr, chosen.size, bytes, out.generation);
    }
    out.ptr = chosen.ptr;
    register_pointer(out.ptr, bytes);
    return out;
  }

  // A new block. A pool with a maximum size, or an agent out of memory, first
  // gives back cached blocks that nothing uses any more.
  auto over_limit = [&] {
    std::lock_guard lock(mutex_);
    return props_.maxSize != 0 && usage_.reserved_current + need > props_.maxSize;
  };
  if (over_limit()) {
    trim_to(props_.maxSize > need ? props_.maxSize - need : 0);
    if (over_limit())
      return Status(hipErrorOutOfMemory,
                    fmt::format("the pool's maximum size ({} bytes) leaves no room for {} bytes",
                                props_.maxSize, need));
  }
  Result<void*> ptr = source_->obtain(need);
  if (!ptr.ok() && ptr.status().code() == hipErrorOutOfMemory) {
    trim_to(0);
    ptr = source_->obtain(need);
  }
  if (!ptr.ok()) return ptr.status();
  {
    std::lock_guard lock(mutex_);
    usage_.reserved_current += need;
    raise_high(usage_.reserved_current, usage_.reserved_high);
    note_live(ptr.value(), need, bytes, out.generation);
  }
  out.ptr = ptr.value();
  register_pointer(out.ptr, bytes);
  return out;
}

Result<void*> MemPool::allocate_async(size_t bytes, Stream& stream) {
  WEFT_ASSIGN_OR_RETURN(Block block, take_block(bytes, &stream));
  return block.ptr;
}

Result<MemPool::Block> MemPool::allocate_now(size_t bytes) { return take_block(bytes, nullptr); }

Status MemPool::free_async(void* ptr, Stream& stream) {
  size_t size = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = live_.find(ptr);
    if (it == live_.end())
      return Status(hipErrorInvalidValue, fmt::format("{} is not allocated from this pool "
                                                      "(freed already?)",
                                                      ptr));
    size = it->second.size;
    usage_.used_current -= size;
    live_.erase(it);
    // Later copies and kernels given this pointer fail their checks.
    Runtime::get().pointers().erase(ptr);
  }
  uint64_t epoch = stream.free_epoch.fetch_add(1, std::memory_order_relaxed) + 1;
  stream.pool_clock.advance(stream.id(), epoch);
  FreeBlock block{ptr, size, stream.id(), epoch, nullptr};
  block.stream_device = &stream.device();
  block.legacy = stream.kind() == Stream::Kind::kNull ? LegacyOrder::kNullStream
               : stream.blocking()                    ? LegacyOrder::kBlockingStream
                                                      : LegacyOrder::kNone;
  EventOptions options;
  options.timing = false;
  Result<Ref<Event>> done = stream.device().driver_device().create_event(options);
  Status status = done.ok() ? stream.submit(EventRecordOp{done.value()}) : done.status();
  if (status.ok()) {
    block.done = std::move(done.value());
  } else {
    // Without an event the free's completion is unknown: wait for it here.
    log::warning("hipFreeAsync of {} waits for its stream: {}", ptr, status.message());
    WEFT_RETURN_IF_ERROR(stream.synchronize());
    block.stream_id = 0;
  }
  std::lock_guard lock(mutex_);
  free_.emplace(size, std::move(block));
  g_cached_blocks.fetch_add(1, std::memory_order_relaxed);
  return Status();
}

bool MemPool::free_now(void* ptr, uint64_t generation) {
  std::lock_guard lock(mutex_);
  auto it = live_.find(ptr);
  if (it == live_.end() || (generation != 0 && it->second.generation != generation)) return false;
  size_t size = it->second.size;
  usage_.used_current -= size;
  live_.erase(it);
  Runtime::get().pointers().erase(ptr);
  free_.emplace(size, FreeBlock{ptr, size, 0, 0, nullptr, nullptr, LegacyOrder::kNone});
  g_cached_blocks.fetch_add(1, std::memory_order_relaxed);
  return true;
}

Status MemPool::adopt(void* ptr, size_t mapped, size_t requested) {
  {
    std::lock_guard lock(mutex_);
    if (live_.count(ptr)) return Status(hipErrorInvalidValue, "pointer is imported already");
    usage_.reserved_current += mapped;
    raise_high(usage_.reserved_current, usage_.reserved_high);
    note_live(ptr, mapped, requested, next_generation());
  }
  register_pointer(ptr, requested);
  return Status();
}

std::vector<MemPool::FreeBlock> MemPool::take_releasable(uint64_t keep) {
  std::vector<FreeBlock> out;
  // Largest first: the fewest driver calls to get under `keep`.
  for (auto it = free_.end(); it != free_.begin() && usage_.reserved_current > keep;) {
    --it;
    if (it->second.done && !it->second.done->is_complete()) continue;
    usage_.reserved_current -= it->first;
    out.push_back(std::move(it->second));
    it = free_.erase(it);
    g_cached_blocks.fetch_sub(1, std::memory_order_relaxed);
  }
  return out;
}

void MemPool::give_back(std::vector<FreeBlock>& blocks) {
  for (FreeBlock& block : blocks) source_->give_back(block.ptr, block.size);
  blocks.clear();
}

void MemPool::trim_to(uint64_t keep) {
  release_orphans();
  std::vector<FreeBlock> blocks;
  {
    std::lock_guard lock(mutex_);
    blocks = take_releasable(keep);
  }
  give_back(blocks);
}

void MemPool::release_above_threshold() {
  uint64_t threshold;
  {
    std::lock_guard lock(mutex_);
    if (free_.empty()) return;
    threshold = release_threshold_;
  }
  trim_to(threshold);
}

void MemPool::reset() {
  std::vector<FreeBlock> blocks;
  std::vector<void*> live;
  {
    std::lock_guard lock(mutex_);
    for (auto& [size, block] : free_) blocks.push_back(std::move(block));
    g_cached_blocks.fetch_sub(free_.size(), std::memory_order_relaxed);
    free_.clear();
    for (auto& [ptr, block] : live_) {
      blocks.push_back(FreeBlock{ptr, block.size, 0, 0, nullptr, nullptr, LegacyOrder::kNone});
      live.push_back(ptr);
    }
    live_.clear();
    usage_.reserved_current = 0;
    usage_.used_current = 0;
  }
  // Dropping the records may drop the last reference to this pool: hold one.
  Ref<MemPool> self(this);
  for (void* ptr : live) Runtime::get().pointers().erase(ptr);
  give_back(blocks);
}

bool MemPool::has_cached_blocks() {
  std::lock_guard lock(mutex_);
  return !free_.empty();
}

bool MemPool::caches(const void* ptr, size_t bytes) {
  auto* first = static_cast<const std::byte*>(ptr);
  std::lock_guard lock(mutex_);
  for (auto& [size, block] : free_) {
    auto* base = static_cast<const std::byte*>(block.ptr);
    if (first < base + block.size && base < first + std::max<size_t>(bytes, 1)) return true;
  }
  return false;
}

Status MemPool::set_attribute(int attr, const void* value) {
  std::lock_guard lock(mutex_);
  auto flag = [&] { return *static_cast<const int*>(value) != 0; };
  auto u64 = [&] { return *static_cast<const uint64_t*>(value); };
  switch (attr) {
    case hipMemPoolReuseFollowEventDependencies: follow_event_deps_ = flag(); return Status();
    case hipMemPoolReuseAllowOpportunistic: opportunistic_ = flag(); return Status();
    case hipMemPoolReuseAllowInternalDependencies: internal_deps_ = flag(); return Status();
    case hipMemPoolAttrReleaseThreshold: release_threshold_ = u64(); return Status();
    case hipMemPoolAttrReservedMemHigh:
    case hipMemPoolAttrUsedMemHigh:
      if (u64() != 0)
        return Status(hipErrorInvalidValue, "a high watermark can only be reset to 0");
      if (attr == hipMemPoolAttrReservedMemHigh) usage_.reserved_high = usage_.reserved_current;
      else usage_.used_high = usage_.used_current;
      return Status();
    case hipMemPoolAttrReservedMemCurrent:
    case hipMemPoolAttrUsedMemCurrent:
      return Status(hipErrorInvalidValue, "the current reserved and used sizes are read-only");
  }
  return Status(hipErrorInvalidValue, fmt::format("unknown memory pool attribute {}", attr));
}

Status MemPool::get_attribute(int attr, void* value) {
  std::lock_guard lock(mutex_);
  auto flag = [&](bool b) { *static_cast<int*>(value) = b ? 1 : 0; };
  auto u64 = [&](uint64_t v) { *static_cast<uint64_t*>(value) = v; };
  switch (attr) {
    case hipMemPoolReuseFollowEventDependencies: flag(follow_event_deps_); return Status();
    case hipMemPoolReuseAllowOpportunistic: flag(opportunistic_); return Status();
    case hipMemPoolReuseAllowInternalDependencies: flag(internal_deps_); return Status();
    case hipMemPoolAttrReleaseThreshold: u64(release_threshold_); return Status();
    case hipMemPoolAttrReservedMemCurrent: u64(usage_.reserved_current); return Status();
    case hipMemPoolAttrReservedMemHigh: u64(usage_.reserved_high); return Status();
    case hipMemPoolAttrUsedMemCurrent: u64(usage_.used_current); return Status();
    case hipMemPoolAttrUsedMemHigh: u64(usage_.used_high); return Status();
  }
  return Status(hipErrorInvalidValue, fmt::format("unknown memory pool attribute {}", attr));
}

PoolUsage MemPool::usage() {
  std::lock_guard lock(mutex_);
  return usage_;
}

hipMemAccessFlags MemPool::access(int ordinal) {
  std::lock_guard lock(mutex_);
  return access_.at(static_cast<size_t>(ordinal));
}

void MemPool::set_access(int ordinal, hipMemAccessFlags flags) {
  std::lock_guard lock(mutex_);
  access_.at(static_cast<size_t>(ordinal)) = flags;
}

// ---- The pool table: handles, and per device the default, current and graph pools.

namespace mempool {
namespace {

class PoolTable {
 public:
  PoolTable() : per_device_(static_cast<size_t>(std::max(0, Runtime::get().device_count()))) {}

  struct PerDevice {
    Ref<MemPool> default_pool, current, graph;
  };

  std::shared_mutex mutex;
  std::unordered_map<const void*, Ref<MemPool>> handles;  // hipMemPool_t → pool
  PerDevice& of(DeviceState& device) {
    return per_device_.at(static_cast<size_t>(device.ordinal()));
  }

 private:
  std::vector<PerDevice> per_device_;
};

PoolTable& table() {
  // Never destroyed: pools may be used from static destructors of programs.
  static PoolTable* t = new PoolTable();
  return *t;
}

hipMemPoolProps device_props(DeviceState& device) {
  hipMemPoolProps props{};
  props.allocType = hipMemAllocationTypePinned;
  props.handleTypes = hipMemHandleTypeNone;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = device.ordinal();
  return props;
}

// The slot's pool, made on first use (requires the table's lock held exclusively).
Ref<MemPool>& made(Ref<MemPool>& slot, DeviceState& device, MemPool::Origin origin) {
  if (!slot)
    slot = make_ref<MemPool>(device, device_props(device), origin, make_driver_source(device));
  return slot;
}

}  // namespace

Ref<MemPool> find(hipMemPool_t handle) {
  PoolTable& t = table();
  std::shared_lock lock(t.mutex);
  auto it = t.handles.find(handle);
  return it == t.handles.end() ? Ref<MemPool>() : it->second;
}

void add(const Ref<MemPool>& pool) {
  PoolTable& t = table();
  std::unique_lock lock(t.mutex);
  t.handles.emplace(pool.get(), pool);
}

Ref<MemPool> remove(hipMemPool_t handle) {
  PoolTable& t = table();
  std::unique_lock lock(t.mutex);
  auto it = t.handles.find(handle);
  if (it == t.handles.end()) return Ref<MemPool>();
  Ref<MemPool> pool = std::move(it->second);
  t.handles.erase(it);
  PoolTable::PerDevice& slots = t.of(pool->device());
  if (slots.current == pool) slots.current = slots.default_pool;
  return pool;
}

Ref<MemPool> default_pool(DeviceState& device) {
  PoolTable& t = table();
  {
    std::shared_lock lock(t.mutex);
    if (Ref<MemPool> pool = t.of(device).default_pool) return pool;
  }
  std::unique_lock lock(t.mutex);
  PoolTable::PerDevice& slots = t.of(device);
  if (!slots.default_pool) {
    made(slots.default_pool, device, MemPool::Origin::kDefault);
    t.handles.emplace(slots.default_pool.get(), slots.default_pool);
  }
  return slots.default_pool;
}

Ref<MemPool> current_pool(DeviceState& device) {
  PoolTable& t = table();
  {
    std::shared_lock lock(t.mutex);
    if (Ref<MemPool> pool = t.of(device).current) return pool;
  }
  Ref<MemPool> fallback = default_pool(device);
  std::unique_lock lock(t.mutex);
  PoolTable::PerDevice& slots = t.of(device);
  if (!slots.current) slots.current = fallback;
  return slots.current;
}

void set_current_pool(DeviceState& device, Ref<MemPool> pool) {
  (void)default_pool(device);
  PoolTable& t = table();
  std::unique_lock lock(t.mutex);
  t.of(device).current = std::move(pool);
}

Ref<MemPool> graph_pool(DeviceState& device) {
  PoolTable& t = table();
  {
    std::shared_lock lock(t.mutex);
    if (Ref<MemPool> pool = t.of(device).graph) return pool;
  }
  std::unique_lock lock(t.mutex);
  return made(t.of(device).graph, device, MemPool::Origin::kGraph);
}

Ref<MemPool> owner_of(const void* ptr) {
  auto record = Runtime::get().pointers().find(ptr);
  if (!record || record->base != ptr || !record->pool) return Ref<MemPool>();
  return Ref<MemPool>(static_cast<MemPool*>(record->pool.get()));
}

bool is_cached_block(const void* ptr, size_t bytes) {
  if (g_cached_blocks.load(std::memory_order_relaxed) == 0) return false;
  auto* first = static_cast<const std::byte*>(ptr);
  {
    Orphans& o = orphans();
    std::lock_guard lock(o.mutex);
    for (const Orphan& x : o.list) {
      auto* base = static_cast<const std::byte*>(x.ptr);
      if (first < base + x.size && base < first + std::max<size_t>(bytes, 1)) return true;
    }
  }
  std::vector<Ref<MemPool>> pools;
  {
    PoolTable& t = table();
    std::shared_lock lock(t.mutex);
    for (auto& [handle, pool] : t.handles) pools.push_back(pool);
    for (int i = 0; i < Runtime::get().device_count(); ++i)
      if (DeviceState* d = Runtime::get().device(i))
        if (Ref<MemPool> graph = t.of(*d).graph) pools.push_back(graph);
  }
  for (auto& pool : pools)
    if (pool->caches(ptr, bytes)) return true;
  return false;
}

void after_synchronize() {
  if (g_cached_blocks.load(std::memory_order_relaxed) == 0) return;
  release_orphans();
  std::vector<Ref<MemPool>> pools;
  {
    PoolTable& t = table();
    std::shared_lock lock(t.mutex);
    for (auto& [handle, pool] : t.handles) pools.push_back(pool);
  }
  for (auto& pool : pools) pool->release_above_threshold();
}

void device_reset(DeviceState& device) {
  std::vector<Ref<MemPool>> pools;
  PoolTable& t = table();
  {
    std::unique_lock lock(t.mutex);
    for (auto& [handle, pool] : t.handles)
      if (&pool->device() == &device) pools.push_back(pool);
    PoolTable::PerDevice& slots = t.of(device);
    if (slots.graph) pools.push_back(slots.graph);
    slots.current = slots.default_pool;
  }
  for (auto& pool : pools) pool->reset();
}

}  // namespace mempool
}  // namespace weft
