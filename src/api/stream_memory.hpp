// SPDX-License-Identifier: MIT
// Stream memory operations (hipStreamWaitValue32/64, hipStreamWriteValue32/64,
// hipStreamBatchMemOp and batch-mem-op graph nodes), shared by the stream and
// graph entry points.
//
// They run on the host, as a HostFuncOp in the stream's order: the word must be
// memory the host reaches (any allocation of an agent whose device memory is
// host memory, such as the CPU agent, or pinned, registered or managed memory
// of any agent). A wait spins briefly, then sleeps with a growing back-off, so
// a long wait costs no core. The driver contract has no value-wait op yet, so
// a GPU's device memory is refused (hipErrorNotSupported) rather than read
// from the host.
#pragma once

#include "api/api.hpp"

#include <functional>
#include <vector>

namespace weft::api {

// One validated operation; `address` is the host address of the word.
struct MemOp {
  enum class Kind { kWait, kWrite, kBarrier };
  Kind kind = Kind::kWrite;
  bool wide = false;  // 64-bit word
  void* address = nullptr;
  uint64_t value = 0;
  uint64_t mask = ~uint64_t(0);
  unsigned compare = hipStreamWaitValueGte;  // waits only
};

// Validates one operation of hipStreamBatchMemOp (or of a graph node).
Result<MemOp> mem_op_from(const hipStreamBatchMemOpParams& params);
// Validates the word of a wait or write: allocated or registered with HIP,
// aligned, and reachable from the host.
Result<void*> host_word(void* ptr, size_t bytes);
// Checks the wait comparison flags (hipStreamWaitValue*).
Status check_compare(unsigned flags);

// Whether a wait's condition holds for `current`.
bool wait_satisfied(const MemOp& op, uint64_t current);
// Runs the operations in order on the calling thread (waits block until satisfied).
void run_mem_ops(const std::vector<MemOp>& ops);

// Submits the operations to a stream as one host step.
Status submit_mem_ops(hipStream_t stream, std::vector<MemOp> ops);

}  // namespace weft::api
