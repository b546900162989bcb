// SPDX-License-Identifier: MIT
// External semaphores (docs/external-interop.md): hipImportExternalSemaphore,
// hipSignalExternalSemaphoresAsync, hipWaitExternalSemaphoresAsync,
// hipDestroyExternalSemaphore. A signal or wait is an op of the stream where the
// agent has one (the CPU agent's are host steps), so capture records it; otherwise
// the agent's driver enqueues it natively (CUDA), which cannot be captured.
#include "api/external.hpp"
#include "api/os_handles.hpp"
#include "graph/capture.hpp"
#include "runtime/handle_registry.hpp"

using namespace weft;
using namespace weft::api;

namespace {

struct ImportedSemaphore final : RefCounted {
  DeviceState* device = nullptr;
  Ref<ExternalSemaphore> semaphore;
};

HandleRegistry<ImportedSemaphore>& imported_semaphores() {
  static auto* registry = new HandleRegistry<ImportedSemaphore>();  // leaked: used until exit
  return *registry;
}

Status import_semaphore(hipExternalSemaphore_t* out, const hipExternalSemaphoreHandleDesc* desc) {
  if (!out || !desc) return invalid_value("null output or handle description");
  ExternalSemaphoreKind kind = ExternalSemaphoreKind::kBinary;
  switch (raw_value(desc->type)) {
    case hipExternalSemaphoreHandleTypeOpaqueFd: break;
    case hipExternalSemaphoreHandleTypeTimelineSemaphoreFd:
      kind = ExternalSemaphoreKind::kTimeline;
      break;
    case hipExternalSemaphoreHandleTypeOpaqueWin32:
    case hipExternalSemaphoreHandleTypeOpaqueWin32Kmt:
    case hipExternalSemaphoreHandleTypeD3D12Fence:
    case hipExternalSemaphoreHandleTypeD3D11Fence:
    case hipExternalSemaphoreHandleTypeKeyedMutex:
    case hipExternalSemaphoreHandleTypeKeyedMutexKmt:
    case hipExternalSemaphoreHandleTypeTimelineSemaphoreWin32:
      return Status(hipErrorNotSupported, "Windows and Direct3D handles do not exist on Linux");
    default:
      return invalid_value(fmt::format("{} is not an external semaphore handle type HIP supports",
                                       raw_value(desc->type)));
  }
  if (desc->flags != 0) return invalid_value("flags must be 0");
  WEFT_RETURN_IF_ERROR(check_shareable_fd(desc->handle.fd, "external semaphore descriptor"));
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  WEFT_ASSIGN_OR_RETURN(Ref<ExternalSemaphore> semaphore,
                        device->driver_device().import_external_semaphore(desc->handle.fd, kind));
  auto imported = make_ref<ImportedSemaphore>();
  imported->device = device;
  imported->semaphore = std::move(semaphore);
  imported_semaphores().add(imported);
  *out = imported.get();
  return Status();
}

Status submit_steps(const std::vector<SemaphoreStep>& steps, hipStream_t stream, bool signal) {
  auto resolved = resolve_stream(stream);
  if (!resolved.ok())
    return invalid_value(resolved.status().message());  // AMD's code for a bad stream
  Ref<Stream> s = std::move(resolved).value();
  for (const SemaphoreStep& step : steps)
    if (step.device != &s->device())
      return invalid_value(
          fmt::format("a semaphore was imported on device {}, the stream is on device {}",
                      step.device->ordinal(), s->device().ordinal()));
  for (const SemaphoreStep& step : steps) {
    Result<Op> op = step.semaphore->op(signal, step.value);
    if (op.ok()) {
      WEFT_RETURN_IF_ERROR(s->submit(std::move(op).value()));
      continue;
    }
    if (op.status().code() != hipErrorNotSupported) return op.status();
    WEFT_ASSIGN_OR_RETURN(graph::CaptureInfo info, graph::capture_info(*s));
    if (info.status != hipStreamCaptureStatusNone)
      return Status(
          hipErrorStreamCaptureUnsupported,
          "this agent's external semaphores are operated by its driver and cannot be captured");
    WEFT_RETURN_IF_ERROR(s->submit_native(
        [&](Queue& queue) { return step.semaphore->submit(queue, signal, step.value); }));
  }
  return Status();
}

}  // namespace

namespace weft::api {

Result<std::vector<SemaphoreStep>> semaphore_steps(
    const hipExternalSemaphore_t* semaphores, const hipExternalSemaphoreSignalParams* signal_params,
    const hipExternalSemaphoreWaitParams* wait_params, unsigned count) {
  if (!semaphores || (!signal_params && !wait_params))
    return invalid_value("null semaphore or parameter array");
  if (count == 0) return invalid_value("no semaphores given");
  std::vector<SemaphoreStep> steps;
  steps.reserve(count);
  for (unsigned i = 0; i < count; ++i) {
    Ref<ImportedSemaphore> imported = imported_semaphores().find(semaphores[i]);
    if (!imported) return invalid_value(fmt::format("semaphore {} is unknown or destroyed", i));
    const unsigned flags = signal_params ? signal_params[i].flags : wait_params[i].flags;
    if (flags != 0) return invalid_value(fmt::format("semaphore {}: flags must be 0", i));
    SemaphoreStep step;
    step.device = imported->device;
    step.semaphore = imported->semaphore;
    step.value =
        signal_params ? signal_params[i].params.fence.value : wait_params[i].params.fence.value;
    steps.push_back(std::move(step));
  }
  return steps;
}

}  // namespace weft::api

WEFT_EXPORT hipError_t hipImportExternalSemaphore(
    hipExternalSemaphore_t* extSem_out, const hipExternalSemaphoreHandleDesc* semHandleDesc) {
  return call(
      "hipImportExternalSemaphore", [&] { return import_semaphore(extSem_out, semHandleDesc); },
      extSem_out, semHandleDesc);
}

WEFT_EXPORT hipError_t hipSignalExternalSemaphoresAsync(
    const hipExternalSemaphore_t* extSemArray, const hipExternalSemaphoreSignalParams* paramsArray,
    unsigned int numExtSems, hipStream_t stream) {
  return call(
      "hipSignalExternalSemaphoresAsync",
      [&] {
    if (!paramsArray) return invalid_value("null parameter array");
    WEFT_ASSIGN_OR_RETURN(auto steps,
                          semaphore_steps(extSemArray, paramsArray, nullptr, numExtSems));
    return submit_steps(steps, stream, true);
      },
      extSemArray, paramsArray, numExtSems, stream);
}

WEFT_EXPORT hipError_t hipWaitExternalSemaphoresAsync(
    const hipExternalSemaphore_t* extSemArray, const hipExternalSemaphoreWaitParams* paramsArray,
    unsigned int numExtSems, hipStream_t stream) {
  return call(
      "hipWaitExternalSemaphoresAsync",
      [&] {
    if (!paramsArray) return invalid_value("null parameter array");
    WEFT_ASSIGN_OR_RETURN(auto steps,
                          semaphore_steps(extSemArray, nullptr, paramsArray, numExtSems));
    return submit_steps(steps, stream, false);
      },
      extSemArray, paramsArray, numExtSems, stream);
}

WEFT_EXPORT hipError_t hipDestroyExternalSemaphore(hipExternalSemaphore_t extSem) {
  return call(
      "hipDestroyExternalSemaphore",
      [&] {
    // Signals and waits already queued keep the semaphore until they ran.
    if (!imported_semaphores().remove(extSem))
      return invalid_value("unknown or destroyed external semaphore");
    return Status();
      },
      extSem);
}
