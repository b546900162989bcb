// SPDX-License-Identifier: MIT
// Peer access between CUDA devices and inter-process handles (CudaDevice's
// optional methods). Other agents' devices are never CUDA peers.
#include <cstring>

#include "device.hpp"
#include "event.hpp"
#include "status.hpp"

namespace weft::cuda {

static_assert(sizeof(hipIpcMemHandle_t) == sizeof(CUipcMemHandle), "IPC handle sizes differ");
static_assert(sizeof(hipIpcEventHandle_t) == sizeof(CUipcEventHandle), "IPC handle sizes differ");

Result<bool> CudaDevice::can_access_peer(Device& peer) {
  auto* other = dynamic_cast<CudaDevice*>(&peer);
  if (!other || other == this || &other->api_ != &api_) return false;
  int can = 0;
  WEFT_CU_RETURN_IF_ERROR(api_.cuDeviceCanAccessPeer(&can, device_, other->device_));
  return can != 0;
}

Status CudaDevice::enable_peer_access(Device& peer) {
  auto* other = dynamic_cast<CudaDevice*>(&peer);
  if (!other || other == this || &other->api_ != &api_)
    return Status(hipErrorPeerAccessUnsupported, "the peer is not another CUDA device");
  WEFT_RETURN_IF_ERROR(other->make_current());  // the peer's context must exist
  WEFT_RETURN_IF_ERROR(make_current());
  WEFT_CU_RETURN_IF_ERROR(api_.cuCtxEnablePeerAccess(other->context(), 0));
  return Status();
}

Status CudaDevice::disable_peer_access(Device& peer) {
  auto* other = dynamic_cast<CudaDevice*>(&peer);
  if (!other || other == this || &other->api_ != &api_ || !other->context())
    return Status(hipErrorPeerAccessNotEnabled, "peer access to that device was never enabled");
  WEFT_RETURN_IF_ERROR(make_current());
  WEFT_CU_RETURN_IF_ERROR(api_.cuCtxDisablePeerAccess(other->context()));
  return Status();
}

Result<hipIpcMemHandle_t> CudaDevice::ipc_export_memory(void* base) {
  WEFT_RETURN_IF_ERROR(make_current());
  CUipcMemHandle cu{};
  WEFT_CU_RETURN_IF_ERROR(api_.cuIpcGetMemHandle(&cu, reinterpret_cast<CUdeviceptr>(base)));
  hipIpcMemHandle_t handle;
  std::memcpy(&handle, &cu, sizeof(handle));
  return handle;
}

Result<IpcMapping> CudaDevice::ipc_open_memory(const hipIpcMemHandle_t& handle, unsigned flags) {
  WEFT_RETURN_IF_ERROR(make_current());
  CUipcMemHandle cu;
  std::memcpy(&cu, &handle, sizeof(cu));
  unsigned cu_flags =
      (flags & hipIpcMemLazyEnablePeerAccess) ? CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS : 0;
  CUdeviceptr ptr = 0;
  WEFT_CU_RETURN_IF_ERROR(api_.cuIpcOpenMemHandle(&ptr, cu, cu_flags));
  CUdeviceptr base = 0;
  size_t bytes = 0;
  if (CUresult r = api_.cuMemGetAddressRange(&base, &bytes, ptr); r != CUDA_SUCCESS) {
    (void)api_.cuIpcCloseMemHandle(ptr);
    return status_from_cuda(r, "cuMemGetAddressRange");
  }
  return IpcMapping{reinterpret_cast<void*>(ptr), bytes - static_cast<size_t>(ptr - base)};
}

Status CudaDevice::ipc_close_memory(void* ptr) {
  WEFT_RETURN_IF_ERROR(make_current());
  WEFT_CU_RETURN_IF_ERROR(api_.cuIpcCloseMemHandle(reinterpret_cast<CUdeviceptr>(ptr)));
  return Status();
}

Result<hipIpcEventHandle_t> CudaDevice::ipc_export_event(Event& event) {
  auto* own = dynamic_cast<CudaEvent*>(&event);
  if (!own || &own->device() != this)
    return Status(hipErrorInvalidHandle, "event belongs to another device");
  if (!own->options().interprocess)
    return Status(hipErrorInvalidHandle, "event was not created with hipEventInterprocess");
  WEFT_RETURN_IF_ERROR(make_current());
  CUipcEventHandle cu{};
  WEFT_CU_RETURN_IF_ERROR(api_.cuIpcGetEventHandle(&cu, own->handle()));
  hipIpcEventHandle_t handle;
  std::memcpy(&handle, &cu, sizeof(handle));
  return handle;
}

Result<Ref<Event>> CudaDevice::ipc_open_event(const hipIpcEventHandle_t& handle) {
  WEFT_RETURN_IF_ERROR(make_current());
  CUipcEventHandle cu;
  std::memcpy(&cu, &handle, sizeof(cu));
  CUevent event = nullptr;
  WEFT_CU_RETURN_IF_ERROR(api_.cuIpcOpenEventHandle(&event, cu));
  EventOptions options;
  options.timing = false;
  options.interprocess = true;
  return Ref<Event>(make_ref<CudaEvent>(Ref<CudaDevice>(this), event, options, true));
}

}  // namespace weft::cuda
