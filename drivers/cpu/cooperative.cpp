// SPDX-License-Identifier: MIT
#include "cooperative.hpp"

#include "block_runner.hpp"

#include <weft/common/log.hpp>

#include <fmt/format.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace weft::cpu {
namespace {

// One arrival per block per grid.sync(). A block that ended no longer counts (as a
// returned GPU thread no longer counts at __syncthreads), so blocks that return
// early cannot leave the others waiting; a block that failed breaks the barrier.
class GridBarrier {
 public:
  explicit GridBarrier(uint64_t blocks) : alive_(blocks) {}

  // Waits until every live block arrived. False when a block failed meanwhile.
  bool arrive() {
    std::unique_lock lock(mutex_);
    if (broken_) return false;
    const uint64_t generation = generation_;
    if (++arrived_ == alive_) {
      complete();
      return true;
    }
    cv_.wait(lock, [&] { return generation_ != generation || broken_; });
    return generation_ != generation;
  }

  void block_ended(bool failed) {
    std::lock_guard lock(mutex_);
    --alive_;
    if (failed) {
      broken_ = true;
      cv_.notify_all();
    } else if (arrived_ > 0 && arrived_ == alive_) {
      complete();
    }
  }

 private:
  void complete() {  // requires mutex_
    arrived_ = 0;
    ++generation_;
    cv_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  uint64_t alive_;
  uint64_t arrived_ = 0;
  uint64_t generation_ = 0;
  bool broken_ = false;
};

struct CooperativeLaunch {
  weftKernelEntry entry;
  void* args;
  LaunchDims dims;
  size_t stack_bytes;
  GridBarrier barrier;
  uint32_t failed = 0;  // the blocks' stop flag (read relaxed by kernel entries)
  std::mutex error_mutex;
  Status error;

  void fail(Status status) {
    std::lock_guard lock(error_mutex);
    if (__atomic_load_n(&failed, __ATOMIC_RELAXED)) return;  // the first failure wins
    error = std::move(status);
    __atomic_store_n(&failed, 1u, __ATOMIC_RELAXED);
  }
};

// The grid of the cooperative launch whose block the calling OS thread runs.
thread_local GridBarrier* t_grid = nullptr;

void run_block(CooperativeLaunch& launch, uint64_t block) {
  BlockRunner& runner = BlockRunner::for_this_thread(launch.stack_bytes);
  bool on_fibers = false;
  t_grid = &launch.barrier;
  Status status = runner.run_range(launch.entry, launch.args, launch.dims, block, block + 1,
                                   &launch.failed, on_fibers);
  t_grid = nullptr;
  // Recorded before the barrier breaks, so the blocks it fails cannot win.
  if (!status.ok()) launch.fail(std::move(status));
  launch.barrier.block_ended(!status.ok());
}

}  // namespace

Status run_cooperative(weftKernelEntry entry, void* args, const LaunchDims& dims,
                       size_t stack_bytes) {
  const uint64_t blocks = uint64_t(dims.grid.x) * dims.grid.y * dims.grid.z;
  CooperativeLaunch launch{entry, args, dims, stack_bytes, GridBarrier(blocks), 0, {}, {}};
  std::vector<std::thread> threads;
  uint64_t started = 1;  // block 0 runs on the calling thread
  try {
    threads.reserve(blocks - 1);
    for (; started < blocks; ++started) threads.emplace_back(run_block, std::ref(launch), started);
  } catch (const std::exception& e) {
    launch.fail(Status(hipErrorLaunchOutOfResources,
                       fmt::format("cooperative launch: could not start an OS thread for block {} "
                                   "of {}: {}",
                                   started, blocks, e.what())));
    for (uint64_t b = started; b < blocks; ++b) launch.barrier.block_ended(true);
  }
  run_block(launch, 0);
  for (std::thread& t : threads) t.join();
  if (__atomic_load_n(&launch.failed, __ATOMIC_ACQUIRE)) return launch.error;
  return Status();
}

}  // namespace weft::cpu

// ---- entry points called by kernels (kernel_abi.h) ----

extern "C" {

__attribute__((visibility("default"))) int weftGridIsCooperative(void) {
  return weft::cpu::BlockRunner::current() && weft::cpu::t_grid ? 1 : 0;
}

__attribute__((visibility("default"))) void weftGridSync(void) {
  weft::cpu::BlockRunner* runner = weft::cpu::BlockRunner::current();
  if (!runner) {
    weft::log::error("grid.sync() called outside a kernel; ignored");
    return;
  }
  if (!weft::cpu::t_grid)
    runner->abort_block(
        "grid.sync() in a launch that is not cooperative (launch the kernel with "
        "hipLaunchCooperativeKernel)",
        hipErrorLaunchFailure);
  if (!weft::cpu::t_grid->arrive())
    runner->abort_block("grid.sync(): another block of the cooperative launch failed",
                        hipErrorLaunchFailure);
}

}  // extern "C"
