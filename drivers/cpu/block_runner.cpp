// SPDX-License-Identifier: MIT
#include "block_runner.hpp"

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
    finish_thread(os_thread_);
    if (alive_count_ > 0) {
      unsigned next = next_alive(os_thread_);
      current_ = next;
      ctx_.threadIdx = gpu_threads_[next].index;
      asan_leaving(&main_fake_stack_, gpu_threads_[next].stack);
      switch_fiber_context(main_, gpu_threads_[next].context);
      asan_arrived(main_fake_stack_);
    }
  }
  if (fiber_mode_) release_fibers();
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
  gpu_threads_.assign(threads_, GpuThread{});
  // Threads before the current one already ran to completion in loop mode.
  for (unsigned t = os_thread_; t < threads_; ++t) {
    gpu_threads_[t].alive = true;
    gpu_threads_[t].index = thread_index(t);  // no divisions on the switch path
  }
  gpu_threads_[os_thread_].stack = os_stack_;
  for (unsigned t = os_thread_ + 1; t < threads_; ++t) {
    GpuThread& g = gpu_threads_[t];
    g.stack = stacks_.acquire();
    // Stacks are page-aligned and equally sized, so their hot top frames would all
    // fall in the same cache sets and evict each other on every switch. Shifting
    // each top by a different multiple of three cache lines (up to 16 KiB)
    // spreads 256 threads over distinct L1 and L2 sets.
    size_t color = (t * 3 % 256) * 64;
    make_fiber_context(g.context, g.stack.top() - color, g.stack.size - color, &fiber_main, this);
  }
  alive_count_ = threads_ - os_thread_;
  warps_.assign((threads_ + WEFT_CPU_WARP_SIZE - 1) / WEFT_CPU_WARP_SIZE, Warp{});
  for (unsigned t = os_thread_; t < threads_; ++t) ++warps_[t / WEFT_CPU_WARP_SIZE].alive;
  block_arrived_ = 0;
  block_true_ = 0;
  block_generation_ = 0;
}

void BlockRunner::release_fibers() {
  for (unsigned t = os_thread_ + 1; t < threads_; ++t) {
    StackSpan& s = gpu_threads_[t].stack;
    if (!s.bottom) continue;
#ifdef WEFT_ASAN_FIBERS
    // Frames abandoned by an aborted block may leave poisoned shadow behind.
    ASAN_UNPOISON_MEMORY_REGION(s.bottom, s.size);
#endif
    stacks_.give_back(s);
    s = StackSpan{};
  }
}

unsigned BlockRunner::next_alive(unsigned after) const {
  for (unsigned step = 1; step <= threads_; ++step) {
    unsigned t = after + step;
    if (t >= threads_) t -= threads_;
    if (gpu_threads_[t].alive) return t;
  }
  return threads_;
}

void BlockRunner::switch_to(unsigned next) {
  unsigned me = current_;
  current_ = next;
  ctx_.threadIdx = gpu_threads_[next].index;
  ++switches_;
  asan_leaving(&gpu_threads_[me].fake_stack, gpu_threads_[next].stack);
  switch_fiber_context(gpu_threads_[me].context, gpu_threads_[next].context);
  asan_arrived(gpu_threads_[me].fake_stack);
  // Resumed: whoever switched back to us set current_ and ctx_.threadIdx.
}

void BlockRunner::yield_while_waiting(const uint32_t& generation, uint32_t seen) {
  while (generation == seen) {
    unsigned next = next_alive(current_);
    if (next == current_ || next == threads_)
      abort_block("deadlock: the only live GPU thread waits for others", hipErrorLaunchFailure);
    uint64_t before = progress_;
    switch_to(next);
    if (aborted_) longjmp(abort_jump_, 1);  // only the OS-stack thread is resumed after an abort
    // A full round in which no thread arrived anywhere, finished or exited: the
    // threads wait at barriers that can never complete (divergent barriers).
    if (generation == seen && progress_ == before)
      abort_block("deadlock: GPU threads of the block wait at different barriers",
                  hipErrorLaunchFailure);
  }
}

void BlockRunner::complete_block_barrier() {
  block_results_[block_generation_ & 1] = {block_true_, block_arrived_};
  block_true_ = 0;
  block_arrived_ = 0;
  ++block_generation_;
  ++progress_;
}

void BlockRunner::complete_warp(Warp& warp) {
  warp.arrived = 0;
  ++warp.generation;
  warp.masks[warp.generation & 1] = 0;
  ++progress_;
}

void BlockRunner::finish_thread(unsigned thread) {
  gpu_threads_[thread].alive = false;
  --alive_count_;
  Warp& warp = warps_[thread / WEFT_CPU_WARP_SIZE];
  --warp.alive;
  ++progress_;
  // An exit may be what a pending barrier was waiting for.
  if (block_arrived_ > 0 && block_arrived_ == alive_count_) complete_block_barrier();
  if (warp.arrived > 0 && warp.arrived == warp.alive) complete_warp(warp);
}

int BlockRunner::barrier(int predicate, int op) {
  if (!fiber_mode_) enter_fiber_mode();
  uint32_t generation = block_generation_;
  if (predicate) ++block_true_;
  ++progress_;
  if (++block_arrived_ == alive_count_) complete_block_barrier();
  else yield_while_waiting(block_generation_, generation);
  const BarrierResult& r = block_results_[generation & 1];
  switch (op) {
    case WEFT_REDUCE_COUNT: return static_cast<int>(r.true_count);
    case WEFT_REDUCE_AND: return r.true_count == r.arrived ? 1 : 0;
    case WEFT_REDUCE_OR: return r.true_count > 0 ? 1 : 0;
    default: return 0;
  }
}

const uint64_t* BlockRunner::warp_collective(uint64_t value, uint64_t* active_mask) {
  if (!fiber_mode_) enter_fiber_mode();
  unsigned me = current_;
  Warp& warp = warps_[me / WEFT_CPU_WARP_SIZE];
  unsigned lane = me % WEFT_CPU_WARP_SIZE;
  uint32_t generation = warp.generation;
  unsigned buffer = generation & 1;
  warp.values[buffer][lane] = value;
  warp.masks[buffer] |= uint64_t(1) << lane;
  ++progress_;
  if (++warp.arrived == warp.alive) complete_warp(warp);
  else yield_while_waiting(warp.generation, generation);
  if (active_mask) *active_mask = warp.masks[buffer];
  return warp.values[buffer];
}

void BlockRunner::abort_block(std::string message, hipError_t code) {
  if (!aborted_) {
    aborted_ = true;
    abort_message_ = std::move(message);
    abort_code_ = code;
  }
  if (!fiber_mode_ || current_ == os_thread_) longjmp(abort_jump_, 1);
  return_to_os_stack(current_);
}

void BlockRunner::return_to_os_stack(unsigned me) {
  FiberContext& target =
      gpu_threads_[os_thread_].alive ? gpu_threads_[os_thread_].context : main_;
  current_ = os_thread_;
  asan_leaving(nullptr, os_stack_);
  switch_fiber_context(gpu_threads_[me].context, target);
  std::abort();  // never resumed
}

void BlockRunner::fiber_main(void* runner) {
  auto* self = static_cast<BlockRunner*>(runner);
  asan_arrived(nullptr);
  unsigned me = self->current_;
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
  self->finish_thread(me);
  unsigned next = self->next_alive(me);
  if (next == self->threads_) {
    // Last one out: back to the OS thread, which waits in run_block.
    asan_leaving(nullptr, self->os_stack_);
    switch_fiber_context(self->gpu_threads_[me].context, self->main_);
  } else {
    self->current_ = next;
    self->ctx_.threadIdx = self->gpu_threads_[next].index;
    asan_leaving(nullptr, self->gpu_threads_[next].stack);
    switch_fiber_context(self->gpu_threads_[me].context, self->gpu_threads_[next].context);
  }
  std::abort();  // a finished fiber is never resumed
}

}  // namespace weft::cpu
