// SPDX-License-Identifier: MIT
// External memory (docs/external-interop.md): hipImportExternalMemory,
// hipExternalMemoryGetMappedBuffer, hipDestroyExternalMemory. The agent maps the memory (Device::import_external_memory);
// a mapped buffer is an allocation in the pointer table until hipFree.
#include "api/api.hpp"
#include "api/os_handles.hpp"
#include "runtime/handle_registry.hpp"

using namespace weft;
using namespace weft::api;

namespace {

struct ImportedMemory final : RefCounted {
  DeviceState* device = nullptr;
  Ref<ExternalMemory> memory;
  uint64_t bytes = 0;
};

HandleRegistry<ImportedMemory>& imported_memory() {
  static auto* registry = new HandleRegistry<ImportedMemory>();  // leaked: used until exit
  return *registry;
}

Status import_memory(hipExternalMemory_t* out, const hipExternalMemoryHandleDesc* desc) {
  if (!out || !desc) return invalid_value("null output or handle description");
  switch (raw_value(desc->type)) {
    case hipExternalMemoryHandleTypeOpaqueFd: break;
    case hipExternalMemoryHandleTypeOpaqueWin32:
    case hipExternalMemoryHandleTypeOpaqueWin32Kmt:
    case hipExternalMemoryHandleTypeD3D12Heap:
    case hipExternalMemoryHandleTypeD3D12Resource:
    case hipExternalMemoryHandleTypeD3D11Resource:
    case hipExternalMemoryHandleTypeD3D11ResourceKmt:
      return Status(hipErrorNotSupported, "Windows and Direct3D handles do not exist on Linux");
    default:
      return invalid_value(fmt::format("{} is not an external memory handle type HIP supports",
                                       raw_value(desc->type)));
  }
  if (desc->flags & ~unsigned(hipExternalMemoryDedicated))
    return invalid_value(
        fmt::format("flags {:#x} are not 0 or hipExternalMemoryDedicated", desc->flags));
  if (desc->size == 0) return invalid_value("the size of the external memory is 0");
  WEFT_RETURN_IF_ERROR(check_shareable_fd(desc->handle.fd, "external memory descriptor"));
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  ExternalMemoryDesc d;
  d.fd = desc->handle.fd;
  d.bytes = desc->size;
  d.dedicated = (desc->flags & hipExternalMemoryDedicated) != 0;
  WEFT_ASSIGN_OR_RETURN(Ref<ExternalMemory> memory,
                        device->driver_device().import_external_memory(d));
  auto imported = make_ref<ImportedMemory>();
  imported->device = device;
  imported->memory = std::move(memory);
  imported->bytes = desc->size;
  imported_memory().add(imported);
  *out = imported.get();
  return Status();
}

Status mapped_buffer(void** out, hipExternalMemory_t handle,
                     const hipExternalMemoryBufferDesc* desc) {
  if (!out || !desc) return invalid_value("null output or buffer description");
  Ref<ImportedMemory> imported = imported_memory().find(handle);
  if (!imported) return invalid_value("unknown or destroyed external memory");
  if (desc->flags != 0) return invalid_value("buffer flags must be 0");
  if (desc->size == 0) return invalid_value("the buffer's size is 0");
  if (desc->offset > imported->bytes || desc->size > imported->bytes - desc->offset)
    return invalid_value(fmt::format("offset {} + size {} runs past the external memory's {} bytes",
                                     desc->offset, desc->size, imported->bytes));
  WEFT_ASSIGN_OR_RETURN(ExternalBuffer buffer,
                        imported->memory->map_buffer(desc->offset, desc->size));
  AllocationRecord record;
  record.base = static_cast<std::byte*>(buffer.ptr);
  record.size = static_cast<size_t>(desc->size);
  record.device = imported->device->ordinal();
  record.kind = AllocationKind::kDevice;
  record.device_ptr = buffer.ptr;
  record.external_mapping = std::move(buffer.mapping);
  Runtime::get().pointers().insert(record);
  *out = buffer.ptr;
  return Status();
}

}  // namespace

WEFT_EXPORT hipError_t hipImportExternalMemory(hipExternalMemory_t* extMem_out,
                                               const hipExternalMemoryHandleDesc* memHandleDesc) {
  return call(
      "hipImportExternalMemory", [&] { return import_memory(extMem_out, memHandleDesc); },
      extMem_out, memHandleDesc);
}

WEFT_EXPORT hipError_t hipExternalMemoryGetMappedBuffer(
    void** devPtr, hipExternalMemory_t extMem, const hipExternalMemoryBufferDesc* bufferDesc) {
  return call(
      "hipExternalMemoryGetMappedBuffer", [&] { return mapped_buffer(devPtr, extMem, bufferDesc); },
      devPtr, extMem, bufferDesc);
}

WEFT_EXPORT hipError_t hipDestroyExternalMemory(hipExternalMemory_t extMem) {
  return call(
      "hipDestroyExternalMemory",
      [&] {
    // Buffers mapped from it stay valid until hipFree (as in CUDA and HIP).
    if (!imported_memory().remove(extMem))
      return invalid_value("unknown or destroyed external memory");
    return Status();
      },
      extMem);
}
