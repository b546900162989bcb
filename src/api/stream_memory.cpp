// SPDX-License-Identifier: MIT
// Stream memory operations: hipStreamWaitValue32/64, hipStreamWriteValue32/64 and
// hipStreamBatchMemOp (see stream_memory.hpp for the design).
#include "api/stream_memory.hpp"

#include <atomic>
#include <chrono>
#include <thread>

using namespace weft;
using namespace weft::api;

namespace weft::api {

namespace {

// Batches larger than this are refused, as CUDA's cuStreamBatchMemOp does.
constexpr unsigned kMaxBatch = 256;

uint64_t width_mask(bool wide) { return wide ? ~uint64_t(0) : uint64_t(0xFFFFFFFFu); }

uint64_t load_word(const MemOp& op) {
  if (op.wide) return __atomic_load_n(static_cast<const uint64_t*>(op.address), __ATOMIC_ACQUIRE);
  return __atomic_load_n(static_cast<const uint32_t*>(op.address), __ATOMIC_ACQUIRE);
}

void store_word(const MemOp& op) {
  if (op.wide) __atomic_store_n(static_cast<uint64_t*>(op.address), op.value, __ATOMIC_RELEASE);
  else
    __atomic_store_n(static_cast<uint32_t*>(op.address), static_cast<uint32_t>(op.value),
                     __ATOMIC_RELEASE);
}

// Waits for the word: a short burst of polls (the writer is often just about to
// store), then sleeps that double from 1 us up to 1 ms, so a wait of seconds
// costs a thousand wake-ups per second at most and no core.
void wait_word(const MemOp& op) {
  for (int i = 0; i < 256; ++i) {
    if (wait_satisfied(op, load_word(op))) return;
    std::this_thread::yield();
  }
  auto delay = std::chrono::microseconds(1);
  while (!wait_satisfied(op, load_word(op))) {
    std::this_thread::sleep_for(delay);
    if (delay < std::chrono::milliseconds(1)) delay *= 2;
  }
}

}  // namespace

Status check_compare(unsigned flags) {
  switch (flags) {
    case hipStreamWaitValueGte:
    case hipStreamWaitValueEq:
    case hipStreamWaitValueAnd:
    case hipStreamWaitValueNor: return Status();
    default:
      return invalid_value(
          fmt::format("wait flags {:#x}: expected hipStreamWaitValueGte, Eq, And or Nor", flags));
  }
}

bool wait_satisfied(const MemOp& op, uint64_t current) {
  const uint64_t width = width_mask(op.wide);
  const uint64_t masked = current & op.mask & width;
  const uint64_t value = op.value & width;
  switch (op.compare) {
    case hipStreamWaitValueGte: return masked >= value;
    case hipStreamWaitValueEq: return masked == value;
    case hipStreamWaitValueAnd: return (masked & value) != 0;
    default: return (~(masked | (value & op.mask)) & width) != 0;  // hipStreamWaitValueNor
  }
}

Result<void*> host_word(void* ptr, size_t bytes) {
  if (!ptr) return invalid_value("null address");
  if (reinterpret_cast<uintptr_t>(ptr) % bytes != 0)
    return invalid_value(fmt::format("address {} is not aligned to the {}-byte word", ptr, bytes));
  std::optional<AllocationRecord> record = Runtime::get().pointers().find(ptr);
  if (!record)
    return invalid_value(fmt::format("{} is not in memory allocated or registered with HIP", ptr));
  if (!record->contains(ptr, bytes))
    return invalid_value(
        fmt::format("the {}-byte word at {} runs past the end of its allocation", bytes, ptr));
  if (record->kind == AllocationKind::kDevice) {
    DeviceState* owner = Runtime::get().device(record->device);
    if (!owner || !owner->driver_device().caps().host_can_access_device_memory)
      return Status(
          hipErrorNotSupported,
          fmt::format(
              "{} is device memory of device {}, which the host cannot reach; weft runs stream "
              "memory operations on the host, so use pinned host memory (hipHostMalloc) there",
              ptr, record->device));
  }
  return ptr;
}

Result<MemOp> mem_op_from(const hipStreamBatchMemOpParams& params) {
  MemOp op;
  const int operation = raw_value(params.operation);
  switch (operation) {
    case hipStreamMemOpWaitValue32:
    case hipStreamMemOpWaitValue64: {
      op.kind = MemOp::Kind::kWait;
      op.wide = operation == hipStreamMemOpWaitValue64;
      WEFT_RETURN_IF_ERROR(check_compare(params.waitValue.flags));
      op.compare = params.waitValue.flags;
      op.value = op.wide ? params.waitValue.value64 : params.waitValue.value;
      // A batch carries no mask: every bit of the word counts.
      WEFT_ASSIGN_OR_RETURN(op.address, host_word(params.waitValue.address, op.wide ? 8 : 4));
      return op;
    }
    case hipStreamMemOpWriteValue32:
    case hipStreamMemOpWriteValue64: {
      op.kind = MemOp::Kind::kWrite;
      op.wide = operation == hipStreamMemOpWriteValue64;
      op.value = op.wide ? params.writeValue.value64 : params.writeValue.value;
      WEFT_ASSIGN_OR_RETURN(op.address, host_word(params.writeValue.address, op.wide ? 8 : 4));
      return op;
    }
    case hipStreamMemOpBarrier:
    case hipStreamMemOpFlushRemoteWrites:
      // Host steps already see every earlier write of the stream; a fence makes
      // the ordering explicit for the writes that follow.
      op.kind = MemOp::Kind::kBarrier;
      return op;
    default: return invalid_value(fmt::format("unknown batch memory operation {}", operation));
  }
}

void run_mem_ops(const std::vector<MemOp>& ops) {
  for (const MemOp& op : ops) {
    switch (op.kind) {
      case MemOp::Kind::kWait: wait_word(op); break;
      case MemOp::Kind::kWrite: store_word(op); break;
      case MemOp::Kind::kBarrier: std::atomic_thread_fence(std::memory_order_seq_cst); break;
    }
  }
}

Status submit_mem_ops(hipStream_t stream, std::vector<MemOp> ops) {
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
  return s->submit(HostFuncOp{[ops = std::move(ops)] { run_mem_ops(ops); }});
}

}  // namespace weft::api

namespace {

Status wait_value(hipStream_t stream, void* ptr, uint64_t value, unsigned flags, uint64_t mask,
                  bool wide) {
  WEFT_RETURN_IF_ERROR(check_compare(flags));
  MemOp op;
  op.kind = MemOp::Kind::kWait;
  op.wide = wide;
  op.value = value;
  op.mask = mask;
  op.compare = flags;
  WEFT_ASSIGN_OR_RETURN(op.address, host_word(ptr, wide ? 8 : 4));
  return submit_mem_ops(stream, {op});
}

Status write_value(hipStream_t stream, void* ptr, uint64_t value, bool wide) {
  // flags are reserved and ignored, as AMD documents.
  MemOp op;
  op.kind = MemOp::Kind::kWrite;
  op.wide = wide;
  op.value = value;
  WEFT_ASSIGN_OR_RETURN(op.address, host_word(ptr, wide ? 8 : 4));
  return submit_mem_ops(stream, {op});
}

}  // namespace

WEFT_EXPORT hipError_t hipStreamWaitValue32(hipStream_t stream, void* ptr, uint32_t value,
                                            unsigned int flags, uint32_t mask) {
  return call(
      "hipStreamWaitValue32", [&] { return wait_value(stream, ptr, value, flags, mask, false); },
      stream, ptr, value, flags, mask);
}

WEFT_EXPORT hipError_t hipStreamWaitValue64(hipStream_t stream, void* ptr, uint64_t value,
                                            unsigned int flags, uint64_t mask) {
  return call(
      "hipStreamWaitValue64", [&] { return wait_value(stream, ptr, value, flags, mask, true); },
      stream, ptr, value, flags, mask);
}

WEFT_EXPORT hipError_t hipStreamWriteValue32(hipStream_t stream, void* ptr, uint32_t value,
                                             unsigned int flags) {
  return call(
      "hipStreamWriteValue32", [&] { return write_value(stream, ptr, value, false); }, stream, ptr,
      value, flags);
}

WEFT_EXPORT hipError_t hipStreamWriteValue64(hipStream_t stream, void* ptr, uint64_t value,
                                             unsigned int flags) {
  return call(
      "hipStreamWriteValue64", [&] { return write_value(stream, ptr, value, true); }, stream, ptr,
      value, flags);
}

WEFT_EXPORT hipError_t hipStreamBatchMemOp(hipStream_t stream, unsigned int count,
                                           hipStreamBatchMemOpParams* paramArray,
                                           unsigned int flags) {
  return call(
      "hipStreamBatchMemOp",
      [&] {
    if (count == 0 || count > kMaxBatch)
      return invalid_value(fmt::format("count {} must be 1 to {}", count, kMaxBatch));
    if (!paramArray) return invalid_value("null parameter array");
    if (flags != 0) return invalid_value("flags must be 0");
    std::vector<MemOp> ops;
    ops.reserve(count);
    for (unsigned i = 0; i < count; ++i) {
      Result<MemOp> op = mem_op_from(paramArray[i]);
      if (!op.ok())
        return Status(op.status().code(),
                      fmt::format("operation {}: {}", i, op.status().message()));
      ops.push_back(op.value());
    }
    return submit_mem_ops(stream, std::move(ops));
      },
      stream, count, paramArray, flags);
}
