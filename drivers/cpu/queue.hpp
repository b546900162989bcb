// SPDX-License-Identifier: MIT
// An in-order CPU queue: ops are executed by one dedicated host thread, which
// spreads kernel blocks over the shared WorkerPool, or by a thread in
// synchronize() that finds no thread running them (it runs them itself, in order,
// up to what it waits for: no wake-up of the queue thread on the way; one thread
// runs the queue's ops at a time). submit() only appends. Destroying the queue
// lets already-submitted work finish first, without blocking the caller (as
// hipStreamDestroy requires). Thread-safe. docs/cpu-engine.md, "The queue".
#pragma once

#include <weft/driver/device.hpp>

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

namespace weft::cpu {

class WorkerPool;

class CpuQueue final : public Queue {
 public:
  // `fiber_stack_bytes` is the device's current stack size, read as each kernel starts.
  // `cu_mask` selects the pool threads that run its dispatches (empty: all; see
  // worker_pool.hpp); cooperative dispatches run on threads of their own regardless.
  CpuQueue(WorkerPool& pool, std::shared_ptr<const std::atomic<size_t>> fiber_stack_bytes,
           std::vector<uint32_t> cu_mask = {});
  ~CpuQueue() override;

  Status submit(Op&& op) override;
  // The queue thread reads the clock around running the op (exact times).
  Status submit_observed(Op&& op, Ref<OpObserver> observer) override;
  Status synchronize() override;
  bool is_idle() override;
  // Runs `op` on the calling thread now, as the queue thread would, and keeps a
  // failure as the queue's error. For command buffers, whose replay runs as one
  // op of this queue (so call it only from that op). `op` is only read;
  // `generation` is what submit() would have given an event op.
  Status run_inline(Op& op, uint64_t generation);

  struct State;  // shared with the executing thread, which may outlive the queue

 private:
  std::shared_ptr<State> state_;
};

}  // namespace weft::cpu
