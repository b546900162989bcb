// SPDX-License-Identifier: MIT
// Virtual memory management: hipMemCreate, hipMemAddressReserve, hipMemMap and
// the rest of the family (docs/vmm.md). Argument checks live here; the
// bookkeeping in runtime/virtual_memory.*, the mapping work in the driver
// (Device::vm_*). Every bad argument is hipErrorInvalidValue, as HIP documents;
// an agent or handle type that cannot do it is hipErrorNotSupported.
#include "runtime/virtual_memory.hpp"
#include "api/api.hpp"
#include "api/os_handles.hpp"

#include <bit>
#include <cstdint>
#include <memory>

namespace weft::api {
namespace {

bool is_multiple(size_t value, size_t granularity) { return value % granularity == 0; }
bool is_aligned(const void* p, size_t granularity) {
  return reinterpret_cast<uintptr_t>(p) % granularity == 0;
}

// The device a hipMemLocation names; only device locations hold VMM memory here.
Result<DeviceState*> location_device(const hipMemLocation& location, const char* what) {
  if (raw_value(location.type) != hipMemLocationTypeDevice)
    return invalid_value(fmt::format("{}: location type {} is not hipMemLocationTypeDevice", what,
                                     raw_value(location.type)));
  DeviceState* device = Runtime::get().device(location.id);
  if (!device)
    return invalid_value(fmt::format("{}: location id {} is not a device ({} available)", what,
                                     location.id, Runtime::get().device_count()));
  return device;
}

Result<size_t> minimum_granularity(DeviceState& device) {
  return device.driver_device().vm_granularity(false);
}

Status check_handle_type(int type, bool none_allowed) {
  if (type == hipMemHandleTypePosixFileDescriptor || (none_allowed && type == hipMemHandleTypeNone))
    return Status();
  if (type == hipMemHandleTypeWin32 || type == hipMemHandleTypeWin32Kmt)
    return Status(hipErrorNotSupported,
                  fmt::format("handle type {} (Win32) does not exist on Linux", type));
  return invalid_value(fmt::format("{} is not a hipMemAllocationHandleType", type));
}

Result<VmAccess> access_of(hipMemAccessFlags flags) {
  switch (raw_value(flags)) {
    case hipMemAccessFlagsProtNone: return VmAccess::kNone;
    case hipMemAccessFlagsProtRead: return VmAccess::kRead;
    case hipMemAccessFlagsProtReadWrite: return VmAccess::kReadWrite;
    default: return invalid_value(fmt::format("{} is not a hipMemAccessFlags", raw_value(flags)));
  }
}

hipMemAccessFlags flags_of(VmAccess access) {
  switch (access) {
    case VmAccess::kRead: return hipMemAccessFlagsProtRead;
    case VmAccess::kReadWrite: return hipMemAccessFlagsProtReadWrite;
    case VmAccess::kNone: break;
  }
  return hipMemAccessFlagsProtNone;
}

Status create(hipMemGenericAllocationHandle_t* handle, size_t size,
              const hipMemAllocationProp* prop, unsigned long long flags) {
  if (!handle) return invalid_value("null output handle");
  if (!prop) return invalid_value("null allocation properties");
  if (flags != 0) return invalid_value("flags must be 0");
  if (size == 0) return invalid_value("size is 0");
  if (raw_value(prop->type) != hipMemAllocationTypePinned)
    return invalid_value(
        fmt::format("allocation type {} is not hipMemAllocationTypePinned", raw_value(prop->type)));
  WEFT_RETURN_IF_ERROR(check_handle_type(raw_value(prop->requestedHandleType), true));
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, location_device(prop->location, "hipMemCreate"));
  WEFT_ASSIGN_OR_RETURN(size_t granularity, minimum_granularity(*device));
  if (!is_multiple(size, granularity))
    return invalid_value(
        fmt::format("size {} is not a multiple of the granularity ({} bytes)", size, granularity));
  bool exportable = raw_value(prop->requestedHandleType) == hipMemHandleTypePosixFileDescriptor;
  WEFT_ASSIGN_OR_RETURN(Ref<PhysicalMemory> memory,
                        device->driver_device().vm_create(size, exportable));
  auto allocation = std::make_shared<VmAllocation>();
  allocation->memory = std::move(memory);
  allocation->device = device;
  allocation->prop = *prop;
  allocation->prop.win32HandleMetaData = nullptr;
  allocation->size = size;
  *handle = VirtualMemory::get().add_handle(std::move(allocation));
  return Status();
}

Status reserve(void** ptr, size_t size, size_t alignment, void* addr, unsigned long long flags) {
  if (!ptr) return invalid_value("null output pointer");
  *ptr = nullptr;
  if (flags != 0) return invalid_value("flags must be 0");
  if (size == 0) return invalid_value("size is 0");
  if (alignment != 0 && !std::has_single_bit(alignment))
    return invalid_value(fmt::format("alignment {} is not a power of two", alignment));
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  WEFT_ASSIGN_OR_RETURN(size_t granularity, minimum_granularity(*device));
  if (!is_multiple(size, granularity))
    return invalid_value(
        fmt::format("size {} is not a multiple of the granularity ({} bytes)", size, granularity));
  WEFT_ASSIGN_OR_RETURN(*ptr, VirtualMemory::get().reserve(*device, size, alignment, addr));
  return Status();
}

// ptr and size of a map, unmap or access change: granularity-aligned on the
// device that reserved them (checked again against the reservation itself).
Status check_range(const void* ptr, size_t size) {
  if (!ptr) return invalid_value("null address");
  if (size == 0) return invalid_value("size is 0");
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  WEFT_ASSIGN_OR_RETURN(size_t granularity, minimum_granularity(*device));
  if (!is_aligned(ptr, granularity) || !is_multiple(size, granularity))
    return invalid_value(fmt::format("{} + {} bytes is not aligned to the granularity ({} bytes)",
                                     ptr, size, granularity));
  return Status();
}

Status set_access(void* ptr, size_t size, const hipMemAccessDesc* desc, size_t count) {
  if (!desc) return invalid_value("null access descriptors");
  if (count == 0) return invalid_value("count is 0");
  WEFT_RETURN_IF_ERROR(check_range(ptr, size));
  // Every descriptor is checked before any takes effect.
  for (size_t i = 0; i < count; ++i) {
    WEFT_RETURN_IF_ERROR(location_device(desc[i].location, "hipMemSetAccess").status());
    WEFT_RETURN_IF_ERROR(access_of(desc[i].flags).status());
  }
  for (size_t i = 0; i < count; ++i)
    WEFT_RETURN_IF_ERROR(VirtualMemory::get().set_access(ptr, size, desc[i].location.id,
                                                         access_of(desc[i].flags).value()));
  return Status();
}

Status export_handle(void* shareable, hipMemGenericAllocationHandle_t handle,
                     hipMemAllocationHandleType type, unsigned long long flags) {
  if (!shareable) return invalid_value("null output for the shareable handle");
  if (flags != 0) return invalid_value("flags must be 0");
  WEFT_RETURN_IF_ERROR(check_handle_type(raw_value(type), false));
  WEFT_ASSIGN_OR_RETURN(auto allocation, VirtualMemory::get().find_handle(handle));
  if (raw_value(allocation->prop.requestedHandleType) != raw_value(type))
    return invalid_value(
        "the allocation was not created for this handle type (set "
        "hipMemAllocationProp::requestedHandleType to hipMemHandleTypePosixFileDescriptor)");
  WEFT_ASSIGN_OR_RETURN(int fd,
                        allocation->device->driver_device().vm_export_fd(*allocation->memory));
  *static_cast<int*>(shareable) = fd;
  return Status();
}

Status import_handle(hipMemGenericAllocationHandle_t* handle, void* os_handle,
                     hipMemAllocationHandleType type) {
  if (!handle) return invalid_value("null output handle");
  WEFT_RETURN_IF_ERROR(check_handle_type(raw_value(type), false));
  // As CUDA defines it for POSIX descriptors: the descriptor itself, cast to a pointer.
  auto value = reinterpret_cast<intptr_t>(os_handle);
  if (value <= 0 || value > INT32_MAX)
    return invalid_value(fmt::format("{} is not a file descriptor", value));
  WEFT_RETURN_IF_ERROR(check_shareable_fd(static_cast<int>(value), "shareable handle"));
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  WEFT_ASSIGN_OR_RETURN(Ref<PhysicalMemory> memory,
                        device->driver_device().vm_import_fd(static_cast<int>(value)));
  auto allocation = std::make_shared<VmAllocation>();
  allocation->size = memory->size();
  allocation->memory = std::move(memory);
  allocation->device = device;
  allocation->prop.type = hipMemAllocationTypePinned;
  allocation->prop.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
  allocation->prop.location.type = hipMemLocationTypeDevice;
  allocation->prop.location.id = device->ordinal();
  *handle = VirtualMemory::get().add_handle(std::move(allocation));
  return Status();
}

}  // namespace
}  // namespace weft::api

using namespace weft;
using namespace weft::api;

WEFT_EXPORT hipError_t hipMemCreate(hipMemGenericAllocationHandle_t* handle, size_t size,
                                    const hipMemAllocationProp* prop, unsigned long long flags) {
  return call(
      "hipMemCreate", [&] { return create(handle, size, prop, flags); }, handle, size, prop, flags);
}

WEFT_EXPORT hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle) {
  return call(
      "hipMemRelease", [&] { return VirtualMemory::get().release_handle(handle); }, handle);
}

WEFT_EXPORT hipError_t hipMemAddressReserve(void** ptr, size_t size, size_t alignment, void* addr,
                                            unsigned long long flags) {
  return call(
      "hipMemAddressReserve", [&] { return reserve(ptr, size, alignment, addr, flags); }, ptr, size,
      alignment, addr, flags);
}

WEFT_EXPORT hipError_t hipMemAddressFree(void* ptr, size_t size) {
  return call(
      "hipMemAddressFree",
      [&] {
    if (!ptr) return invalid_value("null address");
    if (size == 0) return invalid_value("size is 0");
    return VirtualMemory::get().free_range(ptr, size);
      },
      ptr, size);
}

WEFT_EXPORT hipError_t hipMemMap(void* ptr, size_t size, size_t offset,
                                 hipMemGenericAllocationHandle_t handle, unsigned long long flags) {
  return call(
      "hipMemMap",
      [&] {
    if (!handle) return invalid_value("null allocation handle");
    if (flags != 0) return invalid_value("flags must be 0");
    // HIP documents the offset as "currently must be zero".
    if (offset != 0) return invalid_value(fmt::format("offset {} is not 0", offset));
    WEFT_RETURN_IF_ERROR(check_range(ptr, size));
    return VirtualMemory::get().map(ptr, size, offset, handle);
      },
      ptr, size, offset, handle, flags);
}

WEFT_EXPORT hipError_t hipMemUnmap(void* ptr, size_t size) {
  return call(
      "hipMemUnmap",
      [&] {
    WEFT_RETURN_IF_ERROR(check_range(ptr, size));
    return VirtualMemory::get().unmap(ptr, size);
      },
      ptr, size);
}

WEFT_EXPORT hipError_t hipMemSetAccess(void* ptr, size_t size, const hipMemAccessDesc* desc,
                                       size_t count) {
  return call(
      "hipMemSetAccess", [&] { return set_access(ptr, size, desc, count); }, ptr, size, desc,
      count);
}

WEFT_EXPORT hipError_t hipMemGetAccess(unsigned long long* flags, const hipMemLocation* location,
                                       void* ptr) {
  return call(
      "hipMemGetAccess",
      [&] {
    if (!flags) return invalid_value("null output flags");
    if (!location) return invalid_value("null location");
    if (!ptr) return invalid_value("null address");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, location_device(*location, "hipMemGetAccess"));
    WEFT_ASSIGN_OR_RETURN(VmAccess access, VirtualMemory::get().access(ptr, device->ordinal()));
    *flags = flags_of(access);
    return Status();
      },
      flags, location, ptr);
}

WEFT_EXPORT hipError_t hipMemGetAllocationGranularity(size_t* granularity,
                                                      const hipMemAllocationProp* prop,
                                                      hipMemAllocationGranularity_flags option) {
  return call(
      "hipMemGetAllocationGranularity",
      [&] {
    if (!granularity) return invalid_value("null output granularity");
    if (!prop) return invalid_value("null allocation properties");
    int raw = raw_value(option);
    if (raw != hipMemAllocationGranularityMinimum && raw != hipMemAllocationGranularityRecommended)
      return invalid_value(fmt::format("{} is not a hipMemAllocationGranularity_flags", raw));
    if (raw_value(prop->type) != hipMemAllocationTypePinned)
      return invalid_value(fmt::format("allocation type {} is not hipMemAllocationTypePinned",
                                       raw_value(prop->type)));
    WEFT_ASSIGN_OR_RETURN(DeviceState * device,
                          location_device(prop->location, "hipMemGetAllocationGranularity"));
    WEFT_ASSIGN_OR_RETURN(*granularity, device->driver_device().vm_granularity(
                                            raw == hipMemAllocationGranularityRecommended));
    return Status();
      },
      granularity, prop, option);
}

WEFT_EXPORT hipError_t hipMemGetAllocationPropertiesFromHandle(
    hipMemAllocationProp* prop, hipMemGenericAllocationHandle_t handle) {
  return call(
      "hipMemGetAllocationPropertiesFromHandle",
      [&] {
    if (!prop) return invalid_value("null output properties");
    WEFT_ASSIGN_OR_RETURN(auto allocation, VirtualMemory::get().find_handle(handle));
    *prop = allocation->prop;
    return Status();
      },
      prop, handle);
}

WEFT_EXPORT hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t* handle,
                                                    void* addr) {
  return call(
      "hipMemRetainAllocationHandle",
      [&] {
    if (!handle) return invalid_value("null output handle");
    if (!addr) return invalid_value("null address");
    WEFT_ASSIGN_OR_RETURN(*handle, VirtualMemory::get().retain_handle(addr));
    return Status();
      },
      handle, addr);
}

WEFT_EXPORT hipError_t hipMemExportToShareableHandle(void* shareableHandle,
                                                     hipMemGenericAllocationHandle_t handle,
                                                     hipMemAllocationHandleType handleType,
                                                     unsigned long long flags) {
  return call(
      "hipMemExportToShareableHandle",
      [&] { return export_handle(shareableHandle, handle, handleType, flags); }, shareableHandle,
      handle, handleType, flags);
}

WEFT_EXPORT hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t* handle,
                                                       void* osHandle,
                                                       hipMemAllocationHandleType shHandleType) {
  return call(
      "hipMemImportFromShareableHandle",
      [&] { return import_handle(handle, osHandle, shHandleType); }, handle, osHandle,
      shHandleType);
}

WEFT_EXPORT hipError_t hipMemMapArrayAsync(hipArrayMapInfo* mapInfoList, unsigned int count,
                                           hipStream_t stream) {
  return call(
      "hipMemMapArrayAsync",
      [&] {
    if (!mapInfoList) return invalid_value("null map info list");
    if (count == 0) return invalid_value("count is 0");
    WEFT_RETURN_IF_ERROR(resolve_stream(stream).status());
    // Sparse arrays need hipArray objects, which weft does not have yet.
    return Status(hipErrorNotSupported,
                  "hipMemMapArrayAsync maps sparse hipArrays, and weft has no hipArray support "
                  "(hipArrayCreate and hipMallocArray are unsupported)");
      },
      mapInfoList, count, stream);
}
