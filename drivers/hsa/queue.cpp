// SPDX-License-Identifier: MIT
#include "queue.hpp"

#include <hsa/amd_hsa_queue.h>

#include <cstring>
#include <thread>
#include <typeinfo>

#include "module.hpp"

namespace weft::hsa {
namespace {

// Packets per ring: ROCr's maximum, capped (4096 packets = 256 KiB of ring).
constexpr uint32_t kRingPackets = 4096;

HsaQueue::InFlight in_flight(Ref<Signal> s) {
  HsaQueue::InFlight f;
  f.signal = std::move(s);
  return f;
}

hipError_t fault_code(hsa_status_t s) {
  const int code = int(s);  // the AMD codes are outside hsa_status_t's enumerators
  if (code == HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION || code == HSA_STATUS_ERROR_MEMORY_FAULT)
    return hipErrorIllegalAddress;
  return hipErrorLaunchFailure;
}

}  // namespace

// ---------------------------------------------------------------- HwQueue

Result<std::shared_ptr<HwQueue>> HwQueue::create(HsaDevice& device, int priority) {
  const Api& api = device.api();
  std::shared_ptr<HwQueue> q(new HwQueue(api));
  uint32_t size = kRingPackets;
  if (device.facts().queue_max_packets && device.facts().queue_max_packets < size)
    size = device.facts().queue_max_packets;
  // UINT32_MAX: ROCr sizes private and group segments per dispatch.
  hsa_status_t s =
      api.hsa_queue_create(device.agent(), size, HSA_QUEUE_TYPE_MULTI, &HwQueue::on_error, q.get(),
                           UINT32_MAX, UINT32_MAX, &q->queue_);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api, s, hipErrorOutOfMemory, "hsa_queue_create");
  q->owners_.resize(q->queue_->size);
  // Timestamps in every completion signal (events and timing).
  (void)api.hsa_amd_profiling_set_profiler_enabled(q->queue_, 1);
  if (priority < 0 && api.hsa_amd_queue_set_priority)
    (void)api.hsa_amd_queue_set_priority(q->queue_, HSA_AMD_QUEUE_PRIORITY_HIGH);
  return q;
}

HwQueue::~HwQueue() {
  if (queue_) (void)api_.hsa_queue_destroy(queue_);
}

uint64_t HwQueue::submit(const void* packet, uint32_t header_word, const std::string* kernel) {
  uint64_t index = aql::reserve(api_, queue_);
  {
    std::lock_guard lock(mutex_);
    std::string& owner = owners_[index & (queue_->size - 1)];
    if (kernel) owner = *kernel;
    else owner.clear();
  }
  aql::publish(api_, queue_, index, packet, header_word);
  return index;
}

Status HwQueue::error() const {
  if (!failed()) return Status();
  std::lock_guard lock(mutex_);
  return error_;
}

void HwQueue::on_error(hsa_status_t status, hsa_queue_t* queue, void* data) {
  auto* self = static_cast<HwQueue*>(data);
  if (!self || self->failed()) return;
  const Api& api = self->api_;
  // With every packet carrying the barrier bit, at most one packet runs at a
  // time: the one just before the read index, or at it when not yet consumed.
  uint64_t read = api.hsa_queue_load_read_index_scacquire(queue);
  std::lock_guard lock(self->mutex_);
  std::string name;
  for (uint64_t candidate : {read ? read - 1 : read, read}) {
    const std::string& owner = self->owners_[candidate & (queue->size - 1)];
    if (!owner.empty()) {
      name = owner;
      break;
    }
  }
  hipError_t code = fault_code(status);
  self->error_ = Status(
      code, std::string(code == hipErrorIllegalAddress ? "illegal memory access" : "GPU fault") +
                " in kernel " + (name.empty() ? std::string("<unknown>") : name) + " (" +
                status_text(api, status) + "); the device is unusable until the process restarts");
  self->failed_.store(true, std::memory_order_release);
}

Status wait_signal(const Api& api, hsa_signal_t signal, const HwQueue* hw) {
  for (;;) {
    // A bounded blocking wait (the timeout is in timestamp ticks: a hint only).
    hsa_signal_value_t v = api.hsa_signal_wait_scacquire(signal, HSA_SIGNAL_CONDITION_LT, 1,
                                                         1000000, HSA_WAIT_STATE_BLOCKED);
    if (v <= 0) return Status();
    if (hw && hw->failed()) return hw->error();
  }
}

// ---------------------------------------------------------------- HsaQueue

HsaQueue::HsaQueue(Ref<HsaDevice> device, std::shared_ptr<HwQueue> hw)
    : device_(std::move(device)), api_(device_->api()), hw_(std::move(hw)) {}

HsaQueue::~HsaQueue() {
  // hipStreamDestroy returns at once, but the arena and signals must outlive the
  // work that uses them.
  if (tail_) (void)wait_signal(api_, tail_->handle(), hw_.get());
  in_flight_.clear();
  tail_ = nullptr;
  if (arena_) (void)api_.hsa_amd_memory_pool_free(arena_);
  device_->release_hw_queue(hw_);
}

Status HsaQueue::tail_status() { return hw_->error(); }

Status HsaQueue::submit(Op&& op) {
  WEFT_RETURN_IF_ERROR(hw_->error());
  std::lock_guard lock(mutex_);
  reclaim(false);
  return std::visit([&](auto& o) { return run(o); }, op);
}

Status HsaQueue::synchronize() {
  Ref<Signal> tail;
  {
    std::lock_guard lock(mutex_);
    tail = tail_;
  }
  if (tail) WEFT_RETURN_IF_ERROR(wait_signal(api_, tail->handle(), hw_.get()));
  WEFT_RETURN_IF_ERROR(hw_->error());
  std::lock_guard lock(mutex_);
  reclaim(false);
  return Status();
}

bool HsaQueue::is_idle() {
  if (hw_->failed()) return true;
  std::lock_guard lock(mutex_);
  return !tail_ || api_.hsa_signal_load_scacquire(tail_->handle()) <= 0;
}

void HsaQueue::reclaim(bool wait_oldest) {
  if (wait_oldest && !in_flight_.empty())
    (void)wait_signal(api_, in_flight_.front().signal->handle(), hw_.get());
  // In-order queue: signals complete front to back.
  while (!in_flight_.empty() &&
         api_.hsa_signal_load_scacquire(in_flight_.front().signal->handle()) <= 0)
    in_flight_.pop_front();
}

Result<std::byte*> HsaQueue::kernarg_alloc(size_t bytes, InFlight& entry) {
  bytes = (bytes + 63) & ~size_t(63);
  if (bytes > kKernargArenaBytes / 4)
    return Status(hipErrorInvalidValue, std::to_string(bytes) +
                                            " bytes of kernel arguments exceed the " +
                                            std::to_string(kKernargArenaBytes / 4) + "-byte limit");
  if (!arena_) {
    void* p = nullptr;
    hsa_status_t s =
        api_.hsa_amd_memory_pool_allocate(device_->system().kernarg, kKernargArenaBytes, 0, &p);
    if (s != HSA_STATUS_SUCCESS)
      return status_from_hsa(api_, s, hipErrorOutOfMemory,
                             "hsa_amd_memory_pool_allocate (kernarg)");
    hsa_agent_t agent = device_->agent();
    s = api_.hsa_amd_agents_allow_access(1, &agent, nullptr, p);
    if (s != HSA_STATUS_SUCCESS) {
      (void)api_.hsa_amd_memory_pool_free(p);
      return status_from_hsa(api_, s, hipErrorOutOfMemory, "hsa_amd_agents_allow_access (kernarg)");
    }
    arena_ = static_cast<std::byte*>(p);
  }
  for (;;) {
    // The oldest range still in use; the arena is a ring of bytes.
    const InFlight* oldest = nullptr;
    for (const InFlight& f : in_flight_)
      if (f.kernarg_end > f.kernarg_begin) {
        oldest = &f;
        break;
      }
    size_t begin = SIZE_MAX;
    if (!oldest) {
      begin = 0;
    } else if (arena_head_ > oldest->kernarg_begin) {
      // Free: [head, end) and [0, oldest).
      if (arena_head_ + bytes <= kKernargArenaBytes) begin = arena_head_;
      else if (bytes <= oldest->kernarg_begin) begin = 0;
    } else if (arena_head_ < oldest->kernarg_begin &&
               arena_head_ + bytes <= oldest->kernarg_begin) {
      begin = arena_head_;  // free: [head, oldest); head == oldest means full
    }
    if (begin != SIZE_MAX) {
      entry.kernarg_begin = begin;
      entry.kernarg_end = begin + bytes;
      arena_head_ = begin + bytes;
      return arena_ + begin;
    }
    if (hw_->failed()) return hw_->error();
    reclaim(true);
  }
}

Status HsaQueue::barrier(std::vector<hsa_signal_t> deps, Ref<Signal>* completion_out) {
  if (!tail_on_ring_ && tail_) deps.push_back(tail_->handle());
  WEFT_ASSIGN_OR_RETURN(Ref<Signal> done, device_->signals().take(1));
  // More than five dependencies: chain barrier packets.
  size_t at = 0;
  do {
    size_t n = std::min(deps.size() - at, aql::kBarrierDeps);
    bool last = at + n >= deps.size();
    hsa_barrier_and_packet_t p = aql::barrier_and_packet(std::span(deps).subspan(at, n),
                                                         last ? done->handle() : hsa_signal_t{0});
    hw_->submit(&p, aql::header_word(aql::kBarrierAndHeader, 0), nullptr);
    at += n;
  } while (at < deps.size());
  in_flight_.push_back(in_flight(done));
  tail_ = done;
  tail_on_ring_ = true;
  if (completion_out) *completion_out = done;
  return Status();
}

Status HsaQueue::run(DispatchOp& op) {
  Kernel* any = op.kernel.get();
  auto* kernel = any && typeid(*any) == typeid(HsaKernel) ? static_cast<HsaKernel*>(any) : nullptr;
  if (!kernel) {
    if (op.host_kernel)
      return Status(hipErrorNoBinaryForGpu,
                    std::string("kernel ") + op.host_kernel->name() +
                        " is host code; AMD GPU agents run only AMDGPU code objects");
    return Status(hipErrorInvalidDeviceFunction, "kernel was not loaded by this AMD GPU agent");
  }
  if (&kernel->device() != device_.get())
    return Status(hipErrorInvalidDeviceFunction,
                  "kernel " + kernel->info().name + " was loaded on another device");
  const KernelInfo& info = kernel->info();
  size_t bytes = std::max<size_t>(op.kernarg.size(), info.kernarg_size);
  InFlight entry;
  WEFT_ASSIGN_OR_RETURN(std::byte * kernarg, kernarg_alloc(std::max<size_t>(bytes, 16), entry));
  std::memset(kernarg, 0, bytes);
  std::memcpy(kernarg, op.kernarg.data(), op.kernarg.size());
  aql::HiddenValues v;
  v.grid_blocks[0] = op.dims.grid.x;
  v.grid_blocks[1] = op.dims.grid.y;
  v.grid_blocks[2] = op.dims.grid.z;
  v.block[0] = op.dims.block.x;
  v.block[1] = op.dims.block.y;
  v.block[2] = op.dims.block.z;
  v.dynamic_lds_bytes = op.dims.dynamic_shared_bytes;
  hsa_queue_t* q = hw_->queue();
  v.queue_ptr = reinterpret_cast<uint64_t>(q);
  const auto* amd = reinterpret_cast<const amd_queue_t*>(q);  // hsa_queue_t is its first member
  v.private_base_hi = amd->private_segment_aperture_base_hi;
  v.shared_base_hi = amd->group_segment_aperture_base_hi;
  aql::fill_hidden(std::span(kernarg, bytes), kernel->hidden(), v);

  aql::DispatchInput in;
  in.dims = op.dims;
  in.static_group_bytes = info.static_shared_bytes;
  in.private_bytes = info.private_bytes;
  in.kernel_object = kernel->kernel_object();
  in.kernarg = kernarg;
  auto packet = aql::dispatch_packet(in);
  if (!packet.ok()) {
    arena_head_ = entry.kernarg_begin;  // nothing submitted: the bytes are free again
    return Status(packet.status().code(), "kernel " + info.name + ": " + packet.status().message());
  }
  if (!tail_on_ring_ && tail_) WEFT_RETURN_IF_ERROR(barrier({}, nullptr));
  WEFT_ASSIGN_OR_RETURN(Ref<Signal> done, device_->signals().take(1));
  packet.value().completion_signal = done->handle();
  hw_->submit(&packet.value(), aql::header_word(aql::kDispatchHeader, packet.value().setup),
              &info.name);
  entry.signal = done;
  in_flight_.push_back(std::move(entry));
  tail_ = done;
  tail_on_ring_ = true;
  return Status();
}

namespace {

// Where ROCr can copy with its DMA engines: device memory and pinned/registered
// host memory. `address` is translated to the agent's view for locked memory.
bool dma_reachable(const Api& api, const void*& address, size_t bytes) {
  hsa_amd_pointer_info_t info;
  std::memset(&info, 0, sizeof(info));
  info.size = sizeof(info);
  if (api.hsa_amd_pointer_info(const_cast<void*>(address), &info, nullptr, nullptr, nullptr) !=
      HSA_STATUS_SUCCESS)
    return false;
  auto base = reinterpret_cast<uintptr_t>(info.hostBaseAddress);
  auto p = reinterpret_cast<uintptr_t>(address);
  switch (info.type) {
    case HSA_EXT_POINTER_TYPE_HSA: return true;
    case HSA_EXT_POINTER_TYPE_LOCKED:
      if (p < base || p + bytes > base + info.sizeInBytes) return false;
      address = static_cast<const std::byte*>(info.agentBaseAddress) + (p - base);
      return true;
    default: return false;
  }
}

}  // namespace

Status HsaQueue::run(CopyOp& op) {
  if (op.width == 0 || op.height == 0) return Status();
  bool contiguous = op.height == 1 || (op.dst_pitch == op.width && op.src_pitch == op.width);
  size_t bytes = op.width * op.height;
  const void* dst = op.dst;
  const void* src = op.src;
  if (contiguous && dma_reachable(api_, dst, bytes) && dma_reachable(api_, src, bytes)) {
    hsa_agent_t gpu = device_->agent();
    hsa_agent_t cpu = device_->system().cpu;
    hsa_agent_t dst_agent =
        op.direction == CopyDirection::kDeviceToHost || op.direction == CopyDirection::kHostToHost
            ? cpu
            : gpu;
    hsa_agent_t src_agent =
        op.direction == CopyDirection::kHostToDevice || op.direction == CopyDirection::kHostToHost
            ? cpu
            : gpu;
    WEFT_ASSIGN_OR_RETURN(Ref<Signal> done, device_->signals().take(1));
    hsa_signal_t dep = tail_ ? tail_->handle() : hsa_signal_t{0};
    hsa_status_t s =
        api_.hsa_amd_memory_async_copy(const_cast<void*>(dst), dst_agent, src, src_agent, bytes,
                                       tail_ ? 1 : 0, tail_ ? &dep : nullptr, done->handle());
    if (s != HSA_STATUS_SUCCESS)
      return status_from_hsa(api_, s, hipErrorInvalidValue, "hsa_amd_memory_async_copy");
    in_flight_.push_back(in_flight(done));
    tail_ = done;
    tail_on_ring_ = false;
    return Status();
  }
  // Pageable host memory or pitched rows: ROCr's synchronous copy, in order, on
  // a host thread.
  const Api* api = &api_;
  CopyOp c = op;
  return host_step([api, c] {
    for (size_t row = 0; row < c.height; ++row)
      (void)api->hsa_memory_copy(
          static_cast<std::byte*>(c.dst) + row * (c.height > 1 ? c.dst_pitch : 0),
          static_cast<const std::byte*>(c.src) + row * (c.height > 1 ? c.src_pitch : 0), c.width);
  });
}

Status HsaQueue::run(FillOp& op) {
  if (op.width_elements == 0 || op.height == 0) return Status();
  const Api* api = &api_;
  FillOp f = op;
  return host_step([api, f] {
    uint32_t pattern = f.value;
    if (f.element_size == 1) pattern = (f.value & 0xFF) * 0x01010101u;
    if (f.element_size == 2) pattern = (f.value & 0xFFFF) * 0x00010001u;
    const size_t row_bytes = f.width_elements * f.element_size;
    std::vector<std::byte> row;
    for (size_t r = 0; r < f.height; ++r) {
      auto* dst = static_cast<std::byte*>(f.dst) + r * f.pitch;
      if (reinterpret_cast<uintptr_t>(dst) % 4 == 0 && row_bytes % 4 == 0) {
        (void)api->hsa_amd_memory_fill(dst, pattern, row_bytes / 4);
        continue;
      }
      if (row.empty()) {
        row.resize(row_bytes);
        for (size_t i = 0; i < row_bytes; ++i)
          row[i] = std::byte((f.value >> (8 * (i % f.element_size))) & 0xFF);
      }
      (void)api->hsa_memory_copy(dst, row.data(), row_bytes);
    }
  });
}

namespace {

struct HostStep {
  const Api* api;
  std::function<void()> fn;
  Ref<Signal> after;  // what the step waits for (kept alive until it ran)
  Ref<Signal> gate;   // opened (set to 0) once fn has run
  static bool run(hsa_signal_value_t, void* arg) {
    auto* self = static_cast<HostStep*>(arg);
    if (self->fn) self->fn();
    self->api->hsa_signal_store_screlease(self->gate->handle(), 0);
    delete self;
    return false;  // one-shot
  }
};

}  // namespace

Status HsaQueue::host_step(std::function<void()> fn) {
  WEFT_ASSIGN_OR_RETURN(Ref<Signal> gate, device_->signals().take(1));
  Ref<Signal> after = tail_;
  if (!after) {
    WEFT_ASSIGN_OR_RETURN(after, device_->signals().take(0));
  }
  // Later ops wait behind the gate.
  std::vector<hsa_signal_t> deps{gate->handle()};
  tail_on_ring_ = true;  // the gate opens only after `after` completed
  WEFT_RETURN_IF_ERROR(barrier(std::move(deps), nullptr));
  auto* step = new HostStep{&api_, std::move(fn), after, gate};
  hsa_status_t s = api_.hsa_amd_signal_async_handler(after->handle(), HSA_SIGNAL_CONDITION_EQ, 0,
                                                     &HostStep::run, step);
  if (s != HSA_STATUS_SUCCESS) {
    // Never leave the ring blocked: open the gate, report the failure.
    api_.hsa_signal_store_screlease(gate->handle(), 0);
    delete step;
    return status_from_hsa(api_, s, hipErrorOutOfMemory, "hsa_amd_signal_async_handler");
  }
  return Status();
}

Status HsaQueue::run(HostFuncOp& op) { return host_step(std::move(op.fn)); }

Status HsaQueue::run(EventRecordOp& op) {
  auto* event = dynamic_cast<HsaEvent*>(op.event.get());
  if (!event || &event->device() != device_.get())
    return Status(hipErrorInvalidHandle, "event belongs to another device");
  Ref<Signal> done;
  WEFT_RETURN_IF_ERROR(barrier({}, &done));
  event->set_record(std::move(done), hw_);
  return Status();
}

Status HsaQueue::run(EventWaitOp& op) {
  if (auto* event = dynamic_cast<HsaEvent*>(op.event.get());
      event && &event->device().api() == &api_) {
    // Any HSA agent's event: the packet processor waits, no host involved.
    Ref<Signal> s = event->current();
    if (!s || api_.hsa_signal_load_scacquire(s->handle()) <= 0) return Status();
    WEFT_RETURN_IF_ERROR(barrier({s->handle()}, nullptr));
    // The awaited signal stays alive until the barrier ran.
    in_flight_.back().keep = std::move(s);
    return Status();
  }
  // Another driver's event: a thread waits for it, then opens the gate.
  if (op.event->is_complete()) return Status();
  WEFT_ASSIGN_OR_RETURN(Ref<Signal> gate, device_->signals().take(1));
  WEFT_RETURN_IF_ERROR(barrier({gate->handle()}, nullptr));
  const Api* api = &api_;
  std::thread([api, gate, foreign = std::move(op.event)] {
    (void)foreign->synchronize();
    api->hsa_signal_store_screlease(gate->handle(), 0);
  }).detach();
  return Status();
}

// ---------------------------------------------------------------- HsaEvent

Ref<Signal> HsaEvent::current() const {
  std::lock_guard lock(mutex_);
  return signal_;
}

void HsaEvent::set_record(Ref<Signal> signal, std::shared_ptr<HwQueue> hw) {
  std::lock_guard lock(mutex_);
  signal_ = std::move(signal);
  hw_ = std::move(hw);
  recorded_.store(true, std::memory_order_release);
}

bool HsaEvent::is_complete() {
  std::lock_guard lock(mutex_);
  if (!signal_) return true;
  if (hw_ && hw_->failed()) return true;
  return device_->api().hsa_signal_load_scacquire(signal_->handle()) <= 0;
}

Status HsaEvent::synchronize() {
  Ref<Signal> s;
  std::shared_ptr<HwQueue> hw;
  {
    std::lock_guard lock(mutex_);
    s = signal_;
    hw = hw_;
  }
  if (!s) return Status();
  return wait_signal(device_->api(), s->handle(), hw.get());
}

Result<float> HsaEvent::elapsed_ms_since(Event& start_any) {
  auto* start = dynamic_cast<HsaEvent*>(&start_any);
  if (!start || &start->device().system() != &device_->system())
    return Status(hipErrorInvalidHandle, "the two events belong to different drivers");
  if (!options_.timing || !start->options_.timing)
    return Status(hipErrorInvalidHandle, "an event was created with hipEventDisableTiming");
  Ref<Signal> a = start->current(), b = current();
  if (!a || !b) return Status(hipErrorInvalidHandle, "an event was never recorded");
  const Api& api = device_->api();
  if (api.hsa_signal_load_scacquire(a->handle()) > 0 ||
      api.hsa_signal_load_scacquire(b->handle()) > 0)
    return Status(hipErrorNotReady, "an event has not completed yet");
  hsa_amd_profiling_dispatch_time_t ta{}, tb{};
  hsa_status_t s =
      api.hsa_amd_profiling_get_dispatch_time(start->device().agent(), a->handle(), &ta);
  if (s == HSA_STATUS_SUCCESS)
    s = api.hsa_amd_profiling_get_dispatch_time(device_->agent(), b->handle(), &tb);
  if (s != HSA_STATUS_SUCCESS)
    return status_from_hsa(api, s, hipErrorInvalidHandle, "hsa_amd_profiling_get_dispatch_time");
  uint64_t hz = device_->system().timestamp_hz ? device_->system().timestamp_hz : 1000000000ull;
  double ticks = double(int64_t(tb.end - ta.end));
  return float(ticks * 1000.0 / double(hz));
}

}  // namespace weft::hsa
