// SPDX-License-Identifier: MIT
#include "runtime/stream.hpp"

#include "runtime/capture_sink.hpp"
#include "runtime/runtime.hpp"
#include "trace/trace.hpp"

#include <weft/common/log.hpp>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <utility>

namespace weft {
namespace {

// AMD_LOG_LEVEL=4: what each op submitted to a queue is, in its category
// (kernels kern, copies and fills copy, the rest cmd), so AMD_LOG_MASK=0x80
// shows the kernels with their geometry.
void log_submitted(const void* stream, const Op& op) {
  static constexpr const char* kDirections[] = {"host to host", "host to device", "device to host",
                                                "device to device"};
  if (auto* d = std::get_if<DispatchOp>(&op)) {
    if (!log::enabled(log::Level::kDebug, log::kKernel)) return;
    const Kernel* kernel = d->target();
    const char* name = d->host_kernel ? d->host_kernel->name()
                     : kernel         ? kernel->info().name.c_str()
                                      : "?";
    log::write(
        log::Level::kDebug, log::kKernel,
        fmt::format(
            "stream {}: kernel {} grid {{{},{},{}}} block {{{},{},{}}} dynamic shared {} bytes, "
            "{} argument bytes{}",
            stream, name, d->dims.grid.x, d->dims.grid.y, d->dims.grid.z, d->dims.block.x,
            d->dims.block.y, d->dims.block.z, d->dims.dynamic_shared_bytes,
            d->borrowed_args && kernel ? size_t(kernel->info().kernarg_size) : d->kernarg.size(),
            d->cooperative ? ", cooperative" : ""));
  } else if (auto* c = std::get_if<CopyOp>(&op)) {
    if (!log::enabled(log::Level::kDebug, log::kCopy)) return;
    log::write(log::Level::kDebug, log::kCopy,
               fmt::format("stream {}: copy {} {} x {} bytes, {} <- {}", stream,
                           kDirections[static_cast<int>(c->direction)], c->width, c->height, c->dst,
                           c->src));
  } else if (auto* f = std::get_if<FillOp>(&op)) {
    if (!log::enabled(log::Level::kDebug, log::kCopy)) return;
    log::write(log::Level::kDebug, log::kCopy,
               fmt::format("stream {}: fill {} x {} elements of {} bytes with {:#x} at {}", stream,
                           f->width_elements, f->height, f->element_size, f->value, f->dst));
  } else if (log::enabled(log::Level::kDebug, log::kCommand)) {
    const char* what = std::holds_alternative<HostFuncOp>(op)    ? "host function"
                     : std::holds_alternative<EventRecordOp>(op) ? "event record"
                                                                 : "event wait";
    log::write(log::Level::kDebug, log::kCommand, fmt::format("stream {}: {}", stream, what));
  }
}

// An op that lent the caller's argument array, kernel or event (op.hpp: the
// borrowed_* fields) gets its own copy and references before something that may
// keep the op sees it.
void own_borrowed(Op& op) {
  if (auto* r = std::get_if<EventRecordOp>(&op)) {
    if (r->borrowed_event) r->event = Ref<Event>(std::exchange(r->borrowed_event, nullptr));
    return;
  }
  auto* d = std::get_if<DispatchOp>(&op);
  if (!d) return;
  if (d->borrowed_kernel) d->kernel = Ref<Kernel>(std::exchange(d->borrowed_kernel, nullptr));
  if (!d->borrowed_args) return;
  const KernelInfo& info = d->kernel->info();
  size_t size = info.kernarg_size;
  for (const KernelArgInfo& a : info.args) size = std::max<size_t>(size, size_t(a.offset) + a.size);
  d->kernarg.assign(size, std::byte{0});
  for (size_t i = 0; i < info.args.size(); ++i)
    std::memcpy(d->kernarg.data() + info.args[i].offset, d->borrowed_args[i], info.args[i].size);
  d->borrowed_args = nullptr;
}

}  // namespace

Stream::Stream(DeviceState& device, Ref<Queue> queue, Kind kind, unsigned flags, int priority,
               std::vector<uint32_t> cu_mask)
    : device_(device), queue_(std::move(queue)), kind_(kind), flags_(flags), priority_(priority),
      cu_mask_(std::move(cu_mask)),
      ops_read_at_submit_(device.driver_device().caps().ops_read_at_submit) {}

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

Status Stream::submit(Op&& op) {
  // While any stream captures, the capture may take the op (runtime/capture_sink.hpp).
  if (CaptureSink* sink = capture_hook::active_sink()) [[unlikely]] {
    own_borrowed(op);
    if (auto diverted = sink->intercept(*this, op)) return std::move(*diverted);
  }
  if (log::level() >= log::Level::kDebug) [[unlikely]]
    log_submitted(this, op);
  // While tracing (WEFT_TRACE), the queue also times the op (src/trace).
  if (trace::on()) [[unlikely]] {
    own_borrowed(op);
    Ref<OpObserver> observer = trace::observe(*this, op);
    return submit_in_order(
        [&](Queue& queue) { return queue.submit_observed(std::move(op), std::move(observer)); });
  }
  return submit_in_order([&](Queue& queue) { return queue.submit(std::move(op)); });
}

Status Stream::submit(CommandBuffer& buffer) {
  return submit_in_order([&](Queue& queue) { return buffer.submit(queue); });
}

Status Stream::submit_native(const std::function<Status(Queue&)>& to_queue) {
  return submit_in_order([&](Queue& queue) { return to_queue(queue); });
}

Status Stream::submit_array_copy(const ArrayCopyOp& op) {
  return submit_in_order([&](Queue& queue) { return queue.submit_array_copy(op); });
}

Status Stream::synchronize() {
  Status status = queue_->synchronize();
  if (!status.ok() && is_sticky_error(status.code())) device_.set_sticky_error(status.code());
  return status;
}

}  // namespace weft
