// SPDX-License-Identifier: MIT
#include "device.hpp"

#include <cstring>
#include <string>
#include <weft/common/log.hpp>

#include "command_buffer.hpp"
#include "event.hpp"
#include "module.hpp"
#include "queue.hpp"
#include "status.hpp"

namespace weft::cuda {

CudaDevice::CudaDevice(const Api& api, CUdevice device, DeviceFacts facts)
    : api_(api), device_(device), facts_(std::move(facts)) {
  caps_.runs_host_kernels = false;  // g++-compiled kernels are host code
  caps_.host_can_access_device_memory = false;
  caps_.owns_unlisted_device_memory = true;  // cuModuleGetGlobal addresses
  caps_.timing_events = true;
  caps_.faults_lose_context = true;   // CUDA's sticky errors (docs/nvidia.md, "Device faults")
  caps_.cooperative_launches = true;  // cuLaunchCooperativeKernel (queue.cpp)
  caps_.ops_read_at_submit = true;    // cuLaunchKernel copies kernelParams
}

CudaDevice::~CudaDevice() {
  if (context()) {
    free_deferred();
    (void)api_.cuDevicePrimaryCtxRelease(device_);
  }
}

Status CudaDevice::retain_context() {
  std::lock_guard lock(context_mutex_);
  if (context()) return Status();
  CUcontext ctx = nullptr;
  WEFT_CU_RETURN_IF_ERROR(api_.cuDevicePrimaryCtxRetain(&ctx, device_));
  if (CUresult r = api_.cuCtxSetCurrent(ctx); r != CUDA_SUCCESS) {
    (void)api_.cuDevicePrimaryCtxRelease(device_);
    return status_from_cuda(r, "cuCtxSetCurrent");
  }
  int least = 0, greatest = 0;
  if (api_.cuCtxGetStreamPriorityRange(&least, &greatest) == CUDA_SUCCESS) {
    least_priority_ = least;
    greatest_priority_ = greatest;
  }
  context_.store(ctx, std::memory_order_release);
  return Status();
}

Status CudaDevice::make_current() {
  CUcontext ctx = context();
  if (!ctx) {
    WEFT_RETURN_IF_ERROR(retain_context());
    ctx = context();
  }
  // Cheap (a thread-local read in libcuda); other code on this thread (cudart,
  // another device) may have switched contexts since our last call.
  CUcontext current = nullptr;
  if (api_.cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == ctx) return Status();
  WEFT_CU_RETURN_IF_ERROR(api_.cuCtxSetCurrent(ctx));
  return Status();
}

bool CudaDevice::adopt_context_after_failure() {
  CUcontext ctx = context();
  if (!ctx) {
    if (!retain_context().ok()) return false;
    ctx = context();
  }
  CUcontext current = nullptr;
  if (api_.cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == ctx) return false;
  return api_.cuCtxSetCurrent(ctx) == CUDA_SUCCESS;
}

Status CudaDevice::set_thread_stack_bytes(size_t bytes) {
  if (!api_.cuCtxSetLimit || !api_.cuCtxGetLimit) return Status();  // the core keeps the value
  WEFT_RETURN_IF_ERROR(make_current());
  WEFT_CU_RETURN_IF_ERROR(api_.cuCtxSetLimit(CU_LIMIT_STACK_SIZE, bytes));
  size_t in_effect = bytes;
  if (api_.cuCtxGetLimit(&in_effect, CU_LIMIT_STACK_SIZE) != CUDA_SUCCESS) in_effect = bytes;
  stack_bytes_.store(in_effect, std::memory_order_relaxed);
  return Status();
}

Result<int> CudaDevice::attribute(hipDeviceAttribute_t attr) const {
  // Only what hipDeviceProp_t cannot say; the core answers the rest from properties().
  int value = 0;
  switch (attr) {
    case hipDeviceAttributeCanUseStreamWaitValue: return facts_.stream_wait_value ? 1 : 0;
    case hipDeviceAttributeVirtualMemoryManagementSupported:
      // weft does not expose hipMemCreate/hipMemMap on this agent yet.
      return 0;
    case hipDeviceAttributeWallClockRate:
      return 1000000;  // %globaltimer ticks in ns: a 1 GHz wall clock (in kHz)
    case hipDeviceAttributeMaxPitch:
      if (api_.cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MAX_PITCH, device_) == CUDA_SUCCESS)
        return value;
      break;
    default: break;
  }
  return Status(hipErrorNotSupported, "answered from the device properties");
}

MemoryInfo CudaDevice::memory_info() const {
  MemoryInfo info;
  info.total_bytes = facts_.props.totalGlobalMem;
  // cuMemGetInfo needs the context; memory_info() is const but retaining the
  // context on first use is not an observable change of the agent.
  auto* self = const_cast<CudaDevice*>(this);
  if (!self->make_current().ok()) return info;
  size_t free_bytes = 0, total = 0;
  if (api_.cuMemGetInfo(&free_bytes, &total) == CUDA_SUCCESS) {
    info.free_bytes = free_bytes;
    info.total_bytes = total;
  }
  return info;
}

Result<void*> CudaDevice::allocate(MemoryKind kind, size_t bytes, unsigned flags) {
  WEFT_RETURN_IF_ERROR(make_current());
  switch (kind) {
    case MemoryKind::kDevice: {
      CUdeviceptr ptr = 0;
      WEFT_CU_RETURN_IF_ERROR(api_.cuMemAlloc(&ptr, bytes));
      return reinterpret_cast<void*>(ptr);
    }
    case MemoryKind::kHostPinned: {
      // Portable and mapped always: HIP's pinned memory is visible to every agent,
      // at the same address (unified addressing).
      unsigned cu_flags = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP;
      if (flags & hipHostMallocWriteCombined) cu_flags |= CU_MEMHOSTALLOC_WRITECOMBINED;
      void* ptr = nullptr;
      WEFT_CU_RETURN_IF_ERROR(api_.cuMemHostAlloc(&ptr, bytes, cu_flags));
      return ptr;
    }
    case MemoryKind::kManaged: {
      unsigned attach = (flags & hipMemAttachHost) ? CU_MEM_ATTACH_HOST : CU_MEM_ATTACH_GLOBAL;
      CUdeviceptr ptr = 0;
      WEFT_CU_RETURN_IF_ERROR(api_.cuMemAllocManaged(&ptr, bytes, attach));
      return reinterpret_cast<void*>(ptr);
    }
  }
  return Status(hipErrorInvalidValue, "unknown memory kind");
}

Status CudaDevice::deallocate(void* ptr, size_t /*bytes*/, MemoryKind kind) {
  if (HostLane::on_lane_thread()) {
    // A stream-ordered release (hipFreeAsync) runs on a host lane, whose stream
    // waits for it; cuMemFree/cuMemFreeHost wait for the device, which here would
    // never finish. Device memory goes back in the lane stream's own order
    // (cuMemFreeAsync returns at once, and takes cuMemAlloc memory); pinned host
    // memory, or a driver without cuMemFreeAsync, waits for an ordinary thread's
    // free (free_on_lane_later).
    if (kind == MemoryKind::kDevice && api_.cuMemFreeAsync && make_current().ok() &&
        api_.cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(ptr), HostLane::lane_stream()) ==
            CUDA_SUCCESS)
      return Status();
    free_on_lane_later(ptr, kind);
    return Status();
  }
  WEFT_RETURN_IF_ERROR(make_current());
  if (has_deferred_.load(std::memory_order_acquire)) free_deferred();
  if (kind == MemoryKind::kHostPinned) {
    WEFT_CU_RETURN_IF_ERROR(api_.cuMemFreeHost(ptr));
  } else {
    WEFT_CU_RETURN_IF_ERROR(api_.cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
  }
  return Status();
}

void CudaDevice::free_on_lane_later(void* ptr, MemoryKind kind) {
  std::lock_guard lock(deferred_mutex_);
  deferred_.push_back({ptr, kind});
  has_deferred_.store(true, std::memory_order_release);
}

void CudaDevice::free_deferred() {
  std::vector<DeferredFree> blocks;
  {
    std::lock_guard lock(deferred_mutex_);
    blocks.swap(deferred_);
    has_deferred_.store(false, std::memory_order_release);
  }
  for (const DeferredFree& block : blocks) {
    CUresult r = block.kind == MemoryKind::kHostPinned
                   ? api_.cuMemFreeHost(block.ptr)
                   : api_.cuMemFree(reinterpret_cast<CUdeviceptr>(block.ptr));
    if (r != CUDA_SUCCESS)
      log::warning(
          "stream-ordered free of {} failed late: {}", block.ptr,
          status_from_cuda(r, block.kind == MemoryKind::kHostPinned ? "cuMemFreeHost" : "cuMemFree")
              .message());
  }
}

Result<void*> CudaDevice::register_host(void* ptr, size_t bytes, unsigned flags) {
  WEFT_RETURN_IF_ERROR(make_current());
  unsigned cu_flags = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP;
  if (flags & hipHostRegisterIoMemory) cu_flags |= CU_MEMHOSTREGISTER_IOMEMORY;
  if (flags & hipHostRegisterReadOnly) cu_flags |= CU_MEMHOSTREGISTER_READ_ONLY;
  WEFT_CU_RETURN_IF_ERROR(api_.cuMemHostRegister(ptr, bytes, cu_flags));
  CUdeviceptr device_ptr = 0;
  if (CUresult r = api_.cuMemHostGetDevicePointer(&device_ptr, ptr, 0); r != CUDA_SUCCESS) {
    (void)api_.cuMemHostUnregister(ptr);
    return status_from_cuda(r, "cuMemHostGetDevicePointer");
  }
  return reinterpret_cast<void*>(device_ptr);
}

Status CudaDevice::unregister_host(void* ptr) {
  WEFT_RETURN_IF_ERROR(make_current());
  WEFT_CU_RETURN_IF_ERROR(api_.cuMemHostUnregister(ptr));
  return Status();
}

Result<Ref<Queue>> CudaDevice::create_queue(const QueueOptions& options) {
  WEFT_RETURN_IF_ERROR(make_current());
  // HIP's priorities are 0 (normal) and -1 (high); high maps to CUDA's greatest.
  int priority = options.priority < 0 ? greatest_priority_ : least_priority_;
  CUstream stream = nullptr;
  WEFT_CU_RETURN_IF_ERROR(
      api_.cuStreamCreateWithPriority(&stream, CU_STREAM_NON_BLOCKING, priority));
  return Ref<Queue>(make_ref<CudaQueue>(Ref<CudaDevice>(this), stream));
}

Result<Ref<Event>> CudaDevice::create_event(const EventOptions& options) {
  WEFT_RETURN_IF_ERROR(make_current());
  unsigned flags = 0;
  if (!options.timing) flags |= CU_EVENT_DISABLE_TIMING;
  if (options.blocking_sync) flags |= CU_EVENT_BLOCKING_SYNC;
  if (options.interprocess) flags |= CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING;
  CUevent event = nullptr;
  WEFT_CU_RETURN_IF_ERROR(api_.cuEventCreate(&event, flags));
  return Ref<Event>(make_ref<CudaEvent>(Ref<CudaDevice>(this), event, options, false));
}

Result<Ref<Module>> CudaDevice::load_module(std::span<const std::byte> image) {
  if (image.empty()) return Status(hipErrorInvalidImage, "empty code object");
  WEFT_RETURN_IF_ERROR(make_current());
  CUmodule module = nullptr;
  CUresult r;
  if (is_ptx_text(image) && image.back() != std::byte{0}) {
    // PTX is text that CUDA reads up to a NUL; give it one.
    std::string text(reinterpret_cast<const char*>(image.data()), image.size());
    r = api_.cuModuleLoadData(&module, text.c_str());
  } else {
    r = api_.cuModuleLoadData(&module, image.data());
  }
  WEFT_RETURN_IF_ERROR(status_from_cuda(r, "cuModuleLoadData"));
  return Ref<Module>(make_ref<CudaModule>(Ref<CudaDevice>(this), module));
}

Result<Ref<CommandBuffer>> CudaDevice::create_command_buffer() {
  if (!CudaCommandBuffer::supported(api_))
    return Status(hipErrorNotSupported, "libcuda lacks the CUDA graph entry points");
  return Ref<CommandBuffer>(make_ref<CudaCommandBuffer>(Ref<CudaDevice>(this)));
}

}  // namespace weft::cuda
