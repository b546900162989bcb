// SPDX-License-Identifier: MIT
// A weft event on a CUevent. CUDA reports a never-recorded event as complete,
// which is also HIP's rule; ever_recorded() is tracked here. Thread-safe.
#pragma once

#include <atomic>
#include <weft/driver/device.hpp>

#include "device.hpp"

namespace weft::cuda {

class CudaEvent final : public Event {
 public:
  // Takes ownership of `event`. `recorded` is true for events opened from an
  // IPC handle (another process records them).
  CudaEvent(Ref<CudaDevice> device, CUevent event, const EventOptions& options, bool recorded);
  ~CudaEvent() override;

  bool is_complete() override;
  Status synchronize() override;
  Result<float> elapsed_ms_since(Event& start) override;
  bool ever_recorded() override { return recorded_.load(std::memory_order_acquire); }

  CUevent handle() const { return event_; }
  const CudaDevice& device() const { return *device_; }
  const EventOptions& options() const { return options_; }
  void mark_recorded() { recorded_.store(true, std::memory_order_release); }

 private:
  Ref<CudaDevice> device_;
  const CUevent event_;
  const EventOptions options_;
  std::atomic<bool> recorded_;
};

}  // namespace weft::cuda
