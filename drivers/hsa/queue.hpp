// SPDX-License-Identifier: MIT
// Queues and events on AQL rings (docs/hsa.md, "Queues").
//
//   HwQueue  one ROCr AQL ring (hsa_queue_create), shared by the weft queues the
//            device maps onto it; profiling enabled; its error callback turns a
//            GPU fault into a sticky error naming the kernel.
//   HsaQueue a weft in-order queue: kernel dispatches and barrier-AND packets on
//            its ring (barrier bit set: in order), copies on ROCr's DMA engines
//            (hsa_amd_memory_async_copy) chained by signals, host work (host
//            functions, fills, waits on other drivers' events) behind a gate
//            signal opened from ROCr's async-handler thread.
//   HsaEvent the completion signal of its most recent record; timing from the
//            packet timestamps ROCr stores in that signal.
// All three are thread-safe.
#pragma once

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include <weft/driver/device.hpp>

#include "aql.hpp"
#include "device.hpp"

namespace weft::hsa {

class HwQueue {
 public:
  static Result<std::shared_ptr<HwQueue>> create(HsaDevice& device, int priority);
  ~HwQueue();
  HwQueue(const HwQueue&) = delete;
  HwQueue& operator=(const HwQueue&) = delete;

  hsa_queue_t* queue() const { return queue_; }
  // Reserves a slot, records `kernel` (may be null) as the packet's owner for
  // fault reports, writes and publishes the packet. Returns its index.
  uint64_t submit(const void* packet, uint32_t header_word, const std::string* kernel);
  // hipSuccess until the GPU reported an error on this ring; then that error forever.
  Status error() const;
  bool failed() const { return failed_.load(std::memory_order_acquire); }

  // ROCr's queue error callback (public for the test double, which calls it).
  static void on_error(hsa_status_t status, hsa_queue_t* queue, void* data);

 private:
  explicit HwQueue(const Api& api) : api_(api) {}
  const Api& api_;
  hsa_queue_t* queue_ = nullptr;
  mutable std::mutex mutex_;
  std::vector<std::string> owners_;  // kernel name per ring slot
  Status error_;
  std::atomic<bool> failed_{false};
};

class HsaQueue final : public Queue {
 public:
  HsaQueue(Ref<HsaDevice> device, std::shared_ptr<HwQueue> hw);
  ~HsaQueue() override;

  Status submit(Op&& op) override;
  Status synchronize() override;
  bool is_idle() override;

  HwQueue& hw() const { return *hw_; }

  struct InFlight {
    Ref<Signal> signal;
    size_t kernarg_begin = 0;  // arena range, or begin == end when none
    size_t kernarg_end = 0;
    Ref<Signal> keep;  // another queue's signal a barrier waits for
  };

 private:
  Status run(DispatchOp& op);
  Status run(CopyOp& op);
  Status run(FillOp& op);
  Status run(HostFuncOp& op);
  Status run(EventRecordOp& op);
  Status run(EventWaitOp& op);

  // A barrier-AND packet on the ring waiting for `deps` (and for the last
  // off-ring op), completing a fresh signal that becomes the queue's tail.
  Status barrier(std::vector<hsa_signal_t> deps, Ref<Signal>* completion_out);
  // Runs `fn` on a host thread after every earlier op; later ops wait for it.
  Status host_step(std::function<void()> fn);
  // Kernarg memory for one dispatch; waits for older dispatches when full.
  Result<std::byte*> kernarg_alloc(size_t bytes, InFlight& entry);
  void reclaim(bool wait_oldest);
  Status tail_status();

  Ref<HsaDevice> device_;
  const Api& api_;
  std::shared_ptr<HwQueue> hw_;
  std::mutex mutex_;  // submission order and everything below
  std::deque<InFlight> in_flight_;
  Ref<Signal> tail_;          // completes when every submitted op has
  bool tail_on_ring_ = true;  // tail_ was written to hw_ (the barrier bit orders what follows)
  std::byte* arena_ = nullptr;
  size_t arena_head_ = 0;
};

// Kernarg arena per queue (kernarg pool memory, reused once dispatches complete).
inline constexpr size_t kKernargArenaBytes = 256 * 1024;

class HsaEvent final : public Event {
 public:
  HsaEvent(Ref<HsaDevice> device, const EventOptions& options)
      : device_(std::move(device)), options_(options) {}

  bool is_complete() override;
  Status synchronize() override;
  Result<float> elapsed_ms_since(Event& start) override;
  bool ever_recorded() override { return recorded_.load(std::memory_order_acquire); }

  // The signal of the most recent record (null if never recorded).
  Ref<Signal> current() const;
  void set_record(Ref<Signal> signal, std::shared_ptr<HwQueue> hw);
  const HsaDevice& device() const { return *device_; }
  const EventOptions& options() const { return options_; }

 private:
  Ref<HsaDevice> device_;
  const EventOptions options_;
  mutable std::mutex mutex_;
  Ref<Signal> signal_;
  std::shared_ptr<HwQueue> hw_;
  std::atomic<bool> recorded_{false};
};

// Waits until `signal` reaches 0, checking `hw` for a fault between waits
// (a faulted ring never completes its signals). `hw` may be null.
Status wait_signal(const Api& api, hsa_signal_t signal, const HwQueue* hw);

}  // namespace weft::hsa
