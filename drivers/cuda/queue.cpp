// SPDX-License-Identifier: MIT
#include "queue.hpp"

#include <cstring>
#include <typeinfo>

#include "event.hpp"
#include "module.hpp"
#include "status.hpp"

namespace weft::cuda {
namespace {

CUdeviceptr address(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

// Runs a HostFuncOp or a foreign wait directly on CUDA's callback thread: the
// fallback when cuStreamWaitValue32 is unavailable (see host_lane.hpp).
struct DirectHostWork {
  std::function<void()> fn;
  Ref<Event> foreign;
  static void CUDA_CB run(void* data) {
    auto* self = static_cast<DirectHostWork*>(data);
    if (self->fn) self->fn();
    else (void)self->foreign->synchronize();
    delete self;
  }
};

}  // namespace

CudaQueue::CudaQueue(Ref<CudaDevice> device, CUstream stream)
    : device_(std::move(device)), api_(device_->api()), stream_(stream) {}

CudaQueue::~CudaQueue() {
  if (lane_) lane_->close();
  // Returns at once; work already submitted still runs (hipStreamDestroy's rule).
  if (device_->make_current().ok()) (void)api_.cuStreamDestroy(stream_);
}

Status CudaQueue::submit(Op&& op) {
  // Launches and event records go to CUDA without making the context current
  // first (CudaDevice::call_in_context); everything else makes it current.
  if (auto* d = std::get_if<DispatchOp>(&op)) return run(*d);
  if (auto* r = std::get_if<EventRecordOp>(&op)) return run(*r);
  WEFT_RETURN_IF_ERROR(device_->make_current());
  return std::visit([&](auto& o) { return run(o); }, op);
}

Status CudaQueue::synchronize() {
  WEFT_RETURN_IF_ERROR(device_->make_current());
  WEFT_CU_RETURN_IF_ERROR(api_.cuStreamSynchronize(stream_));
  return Status();
}

bool CudaQueue::is_idle() {
  // An error (a faulted context) means nothing will run any more: idle.
  return api_.cuStreamQuery(stream_) != CUDA_ERROR_NOT_READY;
}

Result<HostLane*> CudaQueue::lane() {
  std::call_once(lane_once_, [&] {
    auto created = HostLane::create(*device_, stream_);
    if (created.ok()) lane_ = std::move(created).value();
    else lane_status_ = created.status();
  });
  if (!lane_) return lane_status_;
  return lane_.get();
}

Status CudaQueue::run(DispatchOp& op) {
  // CudaKernel is final: an exact type check is cheaper than dynamic_cast here.
  Kernel* any = op.target();
  auto* kernel =
      any && typeid(*any) == typeid(CudaKernel) ? static_cast<CudaKernel*>(any) : nullptr;
  if (!kernel) {
    if (op.host_kernel)
      return Status(hipErrorNoBinaryForGpu, std::string("kernel ") + op.host_kernel->name() +
                                                " is host code; NVIDIA agents run only cubin/PTX");
    return Status(hipErrorInvalidDeviceFunction, "kernel was not loaded by this NVIDIA agent");
  }
  if (&kernel->device() != device_.get())
    return Status(hipErrorInvalidDeviceFunction, "kernel was loaded on another device");
  const KernelInfo& info = kernel->info();
  const LaunchDims& d = op.dims;
  // More than 48 KiB of shared memory needs the function's attribute set, in its
  // context (the launches below need no current context: call_in_context).
  if (d.dynamic_shared_bytes + info.static_shared_bytes > 48 * 1024) [[unlikely]] {
    WEFT_RETURN_IF_ERROR(device_->make_current());
    WEFT_RETURN_IF_ERROR(kernel->allow_dynamic_shared(d.dynamic_shared_bytes));
  }
  if (op.borrowed_args) {
    // The caller's kernelParams array, in CUDA's own layout (the core checked
    // every entry); CUDA copies the values before cuLaunchKernel returns.
    return status_from_cuda(device_->call_in_context([&] {
      return api_.cuLaunchKernel(kernel->function(), d.grid.x, d.grid.y, d.grid.z, d.block.x,
                                 d.block.y, d.block.z, d.dynamic_shared_bytes, stream_,
                                 const_cast<void**>(op.borrowed_args), nullptr);
    }),
                            "cuLaunchKernel");
  }
  if (op.kernarg.size() < info.kernarg_size)
    return Status(hipErrorInvalidValue,
                  "kernel " + info.name + " takes " + std::to_string(info.kernarg_size) +
                      " bytes of arguments; " + std::to_string(op.kernarg.size()) + " given");
  // CUDA copies the arguments before cuLaunchKernel returns. With the layout
  // known, point kernelParams into the packed blob (CUDA's fast path);
  // otherwise hand over the blob itself through `extra`.
  constexpr size_t kMaxParams = 64;
  const size_t count = info.args.size();
  // A cooperative launch (every block resident, so blocks may wait for each other at
  // grid.sync(): weft's sm_* images keep their own grid barrier, hip/weft/device/nvptx.h)
  // goes through cuLaunchCooperativeKernel, which guarantees residency and refuses a grid
  // too large for it. It takes kernelParams only; a kernel whose layout the driver cannot
  // tell launches as usual (the core checked the grid against the occupancy limit).
  const bool known_layout = count <= kMaxParams && (count > 0 || op.kernarg.empty());
  if (op.cooperative && api_.cuLaunchCooperativeKernel && known_layout) {
    void* params[kMaxParams];
    for (size_t i = 0; i < count; ++i) params[i] = op.kernarg.data() + info.args[i].offset;
    return status_from_cuda(device_->call_in_context([&] {
      return api_.cuLaunchCooperativeKernel(kernel->function(), d.grid.x, d.grid.y, d.grid.z,
                                            d.block.x, d.block.y, d.block.z, d.dynamic_shared_bytes,
                                            stream_, count > 0 ? params : nullptr);
    }),
                            "cuLaunchCooperativeKernel");
  }
  if (count > 0 && count <= kMaxParams) {
    void* params[kMaxParams];
    for (size_t i = 0; i < count; ++i) params[i] = op.kernarg.data() + info.args[i].offset;
    return status_from_cuda(device_->call_in_context([&] {
      return api_.cuLaunchKernel(kernel->function(), d.grid.x, d.grid.y, d.grid.z, d.block.x,
                                 d.block.y, d.block.z, d.dynamic_shared_bytes, stream_, params,
                                 nullptr);
    }),
                            "cuLaunchKernel");
  }
  // Exactly the parameters' size: CUDA refuses a larger buffer (as
  // CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES), and callers may pad.
  size_t size = info.kernarg_size ? info.kernarg_size : op.kernarg.size();
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, op.kernarg.data(), CU_LAUNCH_PARAM_BUFFER_SIZE,
                   &size, CU_LAUNCH_PARAM_END};
  return status_from_cuda(device_->call_in_context([&] {
    return api_.cuLaunchKernel(kernel->function(), d.grid.x, d.grid.y, d.grid.z, d.block.x,
                               d.block.y, d.block.z, d.dynamic_shared_bytes, stream_, nullptr,
                               size ? extra : nullptr);
  }),
                          "cuLaunchKernel");
}

Status CudaQueue::run(CopyOp& op) {
  if (op.width == 0 || op.height == 0) return Status();
  // Unified addressing: CUDA infers each side's memory type from the address, so
  // device, pinned, managed, registered and plain pageable host memory all work
  // (pageable memory is staged by CUDA, synchronously where it must be).
  bool contiguous = op.height == 1 || (op.dst_pitch == op.width && op.src_pitch == op.width);
  if (contiguous) {
    WEFT_CU_RETURN_IF_ERROR(
        api_.cuMemcpyAsync(address(op.dst), address(op.src), op.width * op.height, stream_));
    return Status();
  }
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof(c));
  c.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  c.srcDevice = address(op.src);
  c.srcPitch = op.src_pitch;
  c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  c.dstDevice = address(op.dst);
  c.dstPitch = op.dst_pitch;
  c.WidthInBytes = op.width;
  c.Height = op.height;
  WEFT_CU_RETURN_IF_ERROR(api_.cuMemcpy2DAsync(&c, stream_));
  return Status();
}

Status CudaQueue::run(FillOp& op) {
  if (op.width_elements == 0 || op.height == 0) return Status();
  CUdeviceptr dst = address(op.dst);
  size_t n = op.width_elements;
  if (op.height == 1) {
    switch (op.element_size) {
      case 1:
        WEFT_CU_RETURN_IF_ERROR(
            api_.cuMemsetD8Async(dst, static_cast<unsigned char>(op.value), n, stream_));
        break;
      case 2:
        WEFT_CU_RETURN_IF_ERROR(
            api_.cuMemsetD16Async(dst, static_cast<unsigned short>(op.value), n, stream_));
        break;
      default: WEFT_CU_RETURN_IF_ERROR(api_.cuMemsetD32Async(dst, op.value, n, stream_)); break;
    }
    return Status();
  }
  size_t pitch = op.pitch, h = op.height;
  switch (op.element_size) {
    case 1:
      WEFT_CU_RETURN_IF_ERROR(
          api_.cuMemsetD2D8Async(dst, pitch, static_cast<unsigned char>(op.value), n, h, stream_));
      break;
    case 2:
      WEFT_CU_RETURN_IF_ERROR(api_.cuMemsetD2D16Async(
          dst, pitch, static_cast<unsigned short>(op.value), n, h, stream_));
      break;
    default:
      WEFT_CU_RETURN_IF_ERROR(api_.cuMemsetD2D32Async(dst, pitch, op.value, n, h, stream_));
      break;
  }
  return Status();
}

Status CudaQueue::run(HostFuncOp& op) {
  if (!device_->facts().stream_wait_value) {
    auto* work = new DirectHostWork{std::move(op.fn), nullptr};
    CUresult r = api_.cuLaunchHostFunc(stream_, &DirectHostWork::run, work);
    if (r != CUDA_SUCCESS) delete work;
    return status_from_cuda(r, "cuLaunchHostFunc");
  }
  WEFT_ASSIGN_OR_RETURN(HostLane * lane, lane());
  return lane->submit_host_func(std::move(op.fn));
}

namespace {
// CudaEvent is final: an exact type check is cheaper than dynamic_cast (which
// cost about 90 instructions per event record or wait).
CudaEvent* as_cuda_event(Event* any) {
  return any && typeid(*any) == typeid(CudaEvent) ? static_cast<CudaEvent*>(any) : nullptr;
}
}  // namespace

Status CudaQueue::run(EventRecordOp& op) {
  auto* event = as_cuda_event(op.target());
  if (!event || &event->device() != device_.get())
    return Status(hipErrorInvalidHandle, "event belongs to another device");
  WEFT_RETURN_IF_ERROR(status_from_cuda(
      device_->call_in_context([&] { return api_.cuEventRecord(event->handle(), stream_); }),
      "cuEventRecord"));
  event->mark_recorded();
  return Status();
}

Status CudaQueue::run(EventWaitOp& op) {
  if (auto* event = as_cuda_event(op.event.get()); event && &event->device().api() == &api_) {
    // Any CUDA event, this device's or another's: the GPU waits, no host involved.
    if (!event->ever_recorded()) return Status();
    WEFT_CU_RETURN_IF_ERROR(
        api_.cuStreamWaitEvent(stream_, event->handle(), CU_EVENT_WAIT_DEFAULT));
    return Status();
  }
  // Another agent's event (the CPU's, say): a host thread waits for it and then
  // releases the stream.
  if (op.event->is_complete()) return Status();
  if (!device_->facts().stream_wait_value) {
    auto* work = new DirectHostWork{nullptr, std::move(op.event)};
    CUresult r = api_.cuLaunchHostFunc(stream_, &DirectHostWork::run, work);
    if (r != CUDA_SUCCESS) delete work;
    return status_from_cuda(r, "cuLaunchHostFunc");
  }
  WEFT_ASSIGN_OR_RETURN(HostLane * lane, lane());
  return lane->submit_foreign_wait(std::move(op.event));
}

}  // namespace weft::cuda
