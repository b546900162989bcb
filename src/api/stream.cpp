// SPDX-License-Identifier: MIT
// Stream API: creation, destruction, synchronization, cross-stream waits and
// host callbacks (plain and _spt forms).
#include "api/api.hpp"
#include "graph/capture.hpp"
#include "runtime/mempool.hpp"

#include <algorithm>

using namespace weft;
using namespace weft::api;

namespace {

constexpr int kLeastPriority = 0;
constexpr int kGreatestPriority = -1;

Status create(hipStream_t* out, unsigned flags, int priority) {
  if (!out) return invalid_value("null output pointer");
  if (flags != hipStreamDefault && flags != hipStreamNonBlocking)
    return invalid_value("flags must be hipStreamDefault or hipStreamNonBlocking");
  priority = std::clamp(priority, kGreatestPriority, kLeastPriority);
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> stream,
                        device->create_stream(Stream::Kind::kUser, flags, priority));
  Runtime::get().streams().add(stream);
  *out = reinterpret_cast<hipStream_t>(stream.get());
  return Status();
}

Status wait_event(hipStream_t stream, hipEvent_t event, unsigned flags,
                  DefaultStream default_stream) {
  if (flags != 0 && flags != hipEventWaitExternal) return invalid_value("unknown flags");
  Ref<CoreEvent> e = Runtime::get().events().find(event);
  if (!e) return Status(hipErrorInvalidHandle, "event handle is unknown or was destroyed");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  if (auto captured = graph::wait_event(*s, e, flags)) return *captured;  // forks and joins
  if (!e->driver_event().ever_recorded()) return Status();                // nothing to wait for
  WEFT_RETURN_IF_ERROR(s->submit(EventWaitOp{e->driver_event_ref()}));
  s->pool_clock.merge_from(e->pool_clock);  // frees before the record may now be reused here
  return Status();
}

Status add_callback(hipStream_t stream, hipStreamCallback_t callback, void* user_data,
                    unsigned flags, DefaultStream default_stream) {
  if (!callback) return invalid_value("null callback");
  if (flags != 0) return invalid_value("flags must be 0");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  WEFT_RETURN_IF_ERROR(graph::check_callback(*s));
  return s->submit(
      HostFuncOp{[callback, stream, user_data] { callback(stream, hipSuccess, user_data); }});
}

Status launch_host_func(hipStream_t stream, hipHostFn_t fn, void* user_data,
                        DefaultStream default_stream) {
  if (!fn) return invalid_value("null host function");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  return s->submit(HostFuncOp{[fn, user_data] { fn(user_data); }});
}

Status query(hipStream_t stream, DefaultStream default_stream) {
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  WEFT_RETURN_IF_ERROR(graph::check_sync(*s, "hipStreamQuery"));
  return s->is_idle() ? Status() : Status(hipErrorNotReady, "work is still pending");
}

Status synchronize(hipStream_t stream, DefaultStream default_stream) {
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  WEFT_RETURN_IF_ERROR(graph::check_sync(*s, "hipStreamSynchronize"));
  WEFT_RETURN_IF_ERROR(s->synchronize());
  mempool::after_synchronize();  // pools release memory above their thresholds
  return Status();
}

Status get_flags(hipStream_t stream, unsigned* flags, DefaultStream default_stream) {
  if (!flags) return invalid_value("null output pointer");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  *flags = s->flags();
  return Status();
}

Status get_priority(hipStream_t stream, int* priority, DefaultStream default_stream) {
  if (!priority) return invalid_value("null output pointer");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream, default_stream));
  *priority = s->priority();
  return Status();
}

}  // namespace

WEFT_EXPORT hipError_t hipStreamCreate(hipStream_t* stream) {
  return call(
      "hipStreamCreate", [&] { return create(stream, hipStreamDefault, 0); }, stream);
}

WEFT_EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) {
  return call(
      "hipStreamCreateWithFlags", [&] { return create(stream, flags, 0); }, stream, flags);
}

WEFT_EXPORT hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags,
                                                   int priority) {
  return call(
      "hipStreamCreateWithPriority", [&] { return create(stream, flags, priority); }, stream, flags,
      priority);
}

WEFT_EXPORT hipError_t hipDeviceGetStreamPriorityRange(int* least, int* greatest) {
  return call(
      "hipDeviceGetStreamPriorityRange",
      [&] {
    if (least) *least = kLeastPriority;
    if (greatest) *greatest = kGreatestPriority;
    return Status();
      },
      least, greatest);
}

WEFT_EXPORT hipError_t hipStreamDestroy(hipStream_t stream) {
  return call(
      "hipStreamDestroy",
      [&] {
    if (stream == nullptr || stream == hipStreamLegacy || stream == hipStreamPerThread)
      return Status(hipErrorInvalidHandle, "the null and per-thread streams cannot be destroyed");
    Ref<Stream> s = Runtime::get().streams().remove(stream);
    if (!s) return Status(hipErrorInvalidHandle, "stream handle is unknown or was destroyed");
    // Queued work still runs; the queue lives until it drains.
    graph::stream_destroyed(*s);
    s->device().remove_stream(s.get());
    return Status();
      },
      stream);
}

WEFT_EXPORT hipError_t hipStreamSynchronize(hipStream_t stream) {
  return call(
      "hipStreamSynchronize", [&] { return synchronize(stream, kLegacy); }, stream);
}
WEFT_EXPORT hipError_t hipStreamSynchronize_spt(hipStream_t stream) {
  return call(
      "hipStreamSynchronize_spt", [&] { return synchronize(stream, kPerThread); }, stream);
}

WEFT_EXPORT hipError_t hipStreamQuery(hipStream_t stream) {
  return call(
      "hipStreamQuery", [&] { return query(stream, kLegacy); }, stream);
}
WEFT_EXPORT hipError_t hipStreamQuery_spt(hipStream_t stream) {
  return call(
      "hipStreamQuery_spt", [&] { return query(stream, kPerThread); }, stream);
}

WEFT_EXPORT hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event,
                                          unsigned int flags) {
  return call(
      "hipStreamWaitEvent", [&] { return wait_event(stream, event, flags, kLegacy); }, stream,
      event, flags);
}
WEFT_EXPORT hipError_t hipStreamWaitEvent_spt(hipStream_t stream, hipEvent_t event,
                                              unsigned int flags) {
  return call(
      "hipStreamWaitEvent_spt", [&] { return wait_event(stream, event, flags, kPerThread); },
      stream, event, flags);
}

WEFT_EXPORT hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback,
                                            void* user_data, unsigned int flags) {
  return call(
      "hipStreamAddCallback",
      [&] { return add_callback(stream, callback, user_data, flags, kLegacy); }, stream, callback,
      user_data, flags);
}
WEFT_EXPORT hipError_t hipStreamAddCallback_spt(hipStream_t stream, hipStreamCallback_t callback,
                                                void* user_data, unsigned int flags) {
  return call(
      "hipStreamAddCallback_spt",
      [&] { return add_callback(stream, callback, user_data, flags, kPerThread); }, stream,
      callback, user_data, flags);
}

WEFT_EXPORT hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* user_data) {
  return call(
      "hipLaunchHostFunc", [&] { return launch_host_func(stream, fn, user_data, kLegacy); }, stream,
      fn, user_data);
}
WEFT_EXPORT hipError_t hipLaunchHostFunc_spt(hipStream_t stream, hipHostFn_t fn, void* user_data) {
  return call(
      "hipLaunchHostFunc_spt", [&] { return launch_host_func(stream, fn, user_data, kPerThread); },
      stream, fn, user_data);
}

WEFT_EXPORT hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int* flags) {
  return call(
      "hipStreamGetFlags", [&] { return get_flags(stream, flags, kLegacy); }, stream, flags);
}
WEFT_EXPORT hipError_t hipStreamGetFlags_spt(hipStream_t stream, unsigned int* flags) {
  return call(
      "hipStreamGetFlags_spt", [&] { return get_flags(stream, flags, kPerThread); }, stream, flags);
}

WEFT_EXPORT hipError_t hipStreamGetPriority(hipStream_t stream, int* priority) {
  return call(
      "hipStreamGetPriority", [&] { return get_priority(stream, priority, kLegacy); }, stream,
      priority);
}
WEFT_EXPORT hipError_t hipStreamGetPriority_spt(hipStream_t stream, int* priority) {
  return call(
      "hipStreamGetPriority_spt", [&] { return get_priority(stream, priority, kPerThread); },
      stream, priority);
}

WEFT_EXPORT hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t* device) {
  return call(
      "hipStreamGetDevice",
      [&] {
    if (!device) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
    *device = s->device().ordinal();
    return Status();
      },
      stream, device);
}

WEFT_EXPORT hipError_t hipStreamGetId(hipStream_t stream, unsigned long long* id) {
  return call(
      "hipStreamGetId",
      [&] {
    if (!id) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
    *id = s->id();
    return Status();
      },
      stream, id);
}

WEFT_EXPORT int hipGetStreamDeviceId(hipStream_t stream) {
  auto s = resolve_stream(stream);
  return s.ok() ? s.value()->device().ordinal() : -1;
}
