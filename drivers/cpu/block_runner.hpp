// SPDX-License-Identifier: MIT
// Runs the GPU threads of one block on one OS thread, with barriers and warp
// operations.
//
// A block starts in loop mode: the kernel's entry runs every GPU thread in turn
// on the OS thread's stack, so kernels that never wait pay nothing per thread.
// When a thread first reaches a barrier or a warp operation, the block switches
// to fiber mode: that thread keeps the OS stack, each later thread gets a fiber
// (context.hpp) with a stack of its own, kept by the runner from block to block.
//
// Scheduling (see docs/cpu-engine.md): a thread that must wait records which
// generation counter it waits on and hands control straight to a precomputed
// successor: the next live thread of the block for __syncthreads, the next live
// lane of its warp for warp operations (so a warp's exchanges stay within 32
// fibers). The thread whose arrival completes a barrier carries on without a
// switch. A thread resumed while its barrier is still pending (divergent
// barriers, exits) takes the slow path: it scans the block for a thread that
// can run, and when none can, the block is deadlocked and fails with
// hipErrorLaunchFailure. Barriers count arrivals per generation, so threads
// waiting at different kinds of barrier (block vs warp) never release each
// other early.
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

// Fixed-size fiber stacks with a guard page.
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
  ~BlockRunner();
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;

  // Runs every GPU thread of block `linear_block`. Fails with hipErrorAssert
  // when a thread failed a device assert, hipErrorLaunchFailure on a deadlock.
  Status run_block(weftKernelEntry entry, void* args, const LaunchDims& dims, uint64_t linear_block);

  // __syncthreads and its _count/_and/_or forms (op: WEFT_REDUCE_*).
  inline int barrier(int predicate, int op);
  // A warp-wide exchange (see weftWarpCollective).
  inline const uint64_t* warp_collective(uint64_t value, uint64_t* active_mask);
  // Ends the block after a failed device assert; does not return.
  [[noreturn]] void abort_block(std::string message, hipError_t code);

  weftKernelContext* context() { return &ctx_; }
  // threadIdx of the GPU thread running now.
  dim3 current_thread_index() const;

  // The runner of the calling OS thread while it executes a block, else null.
  static BlockRunner* current();
  // The runner of the calling OS thread, created on first use.
  static BlockRunner& for_this_thread(size_t stack_bytes);

 private:
  // What the barrier path touches, packed: 32 bytes per GPU thread on x86-64.
  struct Fiber {
    FiberContext context;
    // The thread may run once *waits_on != seen (a barrier generation moved on).
    const uint32_t* waits_on;
    uint32_t seen;
    uint32_t next;       // next live thread of the block (a ring)
    uint32_t warp_next;  // next live lane of the same warp (a ring)
  };
  // The rest of a GPU thread's state.
  struct ThreadInfo {
    StackSpan stack;             // empty for the thread that keeps the OS stack
    void* fake_stack = nullptr;  // AddressSanitizer bookkeeping
    dim3 index;                  // its threadIdx
    uint32_t prev = 0;           // ring predecessors, to unlink a finished thread
    uint32_t warp_prev = 0;
    bool alive = false;
    // The slot's fiber finished a GPU thread and waits, inside exit_fiber(), to
    // run the same slot's thread of a later block: no new context is needed.
    bool parked = false;
  };
  struct Warp {
    uint32_t alive = 0;
    uint32_t arrived = 0;
    uint32_t generation = 0;
    uint64_t masks[2] = {0, 0};
    uint64_t values[2][WEFT_CPU_WARP_SIZE] = {};
  };

  void enter_fiber_mode();
  inline void switch_to(unsigned me, unsigned next);
  void wait_slow(unsigned me);
  unsigned find_runnable(unsigned me) const;  // == me when none can run
  void finish_thread(unsigned thread);
  // Hands over for good (this block); returns when a later block resumes the slot.
  void exit_fiber(unsigned me);
  dim3 thread_index(unsigned linear) const;
  unsigned linear_index(const dim3& t) const;
  void complete_block_barrier();
  void complete_warp(Warp& warp);
  void after_fiber_block();
  [[noreturn]] void return_to_os_stack(unsigned me);
  static void fiber_main(void* runner);

  // ---- hot: read on every barrier crossing ----
  Fiber* fibers_ = nullptr;  // fibers_storage_.data()
  Warp* warps_ = nullptr;    // warps_storage_.data()
  unsigned current_ = 0;
  unsigned alive_count_ = 0;
  uint32_t block_arrived_ = 0;
  uint32_t block_generation_ = 0;
  uint32_t block_true_ = 0;  // predicates that were true in this generation
  bool fiber_mode_ = false;
  bool aborted_ = false;
  struct BarrierResult {
    uint32_t true_count = 0;
    uint32_t arrived = 0;
  };
  BarrierResult block_results_[2];

  // ---- cold ----
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
  unsigned os_thread_ = 0;  // the GPU thread that runs on the OS stack
  std::string abort_message_;
  std::jmp_buf abort_jump_;
  hipError_t abort_code_ = hipSuccess;
  std::vector<Fiber> fibers_storage_;
  std::vector<ThreadInfo> info_;  // stacks stay attached to their slot between blocks
  std::vector<Warp> warps_storage_;
  FiberContext main_;  // the OS thread once its own GPU thread finished
  void* main_fake_stack_ = nullptr;
  StackSpan os_stack_;

  StackPool stacks_;
};

}  // namespace weft::cpu
