// SPDX-License-Identifier: MIT
#include "block_runner.hpp"

#include <hip/weft/fiber_sync.h>

#include "fault_guard.hpp"
#include "sanitizers.hpp"

#include <fmt/format.h>
#include <weft/common/log.hpp>
#include <weft/driver/address_report.hpp>

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <csetjmp>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <string>

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

// ThreadSanitizer keeps a context per fiber and must be told which one runs next.
void* tsan_new_fiber() {
#ifdef WEFT_TSAN_FIBERS
  return __tsan_create_fiber(0);
#else
  return nullptr;
#endif
}
void tsan_drop_fiber(void* fiber) {
#ifdef WEFT_TSAN_FIBERS
  if (fiber) __tsan_destroy_fiber(fiber);
#else
  (void)fiber;
#endif
}
void tsan_switching_to(void* fiber) {
#ifdef WEFT_TSAN_FIBERS
  __tsan_switch_to_fiber(fiber, 0);
#else
  (void)fiber;
#endif
}
void* tsan_current_fiber() {
#ifdef WEFT_TSAN_FIBERS
  return __tsan_get_current_fiber();
#else
  return nullptr;
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
  for (auto& s : free_) release(s);
}

void StackPool::release(const StackSpan& stack) {
  unmap_stack(stack.bottom - page_size(), stack.size + page_size());
}

void StackPool::resize(size_t bytes) {
  for (auto& s : free_) release(s);
  free_.clear();
  stack_bytes_ = bytes;
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
  // The lowest page catches stack overflows instead of corrupting a neighbour
  // (fault_guard.cpp reports a fault there as a stack overflow): no stack without it.
  if (mprotect(base, guard, PROT_NONE) != 0) {
    munmap(base, bytes + guard);  // never ran, nothing poisoned
    throw std::bad_alloc();
  }
  return StackSpan{static_cast<std::byte*>(base) + guard, bytes};
}

// ---- runner ----

// The inline switch (fiber_sync.h) hard-codes these offsets; one line per GPU thread.
static_assert(offsetof(weftFiber, sp) == 0 && offsetof(weftFiber, pc) == 8 &&
              offsetof(weftFiber, bp) == 16 && sizeof(weftFiber) == 64);

namespace {
// A slot waiting on kAlwaysRunnable with seen == 0 may run now (a thread that has
// not started in this block); on kNeverRunnable, it must not resume normally (the
// OS-stack thread while an abort unwinds the block).
constexpr uint32_t kAlwaysRunnable = 1;
constexpr uint32_t kNeverRunnable = 0;
constexpr uint32_t kNone = UINT32_MAX;

// Kernels switch fibers inline unless this library must see every switch.
constexpr uint32_t kFiberMode =
    WEFT_INLINE_FIBER_SWITCH ? WEFT_KERNEL_FIBER_INLINE : WEFT_KERNEL_FIBER;

#define WEFT_LIKELY(x) __builtin_expect(!!(x), 1)
#define WEFT_UNLIKELY(x) __builtin_expect(!!(x), 0)

void wait_on(weftFiber& f, const uint32_t* counter, uint32_t seen) {
  f.waitsOn = counter;
  f.seen = seen;
}
}  // namespace

// The switch and the slow wait as the fiber_sync.h algorithms want them.
struct BlockRunner::EngineSwitch {
  BlockRunner* self;
  uint32_t operator()(weftFiber* from, weftFiber*, uint32_t next) const {
    self->switch_slot(static_cast<uint32_t>(from - self->fibers_), next);
    return self->hot_.current;  // whoever resumed us named us
  }
};
struct BlockRunner::EngineWait {
  BlockRunner* self;
  uint32_t operator()(uint32_t me) const {
    self->wait_slow(me);
    return me;
  }
};

BlockRunner::BlockRunner(size_t stack_bytes) : stacks_(stack_bytes) {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* bottom = nullptr;
    size_t size = 0;
    pthread_attr_getstack(&attr, &bottom, &size);
    os_stack_ = StackSpan{static_cast<std::byte*>(bottom), size};
    pthread_attr_destroy(&attr);
  }
  ctx_.fibers = &hot_;
}

BlockRunner::~BlockRunner() {
  for (ThreadInfo& t : info_) {
    if (t.stack.bottom) stacks_.give_back(t.stack);
    tsan_drop_fiber(t.tsan_fiber);
  }
}

void* BlockRunner::tsan_fiber_of(uint32_t thread) const {
  return info_[thread].state == Slot::OsThread ? os_tsan_fiber_ : info_[thread].tsan_fiber;
}

BlockRunner* BlockRunner::current() { return t_active; }

BlockRunner& BlockRunner::for_this_thread(size_t stack_bytes) {
  if (!t_runner) {
    prepare_thread_for_kernels();  // faults in kernels end the block, not the process
    t_runner = std::make_unique<BlockRunner>(stack_bytes);
  } else if (t_runner->stacks_.stack_bytes() != stack_bytes && t_active != t_runner.get()) {
    // Not while this thread runs a range (a launch run from inside a kernel): its
    // fibers live on the current stacks.
    t_runner->resize_stacks(stack_bytes);
  }
  return *t_runner;
}

// No fiber is inside a kernel: the parked ones are dropped with their stacks and
// every slot gets a fresh fiber on a stack of the new size when it next runs.
void BlockRunner::resize_stacks(size_t stack_bytes) {
  for (ThreadInfo& t : info_) {
    if (t.stack.bottom) StackPool::release(t.stack);
    tsan_drop_fiber(t.tsan_fiber);
    t = ThreadInfo{};
  }
  stacks_.resize(stack_bytes);
}

unsigned BlockRunner::linear_index(const dim3& t) const {
  return t.x + ctx_.blockDim.x * (t.y + ctx_.blockDim.y * t.z);
}

dim3 BlockRunner::current_thread_index() const {
  if (!fiber_mode_) return ctx_.threadIdx;
  const uint32_t* index = fibers_[hot_.current].threadIdx;
  return dim3(index[0], index[1], index[2]);
}

const StackSpan& BlockRunner::stack_of(uint32_t thread) const {
  return info_[thread].state == Slot::OsThread ? os_stack_ : info_[thread].stack;
}

Status BlockRunner::run_range(weftKernelEntry entry, void* args, const LaunchDims& dims,
                              uint64_t begin, uint64_t end, const uint32_t* stop, bool& on_fibers) {
  entry_ = entry;
  args_ = args;
  ctx_.blockDim = dims.block;
  ctx_.gridDim = dims.grid;
  ctx_.threadIdx = dim3(0, 0, 0);
  if (dims.dynamic_shared_bytes > dynamic_shared_capacity_) {
    dynamic_shared_.reset(new (std::align_val_t(64)) std::byte[dims.dynamic_shared_bytes]);
    dynamic_shared_capacity_ = dims.dynamic_shared_bytes;
  }
  ctx_.dynamicShared = dims.dynamic_shared_bytes ? dynamic_shared_.get() : nullptr;
  ctx_.dynamicSharedBytes = dims.dynamic_shared_bytes;
  ctx_.mode = WEFT_KERNEL_LOOP;
  ctx_.engine = this;
  ctx_.blockBegin = begin;
  ctx_.blockEnd = end;
  ctx_.stop = stop;
  ctx_.fibers = &hot_;
  threads_ = dims.block.x * dims.block.y * dims.block.z;
  range_end_ = end;
  stop_ = stop;
  fiber_mode_ = false;
  aborted_ = false;
  os_thread_ = kNone;

  BlockRunner* outer = t_active;
  t_active = this;
  os_tsan_fiber_ = tsan_current_fiber();
  // A failed assert or a deadlock jumps back here, abandoning the kernel's frames
  // as a GPU abandons a faulted wave (no destructors run). No exception is thrown
  // through kernel code: glibc declares __assert_fail noexcept.
  if (setjmp(abort_jump_) == 0) {
    try {
      if (on_fibers) {
        run_on_fibers(begin);
      } else {
        entry(&ctx_, args);
        if (fiber_mode_ && !aborted_) os_thread_done();
      }
    } catch (...) {
      aborted_ = true;
      abort_message_ = "kernel threw a C++ exception";
      abort_code_ = hipErrorLaunchFailure;
    }
  }
  if (fiber_mode_) after_fibers();
  faulted_ = fault_pending_;
  if (fault_pending_) {
    abort_message_ = describe_fault();
    fault_pending_ = false;
  }
  // Aborted fibers never cleared the kernel binary's own pointer to hot_.
  if (ctx_.inlineFibers) *ctx_.inlineFibers = nullptr;
  ctx_.inlineFibers = nullptr;
  on_fibers = on_fibers || fiber_mode_;
  fiber_mode_ = false;
  ctx_.mode = WEFT_KERNEL_LOOP;
  t_active = outer;
  if (aborted_) return Status(abort_code_, abort_message_);
  return Status();
}

// Storage and threadIdx for the launch's block shape; no fiber is inside a kernel.
void BlockRunner::prepare_slots() {
  if (fiber_capacity_ < threads_) {
    auto* grown = static_cast<weftFiber*>(
        ::operator new[](sizeof(weftFiber) * threads_, std::align_val_t(64)));
    for (size_t t = 0; t < threads_; ++t)
      grown[t] = t < fiber_capacity_ ? fiber_storage_[t] : weftFiber{};
    fiber_storage_.reset(grown);
    fiber_capacity_ = threads_;
    info_.resize(threads_);
  }
  fibers_ = fiber_storage_.get();
  hot_.fibers = fibers_;
  unsigned warps = (threads_ + WEFT_CPU_WARP_SIZE - 1) / WEFT_CPU_WARP_SIZE;
  if (warps_.size() < warps) warps_.resize(warps);
  if (held_.size() < warps) held_.resize(warps);
  hot_.warps = warps_.data();
  const dim3& b = ctx_.blockDim;
  if (indexed_dims_.x != b.x || indexed_dims_.y != b.y || indexed_dims_.z != b.z) {
    for (unsigned t = 0; t < threads_; ++t) {  // no divisions on the switch path
      fibers_[t].threadIdx[0] = t % b.x;
      fibers_[t].threadIdx[1] = (t / b.x) % b.y;
      fibers_[t].threadIdx[2] = t / (b.x * b.y);
    }
    indexed_dims_ = b;
  }
  hot_.rangeDone = 0;
}

void BlockRunner::set_block(uint64_t block) {
  block_ = block;
  const dim3& g = ctx_.gridDim;
  ctx_.blockIdx = dim3(static_cast<uint32_t>(block % g.x), static_cast<uint32_t>(block / g.x % g.y),
                       static_cast<uint32_t>(block / (uint64_t(g.x) * g.y)));
}

// Every thread from `first` on is alive, none waits at a barrier or exchange.
void BlockRunner::reset_counters(uint32_t first) {
  hot_.alive = threads_ - first;
  hot_.arrived = 0;
  hold_ = 0;  // an abort may have written to it (return_to_os_stack)
  hot_.trueCount = 0;
  unsigned warps = (threads_ + WEFT_CPU_WARP_SIZE - 1) / WEFT_CPU_WARP_SIZE;
  for (unsigned w = 0; w < warps; ++w) {
    weftWarpState& warp = warps_[w];
    uint32_t lo = w * WEFT_CPU_WARP_SIZE, hi = lo + WEFT_CPU_WARP_SIZE;
    if (hi > threads_) hi = threads_;
    warp.alive = hi > first ? hi - (lo > first ? lo : first) : 0;
    warp.arrived = 0;
    warp.site = 0;
    warp.masks[warp.generation & 1] = 0;
    held_[w].held = 0;
  }
}

// The block ring and the warp rings over threads [first, threads_), in order.
void BlockRunner::link_rings(uint32_t first) {
  hot_.orderedRing = first == 0 ? threads_ : 0;  // the inline code may compute successors
  for (uint32_t t = first; t < threads_; ++t) {
    fibers_[t].next = t + 1 < threads_ ? t + 1 : first;
    uint32_t lo = t / WEFT_CPU_WARP_SIZE * WEFT_CPU_WARP_SIZE;
    uint32_t hi = lo + WEFT_CPU_WARP_SIZE < threads_ ? lo + WEFT_CPU_WARP_SIZE - 1 : threads_ - 1;
    if (lo < first) lo = first;
    fibers_[t].warpNext = t < hi ? t + 1 : lo;
  }
}

// Threads from `first` on that are not inside the kernel get a fiber (if they
// have none) and may run at once.
void BlockRunner::ready_slots(uint32_t first) {
  for (uint32_t t = first; t < threads_; ++t) {
    ThreadInfo& info = info_[t];
    if (info.state == Slot::InEntry || info.state == Slot::OsThread) continue;
    wait_on(fibers_[t], &kAlwaysRunnable, 0);
    if (info.state == Slot::Parked) continue;  // resumes in park(), ready for this range
    if (!info.stack.bottom) info.stack = stacks_.acquire();
#ifdef WEFT_ASAN_FIBERS
    // Frames abandoned by an abort may have left poisoned shadow behind.
    ASAN_UNPOISON_MEMORY_REGION(info.stack.bottom, info.stack.size);
#endif
    // Stacks are page-aligned and equally sized, so their hot top frames would all
    // fall in the same cache sets and evict each other on every switch. Shifting
    // each top by a different multiple of three cache lines (up to 16 KiB)
    // spreads 256 threads over distinct L1 and L2 sets.
    size_t color = (t * 3 % 256) * 64;
    make_fiber_context(fibers_[t], info.stack.top() - color, info.stack.size - color);
    if (!info.tsan_fiber) info.tsan_fiber = tsan_new_fiber();
    info.state = Slot::Parked;
  }
}

// Loop mode reached its first barrier or warp operation: the caller (the loop's
// thread ctx_.threadIdx of block ctx_.blockIdx) keeps the OS stack, the block's
// later threads get fibers. Threads before it already ran to completion.
void BlockRunner::enter_fiber_mode() {
  prepare_slots();
  os_thread_ = linear_index(ctx_.threadIdx);
  const dim3& g = ctx_.gridDim;
  set_block(ctx_.blockIdx.x + uint64_t(g.x) * (ctx_.blockIdx.y + uint64_t(g.y) * ctx_.blockIdx.z));
  fiber_mode_ = true;
  ctx_.mode = kFiberMode;
  reset_counters(os_thread_);
  link_rings(os_thread_);
  ring_dirty_ = os_thread_ > 0;
  info_[os_thread_].state = Slot::OsThread;  // a fiber parked in this slot is dropped
  ready_slots(os_thread_ + 1);
  hot_.current = os_thread_;
}

// A range known to wait at barriers: every thread of every block on fibers.
void BlockRunner::run_on_fibers(uint64_t block) {
  prepare_slots();
  set_block(block);
  fiber_mode_ = true;
  ctx_.mode = kFiberMode;
  reset_counters(0);
  link_rings(0);
  ring_dirty_ = false;
  ready_slots(0);
  slots_dirty_ = false;
  resume_from_main(0);
}

// The OS stack waits in main_ while fibers run; back here when the range is over.
void BlockRunner::resume_from_main(uint32_t next) {
  hot_.current = next;
  asan_leaving(&main_fake_stack_, info_[next].stack);
  tsan_switching_to(tsan_fiber_of(next));
  switch_fiber(main_, fibers_[next], next);
  asan_arrived(main_fake_stack_);
}

// Takes `thread` out of both rings (once per range, for the OS-stack thread).
void BlockRunner::unlink(uint32_t thread) {
  for (uint32_t t = 0; t < threads_; ++t) {
    if (t == thread) continue;
    if (fibers_[t].next == thread) fibers_[t].next = fibers_[thread].next;
    if (fibers_[t].warpNext == thread) fibers_[t].warpNext = fibers_[thread].warpNext;
  }
  hot_.orderedRing = 0;
  ring_dirty_ = true;
}

// The OS-stack thread's kernel returned: it leaves the block (its slot gets a
// fiber for the next one) and the fibers run the rest of the range.
void BlockRunner::os_thread_done() {
  uint32_t me = os_thread_;
  uint32_t next = fibers_[me].next;
  count_exit(me);
  unlink(me);
  info_[me].state = Slot::Empty;
  slots_dirty_ = true;
  os_thread_ = kNone;
  if (hot_.alive == 0) {
    if (advance_block()) return resume_from_main(0);
    next = next_in_entry(threads_ - 1);  // range over: let the waiting fibers leave
    if (next == kNone) return;
  }
  resume_from_main(next);
}

// Exit bookkeeping: the thread no longer counts as alive, which may complete a
// barrier or a warp exchange that waited only for it.
void BlockRunner::count_exit(uint32_t thread) {
  --hot_.alive;
  if (hot_.arrived > 0 && hot_.arrived == hot_.alive) {
    hot_.results[hot_.generation & 1] = weftBarrierResult{hot_.trueCount, hot_.arrived};
    hot_.trueCount = 0;
    hot_.arrived = 0;
    ++hot_.generation;
  }
  weftWarpState& warp = warps_[thread / WEFT_CPU_WARP_SIZE];
  --warp.alive;
  if (warp.arrived > 0 && warp.arrived == warp.alive && warp.site == WEFT_WARP_SITE_DIVERGENT) {
    complete_earliest(thread / WEFT_CPU_WARP_SIZE);
  } else if (warp.arrived > 0 && warp.arrived == warp.alive) {
    warp.arrived = 0;
    ++warp.generation;
    warp.masks[warp.generation & 1] = 0;
  }
}

// The block's last thread returned. Sets up the next block of the range (the
// caller runs its slot's thread of it) or ends the range; either way the threads
// waiting for the block's end may run.
bool BlockRunner::advance_block() {
  bool more = block_ + 1 < range_end_ && !aborted_ && !__atomic_load_n(stop_, __ATOMIC_RELAXED);
  if (more) {
    set_block(block_ + 1);
    reset_counters(0);
    if (ring_dirty_) link_rings(0);
    if (slots_dirty_) ready_slots(0);
    ring_dirty_ = slots_dirty_ = false;
  } else {
    hot_.rangeDone = 1;
  }
  ++hot_.blockSerial;
  return more;
}

uint32_t BlockRunner::thread_exit() {
  uint32_t me = hot_.current;
  count_exit(me);
  if (hot_.alive == 0) return advance_block() ? me : WEFT_FIBER_DONE;
  weftFiber& f = fibers_[me];
  wait_on(f, &hot_.blockSerial, hot_.blockSerial);
  switch_slot(me, f.next);
  if (fiber::still_waiting(&f)) wait_slow(me);
  return hot_.rangeDone ? WEFT_FIBER_DONE : me;
}

// The next slot after `after` (cyclically) whose fiber is inside the kernel.
uint32_t BlockRunner::next_in_entry(uint32_t after) const {
  for (uint32_t i = 1; i <= threads_; ++i) {
    uint32_t t = (after + i) % threads_;
    if (info_[t].state == Slot::InEntry) return t;
  }
  return kNone;
}

// The range is over and `me`'s entry returned: wake the next fiber still inside
// the kernel (it waits for the block's end and will leave too), or give the OS
// stack back. Returns when a later range resumes this slot.
void BlockRunner::park(uint32_t me) {
  info_[me].state = Slot::Parked;
  uint32_t next = next_in_entry(me);
  if (next == kNone) {
    asan_leaving(&info_[me].fake_stack, os_stack_);
    tsan_switching_to(os_tsan_fiber_);
    switch_fiber(fibers_[me], main_, 0);
  } else {
    hot_.current = next;
    asan_leaving(&info_[me].fake_stack, info_[next].stack);
    tsan_switching_to(tsan_fiber_of(next));
    switch_fiber(fibers_[me], fibers_[next], next);
  }
  asan_arrived(info_[me].fake_stack);
}

void BlockRunner::fiber_main() {
  asan_arrived(nullptr);
  for (;;) {
    uint32_t me = hot_.current;
    info_[me].state = Slot::InEntry;
    bool threw = false;
    try {
      entry_(&ctx_, args_);
    } catch (...) {
      aborted_ = true;
      abort_message_ = "kernel threw a C++ exception";
      abort_code_ = hipErrorLaunchFailure;
      threw = true;
    }
    // Leave the handler before switching stacks: exception state is per OS thread.
    if (threw) return_to_os_stack(me);
    park(me);
  }
}

void BlockRunner::after_fibers() {
  if (!aborted_) return;  // every fiber parked itself
  // An aborted block abandons its fibers mid-kernel: they get fresh contexts next time.
  for (unsigned t = 0; t < threads_; ++t) {
    ThreadInfo& info = info_[t];
    if (info.state != Slot::InEntry && info.state != Slot::OsThread) continue;
    info.state = Slot::Empty;
    tsan_drop_fiber(info.tsan_fiber);  // its frames are gone
    info.tsan_fiber = nullptr;
  }
}

void BlockRunner::switch_slot(uint32_t me, uint32_t next) {
  hot_.current = next;
#ifdef WEFT_ASAN_FIBERS
  asan_leaving(&info_[me].fake_stack, stack_of(next));
#endif
  tsan_switching_to(tsan_fiber_of(next));
  switch_fiber(fibers_[me], fibers_[next], next);
#ifdef WEFT_ASAN_FIBERS
  asan_arrived(info_[me].fake_stack);
#endif
}

// Threads that returned stay in the ring until the block ends (the common exit
// costs no unlinking); the scan takes the ones it passes out of the ring, so a
// block whose threads mostly returned early does not pay for them at every barrier.
uint32_t BlockRunner::find_runnable(uint32_t me) {
  uint32_t prev = me;
  for (uint32_t t = fibers_[me].next; t != me;) {
    const weftFiber& f = fibers_[t];
    const uint32_t next = f.next;
    if (!fiber::still_waiting(&f)) return t;
    if (f.waitsOn == &hot_.blockSerial) {
      fibers_[prev].next = next;
      hot_.orderedRing = 0;  // successors must now be read from the ring
      ring_dirty_ = true;
    } else {
      prev = t;
    }
    t = next;
  }
  return me;
}

// `me` was resumed (or is about to yield) while what it waits for is pending:
// find a thread that can run, or report the deadlock.
__attribute__((noinline)) void BlockRunner::wait_slow(uint32_t me) {
  for (;;) {
    if (aborted_) longjmp(abort_jump_, 1);  // only the OS-stack thread is resumed after an abort
    if (!fiber::still_waiting(&fibers_[me])) return;
    uint32_t next = find_runnable(me);
    // Every live thread waits for something that can never happen (divergent
    // barriers: a thread that could arrive or return would be runnable).
    if (next == me)
      abort_block("deadlock: GPU threads of the block wait at different barriers",
                  hipErrorLaunchFailure);
    switch_slot(me, next);
  }
}

uint32_t BlockRunner::wait_until_runnable() {
  uint32_t me = hot_.current;
  wait_slow(me);
  return me;
}

int BlockRunner::barrier(int predicate, int op) {
  if (WEFT_UNLIKELY(!fiber_mode_)) enter_fiber_mode();
  int result = 0;
  fiber::barrier(&hot_, hot_.current, predicate, op, &result, EngineSwitch{this}, EngineWait{this});
  return result;
}

const uint64_t* BlockRunner::warp_collective(uint64_t value, uint64_t* active_mask, uint64_t site) {
  if (WEFT_UNLIKELY(!fiber_mode_)) enter_fiber_mode();
  uint32_t me = hot_.current;
  const fiber::WarpExchange done =
      fiber::warp_exchange(&hot_, me, value, site, EngineSwitch{this}, EngineWait{this}, [&] {
        uint64_t mask = 0;
        const uint64_t* values = warp_divergent(value, &mask, site);
        return fiber::WarpExchange{values, mask};
      });
  if (active_mask) *active_mask = done.mask;
  return done.values;
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
  if (!fiber_mode_ || info_[hot_.current].state == Slot::OsThread) longjmp(abort_jump_, 1);
  return_to_os_stack(hot_.current);
}

void BlockRunner::fault_block(const Fault& fault) {
  // A fault at or just below the running stack's bottom is that stack's guard page
  // (or below it: a frame larger than a page jumped over it).
  const StackSpan& stack = fiber_mode_ ? stack_of(hot_.current) : os_stack_;
  auto* address = static_cast<std::byte*>(fault.address);
  bool overflow =
      stack.bottom && ((address < stack.bottom && address + 16 * page_size() >= stack.bottom) ||
                       static_cast<std::byte*>(fault.stack_pointer) < stack.bottom);
  if (!aborted_) {
    aborted_ = true;
    abort_code_ = overflow ? hipErrorLaunchFailure : hipErrorIllegalAddress;
    fault_ = fault;
    fault_.overflow = overflow;
    fault_.in_fibers = fiber_mode_;
    fault_.block = ctx_.blockIdx;
    fault_.thread = current_thread_index();
    fault_.first_block = ctx_.blockBegin;
    fault_.last_block = ctx_.blockEnd - 1;
    fault_pending_ = true;
  }
  if (!fiber_mode_ || info_[hot_.current].state == Slot::OsThread) longjmp(abort_jump_, 1);
  return_to_os_stack(hot_.current);
}

std::string BlockRunner::describe_fault() const {
  const Fault& f = fault_;
  if (f.overflow)
    return fmt::format(
        "stack overflow: GPU thread [{},{},{}] of block [{},{},{}] ran past the end of its "
        "stack (fault at {} in the guard page; WEFT_CPU_STACK_SIZE or "
        "hipDeviceSetLimit(hipLimitStackSize) sets the size)",
        f.thread.x, f.thread.y, f.thread.z, f.block.x, f.block.y, f.block.z, f.address);
  const char* access = f.access == Fault::kWrite ? "write to"
                     : f.access == Fault::kRead  ? "read of"
                                                 : "access to";
  // In loop mode only the kernel binary's entry loop knows which thread runs.
  std::string who =
      f.in_fibers
          ? fmt::format("GPU thread [{},{},{}] of block [{},{},{}]", f.thread.x, f.thread.y,
                        f.thread.z, f.block.x, f.block.y, f.block.z)
          : fmt::format("a GPU thread of blocks {}..{} (linear ids)", f.first_block, f.last_block);
  return fmt::format("illegal memory access{}: {} address {} by {}; {}",
                     f.signal == SIGBUS ? " (bus error)" : "", access, f.address, who,
                     describe_nearest_allocation(f.address));
}

void BlockRunner::return_to_os_stack(uint32_t me) {
  asan_leaving(nullptr, os_stack_);
  if (os_thread_ != kNone) {
    // Resumed inside a barrier, the OS-stack thread must not carry on with the
    // kernel: the counter it waits on is set back to the value it saw (no other
    // thread of the block runs again), so its wait goes to wait_slow, which sees
    // aborted_ and jumps back to run_range.
    weftFiber& os = fibers_[os_thread_];
    if (os.waitsOn != &kAlwaysRunnable && os.waitsOn != &kNeverRunnable)
      *const_cast<uint32_t*>(os.waitsOn) = os.seen;
    wait_on(os, &kNeverRunnable, kNeverRunnable);
    hot_.current = os_thread_;
    tsan_switching_to(os_tsan_fiber_);
    switch_fiber(fibers_[me], fibers_[os_thread_], os_thread_);
  } else {
    tsan_switching_to(os_tsan_fiber_);
    switch_fiber(fibers_[me], main_, 0);
  }
  std::abort();  // never resumed
}

}  // namespace weft::cpu

extern "C" void weft_cpu_fiber_main() {
  weft::cpu::t_active->fiber_main();
  std::abort();  // fibers never return
}

// ---- entry points called by kernels (kernel_abi.h) ----

namespace {
__attribute__((noinline, cold)) void log_outside_kernel(const char* what) {
  weft::log::error("{} called outside a kernel; ignored", what);
}
}  // namespace

extern "C" {

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
                                                                          uint64_t* active_mask,
                                                                          uint64_t site) {
  weft::cpu::BlockRunner* runner = weft::cpu::t_active;
  if (WEFT_UNLIKELY(!runner)) {
    static thread_local uint64_t lone[WEFT_CPU_WARP_SIZE];
    log_outside_kernel("a warp operation");
    lone[0] = value;
    if (active_mask) *active_mask = 1;
    return lone;
  }
  return runner->warp_collective(value, active_mask, site);
}

__attribute__((visibility("default"))) uint32_t weftFiberWait(void) {
  weft::cpu::BlockRunner* runner = weft::cpu::t_active;
  if (WEFT_UNLIKELY(!runner)) {
    log_outside_kernel("weftFiberWait");
    return 0;
  }
  return runner->wait_until_runnable();
}

__attribute__((visibility("default"))) uint32_t weftFiberExit(void) {
  weft::cpu::BlockRunner* runner = weft::cpu::t_active;
  if (WEFT_UNLIKELY(!runner)) {
    log_outside_kernel("weftFiberExit");
    return WEFT_FIBER_DONE;
  }
  return runner->thread_exit();
}

}  // extern "C"
