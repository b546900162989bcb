// SPDX-License-Identifier: MIT
// The one vocabulary of queue commands. Streams submit Ops to driver queues; graph
// capture records the same Ops into nodes; command buffers replay them.
//
// Ops are plain values. Pointers inside them are device-visible addresses already
// validated by the core (bounds, direction); drivers trust them.
#pragma once

#include <hip/hip_runtime_api.h>
#include <hip/weft/kernel_abi.h>
#include <weft/driver/ref.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <variant>
#include <vector>

namespace weft {

class Event;
class Kernel;

// Owns the argument blob of a single-source kernel; shared by every replay of it.
class HostKernel final : public RefCounted {
 public:
  explicit HostKernel(const weftHostKernel& k) : k_(k) {}
  ~HostKernel() override {
    if (k_.destroyArgs) k_.destroyArgs(k_.args);
  }
  weftKernelEntry entry() const { return k_.entry; }
  void* args() const { return k_.args; }
  const char* name() const { return k_.name ? k_.name : "<kernel>"; }
  // The whole descriptor (graph kernel nodes use its argument helpers).
  const weftHostKernel& descriptor() const { return k_; }

 private:
  weftHostKernel k_;
};

struct LaunchDims {
  dim3 grid;
  dim3 block;
  uint32_t dynamic_shared_bytes = 0;
};

// A kernel launch: either a code-object kernel with packed kernel arguments, or a
// single-source host kernel (CPU agents only; Device::caps().runs_host_kernels).
struct DispatchOp {
  Ref<Kernel> kernel;
  // Instead of `kernel` (then null): the kernel, lent for the Queue::submit() call
  // that receives the op while the caller holds it. Set under the same rule as
  // `borrowed_args` (caps().ops_read_at_submit); the core takes its own reference
  // before anything that could keep the op sees it.
  Kernel* borrowed_kernel = nullptr;
  Ref<HostKernel> host_kernel;
  LaunchDims dims;
  std::vector<std::byte> kernarg;  // packed explicit + hidden arguments (code objects)
  // Instead of a packed `kernarg` (then empty): the caller's kernelParams array,
  // one pointer per explicit argument of kernel->info().args, valid only during
  // the Queue::submit() call that receives the op. The core sets it only for a
  // device whose caps().ops_read_at_submit is true, never on a cooperative
  // op, and packs the arguments into `kernarg` before anything that could keep
  // the op (a stream capture, a trace) sees it.
  void* const* borrowed_args = nullptr;
  // hipLaunchCooperativeKernel: every block is resident at once, so blocks may
  // wait for each other (grid.sync()). The core checked the grid against the
  // agent's occupancy limit.
  bool cooperative = false;

  // The kernel launched, owned or lent.
  Kernel* target() const { return kernel ? kernel.get() : borrowed_kernel; }
};

enum class CopyDirection { kHostToHost, kHostToDevice, kDeviceToHost, kDeviceToDevice };

// A 2D copy; a 1D copy has height 1. Rows are `width` bytes.
struct CopyOp {
  void* dst = nullptr;
  const void* src = nullptr;
  size_t width = 0;
  size_t height = 1;
  size_t dst_pitch = 0;
  size_t src_pitch = 0;
  CopyDirection direction = CopyDirection::kDeviceToDevice;
};

// A 2D fill of `element_size`-byte elements (1, 2 or 4) with the low bytes of `value`.
struct FillOp {
  void* dst = nullptr;
  uint32_t value = 0;
  uint8_t element_size = 1;
  size_t width_elements = 0;
  size_t height = 1;
  size_t pitch = 0;  // bytes between rows
};

// Runs on a host thread once every earlier op of the queue finished.
// It must not call back into the queue synchronously (HIP forbids it for callbacks).
struct HostFuncOp {
  std::function<void()> fn;
};

// Marks the event complete (with a timestamp) when the queue reaches this point.
struct EventRecordOp {
  Ref<Event> event;
  // Instead of `event` (then null): the event, lent for the Queue::submit() call that
  // receives the op while the caller holds it; set only for a device whose
  // caps().ops_read_at_submit is true, and owned by the core before anything that
  // could keep the op (a stream capture, a trace) sees it.
  Event* borrowed_event = nullptr;

  // The event recorded, owned or lent.
  Event* target() const { return event ? event.get() : borrowed_event; }
};

// Later ops of the queue wait until the event's most recent record (as of submit
// time) completes. The event may belong to another device or driver.
struct EventWaitOp {
  Ref<Event> event;
};

using Op = std::variant<DispatchOp, CopyOp, FillOp, HostFuncOp, EventRecordOp, EventWaitOp>;

}  // namespace weft
