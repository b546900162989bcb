// SPDX-License-Identifier: MIT
#include "queue.hpp"

#include "block_runner.hpp"
#include "cooperative.hpp"
#include "event.hpp"
#include "fill.hpp"
#include "module.hpp"
#include "spin.hpp"
#include "worker_pool.hpp"

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace weft::cpu {

namespace {
struct Item {
  Op op;
  uint64_t generation = 0;  // for record and wait ops on CPU events
};

// An op submitted with submit_observed (tracing on): its number in submission
// order and the observer's reference, which the queue thread releases once the
// op ended. Kept beside the items, not in them, so an Item stays as large as it
// was without the trace (its size sets how often the deque allocates a node).
struct Observed {
  uint64_t seq;
  OpObserver* observer;
};

void run_copy(const CopyOp& c) {
  auto* dst = static_cast<std::byte*>(c.dst);
  auto* src = static_cast<const std::byte*>(c.src);
  if (c.height == 1 || (c.dst_pitch == c.width && c.src_pitch == c.width)) {
    std::memmove(dst, src, c.width * c.height);
    return;
  }
  for (size_t row = 0; row < c.height; ++row)
    std::memmove(dst + row * c.dst_pitch, src + row * c.src_pitch, c.width);
}

void run_fill(const FillOp& f) {
  auto* base = static_cast<std::byte*>(f.dst);
  const size_t row_bytes = f.width_elements * f.element_size;
  if (f.height == 1 || f.pitch == row_bytes) {
    fill_pattern(base, row_bytes * f.height, f.value, f.element_size);
    return;
  }
  for (size_t row = 0; row < f.height; ++row)
    fill_pattern(base + row * f.pitch, row_bytes, f.value, f.element_size);
}

// One dispatch spread over the pool. The first failing block's status wins and
// the remaining blocks are skipped, as a GPU stops a faulted kernel.
struct DispatchJob {
  weftKernelEntry entry;
  void* args;
  LaunchDims dims;
  size_t stack_bytes;
  const char* name;     // for fault reports
  uint64_t launch;      // process-wide launch number, for fault reports
  uint32_t failed = 0;  // read by kernels' block loops (relaxed), written once under error_mutex
  // Set once a range waited at a barrier: later ranges start on fibers.
  std::atomic<bool> on_fibers{false};
  std::mutex error_mutex;
  Status error;
};

void run_blocks(void* data, uint64_t first, uint64_t last) {
  auto* job = static_cast<DispatchJob*>(data);
  if (__atomic_load_n(&job->failed, __ATOMIC_RELAXED)) return;
  BlockRunner& runner = BlockRunner::for_this_thread(job->stack_bytes);
  bool on_fibers = job->on_fibers.load(std::memory_order_relaxed);
  Status status =
      runner.run_range(job->entry, job->args, job->dims, first, last, &job->failed, on_fibers);
  if (on_fibers) job->on_fibers.store(true, std::memory_order_relaxed);
  if (!status.ok()) {
    std::lock_guard lock(job->error_mutex);
    if (!__atomic_load_n(&job->failed, __ATOMIC_RELAXED)) {
      // One line per faulted launch, as a GPU's fault report; sticks to the device from the next sync.
      if (runner.faulted())
        std::fprintf(stderr, "weft: kernel %s (launch %llu): %s\n", job->name,
                     static_cast<unsigned long long>(job->launch), status.message().c_str());
      job->error = std::move(status);
      __atomic_store_n(&job->failed, 1u, __ATOMIC_RELAXED);
    }
  }
}

Status run_dispatch(WorkerPool& pool, weftKernelEntry entry, void* args, const LaunchDims& dims,
                    size_t stack_bytes, const char* name, bool cooperative,
                    const std::vector<uint32_t>* cu_mask) {
  if (cooperative) {  // every block resident at once, each on its own OS thread
    Status status = run_cooperative(entry, args, dims, stack_bytes);
    if (!status.ok())
      return Status(status.code(), std::string("kernel ") + name + ": " + status.message());
    return status;
  }
  DispatchJob job;
  job.entry = entry;
  job.args = args;
  job.dims = dims;
  job.stack_bytes = stack_bytes;
  job.name = name;
  static std::atomic<uint64_t> launches{0};
  job.launch = launches.fetch_add(1, std::memory_order_relaxed) + 1;
  uint64_t blocks = uint64_t(dims.grid.x) * dims.grid.y * dims.grid.z;
  pool.run(run_blocks, &job, blocks, cu_mask);
  if (__atomic_load_n(&job.failed, __ATOMIC_ACQUIRE))
    return Status(job.error.code(), std::string("kernel ") + name + ": " + job.error.message());
  return Status();
}
}  // namespace

// How long the queue thread leaves new work on an idle queue to a synchronizing thread.
inline constexpr std::chrono::microseconds kSyncGrace{2};

struct CpuQueue::State {
  WorkerPool& pool;
  std::shared_ptr<const std::atomic<size_t>> stack_bytes;
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<Item> items;
  std::deque<Observed> observed;  // guarded by mutex; in seq order
  bool closing = false;
  uint64_t submitted = 0;                   // guarded by mutex
  std::atomic<uint64_t> submitted_hint{0};  // `submitted`, readable without the lock
  bool sleeping = false;                    // the executing thread waits on cv; guarded by mutex
  // A thread drains the queue (the queue thread, or a synchronizing thread that found
  // it idle); exactly one at a time, so ops still run one after another in order.
  bool busy = false;                   // guarded by mutex
  std::atomic<bool> busy_hint{false};  // `busy`, readable without the lock
  std::atomic<uint64_t> completed{0};
  // Threads in synchronize() that may sleep on `wakeups`, which the drainer bumps (and
  // notifies) after each completion and when it stops draining, while there are any.
  std::atomic<int> completion_waiters{0};
  std::atomic<uint32_t> wakeups{0};
  Status error;  // first asynchronous failure; guarded by mutex

  // The units (worker threads) this queue's dispatches may use; null: all (worker_pool.hpp).
  const std::vector<uint32_t> cu_mask;
  const std::vector<uint32_t>* units() const { return cu_mask.empty() ? nullptr : &cu_mask; }

  State(WorkerPool& p, std::shared_ptr<const std::atomic<size_t>> s, std::vector<uint32_t> mask)
      : pool(p), stack_bytes(std::move(s)), cu_mask(std::move(mask)) {}

  Status execute(Item& item) {
    return std::visit([&](auto& op) { return run(op, item.generation); }, item.op);
  }
  Status run(DispatchOp& op, uint64_t) {
    if (!op.host_kernel) {  // a CPU code-object kernel (module.hpp): arguments in op.kernarg
      WEFT_ASSIGN_OR_RETURN(weftKernelEntry entry, code_object_entry(op.kernel.get()));
      return run_dispatch(pool, entry, op.kernarg.data(), op.dims, stack_bytes->load(),
                          op.kernel->info().name.c_str(), op.cooperative, units());
    }
    return run_dispatch(pool, op.host_kernel->entry(), op.host_kernel->args(), op.dims,
                        stack_bytes->load(), op.host_kernel->name(), op.cooperative, units());
  }
  Status run(CopyOp& op, uint64_t) {
    run_copy(op);
    return Status();
  }
  Status run(FillOp& op, uint64_t) {
    run_fill(op);
    return Status();
  }
  Status run(HostFuncOp& op, uint64_t) {
    op.fn();
    return Status();
  }
  Status run(EventRecordOp& op, uint64_t generation) {
    Status failed;
    {
      std::lock_guard lock(mutex);
      failed = error;
    }
    static_cast<CpuEvent*>(op.event.get())->complete(generation, now_ns(), std::move(failed));
    return Status();
  }
  Status run(EventWaitOp& op, uint64_t generation) {
    if (auto* own = dynamic_cast<CpuEvent*>(op.event.get())) own->wait_for(generation);
    else return op.event->synchronize();  // another agent's event: wait from the host
    return Status();
  }

  // True when items wait to run, in `batch` (taken by an earlier drain) or `items`.
  bool has_work() const { return !batch.empty() || !items.empty(); }

  // Runs queued items in order on the calling thread until none is left or
  // `completed` reaches `stop_at`. The caller holds `lock` and has set `busy`
  // (so it is the only drainer); the lock is released while items run.
  void drain(std::unique_lock<std::mutex>& lock, uint64_t stop_at) {
    for (;;) {
      if (batch.empty()) {
        if (items.empty()) return;
        // Everything submitted so far, in one lock acquisition: a submitting thread
        // on the other core then rarely finds the lock taken (contended locks cost
        // futex calls on both sides; the launch rate doubled on 2 cores).
        batch.swap(items);
        // The previous batch used up its observers, so `timing` is empty here.
        if (!observed.empty()) [[unlikely]]
          timing.swap(observed);
      }
      if (completed.load(std::memory_order_relaxed) >= stop_at) return;
      lock.unlock();
      while (!batch.empty()) {
        // This item's number: only the drainer counts completions.
        uint64_t seq = completed.load(std::memory_order_relaxed);
        if (seq >= stop_at) break;
        OpObserver* observer = nullptr;
        if (!timing.empty() && timing.front().seq == seq) [[unlikely]] {
          observer = timing.front().observer;
          timing.pop_front();
          observer->started(op_clock_ns());
        }
        Status status = execute(batch.front());
        if (observer) [[unlikely]] {
          observer->ended(op_clock_ns());
          observer->release();
        }
        batch.pop_front();  // drop references (kernel args, events) before reporting completion
        if (!status.ok()) {
          std::lock_guard error_lock(mutex);
          if (error.ok()) error = status;
        }
        // seq_cst pairs with synchronize(): either it sees this count, or this sees it waiting.
        completed.fetch_add(1, std::memory_order_seq_cst);
        wake_waiters();
      }
      lock.lock();
    }
  }

  // After a completion or the end of a drain: wakes the threads sleeping in
  // synchronize() (a futex call, so only while there are any). seq_cst pairs with
  // synchronize(): either it sees the change, or this sees it waiting.
  void wake_waiters() {
    if (completion_waiters.load(std::memory_order_seq_cst) > 0) [[unlikely]] {
      wakeups.fetch_add(1, std::memory_order_seq_cst);
      wakeups.notify_all();
    }
  }

  // Ends a drain (the caller holds `lock`): a waiting synchronizer whose target is
  // not reached yet takes over, or else the queue thread.
  void end_drain() {
    busy = false;
    busy_hint.store(false, std::memory_order_seq_cst);
    wake_waiters();
  }

  // Ends a drain by a synchronizing thread: the queue thread takes over what is left.
  void release_drain(std::unique_lock<std::mutex>& lock) {
    end_drain();
    bool wake = sleeping && (has_work() || closing);
    lock.unlock();
    if (wake) cv.notify_one();
  }

  // The queue thread. It drains whenever no synchronizing thread does (`busy`),
  // spins a little when idle (SpinKind::kIdle, spin.hpp), then sleeps on `cv`.
  void loop() {
    std::unique_lock lock(mutex);
    for (;;) {
      if ((busy || !has_work()) && !closing) {  // `batch` is the drainer's: test busy first
        lock.unlock();
        bool seen = spin_until(
            [&] {
          return !busy_hint.load(std::memory_order_acquire) &&
                 submitted_hint.load(std::memory_order_acquire) !=
                     completed.load(std::memory_order_relaxed);
            },
            SpinKind::kIdle);
        // New work on an idle queue: a synchronize often follows within a microsecond
        // or two (launch + sync, a graph launch + sync). Leave it that long to take the
        // work and run it on its own thread, cache-warm, instead of a hand-off to this one.
        if (seen && spin_until([&] { return busy_hint.load(std::memory_order_acquire); },
                               SpinKind::kIdle, kSyncGrace)) {
          lock.lock();
          continue;  // a synchronizer drains: watch for the next work again
        }
        lock.lock();
        if (!busy && (closing || has_work())) {
          // Take the work below.
        } else {
          sleeping = true;
          cv.wait(lock);  // a submit's or a drainer's notify (or a spurious wake-up)
          sleeping = false;
          if (!closing) {
            // Let the submitting thread go on first when it shares this CPU (the
            // scheduler tends to run the woken thread at once), so the items it is about
            // to submit make one batch instead of one wake-up each. With a CPU of its
            // own this returns at once.
            lock.unlock();
            sched_yield();
            lock.lock();
          }
          continue;  // back to the top: spin again if a synchronizer took the work
        }
      }
      if (busy) {  // closing while a synchronizing thread drains: it wakes us when done
        sleeping = true;
        cv.wait(lock, [&] { return !busy; });
        sleeping = false;
        continue;
      }
      if (!has_work()) return;  // closing and drained
      busy = true;
      busy_hint.store(true, std::memory_order_relaxed);
      drain(lock, UINT64_MAX);
      end_drain();
    }
  }
  // The drainer's batch and its observers; used only by the thread holding `busy`.
  std::deque<Item> batch;
  std::deque<Observed> timing;
};

CpuQueue::CpuQueue(WorkerPool& pool, std::shared_ptr<const std::atomic<size_t>> fiber_stack_bytes,
                   std::vector<uint32_t> cu_mask)
    : state_(std::make_shared<State>(pool, std::move(fiber_stack_bytes), std::move(cu_mask))) {
  std::thread([state = state_] { state->loop(); }).detach();
}

CpuQueue::~CpuQueue() {
  {
    std::lock_guard lock(state_->mutex);
    state_->closing = true;
  }
  state_->cv.notify_all();
}

namespace {
// Gives a record or wait op on a CPU event the event generation it stands for.
[[gnu::always_inline]] inline Status arm_event(Item& item) {
  if (auto* record = std::get_if<EventRecordOp>(&item.op)) {
    auto* event = dynamic_cast<CpuEvent*>(record->event.get());
    if (!event) return Status(hipErrorInvalidHandle, "event belongs to another agent");
    item.generation = event->arm();
  } else if (auto* wait = std::get_if<EventWaitOp>(&item.op)) {
    if (auto* event = dynamic_cast<CpuEvent*>(wait->event.get()))
      item.generation = event->armed_generation();
  }
  return Status();
}

// Wakes the executing thread after a push if it sleeps (`wake`: it did, under the lock, and
// no synchronizing thread drained). A spinning executor sees the new item by itself; only a
// sleeping one needs a futex wake.
inline void wake_if(CpuQueue::State& state, bool wake) {
  if (wake) state.cv.notify_one();
}
}  // namespace

Status CpuQueue::submit(Op&& op) {
  Item item{std::move(op), 0};
  WEFT_RETURN_IF_ERROR(arm_event(item));
  bool wake;
  {
    std::lock_guard lock(state_->mutex);
    state_->items.push_back(std::move(item));
    ++state_->submitted;
    state_->submitted_hint.store(state_->submitted, std::memory_order_release);
    wake = state_->sleeping && !state_->busy;  // a drainer's release wakes it otherwise
  }
  wake_if(*state_, wake);
  return Status();
}

// Its own path, taken only while tracing, so that submit() compiles to what it was
// without the trace: the deque insertion here is another instantiation
// (emplace_back from the op and the generation), which leaves push_back(Item&&)
// one call site, inlined into submit() as before.
Status CpuQueue::submit_observed(Op&& op, Ref<OpObserver> observer) {
  Item item{std::move(op), 0};
  WEFT_RETURN_IF_ERROR(arm_event(item));
  bool wake;
  {
    std::lock_guard lock(state_->mutex);
    state_->items.emplace_back(std::move(item.op), item.generation);
    state_->observed.push_back(Observed{state_->submitted, observer.get()});
    observer.detach();  // the queue thread releases it once the op ended
    ++state_->submitted;
    state_->submitted_hint.store(state_->submitted, std::memory_order_release);
    wake = state_->sleeping && !state_->busy;  // a drainer's release wakes it otherwise
  }
  wake_if(*state_, wake);
  return Status();
}

namespace {
// Stack a drain needs beyond the kernels' own frames: the engine's, the runtime's
// and the caller's frames below synchronize().
constexpr size_t kDrainStackMargin = 64 * 1024;

// The lowest usable address of the calling thread's stack (above its guard), or
// UINTPTR_MAX when the thread cannot tell.
uintptr_t stack_low_bound() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return UINTPTR_MAX;
  void* addr = nullptr;
  size_t size = 0, guard = 0;
  bool ok = pthread_attr_getstack(&attr, &addr, &size) == 0 && addr != nullptr;
  if (pthread_attr_getguardsize(&attr, &guard) != 0) guard = 0;
  pthread_attr_destroy(&attr);
  return ok ? reinterpret_cast<uintptr_t>(addr) + guard : UINTPTR_MAX;
}

// Whether the calling thread's stack has room for the ops a drain may run there: a
// kernel in loop mode runs its GPU threads on the OS thread's stack, and may use as
// much as a fiber's stack (the device's stack-size limit). A thread created with a
// small stack leaves its queue's work to the queue thread (an 8 MiB std::thread).
bool stack_allows_drain(size_t kernel_stack_bytes) {
  thread_local uintptr_t low = 0;  // 0: not asked yet
  if (low == 0) [[unlikely]]
    low = stack_low_bound();
  auto sp = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return sp > low && sp - low >= kernel_stack_bytes + kDrainStackMargin;
}
}  // namespace

// A synchronizing thread that finds no thread draining the queue (the queue
// thread is idle or asleep, or has not yet seen the new items) runs the items up
// to its target itself: no hand-off to a thread the scheduler must wake first.
// Otherwise it waits, spinning briefly while a CPU is free (spin.hpp), and takes
// over when the drainer stops short of its target (another synchronizer's).
Status CpuQueue::synchronize() {
  State& state = *state_;
  std::unique_lock lock(state.mutex);
  const uint64_t target = state.submitted;
  if (state.completed.load(std::memory_order_acquire) >= target) return state.error;
  const bool may_drain = stack_allows_drain(state.stack_bytes->load(std::memory_order_relaxed));
  // Without a drain of its own the queue thread runs the work: submit() woke it, or
  // the drainer that was busy then wakes it when it stops.
  auto progressed = [&] {
    return state.completed.load(std::memory_order_seq_cst) >= target ||
           (may_drain && !state.busy_hint.load(std::memory_order_seq_cst));
  };
  for (;;) {
    if (state.completed.load(std::memory_order_acquire) >= target) return state.error;
    if (may_drain && !state.busy) {
      state.busy = true;
      state.busy_hint.store(true, std::memory_order_relaxed);
      state.drain(lock, target);
      state.release_drain(lock);
      lock.lock();
      continue;
    }
    lock.unlock();
    if (!spin_until(progressed)) {
      // The drainer notifies only while someone may sleep here (notify_all is a futex call).
      state.completion_waiters.fetch_add(1, std::memory_order_seq_cst);
      for (;;) {
        uint32_t seen = state.wakeups.load(std::memory_order_seq_cst);
        if (progressed()) break;
        state.wakeups.wait(seen, std::memory_order_acquire);
      }
      state.completion_waiters.fetch_sub(1, std::memory_order_relaxed);
    }
    lock.lock();
  }
}

Status CpuQueue::run_inline(Op& op, uint64_t generation) {
  Status status = std::visit([&](auto& o) { return state_->run(o, generation); }, op);
  if (!status.ok()) {
    std::lock_guard lock(state_->mutex);
    if (state_->error.ok()) state_->error = status;
  }
  return status;
}

bool CpuQueue::is_idle() {
  std::lock_guard lock(state_->mutex);
  return state_->completed.load(std::memory_order_acquire) == state_->submitted;
}

}  // namespace weft::cpu
