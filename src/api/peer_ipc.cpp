// SPDX-License-Identifier: MIT
// Peer access, peer copies and inter-process handles: hipDeviceCanAccessPeer,
// hipDevice{Enable,Disable}PeerAccess, hipMemcpyPeer(Async), hipIpc*. The
// agents answer through Device's optional methods (the CPU agent has no peers;
// its IPC handles name memfd pages, docs/ipc.md).
#include <mutex>
#include <set>

#include "api/api.hpp"
#include "api/ipc_openings.hpp"
#include "api/memory_checks.hpp"

using namespace weft;
using namespace weft::api;

namespace {

// Addresses returned by hipIpcOpenMemHandle, so only those can be closed.
struct IpcOpenings {
  std::mutex mutex;
  std::set<void*> open;
};

IpcOpenings& ipc_openings() {
  static IpcOpenings* openings = new IpcOpenings();  // leaked: used until exit
  return *openings;
}

}  // namespace

namespace weft::api {

void note_ipc_opening(void* ptr) {
  std::lock_guard lock(ipc_openings().mutex);
  ipc_openings().open.insert(ptr);
}

bool forget_ipc_opening(void* ptr) {
  std::lock_guard lock(ipc_openings().mutex);
  return ipc_openings().open.erase(ptr) != 0;
}

bool is_ipc_opening(const void* ptr) {
  std::lock_guard lock(ipc_openings().mutex);
  return ipc_openings().open.count(const_cast<void*>(ptr)) != 0;
}

}  // namespace weft::api

namespace {

Status can_access_peer(int* can, int ordinal, int peer_ordinal) {
  if (!can) return invalid_value("null output pointer");
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, device_at(ordinal));
  WEFT_ASSIGN_OR_RETURN(DeviceState * peer, device_at(peer_ordinal));
  *can = 0;
  if (device == peer) return Status();
  auto answer = device->driver_device().can_access_peer(peer->driver_device());
  if (answer.ok()) *can = answer.value() ? 1 : 0;
  else if (answer.status().code() != hipErrorNotSupported) return answer.status();
  return Status();
}

Result<DeviceState*> peer_of_current(int peer_ordinal, unsigned flags) {
  if (flags != 0) return invalid_value("flags must be 0");
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  WEFT_ASSIGN_OR_RETURN(DeviceState * peer, device_at(peer_ordinal));
  if (peer == device) return Status(hipErrorInvalidDevice, "a device cannot be its own peer");
  return peer;
}

// The device that carries out a copy between two agents' memory: one that does
// not address memory as plain host pointers (a GPU reaches host memory, not the
// other way round).
DeviceState* copy_engine(DeviceState* dst, DeviceState* src) {
  return dst->driver_device().caps().host_can_access_device_memory ? src : dst;
}

Status memcpy_peer(void* dst, int dst_ordinal, const void* src, int src_ordinal, size_t bytes,
                   hipStream_t stream, Blocking blocking) {
  WEFT_ASSIGN_OR_RETURN(DeviceState * dst_device, device_at(dst_ordinal));
  WEFT_ASSIGN_OR_RETURN(DeviceState * src_device, device_at(src_ordinal));
  WEFT_ASSIGN_OR_RETURN(CopyOp op,
                        make_copy(dst, bytes, src, bytes, bytes, 1, hipMemcpyDeviceToDevice));
  if (bytes == 0) return Status();
  if (blocking == kAsync) {
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
    DeviceState* engine = copy_engine(dst_device, src_device);
    if (s->device().driver_device().caps().host_can_access_device_memory &&
        !engine->driver_device().caps().host_can_access_device_memory)
      return Status(hipErrorNotSupported,
                    "an asynchronous peer copy of GPU memory must be on a GPU's stream");
    return s->submit(std::move(op));
  }
  // Serialized with all earlier work of both devices, as CUDA's hipMemcpyPeer is.
  WEFT_RETURN_IF_ERROR(src_device->synchronize());
  if (dst_device != src_device) WEFT_RETURN_IF_ERROR(dst_device->synchronize());
  WEFT_ASSIGN_OR_RETURN(Stream * null, copy_engine(dst_device, src_device)->null_stream());
  WEFT_RETURN_IF_ERROR(null->submit(std::move(op)));
  return null->synchronize();
}

}  // namespace

WEFT_EXPORT hipError_t hipDeviceCanAccessPeer(int* can, int ordinal, int peer_ordinal) {
  return call(
      "hipDeviceCanAccessPeer", [&] { return can_access_peer(can, ordinal, peer_ordinal); }, can,
      ordinal, peer_ordinal);
}

WEFT_EXPORT hipError_t hipDeviceGetP2PAttribute(int* value, hipDeviceP2PAttr attr, int src_ordinal,
                                                int dst_ordinal) {
  return call(
      "hipDeviceGetP2PAttribute",
      [&] {
    if (!value) return invalid_value("null output pointer");
    switch (raw_value(attr)) {
      case hipDevP2PAttrPerformanceRank:
      case hipDevP2PAttrAccessSupported:
      case hipDevP2PAttrNativeAtomicSupported:
      case hipDevP2PAttrHipArrayAccessSupported: break;
      default: return invalid_value(fmt::format("{} is not a hipDeviceP2PAttr", raw_value(attr)));
    }
    WEFT_ASSIGN_OR_RETURN(DeviceState * src, device_at(src_ordinal));
    WEFT_ASSIGN_OR_RETURN(DeviceState * dst, device_at(dst_ordinal));
    if (src == dst)
      return Status(hipErrorInvalidDevice, "source and destination are the same device");
    int can = 0;
    WEFT_RETURN_IF_ERROR(can_access_peer(&can, src_ordinal, dst_ordinal));
    // Only access itself is known: agents that are peers report it, and rank 0
    // (the only rank weft has); atomics and array access over the link are not
    // promised by any agent, so they read 0.
    switch (attr) {
      case hipDevP2PAttrAccessSupported: *value = can; break;
      case hipDevP2PAttrPerformanceRank: *value = 0; break;
      default: *value = 0; break;
    }
    return Status();
      },
      value, attr, src_ordinal, dst_ordinal);
}

WEFT_EXPORT hipError_t hipDeviceEnablePeerAccess(int peer_ordinal, unsigned int flags) {
  return call(
      "hipDeviceEnablePeerAccess",
      [&] {
    WEFT_ASSIGN_OR_RETURN(DeviceState * peer, peer_of_current(peer_ordinal, flags));
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    Status s = device->driver_device().enable_peer_access(peer->driver_device());
    if (s.code() == hipErrorNotSupported) return Status(hipErrorPeerAccessUnsupported, s.message());
    return s;
      },
      peer_ordinal, flags);
}

WEFT_EXPORT hipError_t hipDeviceDisablePeerAccess(int peer_ordinal) {
  return call(
      "hipDeviceDisablePeerAccess",
      [&] {
    WEFT_ASSIGN_OR_RETURN(DeviceState * peer, peer_of_current(peer_ordinal, 0));
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    Status s = device->driver_device().disable_peer_access(peer->driver_device());
    if (s.code() == hipErrorNotSupported) return Status(hipErrorPeerAccessNotEnabled, s.message());
    return s;
      },
      peer_ordinal);
}

WEFT_EXPORT hipError_t hipMemcpyPeer(void* dst, int dst_device, const void* src, int src_device,
                                     size_t bytes) {
  return call(
      "hipMemcpyPeer",
      [&] { return memcpy_peer(dst, dst_device, src, src_device, bytes, nullptr, kSync); }, dst,
      dst_device, src, src_device, bytes);
}

WEFT_EXPORT hipError_t hipMemcpyPeerAsync(void* dst, int dst_device, const void* src,
                                          int src_device, size_t bytes, hipStream_t stream) {
  return call(
      "hipMemcpyPeerAsync",
      [&] { return memcpy_peer(dst, dst_device, src, src_device, bytes, stream, kAsync); }, dst,
      dst_device, src, src_device, bytes, stream);
}

WEFT_EXPORT hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t* handle, void* ptr) {
  return call(
      "hipIpcGetMemHandle",
      [&] {
    if (!handle || !ptr) return invalid_value("null handle or pointer");
    Runtime& rt = Runtime::get();
    auto record = rt.pointers().find(ptr);
    if (!record || record->kind != AllocationKind::kDevice)
      return invalid_value("pointer is not device memory from hipMalloc");
    if (record->base != ptr)
      return invalid_value("pointer is inside an allocation; pass its base address");
    DeviceState* device = rt.device(record->device);
    WEFT_ASSIGN_OR_RETURN(*handle, device->driver_device().ipc_export_memory(record->base));
    return Status();
      },
      handle, ptr);
}

WEFT_EXPORT hipError_t hipIpcOpenMemHandle(void** ptr, hipIpcMemHandle_t handle,
                                           unsigned int flags) {
  return call(
      "hipIpcOpenMemHandle",
      [&] {
    if (!ptr) return invalid_value("null output pointer");
    if (flags & ~unsigned(hipIpcMemLazyEnablePeerAccess))
      return invalid_value("flags must be 0 or hipIpcMemLazyEnablePeerAccess");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    WEFT_ASSIGN_OR_RETURN(IpcMapping mapping,
                          device->driver_device().ipc_open_memory(handle, flags));
    AllocationRecord record;
    record.base = static_cast<std::byte*>(mapping.ptr);
    record.size = mapping.bytes;
    record.device = device->ordinal();
    record.kind = AllocationKind::kDevice;
    record.device_ptr = mapping.ptr;
    Runtime::get().pointers().insert(record);
    note_ipc_opening(mapping.ptr);
    *ptr = mapping.ptr;
    return Status();
      },
      ptr, flags);
}

WEFT_EXPORT hipError_t hipIpcCloseMemHandle(void* ptr) {
  return call(
      "hipIpcCloseMemHandle",
      [&] {
    if (!forget_ipc_opening(ptr))
      return invalid_value("pointer was not returned by hipIpcOpenMemHandle");
    Runtime& rt = Runtime::get();
    auto record = rt.pointers().erase(ptr);
    DeviceState* device = rt.device(record ? record->device : thread_state().device);
    if (!device) return Status(hipErrorInvalidDevice, "the mapping's device is gone");
    return device->driver_device().ipc_close_memory(ptr);
      },
      ptr);
}

WEFT_EXPORT hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t* handle, hipEvent_t event) {
  return call(
      "hipIpcGetEventHandle",
      [&] {
    if (!handle) return invalid_value("null handle");
    Ref<CoreEvent> e = Runtime::get().events().find(event);
    if (!e) return Status(hipErrorInvalidHandle, "event handle is unknown or was destroyed");
    if (!(e->flags() & hipEventInterprocess))
      return Status(hipErrorInvalidHandle, "event was not created with hipEventInterprocess");
    WEFT_ASSIGN_OR_RETURN(*handle, e->device().driver_device().ipc_export_event(e->driver_event()));
    return Status();
      },
      handle, event);
}

WEFT_EXPORT hipError_t hipIpcOpenEventHandle(hipEvent_t* event, hipIpcEventHandle_t handle) {
  return call(
      "hipIpcOpenEventHandle",
      [&] {
    if (!event) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    WEFT_ASSIGN_OR_RETURN(Ref<Event> opened, device->driver_device().ipc_open_event(handle));
    auto core = make_ref<CoreEvent>(*device, std::move(opened),
                                    unsigned(hipEventDisableTiming | hipEventInterprocess));
    Runtime::get().events().add(core);
    *event = reinterpret_cast<hipEvent_t>(core.get());
    return Status();
      },
      event);
}
