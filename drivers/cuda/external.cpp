// SPDX-License-Identifier: MIT
// External memory and semaphores on the NVIDIA agent: cuImportExternalMemory,
// cuExternalMemoryGetMappedBuffer, cuImportExternalSemaphore and the stream-ordered
// cuSignal/WaitExternalSemaphoresAsync, each on this device's primary context. CUDA
// takes the descriptor on a successful import, as HIP does. The entry points are
// optional in the table: an old libcuda answers hipErrorNotSupported.
#include "device.hpp"
#include "queue.hpp"
#include "status.hpp"

namespace weft::cuda {
namespace {

Status missing(const char* name) {
  return Status(hipErrorNotSupported,
                std::string("libcuda has no ") + name + ": the driver is too old");
}

// A buffer from cuExternalMemoryGetMappedBuffer, freed with cuMemFree (hipFree).
class CudaExternalMapping final : public RefCounted {
 public:
  CudaExternalMapping(Ref<CudaDevice> device, CUdeviceptr ptr)
      : device_(std::move(device)), ptr_(ptr) {}
  ~CudaExternalMapping() override {
    if (device_->make_current().ok()) (void)device_->api().cuMemFree(ptr_);
  }

 private:
  Ref<CudaDevice> device_;
  const CUdeviceptr ptr_;
};

class CudaExternalMemory final : public ExternalMemory {
 public:
  CudaExternalMemory(Ref<CudaDevice> device, CUexternalMemory memory)
      : device_(std::move(device)), memory_(memory) {}
  ~CudaExternalMemory() override {
    if (device_->make_current().ok()) (void)device_->api().cuDestroyExternalMemory(memory_);
  }

  Result<ExternalBuffer> map_buffer(uint64_t offset, uint64_t bytes) override {
    WEFT_RETURN_IF_ERROR(device_->make_current());
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC desc{};
    desc.offset = offset;
    desc.size = bytes;
    CUdeviceptr ptr = 0;
    WEFT_CU_RETURN_IF_ERROR(device_->api().cuExternalMemoryGetMappedBuffer(&ptr, memory_, &desc));
    ExternalBuffer buffer;
    buffer.ptr = reinterpret_cast<void*>(ptr);
    buffer.mapping = make_ref<CudaExternalMapping>(device_, ptr);
    return buffer;
  }

 private:
  Ref<CudaDevice> device_;
  const CUexternalMemory memory_;
};

class CudaExternalSemaphore final : public ExternalSemaphore {
 public:
  CudaExternalSemaphore(Ref<CudaDevice> device, CUexternalSemaphore semaphore)
      : device_(std::move(device)), semaphore_(semaphore) {}
  ~CudaExternalSemaphore() override {
    if (device_->make_current().ok()) (void)device_->api().cuDestroyExternalSemaphore(semaphore_);
  }

  // Queues of this agent are CudaQueues (the contract gives a semaphore only its own
  // agent's queues).
  Status submit(Queue& queue, bool signal, uint64_t value) override {
    WEFT_RETURN_IF_ERROR(device_->make_current());
    CUstream stream = static_cast<CudaQueue&>(queue).stream();
    const Api& api = device_->api();
    if (signal) {
      CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS params{};
      params.params.fence.value = value;
      WEFT_CU_RETURN_IF_ERROR(api.cuSignalExternalSemaphoresAsync(&semaphore_, &params, 1, stream));
    } else {
      CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS params{};
      params.params.fence.value = value;
      WEFT_CU_RETURN_IF_ERROR(api.cuWaitExternalSemaphoresAsync(&semaphore_, &params, 1, stream));
    }
    return Status();
  }

 private:
  Ref<CudaDevice> device_;
  const CUexternalSemaphore semaphore_;
};

}  // namespace

Result<Ref<ExternalMemory>> CudaDevice::import_external_memory(const ExternalMemoryDesc& d) {
  if (!api_.cuImportExternalMemory || !api_.cuExternalMemoryGetMappedBuffer ||
      !api_.cuDestroyExternalMemory)
    return missing("cuImportExternalMemory");
  WEFT_RETURN_IF_ERROR(make_current());
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc{};
  desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
  desc.handle.fd = d.fd;
  desc.size = d.bytes;
  desc.flags = d.dedicated ? CUDA_EXTERNAL_MEMORY_DEDICATED : 0;
  CUexternalMemory memory = nullptr;
  WEFT_CU_RETURN_IF_ERROR(api_.cuImportExternalMemory(&memory, &desc));
  return Ref<ExternalMemory>(make_ref<CudaExternalMemory>(Ref<CudaDevice>(this), memory));
}

Result<Ref<ExternalSemaphore>> CudaDevice::import_external_semaphore(int fd,
                                                                     ExternalSemaphoreKind kind) {
  if (!api_.cuImportExternalSemaphore || !api_.cuSignalExternalSemaphoresAsync ||
      !api_.cuWaitExternalSemaphoresAsync || !api_.cuDestroyExternalSemaphore)
    return missing("cuImportExternalSemaphore");
  WEFT_RETURN_IF_ERROR(make_current());
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc{};
  desc.type = kind == ExternalSemaphoreKind::kTimeline
                ? CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD
                : CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
  desc.handle.fd = fd;
  CUexternalSemaphore semaphore = nullptr;
  WEFT_CU_RETURN_IF_ERROR(api_.cuImportExternalSemaphore(&semaphore, &desc));
  return Ref<ExternalSemaphore>(make_ref<CudaExternalSemaphore>(Ref<CudaDevice>(this), semaphore));
}

}  // namespace weft::cuda
