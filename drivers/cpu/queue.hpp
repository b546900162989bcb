// SPDX-License-Identifier: MIT
// An in-order CPU queue: ops are executed by one dedicated host thread, which
// spreads kernel blocks over the shared WorkerPool. submit() only appends.
// Destroying the queue lets already-submitted work finish first, without
// blocking the caller (as hipStreamDestroy requires). Thread-safe.
#pragma once

#include <weft/driver/device.hpp>

#include <memory>

namespace weft::cpu {

class WorkerPool;

class CpuQueue final : public Queue {
 public:
  CpuQueue(WorkerPool& pool, size_t fiber_stack_bytes);
  ~CpuQueue() override;

  Status submit(Op op) override;
  Status synchronize() override;
  bool is_idle() override;

  struct State;  // shared with the executing thread, which may outlive the queue

 private:
  std::shared_ptr<State> state_;
};

}  // namespace weft::cpu
