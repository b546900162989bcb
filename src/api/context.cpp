// SPDX-License-Identifier: MIT
// The (deprecated) context API: hipCtx* and hipDevicePrimaryCtx*.
//
// A context designates a device, as in AMD's runtime: each device has one
// context object, its primary context, and hipCtxCreate hands out that object.
// Each thread has a stack of contexts; pushing or setting one makes its device
// the thread's current device, and popping makes the new top's device current.
// The current context is always the current device's (so hipSetDevice and the
// context calls never disagree); flags of a context are its device's flags
// (hipSetDeviceFlags). Destroying a context only takes it off the thread's stack:
// the device's streams and memory live on, as in AMD's runtime.
#include "api/api.hpp"

#include <atomic>
#include <memory>
#include <vector>

struct ihipCtx_t {
  int ordinal = 0;
  std::atomic<int> primary_retains{0};  // hipDevicePrimaryCtxRetain minus Release
};

namespace weft::api {
namespace {

struct Contexts {
  std::unique_ptr<ihipCtx_t[]> table;
  int count = 0;
};

const Contexts& contexts() {
  // Never destroyed: handles stay valid until the process ends.
  static const Contexts* all = [] {
    auto* c = new Contexts;
    c->count = Runtime::get().device_count();
    c->table = std::make_unique<ihipCtx_t[]>(static_cast<size_t>(c->count));
    for (int i = 0; i < c->count; ++i) c->table[i].ordinal = i;
    return c;
  }();
  return *all;
}

thread_local std::vector<ihipCtx_t*> context_stack;

Result<ihipCtx_t*> context_of(int ordinal) {
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, device_at(ordinal));
  return &contexts().table[device->ordinal()];
}

// A handle must be one of the context objects; anything else is hipErrorInvalidContext.
Result<ihipCtx_t*> valid_context(hipCtx_t ctx) {
  const Contexts& all = contexts();
  for (int i = 0; i < all.count; ++i)
    if (ctx == &all.table[i]) return ctx;
  return Status(hipErrorInvalidContext,
                fmt::format("{} is not a context", static_cast<void*>(ctx)));
}

Status ordinal_of(hipCtx_t ctx, int* ordinal) {
  WEFT_ASSIGN_OR_RETURN(ihipCtx_t * c, valid_context(ctx));
  *ordinal = c->ordinal;
  return Status();
}

void make_current(ihipCtx_t* ctx) { thread_state().device = ctx->ordinal; }

Status check_context_flags(unsigned flags) {
  constexpr unsigned kAllowed = hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax;
  if (flags & ~kAllowed) return invalid_value(fmt::format("unknown context flags {:#x}", flags));
  unsigned schedule = flags & hipDeviceScheduleMask;
  if (schedule != hipDeviceScheduleAuto && schedule != hipDeviceScheduleSpin &&
      schedule != hipDeviceScheduleYield && schedule != hipDeviceScheduleBlockingSync)
    return invalid_value("more than one scheduling flag");
  return Status();
}

}  // namespace
}  // namespace weft::api

using namespace weft;
using namespace weft::api;

WEFT_EXPORT hipError_t hipCtxCreate(hipCtx_t* ctx, unsigned int flags, hipDevice_t device) {
  return call(
      "hipCtxCreate",
      [&] {
    if (!ctx) return invalid_value("null output context");
    WEFT_RETURN_IF_ERROR(check_context_flags(flags));
    WEFT_ASSIGN_OR_RETURN(ihipCtx_t * c, context_of(device));
    Runtime::get().device(c->ordinal)->flags = flags;
    context_stack.push_back(c);
    make_current(c);
    *ctx = c;
    return Status();
      },
      ctx, flags, device);
}

WEFT_EXPORT hipError_t hipCtxDestroy(hipCtx_t ctx) {
  return call(
      "hipCtxDestroy",
      [&] {
    if (!ctx) return invalid_value("null context");
    WEFT_ASSIGN_OR_RETURN(ihipCtx_t * c, valid_context(ctx));
    if (!context_stack.empty() && context_stack.back() == c) {
      context_stack.pop_back();
      if (!context_stack.empty()) make_current(context_stack.back());
    }
    return Status();
      },
      ctx);
}

WEFT_EXPORT hipError_t hipCtxPushCurrent(hipCtx_t ctx) {
  return call(
      "hipCtxPushCurrent",
      [&] {
    WEFT_ASSIGN_OR_RETURN(ihipCtx_t * c, valid_context(ctx));
    context_stack.push_back(c);
    make_current(c);
    return Status();
      },
      ctx);
}

WEFT_EXPORT hipError_t hipCtxPopCurrent(hipCtx_t* ctx) {
  return call(
      "hipCtxPopCurrent",
      [&] {
    if (context_stack.empty())
      return Status(hipErrorInvalidContext, "this thread's context stack is empty");
    ihipCtx_t* top = context_stack.back();
    context_stack.pop_back();
    if (ctx) *ctx = top;
    if (!context_stack.empty()) make_current(context_stack.back());
    return Status();
      },
      ctx);
}

WEFT_EXPORT hipError_t hipCtxSetCurrent(hipCtx_t ctx) {
  return call(
      "hipCtxSetCurrent",
      [&] {
    if (!ctx) {  // unbinds: the top goes
      if (!context_stack.empty()) context_stack.pop_back();
      if (!context_stack.empty()) make_current(context_stack.back());
      return Status();
    }
    WEFT_ASSIGN_OR_RETURN(ihipCtx_t * c, valid_context(ctx));
    if (context_stack.empty()) context_stack.push_back(c);
    else context_stack.back() = c;
    make_current(c);
    return Status();
      },
      ctx);
}

WEFT_EXPORT hipError_t hipCtxGetCurrent(hipCtx_t* ctx) {
  return call(
      "hipCtxGetCurrent",
      [&] {
    if (!ctx) return invalid_value("null output context");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    WEFT_ASSIGN_OR_RETURN(*ctx, context_of(device->ordinal()));
    return Status();
      },
      ctx);
}

WEFT_EXPORT hipError_t hipCtxGetDevice(hipDevice_t* device) {
  return call(
      "hipCtxGetDevice",
      [&] {
    if (!device) return invalid_value("null output device");
    WEFT_ASSIGN_OR_RETURN(DeviceState * d, current_device());
    *device = d->ordinal();
    return Status();
      },
      device);
}

WEFT_EXPORT hipError_t hipCtxGetApiVersion(hipCtx_t ctx, unsigned int* apiVersion) {
  return call(
      "hipCtxGetApiVersion",
      [&] {
    if (!apiVersion) return invalid_value("null output version");
    if (ctx) WEFT_RETURN_IF_ERROR(valid_context(ctx).status());
    // Every context speaks the API of this library: the version hipDriverGetVersion reports.
    *apiVersion = HIP_VERSION;
    return Status();
      },
      ctx, apiVersion);
}

WEFT_EXPORT hipError_t hipCtxGetFlags(unsigned int* flags) {
  return call(
      "hipCtxGetFlags",
      [&] {
    if (!flags) return invalid_value("null output flags");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    *flags = device->flags;
    return Status();
      },
      flags);
}

// The current context's settings are its device's: these forward to the device calls
// (which check and log under their own names).
WEFT_EXPORT hipError_t hipCtxGetCacheConfig(hipFuncCache_t* cacheConfig) {
  return hipDeviceGetCacheConfig(cacheConfig);
}
WEFT_EXPORT hipError_t hipCtxSetCacheConfig(hipFuncCache_t cacheConfig) {
  return hipDeviceSetCacheConfig(cacheConfig);
}
WEFT_EXPORT hipError_t hipCtxGetSharedMemConfig(hipSharedMemConfig* pConfig) {
  return hipDeviceGetSharedMemConfig(pConfig);
}
WEFT_EXPORT hipError_t hipCtxSetSharedMemConfig(hipSharedMemConfig config) {
  return hipDeviceSetSharedMemConfig(config);
}
WEFT_EXPORT hipError_t hipCtxSynchronize(void) { return hipDeviceSynchronize(); }

WEFT_EXPORT hipError_t hipCtxEnablePeerAccess(hipCtx_t peerCtx, unsigned int flags) {
  int peer = -1;
  hipError_t checked = call(
      "hipCtxEnablePeerAccess", [&] { return ordinal_of(peerCtx, &peer); }, peerCtx, flags);
  return checked != hipSuccess ? checked : hipDeviceEnablePeerAccess(peer, flags);
}

WEFT_EXPORT hipError_t hipCtxDisablePeerAccess(hipCtx_t peerCtx) {
  int peer = -1;
  hipError_t checked = call(
      "hipCtxDisablePeerAccess", [&] { return ordinal_of(peerCtx, &peer); }, peerCtx);
  return checked != hipSuccess ? checked : hipDeviceDisablePeerAccess(peer);
}

WEFT_EXPORT hipError_t hipDevicePrimaryCtxRetain(hipCtx_t* pctx, hipDevice_t dev) {
  return call(
      "hipDevicePrimaryCtxRetain",
      [&] {
    if (!pctx) return invalid_value("null output context");
    WEFT_ASSIGN_OR_RETURN(ihipCtx_t * c, context_of(dev));
    c->primary_retains.fetch_add(1, std::memory_order_relaxed);
    *pctx = c;
    return Status();
      },
      pctx, dev);
}

WEFT_EXPORT hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev) {
  return call(
      "hipDevicePrimaryCtxRelease",
      [&] {
    WEFT_ASSIGN_OR_RETURN(ihipCtx_t * c, context_of(dev));
    // As AMD's runtime: releasing a context that is not retained is no error, and
    // the count never goes below zero.
    int refs = c->primary_retains.load(std::memory_order_relaxed);
    while (refs > 0 && !c->primary_retains.compare_exchange_weak(refs, refs - 1)) {
    }
    return Status();
      },
      dev);
}

WEFT_EXPORT hipError_t hipDevicePrimaryCtxGetState(hipDevice_t dev, unsigned int* flags,
                                                   int* active) {
  return call(
      "hipDevicePrimaryCtxGetState",
      [&] {
    if (!flags) return invalid_value("null output flags");
    if (!active) return invalid_value("null output state");
    WEFT_ASSIGN_OR_RETURN(ihipCtx_t * c, context_of(dev));
    *flags = Runtime::get().device(c->ordinal)->flags;
    *active = c->primary_retains.load(std::memory_order_relaxed) > 0 ? 1 : 0;
    return Status();
      },
      dev, flags, active);
}

WEFT_EXPORT hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t dev, unsigned int flags) {
  return call(
      "hipDevicePrimaryCtxSetFlags",
      [&] {
    WEFT_ASSIGN_OR_RETURN(ihipCtx_t * c, context_of(dev));
    WEFT_RETURN_IF_ERROR(check_context_flags(flags));
    if (c->primary_retains.load(std::memory_order_relaxed) > 0)
      return Status(hipErrorContextAlreadyInUse,
                    fmt::format("the primary context of device {} is retained (active)", dev));
    Runtime::get().device(c->ordinal)->flags = flags;
    return Status();
      },
      dev, flags);
}

WEFT_EXPORT hipError_t hipDevicePrimaryCtxReset(hipDevice_t dev) {
  hipError_t checked = call(
      "hipDevicePrimaryCtxReset", [&] { return context_of(dev).status(); }, dev);
  if (checked != hipSuccess) return checked;
  // hipDeviceReset on that device: its streams, events and memory go.
  ThreadState& ts = thread_state();
  int saved = ts.device;
  ts.device = dev;
  hipError_t result = hipDeviceReset();
  ts.device = saved;
  return result;
}
