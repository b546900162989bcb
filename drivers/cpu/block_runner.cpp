// SPDX-License-Identifier: MIT
#include "block_runner.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define WEFT_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WEFT_ASAN_FIBERS 1
#endif
#endif
#ifdef WEFT_ASAN_FIBERS
#include <sanitizer/common_interface_defs.h>
#endif

namespace weft::cpu {
namespace ctx = boost::context;

namespace {
thread_local BlockRunner* t_active = nullptr;
thread_local std::unique_ptr<BlockRunner> t_runner;

size_t page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

// Boost.Context allocator facade over a StackPool (copied into each fiber).
struct PooledStack {
  StackPool* pool;
  const void** last_bottom;
  size_t* last_size;
  ctx::stack_context allocate() {
    ctx::stack_context sc = pool->acquire();
    *last_bottom = static_cast<std::byte*>(sc.sp) - sc.size;
    *last_size = sc.size;
    return sc;
  }
  void deallocate(ctx::stack_context& sc) noexcept { pool->give_back(sc); }
};
}  // namespace

StackPool::~StackPool() {
  for (auto& sc : free_) {
    auto* top = static_cast<std::byte*>(sc.sp);
    munmap(top - sc.size - page_size(), sc.size + page_size());
  }
}

ctx::stack_context StackPool::acquire() {
  if (!free_.empty()) {
    ctx::stack_context sc = free_.back();
    free_.pop_back();
    return sc;
  }
  size_t guard = page_size();
  size_t bytes = (stack_bytes_ + guard - 1) / guard * guard;
  void* base = mmap(nullptr, bytes + guard, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) throw std::bad_alloc();
  // The lowest page catches stack overflows instead of corrupting a neighbour.
  mprotect(base, guard, PROT_NONE);
  ctx::stack_context sc;
  sc.size = bytes;
  sc.sp = static_cast<std::byte*>(base) + guard + bytes;
  return sc;
}

void StackPool::give_back(ctx::stack_context& stack) { free_.push_back(stack); }

BlockRunner::BlockRunner(size_t stack_bytes) : stacks_(stack_bytes) {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* bottom = nullptr;
    size_t size = 0;
    pthread_attr_getstack(&attr, &bottom, &size);
    os_stack_ = {bottom, size};
    pthread_attr_destroy(&attr);
  }
}

void BlockRunner::leaving(void** fake_stack, unsigned to_thread) {
#ifdef WEFT_ASAN_FIBERS
  __sanitizer_start_switch_fiber(fake_stack, stack_of_[to_thread].bottom, stack_of_[to_thread].size);
#else
  (void)fake_stack;
  (void)to_thread;
#endif
}

void BlockRunner::leaving_to_main(void** fake_stack) {
#ifdef WEFT_ASAN_FIBERS
  __sanitizer_start_switch_fiber(fake_stack, os_stack_.bottom, os_stack_.size);
#else
  (void)fake_stack;
#endif
}

void BlockRunner::arrived(void* fake_stack) {
#ifdef WEFT_ASAN_FIBERS
  const void* from_bottom = nullptr;
  size_t from_size = 0;
  __sanitizer_finish_switch_fiber(fake_stack, &from_bottom, &from_size);
#else
  (void)fake_stack;
#endif
}

BlockRunner* BlockRunner::current() { return t_active; }

BlockRunner& BlockRunner::for_this_thread(size_t stack_bytes) {
  if (!t_runner) t_runner = std::make_unique<BlockRunner>(stack_bytes);
  return *t_runner;
}

void BlockRunner::set_thread(unsigned t) {
  const dim3& b = ctx_.blockDim;
  ctx_.threadIdx.x = t % b.x;
  ctx_.threadIdx.y = (t / b.x) % b.y;
  ctx_.threadIdx.z = t / (b.x * b.y);
  current_ = t;
}

void BlockRunner::run_block(const HostKernel& kernel, const LaunchDims& dims, uint64_t block) {
  kernel_ = &kernel;
  ctx_.blockDim = dims.block;
  ctx_.gridDim = dims.grid;
  ctx_.blockIdx.x = static_cast<uint32_t>(block % dims.grid.x);
  ctx_.blockIdx.y = static_cast<uint32_t>((block / dims.grid.x) % dims.grid.y);
  ctx_.blockIdx.z = static_cast<uint32_t>(block / (uint64_t(dims.grid.x) * dims.grid.y));
  if (dims.dynamic_shared_bytes > dynamic_shared_capacity_) {
    dynamic_shared_.reset(new (std::align_val_t(64)) std::byte[dims.dynamic_shared_bytes]);
    dynamic_shared_capacity_ = dims.dynamic_shared_bytes;
  }
  ctx_.dynamicShared = dims.dynamic_shared_bytes ? dynamic_shared_.get() : nullptr;
  ctx_.dynamicSharedBytes = dims.dynamic_shared_bytes;
  ctx_.engine = this;
  threads_ = dims.block.x * dims.block.y * dims.block.z;
  fiber_mode_ = false;

  BlockRunner* outer = t_active;
  t_active = this;
  for (unsigned t = 0; t < threads_; ++t) {
    set_thread(t);
    kernel.entry()(&ctx_, kernel.args());
    if (!fiber_mode_) continue;
    // Thread t reached a barrier earlier and has now finished on the OS stack;
    // run the fibers of the others to completion, then the block is done.
    unsigned me = t;
    alive_[me] = 0;
    --alive_count_;
    if (alive_count_ > 0) {
      unsigned next = next_alive(me);
      set_thread(next);
      leaving(&main_fake_stack_, next);
      std::move(fibers_[next]).resume_with([this](Fiber&& from) {
        main_ = std::move(from);
        return Fiber();
      });
      arrived(main_fake_stack_);
    }
    fiber_mode_ = false;
    break;
  }
  fibers_.clear();
  t_active = outer;
}

BlockRunner::Fiber BlockRunner::make_fiber(unsigned thread) {
  Fiber fiber(std::allocator_arg, PooledStack{&stacks_, &last_stack_.bottom, &last_stack_.size},
              [this, thread](Fiber&& sink) {
                (void)sink;
                arrived(nullptr);
                kernel_->entry()(&ctx_, kernel_->args());
                alive_[thread] = 0;
                --alive_count_;
                // A finished fiber passes a null fake stack: ASan frees it.
                if (alive_count_ == 0) {
                  leaving_to_main(nullptr);
                  return std::move(main_);
                }
                unsigned next = next_alive(thread);
                set_thread(next);
                leaving(nullptr, next);
                return std::move(fibers_[next]);
              });
  stack_of_[thread] = last_stack_;
  return fiber;
}

void BlockRunner::enter_fiber_mode() {
  // Threads before current_ already ran to completion without a barrier.
  fiber_mode_ = true;
  alive_.assign(threads_, 0);
  fibers_.clear();
  fibers_.resize(threads_);
  stack_of_.assign(threads_, StackSpan{});
  fake_stacks_.assign(threads_, nullptr);
  stack_of_[current_] = os_stack_;  // this thread keeps the OS stack
  for (unsigned t = current_; t < threads_; ++t) alive_[t] = 1;
  alive_count_ = threads_ - current_;
  for (unsigned t = current_ + 1; t < threads_; ++t) fibers_[t] = make_fiber(t);
}

unsigned BlockRunner::next_alive(unsigned after) const {
  for (unsigned step = 1; step <= threads_; ++step) {
    unsigned t = (after + step) % threads_;
    if (alive_[t]) return t;
  }
  return threads_;
}

void BlockRunner::switch_to(unsigned next) {
  unsigned me = current_;
  set_thread(next);
  leaving(&fake_stacks_[me], next);
  std::move(fibers_[next]).resume_with([this, me](Fiber&& from) {
    fibers_[me] = std::move(from);
    return Fiber();
  });
  // Resumed: whoever switched back to us already set current_ and threadIdx.
  arrived(fake_stacks_[me]);
}

void BlockRunner::barrier() {
  if (!fiber_mode_) enter_fiber_mode();
  unsigned next = next_alive(current_);
  if (next == current_ || next == threads_) return;  // the only live thread
  switch_to(next);
}

}  // namespace weft::cpu
