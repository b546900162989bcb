// SPDX-License-Identifier: MIT
// What the virtual memory API (hipMemCreate, hipMemAddressReserve, hipMemMap…)
// keeps: allocation handles, reservations and the mappings inside them, and the
// pointer-table records that make mapped, accessible ranges count as device
// memory for copies, fills and kernels (docs/vmm.md). The driver does the
// mapping work (Device::vm_*); this layer checks every range first.
//
// Thread-safe: one mutex for the family, held across the driver calls so that a
// range's bookkeeping and its mapping change together. Lock order: this mutex →
// DeviceState::order_mutex_ (hipMemUnmap waits for the device) → PointerTable.
#pragma once

#include "runtime/runtime.hpp"

#include <hip/hip_runtime_api.h>
#include <weft/driver/device.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace weft {

// Physical memory behind one hipMemGenericAllocationHandle_t (its address is the handle).
struct VmAllocation {
  Ref<PhysicalMemory> memory;
  DeviceState* device = nullptr;
  hipMemAllocationProp prop{};
  size_t size = 0;
  int handle_refs = 1;  // hipMemCreate/Import/RetainAllocationHandle minus hipMemRelease
};

class VirtualMemory {
 public:
  static VirtualMemory& get();

  hipMemGenericAllocationHandle_t add_handle(std::shared_ptr<VmAllocation> allocation);
  // The live allocation a handle names (hipErrorInvalidValue otherwise).
  Result<std::shared_ptr<VmAllocation>> find_handle(hipMemGenericAllocationHandle_t handle);
  Status release_handle(hipMemGenericAllocationHandle_t handle);
  // The handle of the mapping holding `address`, with one more reference.
  Result<hipMemGenericAllocationHandle_t> retain_handle(const void* address);

  Result<void*> reserve(DeviceState& device, size_t bytes, size_t alignment, void* hint);
  Status free_range(void* base, size_t bytes);
  Status map(void* address, size_t bytes, size_t offset, hipMemGenericAllocationHandle_t handle);
  Status unmap(void* address, size_t bytes);
  // `device` is the agent the access is for (hipMemAccessDesc::location.id).
  Status set_access(void* address, size_t bytes, int device, VmAccess access);
  Result<VmAccess> access(const void* address, int device);
  // Whether `address` lies in a reserved range (mapped or not). Copy checks use it
  // to refuse reserved addresses that have no accessible mapping even on GPU agents,
  // whose unknown addresses they otherwise leave to the driver.
  bool reserved(const void* address);

 private:
  struct Mapping {
    size_t size = 0;
    std::shared_ptr<VmAllocation> allocation;
    VmAccess access = VmAccess::kNone;
  };
  struct Reservation {
    size_t size = 0;
    DeviceState* device = nullptr;
    std::map<uintptr_t, Mapping> mappings;  // by address
  };
  using Reservations = std::map<uintptr_t, Reservation>;

  // The reservation holding all of [address, address + bytes), or end().
  Reservations::iterator reservation_of(const void* address, size_t bytes);
  // The mappings that exactly tile [address, address + bytes), or an error.
  Result<std::pair<std::map<uintptr_t, Mapping>::iterator, std::map<uintptr_t, Mapping>::iterator>>
      whole_mappings(Reservation& reservation, uintptr_t address, size_t bytes, const char* what);
  // Rewrites the pointer-table records of one reservation: one record per run of
  // adjacent accessible mappings with the same protection.
  void publish(uintptr_t base, const Reservation& reservation);
  Status unmap_locked(Reservation& reservation, uintptr_t base,
                      std::map<uintptr_t, Mapping>::iterator first,
                      std::map<uintptr_t, Mapping>::iterator last);

  std::mutex mutex_;
  std::unordered_map<const void*, std::shared_ptr<VmAllocation>> handles_;
  Reservations reservations_;
};

}  // namespace weft
