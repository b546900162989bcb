// SPDX-License-Identifier: MIT
// Allocation API: hipMalloc family, host memory, registration, pointer queries.
#include "api/api.hpp"
#include "api/ipc_openings.hpp"
#include "api/memory_checks.hpp"
#include "graph/capture.hpp"
#include "runtime/mempool.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace weft::api {
namespace {

constexpr unsigned kHostMallocFlags = hipHostMallocPortable | hipHostMallocMapped |
                                      hipHostMallocWriteCombined | hipHostMallocNumaUser |
                                      hipHostMallocCoherent | hipHostMallocNonCoherent |
                                      hipHostMallocUncached;
constexpr unsigned kHostRegisterFlags = hipHostRegisterPortable | hipHostRegisterMapped |
                                        hipHostRegisterIoMemory | hipHostRegisterReadOnly;

MemoryKind driver_kind(AllocationKind kind) {
  switch (kind) {
    case AllocationKind::kHostPinned: return MemoryKind::kHostPinned;
    case AllocationKind::kManaged: return MemoryKind::kManaged;
    default: return MemoryKind::kDevice;
  }
}

Status allocate(void** out, size_t size, AllocationKind kind, unsigned flags) {
  if (!out) return invalid_value("null output pointer");
  *out = nullptr;
  if (size == 0) return Status();
  WEFT_RETURN_IF_ERROR(graph::check_unsafe("allocating memory"));
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  WEFT_ASSIGN_OR_RETURN(void* ptr,
                        device->driver_device().allocate(driver_kind(kind), size, flags));
  AllocationRecord record;
  record.base = static_cast<std::byte*>(ptr);
  record.size = size;
  record.device = device->ordinal();
  record.kind = kind;
  record.flags = flags;
  record.device_ptr = ptr;
  Runtime::get().pointers().insert(record);
  *out = ptr;
  log::debug(log::kMemory, "allocated {} bytes at {} on device {}", size, ptr, device->ordinal());
  return Status();
}

// Frees an allocation of one of `kinds` that starts at ptr. Like CUDA, freeing
// waits for the device first so no queued work can touch released memory.
Status release(void* ptr, std::initializer_list<AllocationKind> kinds, const char* what) {
  if (!ptr) return Status();
  WEFT_RETURN_IF_ERROR(graph::check_unsafe("freeing memory"));
  Runtime& rt = Runtime::get();
  auto record = rt.pointers().find(ptr);
  if (!record || record->base != ptr)
    return invalid_value(fmt::format("{} was not returned by {}", ptr, what));
  if (record->virtual_mapping)
    return invalid_value(fmt::format("{} is a hipMemMap mapping: hipMemUnmap it instead", ptr));
  if (is_ipc_opening(ptr))
    return invalid_value(
        fmt::format("{} was opened by hipIpcOpenMemHandle: hipIpcCloseMemHandle it instead", ptr));
  if (std::find(kinds.begin(), kinds.end(), record->kind) == kinds.end())
    return invalid_value(fmt::format("{} was not allocated by {}", ptr, what));
  DeviceState* device = rt.device(record->device);
  WEFT_RETURN_IF_ERROR(device->synchronize());
  // Pool memory (hipMallocAsync, graph nodes, imported pointers) goes back to its pool.
  if (record->pool) {
    if (Ref<MemPool> pool = mempool::owner_of(ptr); pool && pool->free_now(ptr)) return Status();
    return invalid_value("pointer was freed concurrently");
  }
  if (!rt.pointers().erase(ptr)) return invalid_value("pointer was freed concurrently");
  if (record->external_mapping) return Status();  // the record held the last reference
  return device->driver_device().deallocate(ptr, record->size, driver_kind(record->kind));
}

// Whether all of [ptr, ptr + size) is mapped in this process, readable, and
// writable unless the registration is read-only. /proc/self/maps lists the
// mappings in address order; the walk stops at the first hole. (mincore would
// not see protections, and counts a reserved PROT_NONE range as mapped.)
Status check_mapped(const void* ptr, size_t size, bool read_only) {
  auto begin = reinterpret_cast<uintptr_t>(ptr);
  if (size > UINTPTR_MAX - begin)
    return invalid_value(fmt::format("{} + {} bytes wraps around the address space", ptr, size));
  uintptr_t end = begin + size;
  std::FILE* maps = std::fopen("/proc/self/maps", "re");
  if (!maps) return Status();  // nothing to check against (no procfs): accept as before
  uintptr_t covered = begin;   // [begin, covered) is known to be usable
  char perms[8] = {};
  unsigned long lo = 0, hi = 0;
  char line[512];
  while (covered < end && std::fgets(line, sizeof line, maps)) {
    if (std::sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) != 3 || hi <= covered) continue;
    if (lo > covered) break;  // a hole
    if (perms[0] != 'r' || (!read_only && perms[1] != 'w')) break;
    covered = hi;
  }
  std::fclose(maps);
  if (covered >= end) return Status();
  return invalid_value(fmt::format(
      "{} + {} bytes is not {} memory of this process: {} is unmapped or protected", ptr, size,
      read_only ? "readable" : "readable and writable", reinterpret_cast<void*>(covered)));
}

// Rows padded to 256 bytes, as hipMallocPitch lays them out: sets *pitch and
// returns the allocation's size, or hipErrorOutOfMemory when it overflows.
Result<size_t> pitched_bytes(size_t width, size_t height, size_t* pitch) {
  constexpr size_t kAlign = 256;
  size_t bytes = 0;
  if (width > SIZE_MAX - (kAlign - 1))
    return Status(hipErrorOutOfMemory, "the row width overflows");
  *pitch = (width + kAlign - 1) / kAlign * kAlign;
  if (__builtin_mul_overflow(*pitch, height, &bytes))
    return Status(hipErrorOutOfMemory, fmt::format("{} rows of {} bytes overflow", height, *pitch));
  return bytes;
}

}  // namespace
}  // namespace weft::api

using namespace weft;
using namespace weft::api;

WEFT_EXPORT hipError_t hipMalloc(void** ptr, size_t size) {
  return call(
      "hipMalloc", [&] { return allocate(ptr, size, AllocationKind::kDevice, 0); }, ptr, size);
}

WEFT_EXPORT hipError_t hipExtMallocWithFlags(void** ptr, size_t size, unsigned int flags) {
  return call(
      "hipExtMallocWithFlags",
      [&] {
    if (flags > hipDeviceMallocContiguous) return invalid_value("unknown hipDeviceMalloc flags");
    return allocate(ptr, size, AllocationKind::kDevice, flags);
      },
      ptr, size, flags);
}

WEFT_EXPORT hipError_t hipMallocManaged(void** ptr, size_t size, unsigned int flags) {
  return call(
      "hipMallocManaged",
      [&] {
    if (flags != hipMemAttachGlobal && flags != hipMemAttachHost)
      return invalid_value("flags must be hipMemAttachGlobal or hipMemAttachHost");
    if (size == 0) return invalid_value("managed allocations must not be empty");
    // The CPU agent's managed memory is host memory that nothing can page out to a
    // device: more than is free would only overcommit the host (GPU agents may
    // oversubscribe managed memory; their drivers decide).
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    if (device->driver_device().kind() == AgentKind::kCpu) {
      size_t free_bytes = device->driver_device().memory_info().free_bytes;
      if (size > free_bytes)
        return Status(
            hipErrorOutOfMemory,
            fmt::format("{} bytes of managed memory exceed the {} bytes free on device {}", size,
                        free_bytes, device->ordinal()));
    }
    return allocate(ptr, size, AllocationKind::kManaged, flags);
      },
      ptr, size, flags);
}

WEFT_EXPORT hipError_t hipFree(void* ptr) {
  return call(
      "hipFree",
      [&] {
    return release(ptr,
                   {AllocationKind::kDevice, AllocationKind::kManaged, AllocationKind::kHostPinned},
                   "hipMalloc");
      },
      ptr);
}

static Status host_malloc(void** ptr, size_t size, unsigned flags) {
  if (flags & ~kHostMallocFlags) return invalid_value("unknown hipHostMalloc flags");
  if ((flags & hipHostMallocCoherent) && (flags & hipHostMallocNonCoherent))
    return invalid_value("hipHostMallocCoherent and hipHostMallocNonCoherent are exclusive");
  return allocate(ptr, size, AllocationKind::kHostPinned, flags);
}

WEFT_EXPORT hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags) {
  return call(
      "hipHostMalloc", [&] { return host_malloc(ptr, size, flags); }, ptr, size, flags);
}

WEFT_EXPORT hipError_t hipHostAlloc(void** ptr, size_t size, unsigned int flags) {
  return call(
      "hipHostAlloc", [&] { return host_malloc(ptr, size, flags); }, ptr, size, flags);
}

WEFT_EXPORT hipError_t hipMallocHost(void** ptr, size_t size) {
  return call(
      "hipMallocHost", [&] { return host_malloc(ptr, size, 0); }, ptr, size);
}

WEFT_EXPORT hipError_t hipMemAllocHost(void** ptr, size_t size) {
  return call(
      "hipMemAllocHost", [&] { return host_malloc(ptr, size, 0); }, ptr, size);
}

WEFT_EXPORT hipError_t hipHostFree(void* ptr) {
  return call(
      "hipHostFree", [&] { return release(ptr, {AllocationKind::kHostPinned}, "hipHostMalloc"); },
      ptr);
}

WEFT_EXPORT hipError_t hipFreeHost(void* ptr) {
  return call(
      "hipFreeHost", [&] { return release(ptr, {AllocationKind::kHostPinned}, "hipHostMalloc"); },
      ptr);
}

WEFT_EXPORT hipError_t hipHostRegister(void* host_ptr, size_t size, unsigned int flags) {
  return call(
      "hipHostRegister",
      [&] {
    if (!host_ptr || size == 0) return invalid_value("null pointer or zero size");
    if (flags & ~kHostRegisterFlags) return invalid_value("unknown hipHostRegister flags");
    WEFT_RETURN_IF_ERROR(check_mapped(host_ptr, size, flags & hipHostRegisterReadOnly));
    Runtime& rt = Runtime::get();
    auto* bytes = static_cast<std::byte*>(host_ptr);
    if (rt.pointers().find(bytes) || rt.pointers().find(bytes + size - 1))
      return Status(hipErrorHostMemoryAlreadyRegistered, "range overlaps registered or HIP memory");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    WEFT_ASSIGN_OR_RETURN(void* device_ptr,
                          device->driver_device().register_host(host_ptr, size, flags));
    AllocationRecord record;
    record.base = bytes;
    record.size = size;
    record.device = device->ordinal();
    record.kind = AllocationKind::kRegistered;
    record.flags = flags;
    record.device_ptr = device_ptr;
    rt.pointers().insert(record);
    return Status();
      },
      host_ptr, size, flags);
}

WEFT_EXPORT hipError_t hipHostUnregister(void* host_ptr) {
  return call(
      "hipHostUnregister",
      [&] {
    if (!host_ptr) return invalid_value("null pointer");
    Runtime& rt = Runtime::get();
    auto record = rt.pointers().find(host_ptr);
    if (!record || record->kind != AllocationKind::kRegistered || record->base != host_ptr)
      return Status(hipErrorHostMemoryNotRegistered,
                    "pointer was not registered with hipHostRegister");
    DeviceState* device = rt.device(record->device);
    WEFT_RETURN_IF_ERROR(device->synchronize());
    rt.pointers().erase(host_ptr);
    return device->driver_device().unregister_host(host_ptr);
      },
      host_ptr);
}

WEFT_EXPORT hipError_t hipHostGetDevicePointer(void** device_ptr, void* host_ptr,
                                               unsigned int flags) {
  return call(
      "hipHostGetDevicePointer",
      [&] {
    if (!device_ptr || !host_ptr) return invalid_value("null pointer");
    if (flags != 0) return invalid_value("flags must be 0");
    auto record = Runtime::get().pointers().find(host_ptr);
    if (!record || (record->kind != AllocationKind::kHostPinned &&
                    record->kind != AllocationKind::kRegistered))
      return invalid_value("pointer is not pinned or registered host memory");
    *device_ptr = static_cast<std::byte*>(record->device_ptr) +
                  (static_cast<std::byte*>(host_ptr) - record->base);
    return Status();
      },
      device_ptr, host_ptr, flags);
}

WEFT_EXPORT hipError_t hipHostGetFlags(unsigned int* flags, void* host_ptr) {
  return call(
      "hipHostGetFlags",
      [&] {
    if (!flags || !host_ptr) return invalid_value("null pointer");
    auto record = Runtime::get().pointers().find(host_ptr);
    if (!record || (record->kind != AllocationKind::kHostPinned &&
                    record->kind != AllocationKind::kRegistered))
      return invalid_value("pointer is not pinned or registered host memory");
    *flags = record->flags;
    return Status();
      },
      flags, host_ptr);
}

WEFT_EXPORT hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
  return call(
      "hipMallocPitch",
      [&] {
    if (!ptr || !pitch) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(size_t bytes, pitched_bytes(width, height, pitch));
    return allocate(ptr, bytes, AllocationKind::kDevice, 0);
      },
      ptr, pitch, width, height);
}

WEFT_EXPORT hipError_t hipMalloc3D(hipPitchedPtr* pitched, hipExtent extent) {
  return call(
      "hipMalloc3D",
      [&] {
    if (!pitched) return invalid_value("null output pointer");
    constexpr size_t kAlign = 256;  // the row alignment hipMallocPitch uses
    if (extent.width > SIZE_MAX - kAlign) return Status(hipErrorOutOfMemory, "size overflows");
    size_t pitch = (extent.width + kAlign - 1) / kAlign * kAlign;
    size_t bytes = 0;
    if (__builtin_mul_overflow(pitch, extent.height, &bytes) ||
        __builtin_mul_overflow(bytes, extent.depth, &bytes))
      return Status(hipErrorOutOfMemory, "size overflows");
    void* ptr = nullptr;
    WEFT_RETURN_IF_ERROR(allocate(&ptr, bytes, AllocationKind::kDevice, 0));
    *pitched = hipPitchedPtr{ptr, pitch, extent.width, extent.height};
    return Status();
      },
      pitched, extent.width, extent.height, extent.depth);
}

WEFT_EXPORT hipError_t hipMemAllocPitch(hipDeviceptr_t* ptr, size_t* pitch, size_t width,
                                        size_t height, unsigned int element_bytes) {
  return call(
      "hipMemAllocPitch",
      [&] {
    if (element_bytes != 4 && element_bytes != 8 && element_bytes != 16)
      return invalid_value("element size must be 4, 8 or 16");
    if (!ptr || !pitch) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(size_t bytes, pitched_bytes(width, height, pitch));
    return allocate(reinterpret_cast<void**>(ptr), bytes, AllocationKind::kDevice, 0);
      },
      ptr, pitch, width, height, element_bytes);
}

WEFT_EXPORT hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  return call(
      "hipMemGetInfo",
      [&] {
    if (!free_bytes || !total_bytes) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    MemoryInfo info = device->driver_device().memory_info();
    *free_bytes = info.free_bytes;
    *total_bytes = info.total_bytes;
    return Status();
      },
      free_bytes, total_bytes);
}

WEFT_EXPORT hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr) {
  return call(
      "hipPointerGetAttributes",
      [&] {
    if (!attributes) return invalid_value("null output pointer");
    *attributes = hipPointerAttribute_t{};
    attributes->device = -2;  // CUDA's "no device" for unregistered memory
    auto record = Runtime::get().pointers().find(ptr);
    if (!record) {
      attributes->type = hipMemoryTypeUnregistered;
      return Status();
    }
    size_t offset = static_cast<size_t>(static_cast<const std::byte*>(ptr) - record->base);
    attributes->device = record->device;
    attributes->allocationFlags = record->flags;
    switch (record->kind) {
      case AllocationKind::kDevice:
        attributes->type = hipMemoryTypeDevice;
        attributes->devicePointer = const_cast<void*>(ptr);
        break;
      case AllocationKind::kManaged:
        attributes->type = hipMemoryTypeManaged;
        attributes->isManaged = 1;
        attributes->devicePointer = const_cast<void*>(ptr);
        attributes->hostPointer = const_cast<void*>(ptr);
        break;
      case AllocationKind::kHostPinned:
      case AllocationKind::kRegistered:
        attributes->type = hipMemoryTypeHost;
        attributes->hostPointer = const_cast<void*>(ptr);
        attributes->devicePointer = static_cast<std::byte*>(record->device_ptr) + offset;
        break;
    }
    return Status();
      },
      attributes, ptr);
}

WEFT_EXPORT hipError_t hipMemGetAddressRange(hipDeviceptr_t* base, size_t* size,
                                             hipDeviceptr_t ptr) {
  return call(
      "hipMemGetAddressRange",
      [&] {
    auto record = Runtime::get().pointers().find(ptr);
    if (!record) return Status(hipErrorNotFound, "pointer is not inside any HIP allocation");
    if (base) *base = record->base;
    if (size) *size = record->size;
    return Status();
      },
      base, size, ptr);
}

namespace {

// One hipPointerGetAttribute answer (also each of hipDrvPointerGetAttributes').
Status pointer_attribute(void* data, hipPointer_attribute attribute, hipDeviceptr_t ptr) {
  if (!data) return invalid_value("null output pointer");
  if (!ptr) return invalid_value("null pointer");
  auto record = Runtime::get().pointers().find(ptr);
  if (!record) return invalid_value(fmt::format("{} is not memory known to HIP", ptr));
  size_t offset = static_cast<size_t>(static_cast<const std::byte*>(ptr) - record->base);
  bool host =
      record->kind == AllocationKind::kHostPinned || record->kind == AllocationKind::kRegistered;
  switch (attribute) {
    case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE: {
      hipMemoryType type = host                                     ? hipMemoryTypeHost
                         : record->kind == AllocationKind::kManaged ? hipMemoryTypeManaged
                                                                    : hipMemoryTypeDevice;
      *static_cast<unsigned*>(data) = static_cast<unsigned>(type);
      return Status();
    }
    case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER:
      *static_cast<void**>(data) =
          host ? static_cast<std::byte*>(record->device_ptr) + offset : ptr;
      return Status();
    case HIP_POINTER_ATTRIBUTE_HOST_POINTER:
      if (record->kind == AllocationKind::kDevice)
        return invalid_value("device memory has no host pointer");
      *static_cast<void**>(data) = ptr;
      return Status();
    case HIP_POINTER_ATTRIBUTE_IS_MANAGED:
      *static_cast<bool*>(data) = record->kind == AllocationKind::kManaged;
      return Status();
    case HIP_POINTER_ATTRIBUTE_MAPPED:
      *static_cast<bool*>(data) = true;  // every tracked allocation is mapped
      return Status();
    case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      *static_cast<int*>(data) = record->device;
      return Status();
    case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR:
      *static_cast<void**>(data) = record->base;
      return Status();
    case HIP_POINTER_ATTRIBUTE_RANGE_SIZE:
      *static_cast<size_t*>(data) = record->size;
      return Status();
    case HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
      // Graph memory comes from an internal pool that has no handle.
      *static_cast<hipMemPool_t*>(data) =
          record->pool &&
                  static_cast<MemPool*>(record->pool.get())->origin() != MemPool::Origin::kGraph
              ? mempool::handle_of(*static_cast<MemPool*>(record->pool.get()))
              : nullptr;
      return Status();
    case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS:
      // weft's synchronous copies and fills always wait for their work (and for
      // the device's earlier work, as CUDA's synchronous memops do).
      *static_cast<bool*>(data) = true;
      return Status();
    default:
      return invalid_value(fmt::format("pointer attribute {} is not supported by weft",
                                       static_cast<int>(attribute)));
  }
}

// The size of one attribute's answer, for hipDrvPointerGetAttributes' defaults.
size_t attribute_bytes(hipPointer_attribute attribute) {
  switch (attribute) {
    case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE: return sizeof(unsigned);
    case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL: return sizeof(int);
    case HIP_POINTER_ATTRIBUTE_RANGE_SIZE: return sizeof(size_t);
    case HIP_POINTER_ATTRIBUTE_IS_MANAGED:
    case HIP_POINTER_ATTRIBUTE_MAPPED:
    case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS: return sizeof(bool);
    default: return sizeof(void*);
  }
}

}  // namespace

WEFT_EXPORT hipError_t hipPointerGetAttribute(void* data, hipPointer_attribute attribute,
                                              hipDeviceptr_t ptr) {
  return call(
      "hipPointerGetAttribute", [&] { return pointer_attribute(data, attribute, ptr); }, data,
      attribute, ptr);
}

WEFT_EXPORT hipError_t hipDrvPointerGetAttributes(unsigned int numAttributes,
                                                  hipPointer_attribute* attributes, void** data,
                                                  hipDeviceptr_t ptr) {
  return call(
      "hipDrvPointerGetAttributes",
      [&]() -> Status {
        if (numAttributes == 0 || !attributes || !data)
          return invalid_value("no attributes, or null arrays");
        for (unsigned i = 0; i < numAttributes; ++i)
          if (!data[i]) return invalid_value(fmt::format("null output for attribute {}", i));
        // As CUDA's form: memory HIP does not know is no error; its answers are zero/null.
        const bool known = ptr && Runtime::get().pointers().find(ptr);
        for (unsigned i = 0; i < numAttributes; ++i) {
          if (!known) {
            if (raw_value(attributes[i]) == HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
              *static_cast<int*>(data[i]) = -2;
            else std::memset(data[i], 0, attribute_bytes(attributes[i]));
            continue;
          }
          Status status = pointer_attribute(data[i], attributes[i], ptr);
          if (!status.ok())
            return Status(status.code(), fmt::format("attribute {}: {}", i, status.message()));
        }
        return Status();
      },
      numAttributes, attributes, data, ptr);
}

WEFT_EXPORT hipError_t hipPointerSetAttribute(const void* value, hipPointer_attribute attribute,
                                              hipDeviceptr_t ptr) {
  return call(
      "hipPointerSetAttribute",
      [&]() -> Status {
        if (!value) return invalid_value("null value");
        if (!ptr) return invalid_value("null pointer");
        if (raw_value(attribute) != HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS)
          return invalid_value(fmt::format(
              "pointer attribute {} cannot be set (only HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS)",
              raw_value(attribute)));
        auto record = Runtime::get().pointers().find(ptr);
        if (!record ||
            (record->kind != AllocationKind::kDevice && record->kind != AllocationKind::kManaged))
          return invalid_value(fmt::format("{} is not device memory HIP allocated", ptr));
        // Synchronous memory operations on it are synchronous in weft whatever the value
        // (hipPointerGetAttribute reports 1): there is no asynchronous form to turn on.
        return Status();
      },
      value, attribute, ptr);
}

WEFT_EXPORT hipError_t hipMemPtrGetInfo(void* ptr, size_t* size) {
  return call(
      "hipMemPtrGetInfo",
      [&] {
    if (!ptr || !size) return invalid_value("null pointer");
    auto record = Runtime::get().pointers().find(ptr);
    if (!record) return invalid_value(fmt::format("{} is not inside any HIP allocation", ptr));
    *size = record->size;
    return Status();
      },
      ptr, size);
}
