// SPDX-License-Identifier: MIT
// Event API: create, record, synchronize, query, elapsed time, destroy.
#include "api/api.hpp"
#include "api/held.hpp"
#include "graph/capture.hpp"
#include "runtime/mempool.hpp"

using namespace weft;
using namespace weft::api;

namespace {

constexpr unsigned kEventFlags = hipEventBlockingSync | hipEventDisableTiming |
                                 hipEventInterprocess | hipEventDisableSystemFence |
                                 hipEventReleaseToDevice | hipEventReleaseToSystem;

Status create(hipEvent_t* out, unsigned flags) {
  if (!out) return invalid_value("null output pointer");
  if (flags & ~kEventFlags) return invalid_value("unknown event flags");
  constexpr unsigned kScopes =
      hipEventReleaseToDevice | hipEventReleaseToSystem | hipEventDisableSystemFence;
  if (__builtin_popcount(flags & kScopes) > 1)
    return invalid_value("at most one of the release-scope flags may be given");
  if ((flags & hipEventInterprocess) && !(flags & hipEventDisableTiming))
    return invalid_value("hipEventInterprocess requires hipEventDisableTiming");
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  EventOptions options;
  options.timing = (flags & hipEventDisableTiming) == 0;
  options.blocking_sync = (flags & hipEventBlockingSync) != 0;
  options.interprocess = (flags & hipEventInterprocess) != 0;
  WEFT_ASSIGN_OR_RETURN(Ref<Event> event, device->driver_device().create_event(options));
  auto core = make_ref<CoreEvent>(*device, std::move(event), flags);
  Runtime::get().events().add(core);
  *out = reinterpret_cast<hipEvent_t>(core.get());
  return Status();
}

// A device failure (a device assert, a fault) in the work before the record: the
// event reports it, and it becomes the device's sticky error, as a stream
// synchronize would make it.
Status device_error(const CoreEvent& event, Status status) {
  if (!status.ok() && is_sticky_error(status.code()))
    event.device().set_sticky_error(status.code());
  return status;
}

[[gnu::cold]] Status unknown_event() {
  return Status(hipErrorInvalidHandle, "event handle is unknown or was destroyed");
}

Result<Ref<CoreEvent>> lookup(hipEvent_t event) {
  Ref<CoreEvent> e = Runtime::get().events().find(event);
  if (!e) return unknown_event();
  return e;
}

// The record and synchronize pair is the per-call path (bench/cuda_overhead):
// lookups go straight to the registries, without Result layers, and a stream
// handle that names a live stream skips resolve_stream.
Status record(hipEvent_t event, hipStream_t stream, DefaultStream default_stream) {
  Runtime& rt = Runtime::get();
  // Both held for the record, without reference counts (api/held.hpp). On the
  // H200 that beat referencing the event in 15 of 21 interleaved rounds (record +
  // sync 1.6% faster, bench/RESULTS.md session 14), though the fake libcuda on the
  // 2-core VM timed it slower (37 -> 60 ns per pair; instructions equal).
  Held<CoreEvent> e;
  e.find(rt.events(), event, hazard::kHoldFirst);
  if (!e) [[unlikely]]
    return unknown_event();
  Held<Stream> s;
  if (stream != nullptr && stream != hipStreamLegacy && stream != hipStreamPerThread)
    s.find(rt.streams(), stream, hazard::kHoldSecond);
  if (!s) {
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> resolved, resolve_stream(stream, default_stream));
    s.set(std::move(resolved));
  }
  if (&s->device() != &e->device())
    return Status(hipErrorInvalidHandle, "event and stream belong to different devices");
  EventRecordOp op;
  // `e` holds the driver event until submit() returns.
  if (s->ops_read_at_submit()) op.borrowed_event = &e->driver_event();
  else op.event = e->driver_event_ref();
  WEFT_RETURN_IF_ERROR(s->submit(std::move(op)));
  // What waiting on this record orders after. A record during a capture may be
  // a graph node, not work: it promises nothing.
  if (graph::capture_active()) e->pool_clock.clear();
  else e->pool_clock.assign_from(s->pool_clock);
  return Status();
}

}  // namespace

WEFT_EXPORT hipError_t hipEventCreate(hipEvent_t* event) {
  return call(
      "hipEventCreate", [&] { return create(event, hipEventDefault); }, event);
}

WEFT_EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags) {
  return call(
      "hipEventCreateWithFlags", [&] { return create(event, flags); }, event, flags);
}

WEFT_EXPORT hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  return call(
      "hipEventRecord", [&] { return record(event, stream, kLegacy); }, event, stream);
}

WEFT_EXPORT hipError_t hipEventRecord_spt(hipEvent_t event, hipStream_t stream) {
  return call(
      "hipEventRecord_spt", [&] { return record(event, stream, kPerThread); }, event, stream);
}

WEFT_EXPORT hipError_t hipEventRecordWithFlags(hipEvent_t event, hipStream_t stream,
                                               unsigned int flags) {
  return call(
      "hipEventRecordWithFlags",
      [&] {
    if (flags != 0 && flags != hipEventRecordExternal) return invalid_value("unknown flags");
    return record(event, stream, kLegacy);
      },
      event, stream, flags);
}

WEFT_EXPORT hipError_t hipEventSynchronize(hipEvent_t event) {
  return call(
      "hipEventSynchronize",
      [&] {
    // Held, not referenced (api/held.hpp): a hipEventDestroy meanwhile returns
    // at once and the event goes when this wait ends.
    WaitHeld<CoreEvent> e(Runtime::get().events(), event);
    if (!e) [[unlikely]]
      return unknown_event();
    if (graph::capture_active()) [[unlikely]]
      WEFT_RETURN_IF_ERROR(graph::check_event_sync(e->driver_event()));
    Status waited = e->driver_event().synchronize();
    if (!waited.ok()) [[unlikely]]
      return device_error(*e, std::move(waited));
    mempool::after_synchronize();  // pools release memory above their thresholds
    return Status();
      },
      event);
}

WEFT_EXPORT hipError_t hipEventQuery(hipEvent_t event) {
  return call(
      "hipEventQuery",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Ref<CoreEvent> e, lookup(event));
    WEFT_RETURN_IF_ERROR(graph::check_event_sync(e->driver_event()));
    if (!e->driver_event().is_complete())
      return Status(hipErrorNotReady, "recorded work is pending");
    return device_error(*e, e->driver_event().synchronize());  // complete: returns at once
      },
      event);
}

WEFT_EXPORT hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  return call(
      "hipEventElapsedTime",
      [&] {
    if (!ms) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(Ref<CoreEvent> a, lookup(start));
    WEFT_ASSIGN_OR_RETURN(Ref<CoreEvent> b, lookup(stop));
    if ((a->flags() | b->flags()) & hipEventDisableTiming)
      return Status(hipErrorInvalidHandle, "event created with hipEventDisableTiming");
    if (&a->device() != &b->device())
      return Status(hipErrorInvalidHandle, "events belong to different devices");
    WEFT_ASSIGN_OR_RETURN(*ms, b->driver_event().elapsed_ms_since(a->driver_event()));
    return Status();
      },
      ms, start, stop);
}

WEFT_EXPORT hipError_t hipEventDestroy(hipEvent_t event) {
  return call(
      "hipEventDestroy",
      [&] {
    if (!Runtime::get().events().remove(event))
      return Status(hipErrorInvalidHandle, "event handle is unknown or was destroyed");
    return Status();
      },
      event);
}
