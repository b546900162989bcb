// SPDX-License-Identifier: MIT
// A HIP event: a driver event bound to the device it was created on, plus the
// creation flags. Thread-safe (immutable but for the clock, which locks itself;
// the driver event is thread-safe).
#pragma once

#include "runtime/stream_order.hpp"

#include <weft/driver/device.hpp>

namespace weft {

class DeviceState;

class CoreEvent final : public RefCounted {
 public:
  CoreEvent(DeviceState& device, Ref<Event> event, unsigned flags)
      : device_(device), event_(std::move(event)), flags_(flags) {}

  DeviceState& device() const { return device_; }
  Event& driver_event() const { return *event_; }
  const Ref<Event>& driver_event_ref() const { return event_; }
  unsigned flags() const { return flags_; }

  // The recording stream's clock as of the latest record (stream-ordered reuse).
  StreamClock pool_clock;

 private:
  DeviceState& device_;
  Ref<Event> event_;
  const unsigned flags_;
};

}  // namespace weft
