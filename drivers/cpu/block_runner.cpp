// SPDX-License-Identifier: MIT
#include "block_runner.hpp"

#include "util/log.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <csetjmp>
#include <cstdlib>
#include <new>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define WEFT_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WEFT_ASAN_FIBERS 1
#endif
#endif
#ifdef WEFT_ASAN_FIBERS
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace weft::cpu {
namespace {

// initial-exec: the barrier path reads this on every crossing, and the default
// model for a shared library would call __tls_get_addr each time.
thread_local BlockRunner* t_active __attribute__((tls_model("initial-exec"))) = nullptr;
thread_local std::unique_ptr<BlockRunner> t_runner;

size_t page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

// AddressSanitizer must hear of every stack switch; no-ops otherwise.
void asan_leaving(void** fake_stack, const StackSpan& to) {
#ifdef WEFT_ASAN_FIBERS
  __sanitizer_start_switch_fiber(fake_stack, to.bottom, to.size);
#else
  (void)fake_stack;
  (void)to;
#endif
}

void asan_arrived(void* fake_stack) {
#ifdef WEFT_ASAN_FIBERS
  const void* from_bottom = nullptr;
  size_t from_size = 0;
  __sanitizer_finish_switch_fiber(fake_stack, &from_bottom, &from_size);
#else
  (void)fake_stack;
#endif
}

}  // namespace

// ---- stacks ----

StackPool::~StackPool() {
  for (auto& s : free_) munmap(s.bottom - page_size(), s.size + page_size());
}

StackSpan StackPool::acquire() {
  if (!free_.empty()) {
    StackSpan s = free_.back();
    free_.pop_back();
    return s;
  }
  size_t guard = page_size();
  size_t bytes = (stack_bytes_ + guard - 1) / guard * guard;
  void* base = mmap(nullptr, bytes + guard, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) throw std::bad_alloc();
  // The lowest page catches stack overflows instead of corrupting a neighbour.
  mprotect(base, guard, PROT_NONE);
  return StackSpan{static_cast<std::byte*>(base) + guard, bytes};
}

// ---- runner ----

namespace {
// Waiting on kAlwaysRunnable with seen == 0 means "may run now" (a thread that has
// not started yet); on kNeverRunnable, "must not resume normally" (the OS-stack
// thread while an abort unwinds the block).
constexpr uint32_t kAlwaysRunnable = 1;
constexpr uint32_t kNeverRunnable = 0;

#define WEFT_HOT inline __attribute__((always_inline))
#define WEFT_LIKELY(x) __builtin_expect(!!(x), 1)
#define WEFT_UNLIKELY(x) __builtin_expect(!!(x), 0)
}  // namespace

BlockRunner::BlockRunner(size_t stack_bytes) : stacks_(stack_bytes) {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* bottom = nullptr;
    size_t size = 0;
    pthread_attr_getstack(&attr, &bottom, &size);
    os_stack_ = StackSpan{static_cast<std::byte*>(bottom), size};
    pthread_attr_destroy(&attr);
  }
}

BlockRunner::~BlockRunner() {
  for (ThreadInfo& t : info_)
    if (t.stack.bottom) stacks_.give_back(t.stack);
}

BlockRunner* BlockRunner::current() { return t_active; }

BlockRunner& BlockRunner::for_this_thread(size_t stack_bytes) {
  if (!t_runner) t_runner = std::make_unique<BlockRunner>(stack_bytes);
  return *t_runner;
}

dim3 BlockRunner::thread_index(unsigned t) const {
  const dim3& b = ctx_.blockDim;
  return dim3(t % b.x, (t / b.x) % b.y, t / (b.x * b.y));
}

unsigned BlockRunner::linear_index(const dim3& t) const {
  return t.x + ctx_.blockDim.x * (t.y + ctx_.blockDim.y * t.z);
}

dim3 BlockRunner::current_thread_index() const {
  return fiber_mode_ ? info_[current_].index : ctx_.threadIdx;
}

Status BlockRunner::run_block(weftKernelEntry entry, void* args, const LaunchDims& dims,
                              uint64_t block) {
  entry_ = entry;
  args_ = args;
  ctx_.blockDim = dims.block;
  ctx_.gridDim = dims.grid;
  ctx_.blockIdx.x = static_cast<uint32_t>(block % dims.grid.x);
  ctx_.blockIdx.y = static_cast<uint32_t>((block / dims.grid.x) % dims.grid.y);
  ctx_.blockIdx.z = static_cast<uint32_t>(block / (uint64_t(dims.grid.x) * dims.grid.y));
  ctx_.threadIdx = dim3(0, 0, 0);
  if (dims.dynamic_shared_bytes > dynamic_shared_capacity_) {
    dynamic_shared_.reset(new (std::align_val_t(64)) std::byte[dims.dynamic_shared_bytes]);
    dynamic_shared_capacity_ = dims.dynamic_shared_bytes;
  }
  ctx_.dynamicShared = dims.dynamic_shared_bytes ? dynamic_shared_.get() : nullptr;
  ctx_.dynamicSharedBytes = dims.dynamic_shared_bytes;
  ctx_.mode = WEFT_KERNEL_LOOP;
  ctx_.engine = this;
  threads_ = dims.block.x * dims.block.y * dims.block.z;
  fiber_mode_ = false;
  aborted_ = false;

  BlockRunner* outer = t_active;
  t_active = this;
  // A failed assert or a deadlock jumps back here, abandoning the kernel's frames
  // as a GPU abandons a faulted wave (no destructors run). No exception is thrown
  // through kernel code: glibc declares __assert_fail noexcept.
  if (setjmp(abort_jump_) == 0) {
    try {
      entry(&ctx_, args);
    } catch (...) {
      aborted_ = true;
      abort_message_ = "kernel threw a C++ exception";
      abort_code_ = hipErrorLaunchFailure;
    }
  }
  if (fiber_mode_ && !aborted_) {
    // The OS-stack thread is done; run the other GPU threads to their end.
    unsigned next = fibers_[os_thread_].warp_next;
    if (next == os_thread_) next = fibers_[os_thread_].next;
    finish_thread(os_thread_);
    if (alive_count_ > 0) {
      current_ = next;
      asan_leaving(&main_fake_stack_, info_[next].stack);
      switch_fiber_context(main_, fibers_[next].context);
      asan_arrived(main_fake_stack_);
    }
  }
  if (fiber_mode_) after_fiber_block();
  fiber_mode_ = false;
  t_active = outer;
  if (aborted_) return Status(abort_code_, abort_message_);
  return Status();
}

void BlockRunner::enter_fiber_mode() {
  os_thread_ = linear_index(ctx_.threadIdx);
  current_ = os_thread_;
  ctx_.mode = WEFT_KERNEL_SINGLE;
  fiber_mode_ = true;
  if (fibers_storage_.size() < threads_) {
    fibers_storage_.resize(threads_);
    info_.resize(threads_);
  }
  unsigned warps = (threads_ + WEFT_CPU_WARP_SIZE - 1) / WEFT_CPU_WARP_SIZE;
  if (warps_storage_.size() < warps) warps_storage_.resize(warps);
  fibers_ = fibers_storage_.data();
  warps_ = warps_storage_.data();
  for (unsigned w = 0; w < warps; ++w) warps_[w] = Warp{};

  // Threads before the current one already ran to completion in loop mode; the
  // others form the rings, in thread order.
  for (unsigned t = os_thread_; t < threads_; ++t) {
    Fiber& f = fibers_[t];
    ThreadInfo& info = info_[t];
    f.waits_on = &kAlwaysRunnable;
    f.seen = 0;
    f.next = t + 1 < threads_ ? t + 1 : os_thread_;
    info.prev = t > os_thread_ ? t - 1 : threads_ - 1;
    unsigned warp = t / WEFT_CPU_WARP_SIZE;
    unsigned first = warp * WEFT_CPU_WARP_SIZE > os_thread_ ? warp * WEFT_CPU_WARP_SIZE : os_thread_;
    unsigned last = (warp + 1) * WEFT_CPU_WARP_SIZE < threads_ ? (warp + 1) * WEFT_CPU_WARP_SIZE - 1
                                                                : threads_ - 1;
    f.warp_next = t < last ? t + 1 : first;
    info.warp_prev = t > first ? t - 1 : last;
    info.alive = true;
    info.index = thread_index(t);  // no divisions on the switch path
    ++warps_[warp].alive;
    if (t == os_thread_) continue;
    if (info.parked) continue;  // resumes inside exit_fiber(), ready for this block
    if (!info.stack.bottom) info.stack = stacks_.acquire();
    // Stacks are page-aligned and equally sized, so their hot top frames would all
    // fall in the same cache sets and evict each other on every switch. Shifting
    // each top by a different multiple of three cache lines (up to 16 KiB)
    // spreads 256 threads over distinct L1 and L2 sets.
    size_t color = (t * 3 % 256) * 64;
    make_fiber_context(f.context, info.stack.top() - color, info.stack.size - color, &fiber_main,
                       this);
  }
  alive_count_ = threads_ - os_thread_;
  block_arrived_ = 0;
  block_true_ = 0;
  block_generation_ = 0;
}

void BlockRunner::after_fiber_block() {
  if (!aborted_) return;  // every fiber of the block parked itself in exit_fiber()
  // An aborted block abandons its fibers mid-kernel: they get fresh contexts next time.
  for (unsigned t = os_thread_ + 1; t < threads_; ++t) {
    info_[t].parked = false;
#ifdef WEFT_ASAN_FIBERS
    // Abandoned frames may leave poisoned shadow behind.
    if (info_[t].stack.bottom) ASAN_UNPOISON_MEMORY_REGION(info_[t].stack.bottom, info_[t].stack.size);
#endif
  }
}

WEFT_HOT void BlockRunner::switch_to(unsigned me, unsigned next) {
  current_ = next;
#ifdef WEFT_ASAN_FIBERS
  asan_leaving(&info_[me].fake_stack, next == os_thread_ ? os_stack_ : info_[next].stack);
#endif
  switch_fiber_context(fibers_[me].context, fibers_[next].context);
#ifdef WEFT_ASAN_FIBERS
  asan_arrived(info_[me].fake_stack);
#endif
  // Resumed: whoever switched back to us set current_.
}

unsigned BlockRunner::find_runnable(unsigned me) const {
  for (unsigned t = fibers_[me].next; t != me; t = fibers_[t].next)
    if (*fibers_[t].waits_on != fibers_[t].seen) return t;
  return me;
}

// The calling thread `me` waits and was resumed (or is about to yield) while its
// barrier is still pending: find a thread that can run, or report the deadlock.
__attribute__((noinline)) void BlockRunner::wait_slow(unsigned me) {
  for (;;) {
    if (aborted_) longjmp(abort_jump_, 1);  // only the OS-stack thread is resumed after an abort
    const Fiber& f = fibers_[me];
    if (*f.waits_on != f.seen) return;
    unsigned next = find_runnable(me);
    // Every live thread waits at a barrier that can never complete (divergent
    // barriers: a thread that could arrive or exit would be runnable).
    if (next == me)
      abort_block("deadlock: GPU threads of the block wait at different barriers",
                  hipErrorLaunchFailure);
    switch_to(me, next);
  }
}

void BlockRunner::complete_block_barrier() {
  block_results_[block_generation_ & 1] = {block_true_, block_arrived_};
  block_true_ = 0;
  block_arrived_ = 0;
  ++block_generation_;
}

void BlockRunner::complete_warp(Warp& warp) {
  warp.arrived = 0;
  ++warp.generation;
  warp.masks[warp.generation & 1] = 0;
}

void BlockRunner::finish_thread(unsigned thread) {
  ThreadInfo& info = info_[thread];
  info.alive = false;
  // Unlink from both rings.
  unsigned next = fibers_[thread].next, prev = info.prev;
  fibers_[prev].next = next;
  info_[next].prev = prev;
  unsigned warp_next = fibers_[thread].warp_next, warp_prev = info.warp_prev;
  fibers_[warp_prev].warp_next = warp_next;
  info_[warp_next].warp_prev = warp_prev;
  --alive_count_;
  Warp& warp = warps_[thread / WEFT_CPU_WARP_SIZE];
  --warp.alive;
  // An exit may be what a pending barrier was waiting for.
  if (block_arrived_ > 0 && block_arrived_ == alive_count_) complete_block_barrier();
  if (warp.arrived > 0 && warp.arrived == warp.alive) complete_warp(warp);
}

// A fiber's GPU thread returned from the kernel: hand over to a successor (the
// next lane of its warp first, so that a warp finishes together) and park. A
// later block that needs this slot resumes the fiber here, and fiber_main()'s
// loop runs that block's thread: creating and starting a fiber per GPU thread
// per block cost about 115 ns (docs/cpu-engine.md).
void BlockRunner::exit_fiber(unsigned me) {
  unsigned next = fibers_[me].warp_next;
  if (next == me) next = fibers_[me].next;
  finish_thread(me);
  info_[me].parked = true;
  if (alive_count_ == 0) {
    // Last one out: back to the OS thread, which waits in run_block.
    asan_leaving(&info_[me].fake_stack, os_stack_);
    switch_fiber_context(fibers_[me].context, main_);
  } else {
    // If `next` cannot run yet, its own slow path finds one that can.
    current_ = next;
    asan_leaving(&info_[me].fake_stack, next == os_thread_ ? os_stack_ : info_[next].stack);
    switch_fiber_context(fibers_[me].context, fibers_[next].context);
  }
  asan_arrived(info_[me].fake_stack);  // resumed by a later block
  info_[me].parked = false;
}

WEFT_HOT int BlockRunner::barrier(int predicate, int op) {
  if (WEFT_UNLIKELY(!fiber_mode_)) enter_fiber_mode();
  uint32_t generation = block_generation_;
  block_true_ += predicate != 0;
  if (++block_arrived_ == alive_count_) {
    complete_block_barrier();  // the last to arrive carries on without a switch
  } else {
    unsigned me = current_;
    Fiber& f = fibers_[me];
    f.waits_on = &block_generation_;
    f.seen = generation;
    switch_to(me, f.next);
    if (WEFT_UNLIKELY(block_generation_ == generation)) wait_slow(me);
  }
  if (op == WEFT_REDUCE_NONE) return 0;
  const BarrierResult& r = block_results_[generation & 1];
  switch (op) {
    case WEFT_REDUCE_COUNT: return static_cast<int>(r.true_count);
    case WEFT_REDUCE_AND: return r.true_count == r.arrived ? 1 : 0;
    case WEFT_REDUCE_OR: return r.true_count > 0 ? 1 : 0;
    default: return 0;
  }
}

WEFT_HOT const uint64_t* BlockRunner::warp_collective(uint64_t value, uint64_t* active_mask) {
  if (WEFT_UNLIKELY(!fiber_mode_)) enter_fiber_mode();
  unsigned me = current_;
  Warp& warp = warps_[me / WEFT_CPU_WARP_SIZE];
  unsigned lane = me % WEFT_CPU_WARP_SIZE;
  uint32_t generation = warp.generation;
  unsigned buffer = generation & 1;
  warp.values[buffer][lane] = value;
  warp.masks[buffer] |= uint64_t(1) << lane;
  if (++warp.arrived == warp.alive) {
    complete_warp(warp);
  } else {
    Fiber& f = fibers_[me];
    f.waits_on = &warp.generation;
    f.seen = generation;
    switch_to(me, f.warp_next);
    if (WEFT_UNLIKELY(warp.generation == generation)) wait_slow(me);
  }
  if (active_mask) *active_mask = warp.masks[buffer];
  return warp.values[buffer];
}

void BlockRunner::abort_block(std::string message, hipError_t code) {
  if (!aborted_) {
    aborted_ = true;
    abort_message_.swap(message);  // `message` now holds the previous block's text
    abort_code_ = code;
  }
  // The frames below are abandoned (longjmp, or a switch away for good), so no
  // destructor runs: free what this one holds now, or it leaks (LeakSanitizer saw it).
  std::string().swap(message);
  if (!fiber_mode_ || current_ == os_thread_) longjmp(abort_jump_, 1);
  return_to_os_stack(current_);
}

void BlockRunner::return_to_os_stack(unsigned me) {
  bool os_alive = info_[os_thread_].alive;
  if (os_alive) {
    // Resumed inside a barrier, the OS-stack thread must not carry on with the
    // kernel: its slow path sees aborted_ and jumps back to run_block.
    fibers_[os_thread_].waits_on = &kNeverRunnable;
    fibers_[os_thread_].seen = kNeverRunnable;
  }
  current_ = os_thread_;
  asan_leaving(nullptr, os_stack_);
  switch_fiber_context(fibers_[me].context, os_alive ? fibers_[os_thread_].context : main_);
  std::abort();  // never resumed
}

void BlockRunner::fiber_main(void* runner) {
  auto* self = static_cast<BlockRunner*>(runner);
  asan_arrived(nullptr);
  // One GPU thread per pass: the slot's thread of each block that resumes it.
  for (;;) {
    unsigned me = self->current_;
    self->ctx_.threadIdx = self->info_[me].index;
    bool stop = false;
    try {
      self->entry_(&self->ctx_, self->args_);
    } catch (...) {
      self->aborted_ = true;
      self->abort_message_ = "kernel threw a C++ exception";
      self->abort_code_ = hipErrorLaunchFailure;
      stop = true;
    }
    // Leave the handler before switching stacks: exception state is per OS thread.
    if (stop) self->return_to_os_stack(me);
    self->exit_fiber(me);
  }
}

}  // namespace weft::cpu

// ---- entry points called by kernels (kernel_abi.h) ----

namespace {
__attribute__((noinline, cold)) void log_outside_kernel(const char* what) {
  weft::log::error("{} called outside a kernel; ignored", what);
}
}  // namespace

extern "C" {

// Each is one frame between the kernel and the context switch.
__attribute__((visibility("default"))) void weftSyncThreads(void) {
  weft::cpu::BlockRunner* runner = weft::cpu::t_active;
  if (WEFT_UNLIKELY(!runner)) return log_outside_kernel("__syncthreads");
  runner->barrier(0, WEFT_REDUCE_NONE);
}

__attribute__((visibility("default"))) int weftSyncThreadsReduce(int predicate, int op) {
  weft::cpu::BlockRunner* runner = weft::cpu::t_active;
  if (WEFT_UNLIKELY(!runner)) {
    log_outside_kernel("__syncthreads_count/and/or");
    return 0;
  }
  return runner->barrier(predicate, op);
}

__attribute__((visibility("default"))) const uint64_t* weftWarpCollective(uint64_t value,
                                                                          uint64_t* active_mask) {
  weft::cpu::BlockRunner* runner = weft::cpu::t_active;
  if (WEFT_UNLIKELY(!runner)) {
    static thread_local uint64_t lone[WEFT_CPU_WARP_SIZE];
    log_outside_kernel("a warp operation");
    lone[0] = value;
    if (active_mask) *active_mask = 1;
    return lone;
  }
  return runner->warp_collective(value, active_mask);
}

}  // extern "C"
