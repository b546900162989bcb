// SPDX-License-Identifier: MIT
// Queue: "Contract:" notes say what every driver's Queue must guarantee.
//
// Contract (all ops): ops of one queue take effect in submission order; an op
// starts only after every earlier op of the queue has finished. submit()
// returns before the op runs on agents with real hardware queues; here it
// returns after. A failure that submit() can see is returned from submit() and
// leaves the queue usable; a failure discovered later (a kernel fault) is kept
// and returned by synchronize() from then on (sticky). Pointers inside ops were
// validated by the core; a driver trusts them.
#include "queue.hpp"

#include "event.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace weft::null {
namespace {

template <typename T>
void fill_elements(std::byte* row, size_t count, T value) {
  for (size_t i = 0; i < count; ++i) std::memcpy(row + i * sizeof(T), &value, sizeof(T));
}

}  // namespace

Status NullQueue::submit(Op&& op) {
  std::lock_guard lock(mutex_);
  running_.fetch_add(1, std::memory_order_relaxed);
  Status status = std::visit([&](auto& o) { return run(o); }, op);
  running_.fetch_sub(1, std::memory_order_release);
  return status;
}

// Contract: returns once every op submitted before the call has finished, with
// the queue's first asynchronous error if it has one, again on every later call.
// Everything here finished inside submit(), and errors were returned there.
Status NullQueue::synchronize() {
  std::lock_guard lock(mutex_);  // waits out an op another thread is running
  return Status();
}

// Contract: true when no submitted op is still pending. Never blocks.
// A counter, not the mutex: a host function may ask (hipStreamQuery) while its
// own submit() holds the mutex.
bool NullQueue::is_idle() { return running_.load(std::memory_order_acquire) == 0; }

// Contract: a kernel launch. `op.kernel` is a Kernel this device loaded, or
// `op.host_kernel` a single-source kernel (only when caps().runs_host_kernels).
// A driver that cannot run what it is given says so precisely: HIP's
// hipErrorNoBinaryForGpu for host code on an agent that runs none
// (include/hip/weft/kernel_abi.h), hipErrorInvalidDeviceFunction for a kernel
// of another agent. This one loads no modules, so every kernel is foreign.
Status NullQueue::run(DispatchOp& op) {
  if (op.host_kernel)
    return Status(hipErrorNoBinaryForGpu, std::string("null agent runs no kernels: ") +
                                              op.host_kernel->name() +
                                              " is host code for the CPU agent");
  return Status(
      hipErrorInvalidDeviceFunction,
      "null agent runs no kernels: it loads no code objects, so this kernel is another agent's");
}

// Contract: copies `height` rows of `width` bytes, honouring both pitches.
// `direction` says which side is host memory; on this agent both are.
Status NullQueue::run(CopyOp& op) {
  auto* dst = static_cast<std::byte*>(op.dst);
  auto* src = static_cast<const std::byte*>(op.src);
  for (size_t row = 0; row < op.height; ++row)
    std::memmove(dst + row * op.dst_pitch, src + row * op.src_pitch, op.width);
  return Status();
}

// Contract: writes `width_elements` elements of `element_size` bytes (the low
// bytes of `value`) into each of `height` rows `pitch` bytes apart.
Status NullQueue::run(FillOp& op) {
  auto* base = static_cast<std::byte*>(op.dst);
  for (size_t row = 0; row < op.height; ++row) {
    std::byte* p = base + row * op.pitch;
    switch (op.element_size) {
      case 1: std::memset(p, static_cast<int>(op.value & 0xff), op.width_elements); break;
      case 2: fill_elements(p, op.width_elements, static_cast<uint16_t>(op.value)); break;
      case 4: fill_elements(p, op.width_elements, op.value); break;
      default:
        return Status(hipErrorInvalidValue, "null agent: fill element size " +
                                                std::to_string(op.element_size) +
                                                " (1, 2 or 4 expected)");
    }
  }
  return Status();
}

// Contract: runs `fn` on a host thread after every earlier op finished, and
// before any later op starts. Here: now, on the caller's thread.
Status NullQueue::run(HostFuncOp& op) {
  if (op.fn) op.fn();
  return Status();
}

// Contract: the event completes (with a timestamp) when the queue reaches this
// point. Events are created by a device; a driver refuses events of other
// drivers with hipErrorInvalidHandle (it cannot complete them).
Status NullQueue::run(EventRecordOp& op) {
  auto* event = dynamic_cast<NullEvent*>(op.event.get());
  if (!event)
    return Status(hipErrorInvalidHandle, "null agent: cannot record an event of another driver");
  event->record_now();
  return Status();
}

// Contract: later ops wait until the event's newest record as of submit time
// has completed. The event may belong to any device of any driver: use only the
// Event interface for foreign ones. A null event is always complete; a foreign
// one is waited for here, from the host.
Status NullQueue::run(EventWaitOp& op) {
  if (dynamic_cast<NullEvent*>(op.event.get())) return Status();
  return op.event->synchronize();
}

}  // namespace weft::null
