// SPDX-License-Identifier: MIT
// The NVIDIA driver's external memory and semaphores against the fake libcuda: each
// import is its cuImportExternal* call with the descriptor and size, a buffer is
// cuExternalMemoryGetMappedBuffer (freed by cuMemFree when its mapping goes), signals
// and waits are the stream-ordered CUDA calls on the queue's stream with the fence
// value, objects are destroyed with their last reference, and a libcuda without the
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

TEST_CASE("Cuda_Fake_ExternalMemory_ImportMapDestroy") {
  FakeCuda fake;
  auto driver = weft::cuda::make_driver();
  auto devices = driver->devices();
  REQUIRE(devices.size() == 1);
  weft::Device& device = *devices[0];
  {
    weft::ExternalMemoryDesc desc;
    desc.fd = 42;
    desc.bytes = 1 << 20;
    desc.dedicated = true;
    weft::Ref<weft::ExternalMemory> memory =
        fake_cuda::require_value(device.import_external_memory(desc));
    const fake_cuda::VmCall import = fake_cuda::last_vm_call();
    CHECK(import.name == "ImportExternalMemory");
    CHECK(import.detail == 42);
    CHECK(import.bytes == (size_t{1} << 20));
    CHECK(import.device == CUDA_EXTERNAL_MEMORY_DEDICATED);

    weft::ExternalBuffer buffer = fake_cuda::require_value(memory->map_buffer(4096, 8192));
    CHECK(fake_cuda::last_vm_call().name == "ExternalMemoryGetMappedBuffer");
    CHECK(fake_cuda::last_vm_call().handle == import.handle);
    CHECK(fake_cuda::last_vm_call().detail == 4096);
    CHECK(fake_cuda::last_vm_call().bytes == 8192);
    CHECK(reinterpret_cast<CUdeviceptr>(buffer.ptr) == fake_cuda::last_vm_call().address);
    buffer.mapping = weft::Ref<weft::RefCounted>();  // cuMemFree (the fake frees it)
  }
  CHECK(fake_cuda::last_vm_call().name == "DestroyExternalMemory");
}

TEST_CASE("Cuda_Fake_ExternalSemaphore_SignalWaitOnTheQueueStream") {
  FakeCuda fake;
  auto driver = weft::cuda::make_driver();
  auto devices = driver->devices();
  REQUIRE(devices.size() == 1);
  weft::Device& device = *devices[0];
  weft::Ref<weft::Queue> queue = fake_cuda::require_value(device.create_queue({}));
  {
    weft::Ref<weft::ExternalSemaphore> sem = fake_cuda::require_value(
        device.import_external_semaphore(7, weft::ExternalSemaphoreKind::kTimeline));
    const fake_cuda::VmCall import = fake_cuda::last_vm_call();
    CHECK(import.name == "ImportExternalSemaphore");
    CHECK(import.detail == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CHECK(import.device == 7);
    // No op: CUDA operates its semaphores on a stream only.
    CHECK(sem->op(true, 1).status().code() == hipErrorNotSupported);

    REQUIRE(sem->submit(*queue, true, 5).ok());
    CHECK(fake_cuda::last_vm_call().name == "SignalExternalSemaphores");
    CHECK(fake_cuda::last_vm_call().handle == import.handle);
    CHECK(fake_cuda::last_vm_call().detail == 5);
    CHECK(fake_cuda::last_vm_call().address != 0);  // the queue's stream
    const CUdeviceptr stream = fake_cuda::last_vm_call().address;
    REQUIRE(sem->submit(*queue, false, 9).ok());
    CHECK(fake_cuda::last_vm_call().name == "WaitExternalSemaphores");
    CHECK(fake_cuda::last_vm_call().detail == 9);
    CHECK(fake_cuda::last_vm_call().address == stream);
  }
  CHECK(fake_cuda::last_vm_call().name == "DestroyExternalSemaphore");
  weft::Ref<weft::ExternalSemaphore> binary = fake_cuda::require_value(
      device.import_external_semaphore(8, weft::ExternalSemaphoreKind::kBinary));
  CHECK(state().vm_calls.back().detail == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD);
}

TEST_CASE("Cuda_Fake_External_OldDriverIsNotSupported") {
  FakeCuda fake;
  auto* api = const_cast<weft::cuda::Api*>(&fake.api());
  api->cuImportExternalMemory = nullptr;
  api->cuImportExternalSemaphore = nullptr;
  auto driver = weft::cuda::make_driver();
  auto devices = driver->devices();
  REQUIRE(devices.size() == 1);
  weft::ExternalMemoryDesc desc;
  desc.fd = 3;
  desc.bytes = 4096;
  CHECK(devices[0]->import_external_memory(desc).status().code() == hipErrorNotSupported);
  CHECK(devices[0]
            ->import_external_semaphore(3, weft::ExternalSemaphoreKind::kBinary)
            .status()
            .code() == hipErrorNotSupported);
}
