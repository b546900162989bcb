// SPDX-License-Identifier: MIT
// Host work in CUstream order, run on weft's own threads.
//
// HIP host callbacks may call back into HIP (hipFreeAsync's release does), but
// CUDA forbids CUDA calls inside cuLaunchHostFunc, and a blocking host function
// stalls every other stream's callbacks. So a queue that needs host work gets a
// HostLane: one weft thread per queue, plus a pinned host word the stream waits
// on with cuStreamWaitValue32. For each host item the queue enqueues
//
//   [HostFuncOp only] cuLaunchHostFunc(trampoline): tells the lane "reached t"
//   cuStreamWaitValue32(word >= t)
//
// and the lane thread runs item t (the user function, or a wait for another
// agent's event) once it is due, then stores t into the word, releasing the
// stream. Tickets only grow (CUDA compares cyclically), so a word can be handed
// to a new lane after the old one drained without ever moving backwards.
//
// Without cuStreamWaitValue32 the queue falls back to running host work directly
// in cuLaunchHostFunc (documented in docs/nvidia.md).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>
#include <weft/driver/device.hpp>
#include <weft/driver/ref.hpp>

#include "api.hpp"

namespace weft::cuda {

class CudaDevice;

// A 32-bit pinned host word the device can poll.
struct WaitWord {
  volatile uint32_t* host = nullptr;
  CUdeviceptr device = 0;
};

// Pinned words of one device, allocated a page at a time and never freed (a
// stream may still poll a word after its queue is gone). Thread-safe.
class WordPool {
 public:
  // Needs the device's context current on the calling thread.
  Result<WaitWord> acquire(const Api& api);
  void release(WaitWord word);

 private:
  std::mutex mutex_;
  std::vector<WaitWord> free_;
};

class HostLane : public std::enable_shared_from_this<HostLane> {
 public:
  // True on a lane thread: its stream is blocked until the current item returns,
  // so nothing there may wait for the device (cuMemFree would: see deallocate()).
  static bool on_lane_thread();
  // The stream whose lane is running on this thread (null elsewhere).
  static CUstream lane_stream();

  // Starts the lane's thread. The device's context must be current.
  static Result<std::shared_ptr<HostLane>> create(CudaDevice& device, CUstream stream);
  ~HostLane();

  // Enqueues `fn` to run when the stream reaches this point.
  Status submit_host_func(std::function<void()> fn);
  // Later stream work waits until `event` (another agent's) completes.
  Status submit_foreign_wait(Ref<Event> event);
  // The queue is going away: the thread exits once every item ran.
  void close();

 private:
  struct Item {
    uint32_t ticket = 0;
    std::function<void()> fn;  // host function, or
    Ref<Event> foreign;        // event to wait for
  };
  struct Trampoline;

  HostLane(CudaDevice& device, CUstream stream, WaitWord word);
  Status enqueue(Item item, bool needs_trampoline);
  void loop();
  bool due(const Item& item) const;

  Ref<CudaDevice> device_;  // the lane may outlive its queue while it drains
  const Api& api_;
  const CUstream stream_;
  const WaitWord word_;
  std::mutex submit_mutex_;  // keeps ticket order equal to stream order
  std::mutex mutex_;         // guards the fields below; the trampoline takes it
  std::condition_variable cv_;
  std::deque<Item> items_;
  uint32_t next_ticket_ = 0;  // guarded by submit_mutex_
  uint32_t reached_ = 0;      // last ticket whose trampoline ran
  bool closing_ = false;
};

}  // namespace weft::cuda
