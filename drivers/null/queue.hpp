// SPDX-License-Identifier: MIT
// NullQueue: an in-order queue that runs each op on the submitting thread
// before submit() returns. The simplest queue that keeps the contract: work is
// in order because it runs in submission order, one op at a time.
//
// What "inline" means for callers: submit() may block (an EventWaitOp on an
// unfinished event of another driver waits right there), and a HostFuncOp runs
// inside submit(), on the caller's thread. A host function that submits to or
// synchronizes the same queue would deadlock; HIP forbids it anyway (op.hpp).
// Thread-safe: concurrent submits are serialized.
//
// Contract (destruction): dropping the last reference must not block, and work
// already submitted still runs (hipStreamDestroy's rule); a threaded queue lets
// its thread drain and exit on its own. Here nothing is ever pending.
#pragma once

#include <weft/driver/device.hpp>

#include <atomic>
#include <mutex>

namespace weft::null {

class NullQueue final : public Queue {
 public:
  Status submit(Op&& op) override;
  Status synchronize() override;
  bool is_idle() override;

 private:
  Status run(DispatchOp& op);
  Status run(CopyOp& op);
  Status run(FillOp& op);
  Status run(HostFuncOp& op);
  Status run(EventRecordOp& op);
  Status run(EventWaitOp& op);

  // Held for the whole of one op, so ops of concurrent submitters never overlap.
  std::mutex mutex_;
  std::atomic<int> running_{0};  // ops inside submit() now
};

}  // namespace weft::null
