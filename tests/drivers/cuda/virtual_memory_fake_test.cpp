// SPDX-License-Identifier: MIT
// The NVIDIA driver's virtual memory methods against the fake libcuda: each Device::vm_*
// call becomes its cuMem* counterpart with this device's location and the right flags,
// physical memory is released with its last reference, and a libcuda without the cuMem*
// entry points answers hipErrorNotSupported.
#include <memory>
#include <weft/driver/device.hpp>

#include "device.hpp"
#include "fake_cuda.hpp"
#include "fake_test_support.hpp"
#include "hip_test.hpp"

namespace weft::cuda {
std::unique_ptr<Driver> make_driver();
}

using fake_cuda::FakeCuda;
using fake_cuda::state;

TEST_CASE("Cuda_Fake_VirtualMemory_EachCallIsItsCuMem") {
  FakeCuda fake;
  auto driver = weft::cuda::make_driver();
  auto devices = driver->devices();
  REQUIRE(devices.size() == 1);
  weft::Device& device = *devices[0];

  CHECK(fake_cuda::require_value(device.vm_granularity(false)) == (size_t{2} << 20));
  CHECK(fake_cuda::last_vm_call().detail == CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  CHECK(fake_cuda::last_vm_call().device == 0);
  CHECK(fake_cuda::require_value(device.vm_granularity(true)) == (size_t{4} << 20));
  CHECK(fake_cuda::last_vm_call().detail == CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);

  const size_t chunk = size_t{2} << 20;
  {
    weft::Ref<weft::PhysicalMemory> memory =
        fake_cuda::require_value(device.vm_create(chunk, true));
    const fake_cuda::VmCall create = fake_cuda::last_vm_call();
    CHECK(create.name == "Create");
    CHECK(create.bytes == chunk);
    CHECK(create.detail == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    CHECK(create.device == 0);
    CHECK(memory->size() == chunk);

    void* base = fake_cuda::require_value(device.vm_reserve(2 * chunk, 0, nullptr));
    CHECK(fake_cuda::last_vm_call().name == "AddressReserve");
    CHECK(fake_cuda::last_vm_call().bytes == 2 * chunk);
    auto address = reinterpret_cast<CUdeviceptr>(base);
    void* second = static_cast<char*>(base) + chunk;
    REQUIRE(device.vm_map(second, chunk, *memory, 0).ok());
    CHECK(fake_cuda::last_vm_call().name == "Map");
    CHECK(fake_cuda::last_vm_call().address == address + chunk);
    CHECK(fake_cuda::last_vm_call().handle == create.handle);
    REQUIRE(device.vm_set_access(second, chunk, weft::VmAccess::kReadWrite).ok());
    CHECK(fake_cuda::last_vm_call().name == "SetAccess");
    CHECK(fake_cuda::last_vm_call().detail == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    CHECK(fake_cuda::last_vm_call().device == 0);
    REQUIRE(device.vm_set_access(second, chunk, weft::VmAccess::kRead).ok());
    CHECK(fake_cuda::last_vm_call().detail == CU_MEM_ACCESS_FLAGS_PROT_READ);
    CHECK(fake_cuda::require_value(device.vm_export_fd(*memory)) == 77);
    CHECK(fake_cuda::last_vm_call().detail == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    REQUIRE(device.vm_unmap(second, chunk).ok());
    CHECK(fake_cuda::last_vm_call().name == "Unmap");
    REQUIRE(device.vm_free_range(base, 2 * chunk).ok());
    CHECK(fake_cuda::last_vm_call().name == "AddressFree");
    CHECK(fake_cuda::last_vm_call().address == address);

    weft::Ref<weft::PhysicalMemory> imported = fake_cuda::require_value(device.vm_import_fd(12));
    CHECK(fake_cuda::last_vm_call().name == "ImportFromShareableHandle");
    CHECK(fake_cuda::last_vm_call().detail == 12);
    CHECK(imported->size() == SIZE_MAX);  // CUDA cannot tell; cuMemMap checks
    const size_t before = state().vm_calls.size();
    imported = nullptr;
    REQUIRE(state().vm_calls.size() == before + 1);
    CHECK(fake_cuda::last_vm_call().name == "Release");
    memory = nullptr;
    CHECK(fake_cuda::last_vm_call().name == "Release");
    CHECK(fake_cuda::last_vm_call().handle == create.handle);
  }
}

TEST_CASE("Cuda_Fake_VirtualMemory_OldDriverIsNotSupported") {
  FakeCuda fake;
  auto* api = const_cast<weft::cuda::Api*>(&fake.api());
  api->cuMemCreate = nullptr;
  api->cuMemGetAllocationGranularity = nullptr;
  api->cuMemAddressReserve = nullptr;
  auto driver = weft::cuda::make_driver();
  auto devices = driver->devices();
  REQUIRE(devices.size() == 1);
  CHECK(devices[0]->vm_granularity(false).status().code() == hipErrorNotSupported);
  CHECK(devices[0]->vm_create(size_t{2} << 20, false).status().code() == hipErrorNotSupported);
  CHECK(devices[0]->vm_reserve(size_t{2} << 20, 0, nullptr).status().code() ==
        hipErrorNotSupported);
  CHECK(state().vm_calls.empty());
}
