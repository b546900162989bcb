// SPDX-License-Identifier: MIT
// Every allocation weft hands out or registers, keyed by base address. Answers
// hipPointerGetAttributes, hipMemGetAddressRange and hipMemcpyDefault direction,
// and checks that copies and fills stay inside their allocation. Thread-safe
// (reader-writer lock; lookups are shared).
#pragma once

#include <weft/driver/device.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>
#include <vector>

namespace weft {

enum class AllocationKind { kDevice, kHostPinned, kManaged, kRegistered };

struct AllocationRecord {
  std::byte* base = nullptr;  // host-visible address the user holds
  size_t size = 0;
  int device = 0;
  AllocationKind kind = AllocationKind::kDevice;
  unsigned flags = 0;
  void* device_ptr = nullptr;   // device address (hipHostGetDevicePointer)
  bool stream_ordered = false;  // from hipMallocAsync
  // A run of hipMemMap mappings with access granted (src/api/virtual_memory.cpp):
  // hipFree and hipDeviceReset leave it alone; hipMemUnmap/AddressFree remove it.
  bool virtual_mapping = false;
  bool read_only = false;  // hipMemAccessFlagsProtRead: copies and fills may not write it
  // The MemPool (runtime/mempool.hpp) whose block this is; holding it keeps
  // the pool alive while its memory is allocated.
  Ref<RefCounted> pool;
  // A buffer mapped from external memory (hipExternalMemoryGetMappedBuffer): the
  // mapping goes with this reference when hipFree drops the record, and the
  // driver's deallocate() is not called.
  Ref<RefCounted> external_mapping;

  bool contains(const void* p, size_t bytes) const {
    auto* q = static_cast<const std::byte*>(p);
    return q >= base && bytes <= size && static_cast<size_t>(q - base) <= size - bytes;
  }
};

class PointerTable {
 public:
  void insert(const AllocationRecord& record);
  // Removes the allocation that starts exactly at `base`.
  std::optional<AllocationRecord> erase(const void* base);
  // The allocation containing `ptr`, if any.
  std::optional<AllocationRecord> find(const void* ptr) const;
  // The allocations with the highest base at or below `ptr` and the lowest above
  // it (fault reports name the nearest one).
  struct Neighbours {
    std::optional<AllocationRecord> below, above;
  };
  Neighbours neighbours(const void* ptr) const;
  // Replaces the virtual-mapping records whose base lies in [lo, hi) by `records`,
  // in one step, so no lookup sees a half-updated reservation.
  void replace_virtual(const void* lo, const void* hi,
                       const std::vector<AllocationRecord>& records);
  // Removes and returns every allocation of `device` (virtual mappings excepted).
  std::vector<AllocationRecord> erase_device(int device);

 private:
  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, AllocationRecord> by_base_;
};

}  // namespace weft
