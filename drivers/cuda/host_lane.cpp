// SPDX-License-Identifier: MIT
#include "host_lane.hpp"

#include <thread>

#include "device.hpp"
#include "status.hpp"

namespace weft::cuda {
namespace {
constexpr size_t kWordsPerPage = 4096 / sizeof(uint32_t);

// True when ticket `a` is at or after `b`, in CUDA's cyclic order.
bool at_or_after(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) >= 0; }

thread_local bool t_on_lane = false;
thread_local CUstream t_lane_stream = nullptr;
}  // namespace

bool HostLane::on_lane_thread() { return t_on_lane; }
CUstream HostLane::lane_stream() { return t_lane_stream; }

Result<WaitWord> WordPool::acquire(const Api& api) {
  std::lock_guard lock(mutex_);
  if (free_.empty()) {
    void* page = nullptr;
    WEFT_CU_RETURN_IF_ERROR(
        api.cuMemHostAlloc(&page, kWordsPerPage * sizeof(uint32_t),
                           CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP));
    CUdeviceptr device = 0;
    WEFT_CU_RETURN_IF_ERROR(api.cuMemHostGetDevicePointer(&device, page, 0));
    auto* words = static_cast<volatile uint32_t*>(page);
    for (size_t i = kWordsPerPage; i-- > 0;) {
      words[i] = 0;
      free_.push_back(WaitWord{words + i, device + i * sizeof(uint32_t)});
    }
  }
  WaitWord word = free_.back();
  free_.pop_back();
  return word;
}

void WordPool::release(WaitWord word) {
  std::lock_guard lock(mutex_);
  free_.push_back(word);
}

struct HostLane::Trampoline {
  std::shared_ptr<HostLane> lane;
  uint32_t ticket;

  // Runs on CUDA's callback thread: no CUDA calls, no runtime locks, no blocking
  // beyond the lane's own short critical section.
  static void CUDA_CB run(void* data) {
    auto* self = static_cast<Trampoline*>(data);
    {
      std::lock_guard lock(self->lane->mutex_);
      if (at_or_after(self->ticket, self->lane->reached_)) self->lane->reached_ = self->ticket;
    }
    self->lane->cv_.notify_all();
    delete self;
  }
};

HostLane::HostLane(CudaDevice& device, CUstream stream, WaitWord word)
    : device_(&device), api_(device.api()), stream_(stream), word_(word) {
  uint32_t start = __atomic_load_n(word_.host, __ATOMIC_ACQUIRE);
  next_ticket_ = start;
  reached_ = start;
}

HostLane::~HostLane() { device_->words().release(word_); }

Result<std::shared_ptr<HostLane>> HostLane::create(CudaDevice& device, CUstream stream) {
  WEFT_ASSIGN_OR_RETURN(WaitWord word, device.words().acquire(device.api()));
  std::shared_ptr<HostLane> lane(new HostLane(device, stream, word));
  std::thread([lane] { lane->loop(); }).detach();
  return lane;
}

bool HostLane::due(const Item& item) const {
  return item.foreign || at_or_after(reached_, item.ticket);
}

void HostLane::loop() {
  t_on_lane = true;
  t_lane_stream = stream_;
  std::unique_lock lock(mutex_);
  for (;;) {
    cv_.wait(lock, [&] {
      return (closing_ && items_.empty()) || (!items_.empty() && due(items_.front()));
    });
    if (items_.empty()) return;
    Item item = std::move(items_.front());
    items_.pop_front();
    lock.unlock();
    if (item.fn) item.fn();
    else if (item.foreign) (void)item.foreign->synchronize();
    uint32_t ticket = item.ticket;
    item = Item();  // drop the callable and the event before the stream moves on
    __atomic_store_n(word_.host, ticket, __ATOMIC_RELEASE);
    lock.lock();
  }
}

Status HostLane::enqueue(Item item, bool needs_trampoline) {
  std::lock_guard order(submit_mutex_);
  uint32_t ticket = next_ticket_ + 1;
  item.ticket = ticket;
  {
    std::lock_guard lock(mutex_);
    items_.push_back(std::move(item));
  }
  auto roll_back = [&] {
    std::lock_guard lock(mutex_);
    items_.pop_back();
  };
  if (needs_trampoline) {
    auto* t = new Trampoline{shared_from_this(), ticket};
    if (CUresult r = api_.cuLaunchHostFunc(stream_, &Trampoline::run, t); r != CUDA_SUCCESS) {
      delete t;
      roll_back();
      return status_from_cuda(r, "cuLaunchHostFunc");
    }
  } else {
    cv_.notify_all();  // a foreign wait can start at once
  }
  CUresult r = api_.cuStreamWaitValue32(stream_, word_.device, ticket, CU_STREAM_WAIT_VALUE_GEQ);
  if (r != CUDA_SUCCESS) {
    // The trampoline (if any) is already queued: leave the item so the ticket
    // sequence stays whole; it runs when reached, and nothing waits for it.
    next_ticket_ = ticket;
    return status_from_cuda(r, "cuStreamWaitValue32");
  }
  next_ticket_ = ticket;
  return Status();
}

Status HostLane::submit_host_func(std::function<void()> fn) {
  Item item;
  item.fn = std::move(fn);
  return enqueue(std::move(item), true);
}

Status HostLane::submit_foreign_wait(Ref<Event> event) {
  Item item;
  item.foreign = std::move(event);
  return enqueue(std::move(item), false);
}

void HostLane::close() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  cv_.notify_all();
}

}  // namespace weft::cuda
