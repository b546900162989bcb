// SPDX-License-Identifier: MIT
// The CPU agent's command buffer (graph plans). A submit puts one op on the
// queue; when the queue thread reaches it, it runs every recorded op in record
// order through CpuQueue::run_inline, exactly as if each had been submitted on
// its own, without a queue round trip per op. Event ops are armed at submit
// time, as CpuQueue::submit does.
//
// Patching (update, set_enabled) is O(1) while no submit of the buffer is in
// flight. While one is, the first patch copies the recorded list once, so the
// queued replay keeps what it saw (copy-on-write).
//
// Externally synchronized (record, finalize, patches and submits from one
// thread at a time); replays run on queue threads concurrently with patches.
#pragma once

#include <weft/driver/device.hpp>

#include <atomic>
#include <vector>

namespace weft::cpu {

class CpuCommandBuffer final : public CommandBuffer {
 public:
  CpuCommandBuffer();

  Status record(const Op& op) override;
  Status finalize() override;
  Status submit(Queue& queue) override;
  Status update(size_t index, const Op& op) override;
  Status set_enabled(size_t index, bool enabled) override;

  struct Program;

 private:
  Program& writable();

  Ref<Program> program_;
  bool finalized_ = false;
};

}  // namespace weft::cpu
