// SPDX-License-Identifier: MIT
// Virtual memory on the NVIDIA agent: each Device::vm_* call is its cuMem*
// counterpart on this device (CudaDevice's optional methods). The runtime has
// checked every range already (src/api/virtual_memory.cpp). The entry points are
// optional in the table: a libcuda without them answers hipErrorNotSupported.
#include <cstdint>

#include "device.hpp"
#include "status.hpp"

namespace weft::cuda {
namespace {

// One cuMemCreate (or imported) allocation; released with the last reference.
class CudaPhysicalMemory final : public PhysicalMemory {
 public:
  CudaPhysicalMemory(const Api& api, CUmemGenericAllocationHandle handle, size_t bytes)
      : api_(api), handle_(handle), bytes_(bytes) {}
  ~CudaPhysicalMemory() override { (void)api_.cuMemRelease(handle_); }
  size_t size() const override { return bytes_; }
  CUmemGenericAllocationHandle handle() const { return handle_; }

 private:
  const Api& api_;
  const CUmemGenericAllocationHandle handle_;
  const size_t bytes_;
};

CUmemAllocationProp pinned_on(CUdevice device, bool exportable) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes =
      exportable ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR : CU_MEM_HANDLE_TYPE_NONE;
  return prop;
}

Status missing(const char* name) {
  return Status(hipErrorNotSupported, std::string("libcuda has no ") + name +
                                          ": the driver is too old for virtual memory");
}

CUdeviceptr device_address(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

}  // namespace

Result<size_t> CudaDevice::vm_granularity(bool recommended) const {
  if (!api_.cuMemGetAllocationGranularity) return missing("cuMemGetAllocationGranularity");
  CUmemAllocationProp prop = pinned_on(device_, false);
  size_t granularity = 0;
  WEFT_CU_RETURN_IF_ERROR(api_.cuMemGetAllocationGranularity(
      &granularity, &prop,
      recommended ? CU_MEM_ALLOC_GRANULARITY_RECOMMENDED : CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  return granularity;
}

Result<Ref<PhysicalMemory>> CudaDevice::vm_create(size_t bytes, bool exportable) {
  if (!api_.cuMemCreate || !api_.cuMemRelease) return missing("cuMemCreate");
  WEFT_RETURN_IF_ERROR(make_current());
  CUmemAllocationProp prop = pinned_on(device_, exportable);
  CUmemGenericAllocationHandle handle = 0;
  WEFT_CU_RETURN_IF_ERROR(api_.cuMemCreate(&handle, bytes, &prop, 0));
  return Ref<PhysicalMemory>(make_ref<CudaPhysicalMemory>(api_, handle, bytes));
}

Result<void*> CudaDevice::vm_reserve(size_t bytes, size_t alignment, void* hint) {
  if (!api_.cuMemAddressReserve) return missing("cuMemAddressReserve");
  WEFT_RETURN_IF_ERROR(make_current());
  CUdeviceptr base = 0;
  WEFT_CU_RETURN_IF_ERROR(
      api_.cuMemAddressReserve(&base, bytes, alignment, device_address(hint), 0));
  return reinterpret_cast<void*>(base);
}

Status CudaDevice::vm_free_range(void* base, size_t bytes) {
  if (!api_.cuMemAddressFree) return missing("cuMemAddressFree");
  WEFT_RETURN_IF_ERROR(make_current());
  WEFT_CU_RETURN_IF_ERROR(api_.cuMemAddressFree(device_address(base), bytes));
  return Status();
}

Status CudaDevice::vm_map(void* address, size_t bytes, PhysicalMemory& memory, size_t offset) {
  if (!api_.cuMemMap) return missing("cuMemMap");
  auto* own = dynamic_cast<CudaPhysicalMemory*>(&memory);
  if (!own) return Status(hipErrorInvalidValue, "the physical memory belongs to another agent");
  WEFT_RETURN_IF_ERROR(make_current());
  WEFT_CU_RETURN_IF_ERROR(api_.cuMemMap(device_address(address), bytes, offset, own->handle(), 0));
  return Status();
}

Status CudaDevice::vm_unmap(void* address, size_t bytes) {
  if (!api_.cuMemUnmap) return missing("cuMemUnmap");
  WEFT_RETURN_IF_ERROR(make_current());
  WEFT_CU_RETURN_IF_ERROR(api_.cuMemUnmap(device_address(address), bytes));
  return Status();
}

Status CudaDevice::vm_set_access(void* address, size_t bytes, VmAccess access) {
  if (!api_.cuMemSetAccess) return missing("cuMemSetAccess");
  WEFT_RETURN_IF_ERROR(make_current());
  CUmemAccessDesc desc{};
  desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  desc.location.id = device_;
  desc.flags = access == VmAccess::kReadWrite ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
             : access == VmAccess::kRead      ? CU_MEM_ACCESS_FLAGS_PROT_READ
                                              : CU_MEM_ACCESS_FLAGS_PROT_NONE;
  WEFT_CU_RETURN_IF_ERROR(api_.cuMemSetAccess(device_address(address), bytes, &desc, 1));
  return Status();
}

Result<int> CudaDevice::vm_export_fd(PhysicalMemory& memory) {
  if (!api_.cuMemExportToShareableHandle) return missing("cuMemExportToShareableHandle");
  auto* own = dynamic_cast<CudaPhysicalMemory*>(&memory);
  if (!own) return Status(hipErrorInvalidValue, "the physical memory belongs to another agent");
  WEFT_RETURN_IF_ERROR(make_current());
  int fd = -1;
  WEFT_CU_RETURN_IF_ERROR(api_.cuMemExportToShareableHandle(
      &fd, own->handle(), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  return fd;
}

Result<Ref<PhysicalMemory>> CudaDevice::vm_import_fd(int fd) {
  if (!api_.cuMemImportFromShareableHandle || !api_.cuMemRelease)
    return missing("cuMemImportFromShareableHandle");
  WEFT_RETURN_IF_ERROR(make_current());
  CUmemGenericAllocationHandle handle = 0;
  // CUDA takes a POSIX descriptor as the value itself, cast to a pointer.
  WEFT_CU_RETURN_IF_ERROR(api_.cuMemImportFromShareableHandle(
      &handle, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
      CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  // CUDA reports no size for an imported handle; cuMemMap checks the ranges.
  return Ref<PhysicalMemory>(make_ref<CudaPhysicalMemory>(api_, handle, SIZE_MAX));
}

}  // namespace weft::cuda
