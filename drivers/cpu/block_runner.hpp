// SPDX-License-Identifier: MIT
// Runs the GPU threads of one block on one OS thread, with barriers and warp
// operations.
//
// A block starts in loop mode: the kernel's entry runs every GPU thread in turn
// on the OS thread's stack, so kernels that never wait pay nothing per thread.
// When a thread first reaches a barrier or a warp operation, the block switches
// to fiber mode: that thread keeps the OS stack, each later thread gets a fiber
// (context.hpp) with a stack from a per-runner pool, and waiting threads hand
// control round-robin to the next live one. Barriers count arrivals per
// generation, so threads waiting at different kinds of barrier (block vs warp)
// never release each other early.
//
// One BlockRunner per OS thread (thread_local); externally synchronized.
#pragma once

#include "context.hpp"

#include <hip/weft/kernel_abi.h>
#include <weft/driver/op.hpp>
#include <weft/driver/status.hpp>

#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace weft::cpu {

struct StackSpan {
  std::byte* bottom = nullptr;
  size_t size = 0;
  std::byte* top() const { return bottom + size; }
};

// Fixed-size fiber stacks with a guard page, recycled between blocks.
class StackPool {
 public:
  explicit StackPool(size_t stack_bytes) : stack_bytes_(stack_bytes) {}
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  StackSpan acquire();  // throws std::bad_alloc when the kernel refuses memory
  void give_back(const StackSpan& stack) { free_.push_back(stack); }

 private:
  size_t stack_bytes_;
  std::vector<StackSpan> free_;
};

class BlockRunner {
 public:
  explicit BlockRunner(size_t stack_bytes);

  // Runs every GPU thread of block `linear_block`. Fails with hipErrorAssert
  // when a thread failed a device assert, hipErrorLaunchFailure on a deadlock.
  Status run_block(weftKernelEntry entry, void* args, const LaunchDims& dims, uint64_t linear_block);

  // __syncthreads and its _count/_and/_or forms (op: WEFT_REDUCE_*).
  int barrier(int predicate, int op);
  // A warp-wide exchange (see weftWarpCollective).
  const uint64_t* warp_collective(uint64_t value, uint64_t* active_mask);
  // Ends the block after a failed device assert; does not return.
  [[noreturn]] void abort_block(std::string message, hipError_t code);

  weftKernelContext* context() { return &ctx_; }

  // The runner of the calling OS thread while it executes a block, else null.
  static BlockRunner* current();
  // The runner of the calling OS thread, created on first use.
  static BlockRunner& for_this_thread(size_t stack_bytes);

  uint64_t context_switches() const { return switches_; }

 private:
  struct GpuThread {
    FiberContext context;
    StackSpan stack;          // empty for the thread that keeps the OS stack
    void* fake_stack = nullptr;  // AddressSanitizer bookkeeping
    dim3 index;                  // its threadIdx
    bool alive = false;
  };
  struct Warp {
    uint32_t alive = 0;
    uint32_t arrived = 0;
    uint32_t generation = 0;
    uint64_t masks[2] = {0, 0};
    uint64_t values[2][WEFT_CPU_WARP_SIZE] = {};
  };

  void enter_fiber_mode();
  void yield_while_waiting(const uint32_t& generation, uint32_t seen);
  void switch_to(unsigned next);
  void finish_thread(unsigned thread);
  unsigned next_alive(unsigned after) const;  // == threads_ when none is alive
  dim3 thread_index(unsigned linear) const;
  unsigned linear_index(const dim3& t) const;
  void complete_block_barrier();
  void complete_warp(Warp& warp);
  void release_fibers();
  [[noreturn]] void return_to_os_stack(unsigned me);
  static void fiber_main(void* runner);

  weftKernelContext ctx_{};
  weftKernelEntry entry_ = nullptr;
  void* args_ = nullptr;
  // Dynamic shared memory is cache-line aligned, so it must be freed with the
  // matching aligned operator delete[].
  struct AlignedDelete {
    void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t(64)); }
  };
  std::unique_ptr<std::byte[], AlignedDelete> dynamic_shared_;
  size_t dynamic_shared_capacity_ = 0;

  unsigned threads_ = 0;
  unsigned current_ = 0;
  unsigned os_thread_ = 0;      // the GPU thread that runs on the OS stack
  bool fiber_mode_ = false;
  bool aborted_ = false;
  std::string abort_message_;
  std::jmp_buf abort_jump_;
  hipError_t abort_code_ = hipSuccess;
  std::vector<GpuThread> gpu_threads_;
  FiberContext main_;           // the OS thread once its own GPU thread finished
  void* main_fake_stack_ = nullptr;
  StackSpan os_stack_;

  unsigned alive_count_ = 0;
  uint32_t block_arrived_ = 0;
  uint32_t block_generation_ = 0;
  uint32_t block_true_ = 0;      // predicates that were true in this generation
  struct BarrierResult {
    uint32_t true_count = 0;
    uint32_t arrived = 0;
  };
  BarrierResult block_results_[2];
  std::vector<Warp> warps_;
  uint64_t progress_ = 0;       // barrier completions and exits, for deadlock detection
  uint64_t switches_ = 0;

  StackPool stacks_;
};

}  // namespace weft::cpu
