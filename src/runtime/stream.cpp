// SPDX-License-Identifier: MIT
#include "runtime/stream.hpp"

#include "graph/capture.hpp"
#include "runtime/runtime.hpp"

#include <mutex>

namespace weft {

Stream::Stream(DeviceState& device, Ref<Queue> queue, Kind kind, unsigned flags, int priority,
               std::vector<uint32_t> cu_mask)
    : device_(device), queue_(std::move(queue)), kind_(kind), flags_(flags), priority_(priority),
      cu_mask_(std::move(cu_mask)) {}

Status Stream::wait_marker_of(Stream& other) {
  if (!other.marker_) {
    EventOptions options;
    options.timing = false;
    WEFT_ASSIGN_OR_RETURN(other.marker_, device_.driver_device().create_event(options));
  }
  WEFT_RETURN_IF_ERROR(other.queue_->submit(EventRecordOp{other.marker_}));
  return queue_->submit(EventWaitOp{other.marker_});
}

Status Stream::order_after_null() {
  Stream* null = device_.null_stream_.get();
  if (!null || null->submitted_ == null_seen_) return Status();
  WEFT_RETURN_IF_ERROR(wait_marker_of(*null));
  null_seen_ = null->submitted_;
  return Status();
}

Status Stream::order_after_blocking() {
  for (Stream* other : device_.streams_) {
    if (!other->blocking() || other->submitted_ == other->seen_by_null_) continue;
    WEFT_RETURN_IF_ERROR(wait_marker_of(*other));
    other->seen_by_null_ = other->submitted_;
  }
  return Status();
}

Status Stream::submit(Op op) {
  // While any stream captures, the capture may take the op (src/graph/capture.cpp).
  if (graph::capture_active()) [[unlikely]]
    if (auto diverted = graph::intercept(*this, op)) return std::move(*diverted);
  if (kind_ != Kind::kNull && !blocking()) return queue_->submit(std::move(op));
  std::lock_guard lock(device_.order_mutex_);
  if (kind_ == Kind::kNull) WEFT_RETURN_IF_ERROR(order_after_blocking());
  else WEFT_RETURN_IF_ERROR(order_after_null());
  WEFT_RETURN_IF_ERROR(queue_->submit(std::move(op)));
  ++submitted_;
  return Status();
}

Status Stream::submit(CommandBuffer& buffer) {
  if (kind_ != Kind::kNull && !blocking()) return buffer.submit(*queue_);
  std::lock_guard lock(device_.order_mutex_);
  if (kind_ == Kind::kNull) WEFT_RETURN_IF_ERROR(order_after_blocking());
  else WEFT_RETURN_IF_ERROR(order_after_null());
  WEFT_RETURN_IF_ERROR(buffer.submit(*queue_));
  ++submitted_;
  return Status();
}

Status Stream::synchronize() {
  Status status = queue_->synchronize();
  if (!status.ok() && is_sticky_error(status.code())) device_.set_sticky_error(status.code());
  return status;
}

}  // namespace weft
