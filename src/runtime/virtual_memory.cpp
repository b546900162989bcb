// SPDX-License-Identifier: MIT
#include "runtime/virtual_memory.hpp"

#include <weft/common/log.hpp>

#include <fmt/format.h>

#include <vector>

namespace weft {
namespace {

Status invalid(std::string message) { return Status(hipErrorInvalidValue, std::move(message)); }

const void* as_ptr(uintptr_t address) { return reinterpret_cast<const void*>(address); }

}  // namespace

VirtualMemory& VirtualMemory::get() {
  // Never destroyed: other static destructors may still release memory.
  static VirtualMemory* table = new VirtualMemory;
  return *table;
}

hipMemGenericAllocationHandle_t VirtualMemory::add_handle(
    std::shared_ptr<VmAllocation> allocation) {
  auto handle = reinterpret_cast<hipMemGenericAllocationHandle_t>(allocation.get());
  std::lock_guard lock(mutex_);
  handles_[handle] = std::move(allocation);
  return handle;
}

Result<std::shared_ptr<VmAllocation>> VirtualMemory::find_handle(
    hipMemGenericAllocationHandle_t handle) {
  if (!handle) return invalid("null allocation handle");
  std::lock_guard lock(mutex_);
  auto it = handles_.find(handle);
  if (it == handles_.end())
    return invalid(fmt::format("allocation handle {} is unknown or was released",
                               static_cast<const void*>(handle)));
  return it->second;
}

Status VirtualMemory::release_handle(hipMemGenericAllocationHandle_t handle) {
  if (!handle) return invalid("null allocation handle");
  std::shared_ptr<VmAllocation> last;  // freed after the lock: it may unmap the memory file
  std::lock_guard lock(mutex_);
  auto it = handles_.find(handle);
  if (it == handles_.end())
    return invalid(fmt::format("allocation handle {} is unknown or was already released",
                               static_cast<const void*>(handle)));
  if (--it->second->handle_refs == 0) {
    last = std::move(it->second);
    handles_.erase(it);
  }
  return Status();
}

Result<hipMemGenericAllocationHandle_t> VirtualMemory::retain_handle(const void* address) {
  std::lock_guard lock(mutex_);
  auto r = reservation_of(address, 1);
  if (r != reservations_.end()) {
    auto key = reinterpret_cast<uintptr_t>(address);
    auto m = r->second.mappings.upper_bound(key);
    if (m != r->second.mappings.begin() && key - (--m)->first < m->second.size) {
      VmAllocation& allocation = *m->second.allocation;
      auto handle = reinterpret_cast<hipMemGenericAllocationHandle_t>(&allocation);
      // A released handle comes back to life while a mapping keeps its memory.
      if (allocation.handle_refs++ == 0) handles_[handle] = m->second.allocation;
      return handle;
    }
  }
  return invalid(fmt::format("{} is not inside a hipMemMap mapping", address));
}

VirtualMemory::Reservations::iterator VirtualMemory::reservation_of(const void* address,
                                                                    size_t bytes) {
  auto key = reinterpret_cast<uintptr_t>(address);
  auto it = reservations_.upper_bound(key);
  if (it == reservations_.begin()) return reservations_.end();
  --it;
  size_t offset = key - it->first;
  if (offset >= it->second.size || bytes > it->second.size - offset) return reservations_.end();
  return it;
}

Result<void*> VirtualMemory::reserve(DeviceState& device, size_t bytes, size_t alignment,
                                     void* hint) {
  std::lock_guard lock(mutex_);
  WEFT_ASSIGN_OR_RETURN(void* base, device.driver_device().vm_reserve(bytes, alignment, hint));
  Reservation& r = reservations_[reinterpret_cast<uintptr_t>(base)];
  r.size = bytes;
  r.device = &device;
  return base;
}

Result<std::pair<std::map<uintptr_t, VirtualMemory::Mapping>::iterator,
                 std::map<uintptr_t, VirtualMemory::Mapping>::iterator>>
    VirtualMemory::whole_mappings(Reservation& reservation, uintptr_t address, size_t bytes,
                                  const char* what) {
  auto first = reservation.mappings.find(address);
  if (first == reservation.mappings.end())
    return invalid(
        fmt::format("{}: no mapping starts at {} (the range must consist of whole "
                    "hipMemMap mappings)",
                    what, as_ptr(address)));
  uintptr_t end = address + bytes, at = address;
  auto it = first;
  while (at < end) {
    if (it == reservation.mappings.end() || it->first != at)
      return invalid(fmt::format("{}: {} is not mapped", what, as_ptr(at)));
    at += it->second.size;
    ++it;
  }
  if (at != end)
    return invalid(
        fmt::format("{}: the range ends inside the mapping that ends at {} (the range "
                    "must consist of whole hipMemMap mappings)",
                    what, as_ptr(at)));
  return std::make_pair(first, it);
}

void VirtualMemory::publish(uintptr_t base, const Reservation& reservation) {
  std::vector<AllocationRecord> runs;
  for (const auto& [address, mapping] : reservation.mappings) {
    if (mapping.access == VmAccess::kNone) continue;
    bool read_only = mapping.access == VmAccess::kRead;
    AllocationRecord* last = runs.empty() ? nullptr : &runs.back();
    if (last && reinterpret_cast<uintptr_t>(last->base) + last->size == address &&
        last->read_only == read_only) {
      last->size += mapping.size;  // two physical chunks, one contiguous range to the checks
      continue;
    }
    AllocationRecord record;
    record.base = reinterpret_cast<std::byte*>(address);
    record.size = mapping.size;
    record.device = reservation.device->ordinal();
    record.kind = AllocationKind::kDevice;
    record.device_ptr = record.base;
    record.virtual_mapping = true;
    record.read_only = read_only;
    runs.push_back(record);
  }
  Runtime::get().pointers().replace_virtual(as_ptr(base), as_ptr(base + reservation.size), runs);
}

Status VirtualMemory::map(void* address, size_t bytes, size_t offset,
                          hipMemGenericAllocationHandle_t handle) {
  std::lock_guard lock(mutex_);
  auto h = handles_.find(handle);
  if (h == handles_.end())
    return invalid(fmt::format("allocation handle {} is unknown or was released",
                               static_cast<const void*>(handle)));
  std::shared_ptr<VmAllocation> allocation = h->second;
  if (offset > allocation->size || bytes > allocation->size - offset)
    return invalid(fmt::format("{} bytes at offset {} run past the end of the {}-byte allocation",
                               bytes, offset, allocation->size));
  auto r = reservation_of(address, bytes);
  if (r == reservations_.end())
    return invalid(fmt::format("{} + {} bytes is not inside one range from hipMemAddressReserve",
                               address, bytes));
  Reservation& reservation = r->second;
  if (allocation->device != reservation.device)
    return invalid(fmt::format("the memory is on device {} but the range was reserved on device {}",
                               allocation->device->ordinal(), reservation.device->ordinal()));
  auto key = reinterpret_cast<uintptr_t>(address);
  auto next = reservation.mappings.lower_bound(key);
  if (next != reservation.mappings.end() && next->first < key + bytes)
    return invalid(fmt::format("{} + {} bytes overlaps the mapping at {}", address, bytes,
                               as_ptr(next->first)));
  if (next != reservation.mappings.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second.size > key)
      return invalid(fmt::format("{} + {} bytes overlaps the mapping at {}", address, bytes,
                                 as_ptr(prev->first)));
  }
  WEFT_RETURN_IF_ERROR(
      reservation.device->driver_device().vm_map(address, bytes, *allocation->memory, offset));
  reservation.mappings[key] = Mapping{bytes, std::move(allocation), VmAccess::kNone};
  // Inaccessible until hipMemSetAccess: nothing to publish yet.
  return Status();
}

Status VirtualMemory::unmap_locked(Reservation& reservation, uintptr_t base,
                                   std::map<uintptr_t, Mapping>::iterator first,
                                   std::map<uintptr_t, Mapping>::iterator last) {
  // Copies and kernels already queued may still use the range: let them finish
  // (as hipFree does) before the pages go.
  WEFT_RETURN_IF_ERROR(reservation.device->synchronize());
  Status status;
  for (auto it = first; it != last; ++it) {
    Status s = reservation.device->driver_device().vm_unmap(reinterpret_cast<void*>(it->first),
                                                            it->second.size);
    if (!s.ok() && status.ok()) status = s;
  }
  reservation.mappings.erase(first, last);
  publish(base, reservation);
  return status;
}

Status VirtualMemory::unmap(void* address, size_t bytes) {
  std::vector<std::shared_ptr<VmAllocation>> dropped;  // freed after the lock
  std::lock_guard lock(mutex_);
  auto r = reservation_of(address, bytes);
  if (r == reservations_.end())
    return invalid(fmt::format("{} + {} bytes is not inside one range from hipMemAddressReserve",
                               address, bytes));
  WEFT_ASSIGN_OR_RETURN(auto range, whole_mappings(r->second, reinterpret_cast<uintptr_t>(address),
                                                   bytes, "hipMemUnmap"));
  for (auto it = range.first; it != range.second; ++it) dropped.push_back(it->second.allocation);
  return unmap_locked(r->second, r->first, range.first, range.second);
}

Status VirtualMemory::free_range(void* base, size_t bytes) {
  std::vector<std::shared_ptr<VmAllocation>> dropped;  // freed after the lock
  std::lock_guard lock(mutex_);
  auto r = reservations_.find(reinterpret_cast<uintptr_t>(base));
  if (r == reservations_.end())
    return invalid(fmt::format("{} was not returned by hipMemAddressReserve", base));
  if (r->second.size != bytes)
    return invalid(fmt::format("size {} differs from the {} bytes reserved at {}", bytes,
                               r->second.size, base));
  Reservation& reservation = r->second;
  if (!reservation.mappings.empty()) {
    // CUDA lets a range be freed with mappings left in it: they go with it.
    log::debug("hipMemAddressFree: unmapping {} mappings left in {}", reservation.mappings.size(),
               base);
    for (auto& [address, mapping] : reservation.mappings) dropped.push_back(mapping.allocation);
    WEFT_RETURN_IF_ERROR(unmap_locked(reservation, r->first, reservation.mappings.begin(),
                                      reservation.mappings.end()));
  }
  WEFT_RETURN_IF_ERROR(reservation.device->driver_device().vm_free_range(base, bytes));
  reservations_.erase(r);
  return Status();
}

Status VirtualMemory::set_access(void* address, size_t bytes, int device, VmAccess access) {
  std::lock_guard lock(mutex_);
  auto r = reservation_of(address, bytes);
  if (r == reservations_.end())
    return invalid(fmt::format("{} + {} bytes is not inside one range from hipMemAddressReserve",
                               address, bytes));
  Reservation& reservation = r->second;
  if (device != reservation.device->ordinal())
    return Status(hipErrorNotSupported,
                  fmt::format("device {} cannot reach memory mapped on device {}: access from "
                              "other agents to virtual memory is not supported",
                              device, reservation.device->ordinal()));
  WEFT_ASSIGN_OR_RETURN(
      auto range,
      whole_mappings(reservation, reinterpret_cast<uintptr_t>(address), bytes, "hipMemSetAccess"));
  // Removing access must not pull pages from under queued work.
  if (access != VmAccess::kReadWrite) WEFT_RETURN_IF_ERROR(reservation.device->synchronize());
  WEFT_RETURN_IF_ERROR(reservation.device->driver_device().vm_set_access(address, bytes, access));
  for (auto it = range.first; it != range.second; ++it) it->second.access = access;
  publish(r->first, reservation);
  return Status();
}

bool VirtualMemory::reserved(const void* address) {
  std::lock_guard lock(mutex_);
  return reservation_of(address, 1) != reservations_.end();
}

Result<VmAccess> VirtualMemory::access(const void* address, int device) {
  std::lock_guard lock(mutex_);
  auto r = reservation_of(address, 1);
  if (r != reservations_.end()) {
    auto key = reinterpret_cast<uintptr_t>(address);
    auto m = r->second.mappings.upper_bound(key);
    if (m != r->second.mappings.begin() && key - (--m)->first < m->second.size)
      return device == r->second.device->ordinal() ? m->second.access : VmAccess::kNone;
  }
  return invalid(fmt::format("{} is not inside a hipMemMap mapping", address));
}

}  // namespace weft
