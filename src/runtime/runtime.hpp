// SPDX-License-Identifier: MIT
// The core runtime: the device table, built once on first use, and the objects
// shared by all API families.
//
// Lock order (outer to inner): DeviceState::order_mutex_ → a driver's own locks.
// HandleRegistry and PointerTable locks are leaves: never call out while holding
// them. No global API lock.
#pragma once

#include "runtime/event.hpp"
#include "runtime/handle_registry.hpp"
#include "runtime/pointer_table.hpp"
#include "runtime/stream.hpp"

#include <weft/driver/device.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace weft {

// What the runtime keeps per agent. Identity and properties are immutable
// after init; the rest is guarded as noted.
class DeviceState {
 public:
  DeviceState(int ordinal, Ref<Device> device);

  int ordinal() const { return ordinal_; }
  Device& driver_device() const { return *device_; }
  const hipDeviceProp_tR0600& props() const { return props_; }

  // The legacy null stream, created on first use.
  Result<Stream*> null_stream();
  // `cu_mask`: hipExtStreamCreateWithCUMask's, already checked (QueueOptions::cu_mask).
  Result<Ref<Stream>> create_stream(Stream::Kind kind, unsigned flags, int priority,
                                    std::vector<uint32_t> cu_mask = {});
  // Detaches a stream before its last reference goes (destroy, thread exit).
  void remove_stream(Stream* stream);
  std::vector<Ref<Stream>> streams();
  // Waits for every stream of the device; returns the first error.
  Status synchronize();
  // hipDeviceReset: forgets the null stream and every stream's queue (and with
  // them any asynchronous error they hold); new ones are made on next use.
  void drop_streams();

  // Device errors (faults, failed kernels) stick to the device, as in HIP.
  hipError_t sticky_error() const { return sticky_.load(std::memory_order_relaxed); }
  void set_sticky_error(hipError_t error);
  void clear_sticky_error();

  std::atomic<unsigned> flags{0};  // hipSetDeviceFlags
  std::atomic<size_t> limit_stack{1024};
  std::atomic<size_t> limit_printf_fifo{1 << 20};
  std::atomic<size_t> limit_malloc_heap{8 << 20};
  std::atomic<int> cache_config{0};
  std::atomic<int> shared_mem_config{0};

 private:
  friend class Stream;
  const int ordinal_;
  Ref<Device> device_;
  hipDeviceProp_tR0600 props_{};
  std::atomic<hipError_t> sticky_{hipSuccess};

  std::mutex order_mutex_;        // ordering between null and blocking streams
  Ref<Stream> null_stream_;       // guarded by order_mutex_
  std::vector<Stream*> streams_;  // all live streams but the null one; order_mutex_
  // Queues of destroyed streams that still had work: device-wide synchronization
  // waits for them too. Pruned once idle; order_mutex_.
  std::vector<Ref<Queue>> retired_;
};

// How many devices hold a sticky error. 0 in a healthy process, so every API
// call's sticky check (api::call) is one relaxed load while it is.
inline std::atomic<int> g_sticky_devices{0};
inline bool any_sticky_error() { return g_sticky_devices.load(std::memory_order_relaxed) != 0; }

class Runtime {
 public:
  // Initializes on first call (thread-safe). Never fails: with no agent at all,
  // device_count() is 0 and device calls report hipErrorNoDevice. Inline: the
  // per-call paths use it several times a call.
  static Runtime& get() {
    // Leaked on purpose: queue threads and late atexit handlers may still use it.
    static Runtime* runtime = new Runtime();
    return *runtime;
  }

  int device_count() const { return static_cast<int>(devices_.size()); }
  // Whether any driver found a GPU or NPU agent (visible or not).
  bool any_gpu() const { return any_gpu_; }
  DeviceState* device(int ordinal) const {
    return ordinal >= 0 && ordinal < device_count() ? devices_[ordinal].get() : nullptr;
  }

  PointerTable& pointers() { return pointers_; }
  HandleRegistry<Stream>& streams() { return streams_; }
  HandleRegistry<CoreEvent>& events() { return events_; }

 private:
  Runtime();
  std::vector<std::unique_ptr<Driver>> drivers_;
  std::vector<std::unique_ptr<DeviceState>> devices_;
  bool any_gpu_ = false;
  PointerTable pointers_;
  HandleRegistry<Stream> streams_;
  HandleRegistry<CoreEvent> events_;
};

// Device errors that make every later call on the device fail (CUDA's sticky class).
bool is_sticky_error(hipError_t error);

}  // namespace weft
