// SPDX-License-Identifier: MIT
// Runs the GPU threads of one block on one OS thread, with __syncthreads.
//
// GPU threads start as a plain loop on the OS thread's own stack. Only when a
// thread first reaches a barrier does the block switch to fiber mode: that thread
// keeps the OS stack, every later thread gets a fiber (Boost.Context) from a
// per-runner stack pool, and barriers hand control round-robin to the next live
// thread. So barrier-free kernels never pay for a context switch.
//
// One BlockRunner per OS thread (thread_local); externally synchronized.
#pragma once

#include <hip/weft/kernel_abi.h>
#include <weft/driver/op.hpp>

#include <boost/context/fiber.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace weft::cpu {

// Fixed-size fiber stacks with a guard page, recycled between blocks.
class StackPool {
 public:
  explicit StackPool(size_t stack_bytes) : stack_bytes_(stack_bytes) {}
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  boost::context::stack_context acquire();
  void give_back(boost::context::stack_context& stack);

 private:
  size_t stack_bytes_;
  std::vector<boost::context::stack_context> free_;
};

class BlockRunner {
 public:
  explicit BlockRunner(size_t stack_bytes);

  // Runs every GPU thread of block `linear_block` of the dispatch.
  void run_block(const HostKernel& kernel, const LaunchDims& dims, uint64_t linear_block);
  // __syncthreads for the GPU thread running now.
  void barrier();

  weftKernelContext* context() { return &ctx_; }

  // The runner of the calling OS thread while it executes a block, else null.
  static BlockRunner* current();
  // The runner of the calling OS thread, created on first use.
  static BlockRunner& for_this_thread(size_t stack_bytes);

 private:
  using Fiber = boost::context::fiber;

  void enter_fiber_mode();
  unsigned next_alive(unsigned after) const;  // == threads_ when none is alive
  void set_thread(unsigned linear_thread);
  void switch_to(unsigned next);
  Fiber make_fiber(unsigned thread);
  // AddressSanitizer must be told about every stack switch (no-ops otherwise).
  struct StackSpan {
    const void* bottom = nullptr;
    size_t size = 0;
  };
  void leaving(void** fake_stack, unsigned to_thread);
  void leaving_to_main(void** fake_stack);
  static void arrived(void* fake_stack);

  weftKernelContext ctx_{};
  std::unique_ptr<std::byte[]> dynamic_shared_;
  size_t dynamic_shared_capacity_ = 0;
  const HostKernel* kernel_ = nullptr;
  unsigned threads_ = 0;
  unsigned current_ = 0;
  bool fiber_mode_ = false;
  unsigned alive_count_ = 0;
  std::vector<uint8_t> alive_;
  std::vector<Fiber> fibers_;  // suspended GPU threads, by linear thread index
  Fiber main_;                 // the OS thread's context once its own GPU thread finished
  std::vector<StackSpan> stack_of_;  // fiber stacks by thread (the OS stack for the first)
  std::vector<void*> fake_stacks_;   // ASan fake-stack handles by thread
  void* main_fake_stack_ = nullptr;
  StackSpan os_stack_;
  StackSpan last_stack_;             // set by the stack allocator for the fiber being built
  StackPool stacks_;
};

}  // namespace weft::cpu
