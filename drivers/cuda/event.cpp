// SPDX-License-Identifier: MIT
#include "event.hpp"

#include "status.hpp"

namespace weft::cuda {

CudaEvent::CudaEvent(Ref<CudaDevice> device, CUevent event, const EventOptions& options,
                     bool recorded)
    : device_(std::move(device)), event_(event), options_(options), recorded_(recorded) {}

CudaEvent::~CudaEvent() {
  // Returns at once; CUDA releases the event after pending records complete.
  (void)device_->make_current();
  (void)device_->api().cuEventDestroy(event_);
}

bool CudaEvent::is_complete() {
  if (!ever_recorded()) return true;
  // A failed query (the context faulted) counts as complete: there is nothing left
  // to wait for, and synchronize() reports the error.
  return device_->api().cuEventQuery(event_) != CUDA_ERROR_NOT_READY;
}

Status CudaEvent::synchronize() {
  if (!ever_recorded()) return Status();
  WEFT_CU_RETURN_IF_ERROR(device_->api().cuEventSynchronize(event_));
  return Status();
}

Result<float> CudaEvent::elapsed_ms_since(Event& start_event) {
  auto* start = dynamic_cast<CudaEvent*>(&start_event);
  if (!start || &start->device() != &device())
    return Status(hipErrorInvalidHandle, "events belong to different agents");
  if (!options_.timing || !start->options_.timing)
    return Status(hipErrorInvalidHandle, "event created with hipEventDisableTiming");
  if (!start->ever_recorded())
    return Status(hipErrorInvalidHandle, "start event was never recorded");
  if (!ever_recorded()) return Status(hipErrorInvalidHandle, "end event was never recorded");
  float ms = 0;
  WEFT_CU_RETURN_IF_ERROR(device_->api().cuEventElapsedTime(&ms, start->event_, event_));
  return ms;
}

}  // namespace weft::cuda
