// SPDX-License-Identifier: MIT
#include "runtime/stream.hpp"

#include "graph/capture.hpp"
#include "runtime/runtime.hpp"
#include "trace/trace.hpp"

#include <mutex>

namespace weft {

Stream::Stream(DeviceState& device, Ref<Queue> queue, Kind kind, unsigned flags, int priority)
    : device_(device), queue_(std::move(queue)), kind_(kind), flags_(flags), priority_(priority) {}

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

template <typename ToQueue>
Status Stream::submit_in_order(ToQueue&& to_queue) {
  if (kind_ != Kind::kNull && !blocking()) return to_queue(*queue_);
  std::lock_guard lock(device_.order_mutex_);
  if (kind_ == Kind::kNull) WEFT_RETURN_IF_ERROR(order_after_blocking());
  else WEFT_RETURN_IF_ERROR(order_after_null());
  WEFT_RETURN_IF_ERROR(to_queue(*queue_));
  ++submitted_;
  return Status();
}

Status Stream::submit(Op op) {
  // While any stream captures, the capture may take the op (src/graph/capture.cpp).
  if (graph::capture_active()) [[unlikely]]
    if (auto diverted = graph::intercept(*this, op)) return std::move(*diverted);
  // While tracing (WEFT_TRACE), the queue also times the op (src/trace).
  if (trace::on()) [[unlikely]] {
    Ref<OpObserver> observer = trace::observe(*this, op);
    return submit_in_order([&](Queue& queue) { return queue.submit_observed(std::move(op), std::move(observer)); });
  }
  return submit_in_order([&](Queue& queue) { return queue.submit(std::move(op)); });
}

Status Stream::submit(CommandBuffer& buffer) {
  return submit_in_order([&](Queue& queue) { return buffer.submit(queue); });
}

Status Stream::synchronize() {
  Status status = queue_->synchronize();
  if (!status.ok() && is_sticky_error(status.code())) device_.set_sticky_error(status.code());
  return status;
}

}  // namespace weft
