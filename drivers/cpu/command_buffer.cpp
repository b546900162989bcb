// SPDX-License-Identifier: MIT
#include "command_buffer.hpp"

#include "event.hpp"
#include "queue.hpp"

#include <string>

namespace weft::cpu {

struct CpuCommandBuffer::Program final : public RefCounted {
  std::vector<Op> ops;
  std::vector<uint8_t> enabled;
  std::vector<uint32_t> event_steps;   // indices of record and wait ops, in order
  std::atomic<uint32_t> in_flight{0};  // submits not yet finished

  Program() = default;
  Program(const Program& other)
      : RefCounted(), ops(other.ops), enabled(other.enabled), event_steps(other.event_steps) {}

  void index_events() {
    event_steps.clear();
    for (size_t i = 0; i < ops.size(); ++i)
      if (std::holds_alternative<EventRecordOp>(ops[i]) ||
          std::holds_alternative<EventWaitOp>(ops[i]))
        event_steps.push_back(static_cast<uint32_t>(i));
  }
};

namespace {

bool is_event_op(const Op& op) {
  return std::holds_alternative<EventRecordOp>(op) || std::holds_alternative<EventWaitOp>(op);
}

// One submit: the program it saw and the event generations it armed.
struct Replay final : public RefCounted {
  Ref<CpuCommandBuffer::Program> program;
  Ref<Queue> queue;
  std::vector<uint64_t> generations;  // by position in program->event_steps

  void run() {
    auto& q = static_cast<CpuQueue&>(*queue);
    std::vector<Op>& ops = program->ops;
    size_t next_event = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
      uint64_t generation = 0;
      if (next_event < program->event_steps.size() && program->event_steps[next_event] == i)
        generation = generations[next_event++];
      if (program->enabled[i]) (void)q.run_inline(ops[i], generation);
    }
    program->in_flight.fetch_sub(1, std::memory_order_release);
  }
};

}  // namespace

CpuCommandBuffer::CpuCommandBuffer() : program_(make_ref<Program>()) {}

Status CpuCommandBuffer::record(const Op& op) {
  if (finalized_) return Status(hipErrorIllegalState, "command buffer already finalized");
  if (auto* record = std::get_if<EventRecordOp>(&op);
      record && !dynamic_cast<CpuEvent*>(record->event.get()))
    return Status(hipErrorInvalidHandle, "CPU command buffer: the event belongs to another agent");
  program_->ops.push_back(op);
  program_->enabled.push_back(1);
  return Status();
}

Status CpuCommandBuffer::finalize() {
  finalized_ = true;
  program_->index_events();
  return Status();
}

CpuCommandBuffer::Program& CpuCommandBuffer::writable() {
  if (program_->in_flight.load(std::memory_order_acquire) != 0)
    program_ = Ref<Program>(new Program(*program_));
  return *program_;
}

Status CpuCommandBuffer::update(size_t index, const Op& op) {
  if (!finalized_ || index >= program_->ops.size())
    return Status(hipErrorInvalidValue, "CPU command buffer: no such record");
  if (auto* record = std::get_if<EventRecordOp>(&op);
      record && !dynamic_cast<CpuEvent*>(record->event.get()))
    return Status(hipErrorInvalidHandle, "CPU command buffer: the event belongs to another agent");
  Program& p = writable();
  bool reindex = is_event_op(p.ops[index]) != is_event_op(op);
  p.ops[index] = op;
  if (reindex) p.index_events();
  return Status();
}

Status CpuCommandBuffer::set_enabled(size_t index, bool enabled) {
  if (!finalized_ || index >= program_->ops.size())
    return Status(hipErrorInvalidValue, "CPU command buffer: no such record");
  if (program_->enabled[index] == uint8_t(enabled)) return Status();
  writable().enabled[index] = enabled;
  return Status();
}

Status CpuCommandBuffer::submit(Queue& queue) {
  if (!finalized_) return Status(hipErrorIllegalState, "command buffer not finalized");
  if (!dynamic_cast<CpuQueue*>(&queue))
    return Status(hipErrorInvalidHandle, "CPU command buffer submitted to another agent's queue");
  Ref<Replay> replay(new Replay());
  replay->program = program_;
  replay->queue = Ref<Queue>(&queue);
  Program& p = *program_;
  replay->generations.reserve(p.event_steps.size());
  // Arm in program order, so a wait on an event recorded earlier in the same
  // program waits for that record. Skipped records are not armed.
  for (uint32_t step : p.event_steps) {
    uint64_t generation = 0;
    if (auto* record = std::get_if<EventRecordOp>(&p.ops[step])) {
      if (p.enabled[step]) generation = static_cast<CpuEvent*>(record->event.get())->arm();
    } else if (auto* own =
                   dynamic_cast<CpuEvent*>(std::get<EventWaitOp>(p.ops[step]).event.get())) {
      generation = own->armed_generation();
    }
    replay->generations.push_back(generation);
  }
  p.in_flight.fetch_add(1, std::memory_order_relaxed);
  Status status = queue.submit(HostFuncOp{[replay] { replay->run(); }});
  if (!status.ok()) p.in_flight.fetch_sub(1, std::memory_order_relaxed);
  return status;
}

}  // namespace weft::cpu
