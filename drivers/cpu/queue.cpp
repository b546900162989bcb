// SPDX-License-Identifier: MIT
#include "queue.hpp"

#include "block_runner.hpp"
#include "event.hpp"
#include "worker_pool.hpp"

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

namespace weft::cpu {

namespace {
struct Item {
  Op op;
  uint64_t generation = 0;  // for record and wait ops on CPU events
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

template <typename T>
void fill_row(std::byte* row, size_t count, T value) {
  T* p = reinterpret_cast<T*>(row);
  for (size_t i = 0; i < count; ++i) p[i] = value;
}

void run_fill(const FillOp& f) {
  auto* base = static_cast<std::byte*>(f.dst);
  for (size_t row = 0; row < f.height; ++row) {
    std::byte* p = base + row * f.pitch;
    switch (f.element_size) {
      case 1: std::memset(p, static_cast<int>(f.value & 0xff), f.width_elements); break;
      case 2: fill_row<uint16_t>(p, f.width_elements, static_cast<uint16_t>(f.value)); break;
      default: fill_row<uint32_t>(p, f.width_elements, f.value); break;
    }
  }
}

struct DispatchJob {
  const DispatchOp* op;
  size_t stack_bytes;
};

void run_blocks(void* data, uint64_t first, uint64_t last) {
  auto* job = static_cast<DispatchJob*>(data);
  BlockRunner& runner = BlockRunner::for_this_thread(job->stack_bytes);
  for (uint64_t b = first; b < last; ++b)
    runner.run_block(*job->op->host_kernel, job->op->dims, b);
}
}  // namespace

struct CpuQueue::State {
  WorkerPool& pool;
  size_t stack_bytes;
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<Item> items;
  bool closing = false;
  uint64_t submitted = 0;             // guarded by mutex
  std::atomic<uint64_t> completed{0};
  Status error;                       // first asynchronous failure; guarded by mutex

  State(WorkerPool& p, size_t s) : pool(p), stack_bytes(s) {}

  Status execute(Item& item) {
    return std::visit([&](auto& op) { return run(op, item.generation); }, item.op);
  }
  Status run(DispatchOp& op, uint64_t) {
    if (!op.host_kernel)
      return Status(hipErrorNotSupported, "CPU agent: code-object kernels are not loaded yet");
    DispatchJob job{&op, stack_bytes};
    uint64_t blocks = uint64_t(op.dims.grid.x) * op.dims.grid.y * op.dims.grid.z;
    pool.run(run_blocks, &job, blocks);
    return Status();
  }
  Status run(CopyOp& op, uint64_t) { run_copy(op); return Status(); }
  Status run(FillOp& op, uint64_t) { run_fill(op); return Status(); }
  Status run(HostFuncOp& op, uint64_t) { op.fn(); return Status(); }
  Status run(EventRecordOp& op, uint64_t generation) {
    static_cast<CpuEvent*>(op.event.get())->complete(generation, now_ns());
    return Status();
  }
  Status run(EventWaitOp& op, uint64_t generation) {
    if (auto* own = dynamic_cast<CpuEvent*>(op.event.get())) own->wait_for(generation);
    else return op.event->synchronize();  // another agent's event: wait from the host
    return Status();
  }

  void loop() {
    std::unique_lock lock(mutex);
    for (;;) {
      cv.wait(lock, [&] { return closing || !items.empty(); });
      if (items.empty()) return;  // closing and drained
      Item item = std::move(items.front());
      items.pop_front();
      lock.unlock();
      Status status = execute(item);
      item = Item();  // drop references (kernel args, events) before reporting completion
      lock.lock();
      if (!status.ok() && error.ok()) error = status;
      completed.fetch_add(1, std::memory_order_release);
      completed.notify_all();
    }
  }
};

CpuQueue::CpuQueue(WorkerPool& pool, size_t fiber_stack_bytes)
    : state_(std::make_shared<State>(pool, fiber_stack_bytes)) {
  std::thread([state = state_] { state->loop(); }).detach();
}

CpuQueue::~CpuQueue() {
  {
    std::lock_guard lock(state_->mutex);
    state_->closing = true;
  }
  state_->cv.notify_all();
}

Status CpuQueue::submit(Op op) {
  Item item{std::move(op), 0};
  if (auto* record = std::get_if<EventRecordOp>(&item.op)) {
    auto* event = dynamic_cast<CpuEvent*>(record->event.get());
    if (!event) return Status(hipErrorInvalidHandle, "event belongs to another agent");
    item.generation = event->arm();
  } else if (auto* wait = std::get_if<EventWaitOp>(&item.op)) {
    if (auto* event = dynamic_cast<CpuEvent*>(wait->event.get()))
      item.generation = event->armed_generation();
  }
  {
    std::lock_guard lock(state_->mutex);
    state_->items.push_back(std::move(item));
    ++state_->submitted;
  }
  state_->cv.notify_one();
  return Status();
}

Status CpuQueue::synchronize() {
  uint64_t target;
  {
    std::lock_guard lock(state_->mutex);
    target = state_->submitted;
  }
  for (uint64_t done = state_->completed.load(std::memory_order_acquire); done < target;
       done = state_->completed.load(std::memory_order_acquire))
    state_->completed.wait(done, std::memory_order_acquire);
  std::lock_guard lock(state_->mutex);
  return state_->error;
}

bool CpuQueue::is_idle() {
  std::lock_guard lock(state_->mutex);
  return state_->completed.load(std::memory_order_acquire) == state_->submitted;
}

}  // namespace weft::cpu
