// SPDX-License-Identifier: MIT
// Runs ranges of blocks of a launch on one OS thread, with barriers and warp
// operations between the GPU threads of each block.
//
// A range starts in loop mode: the kernel's entry runs every GPU thread of every
// block in turn on the OS thread's stack, so kernels that never wait pay nothing
// per thread. When a thread first reaches a barrier or a warp operation, the
// block switches to fiber mode: that thread keeps the OS stack, each later thread
// gets a fiber with a stack of its own, and from then on every block of the range
// runs on fibers (later ranges of the same launch start on them). A fiber stays
// in the kernel's entry from block to block: when its GPU thread returns it waits
// for the block's end and then runs its slot's thread of the next block, so a
// thread's life costs one more switch, no setup.
//
// Scheduling (docs/cpu-engine.md, hip/weft/fiber_sync.h): a thread that must
// wait records what it waits for and hands control straight to a precomputed
// successor (next thread of the block, or next lane of its warp); the arrival
// that completes a barrier carries on. Kernels built from single_source.h do all
// of this inline; this class runs the same algorithm for the other callers and
// owns the slow paths: entering fiber mode, block ends, waits that are not over
// (divergent barriers: find a runnable thread, or fail the block with
// hipErrorLaunchFailure on a deadlock), aborts (device asserts, exceptions).
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
  size_t stack_bytes() const { return stack_bytes_; }
  // Later stacks get `bytes`; the free ones are unmapped. Stacks handed out
  // must not be given back afterwards (unmap them with release()).
  void resize(size_t bytes);
  static void release(const StackSpan& stack);

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

  // Runs blocks [begin, end) of a launch (linear ids). `on_fibers`: start on
  // fibers (an earlier range of the launch waited at a barrier); set when this
  // range did. Stops early once *stop is nonzero. Fails with hipErrorAssert when
  // a thread failed a device assert, hipErrorLaunchFailure on a deadlock or an
  // exception.
  Status run_range(weftKernelEntry entry, void* args, const LaunchDims& dims, uint64_t begin,
                   uint64_t end, const uint32_t* stop, bool& on_fibers);

  // Engine side of the kernel ABI (kernel_abi.h) for the calling GPU thread.
  int barrier(int predicate, int op);  // op: WEFT_REDUCE_*
  const uint64_t* warp_collective(uint64_t value, uint64_t* active_mask, uint64_t site);
  uint32_t wait_until_runnable();  // weftFiberWait
  uint32_t thread_exit();          // weftFiberExit
  // Ends the block after a failed device assert; does not return.
  [[noreturn]] void abort_block(std::string message, hipError_t code);

  // A memory fault raised by the running GPU thread (fault_guard.cpp), as the
  // signal handler sees it.
  struct Fault {
    enum Access : uint8_t { kUnknown, kRead, kWrite };
    void* address = nullptr;
    void* stack_pointer = nullptr;
    int signal = 0;
    Access access = kUnknown;
    // Set by fault_block:
    bool overflow = false;   // the address is in (or below) the running stack's guard page
    bool in_fibers = false;  // block and thread are known (loop mode knows the range only)
    dim3 block{0, 0, 0};
    dim3 thread{0, 0, 0};
    uint64_t first_block = 0, last_block = 0;
  };
  // Ends the block after a fault, from the signal handler (on the alternate
  // stack, signal mask restored): hipErrorIllegalAddress, or
  // hipErrorLaunchFailure for a stack overflow. Allocates nothing; run_range
  // writes the message once the block is left. Does not return.
  [[noreturn]] void fault_block(const Fault& fault);
  bool fault_pending() const { return fault_pending_; }
  // The last range ended with a memory fault (its Status says where).
  bool faulted() const { return faulted_; }

  weftKernelContext* context() { return &ctx_; }
  // threadIdx of the GPU thread running now.
  dim3 current_thread_index() const;

  // What every fiber runs (weft_cpu_fiber_main): its slot's GPU thread of each
  // range that resumes it.
  void fiber_main();

  // The runner of the calling OS thread while it executes a range, else null.
  static BlockRunner* current();
  // The runner of the calling OS thread, created on first use; its fibers get
  // stacks of `stack_bytes` (hipLimitStackSize) from now on.
  static BlockRunner& for_this_thread(size_t stack_bytes);

 private:
  enum class Slot : uint8_t {
    Empty,     // no fiber: gets a new context before it runs
    Parked,    // its fiber waits in park(); resuming it enters the kernel
    InEntry,   // its fiber is inside the kernel's entry
    OsThread,  // the GPU thread that turned the block into fibers, on the OS stack
  };
  struct ThreadInfo {
    StackSpan stack;             // kept from range to range
    void* fake_stack = nullptr;  // AddressSanitizer bookkeeping
    void* tsan_fiber = nullptr;  // ThreadSanitizer's context for this slot's fiber
    Slot state = Slot::Empty;
  };
  // Lanes of a warp waiting at sites other than the open exchange's (warp_sites.cpp).
  struct HeldLanes {
    uint64_t open = 0;  // site of the open exchange (its lanes wait on the warp's generation)
    uint64_t held = 0;  // mask of lanes held at other sites
    uint64_t done = 0;  // mask of the held group completed last
    uint64_t site[WEFT_CPU_WARP_SIZE];
    uint64_t value[WEFT_CPU_WARP_SIZE];
    uint64_t result[WEFT_CPU_WARP_SIZE];  // the completed held group's values
  };
  struct EngineSwitch;
  struct EngineWait;
  struct AlignedDelete {
    template <typename T>
    void operator()(T* p) const {
      ::operator delete[](p, std::align_val_t(64));
    }
  };

  void prepare_slots();
  void resize_stacks(size_t stack_bytes);
  void set_block(uint64_t block);
  void reset_counters(uint32_t first);
  void link_rings(uint32_t first);
  void ready_slots(uint32_t first);
  void enter_fiber_mode();
  void run_on_fibers(uint64_t block);
  void os_thread_done();
  void unlink(uint32_t thread);
  bool advance_block();
  void count_exit(uint32_t thread);
  const uint64_t* warp_divergent(uint64_t value, uint64_t* active_mask, uint64_t site);
  void complete_earliest(uint32_t warp);
  void settle_warp(uint32_t warp);
  void resume_from_main(uint32_t next);
  uint32_t next_in_entry(uint32_t after) const;
  void park(uint32_t me);
  void switch_slot(uint32_t me, uint32_t next);
  void wait_slow(uint32_t me);
  uint32_t find_runnable(uint32_t me);  // == me when none can run
  void after_fibers();
  [[noreturn]] void return_to_os_stack(uint32_t me);
  const StackSpan& stack_of(uint32_t thread) const;
  void* tsan_fiber_of(uint32_t thread) const;
  unsigned linear_index(const dim3& t) const;

  // ---- hot: shared with the kernels' inline code ----
  weftFiberBlock hot_{};
  weftFiber* fibers_ = nullptr;  // == hot_.fibers
  uint64_t block_ = 0;           // linear id of the block running
  uint64_t range_end_ = 0;
  const uint32_t* stop_ = nullptr;
  bool fiber_mode_ = false;
  bool aborted_ = false;
  bool ring_dirty_ = false;   // the rings lost a thread: relink at the next block
  bool slots_dirty_ = false;  // a slot needs a fiber before the next block

  // ---- cold ----
  weftKernelContext ctx_{};
  weftKernelEntry entry_ = nullptr;
  void* args_ = nullptr;
  std::unique_ptr<std::byte[], AlignedDelete> dynamic_shared_;
  size_t dynamic_shared_capacity_ = 0;

  unsigned threads_ = 0;
  uint32_t os_thread_ = 0;      // the GPU thread on the OS stack (Slot::OsThread), if any
  dim3 indexed_dims_{0, 0, 0};  // block shape the fibers' threadIdx were computed for
  std::string abort_message_;
  std::jmp_buf abort_jump_;
  hipError_t abort_code_ = hipSuccess;
  Fault fault_;
  bool fault_pending_ = false;  // fault_ awaits its message in run_range
  bool faulted_ = false;
  std::string describe_fault() const;
  std::unique_ptr<weftFiber[], AlignedDelete> fiber_storage_;
  size_t fiber_capacity_ = 0;
  std::vector<ThreadInfo> info_;  // stacks stay attached to their slot
  std::vector<weftWarpState> warps_;
  std::vector<HeldLanes> held_;  // by warp
  uint32_t hold_ = 0;            // never changes: held lanes wait on it
  weftFiber main_{};             // the OS stack while fibers run
  void* main_fake_stack_ = nullptr;
  void* os_tsan_fiber_ = nullptr;  // ThreadSanitizer's context of the OS thread
  StackSpan os_stack_;

  StackPool stacks_;
};

}  // namespace weft::cpu
