// SPDX-License-Identifier: MIT
#include "queue.hpp"

#include "errors.hpp"
#include "uapi.hpp"

#include <weft/common/log.hpp>

#include <time.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace weft::xdna {
namespace {

template <typename T>
void fill_elements(std::byte* row, size_t count, T value) {
  for (size_t i = 0; i < count; ++i) std::memcpy(row + i * sizeof(T), &value, sizeof(T));
}

int64_t monotonic_deadline_ns(std::chrono::milliseconds timeout) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return int64_t(now.tv_sec) * 1000000000 + now.tv_nsec + int64_t(timeout.count()) * 1000000;
}

const char* state_name(uint32_t state) {
  switch (state) {
    case uapi::kErtNew: return "NEW";
    case uapi::kErtQueued: return "QUEUED";
    case uapi::kErtRunning: return "RUNNING";
    case uapi::kErtCompleted: return "COMPLETED";
    case uapi::kErtError: return "ERROR";
    case uapi::kErtAbort: return "ABORT";
    case uapi::kErtSubmitted: return "SUBMITTED";
    case uapi::kErtTimeout: return "TIMEOUT";
    case uapi::kErtNoResponse: return "NORESPONSE";
    default: return "INVALID";
  }
}

}  // namespace

Result<PreparedLaunch> prepare_launch(XdnaDevice& device, const DispatchOp& op) {
  if (op.host_kernel)
    return Status(hipErrorNoBinaryForGpu, std::string("the NPU runs no host code: ") +
                                              op.host_kernel->name() +
                                              " is a single-source kernel for the CPU agent");
  auto* kernel = dynamic_cast<XdnaKernel*>(op.kernel.get());
  if (!kernel || &kernel->context->device() != &device)
    return Status(hipErrorInvalidDeviceFunction, "NPU: the kernel was not loaded on this NPU");
  const codeobj::NpuKernel& layout = kernel->layout;
  const KernelInfo& info = kernel->info();
  if (op.kernarg.size() < info.kernarg_size)
    return Status(hipErrorInvalidValue,
                  "NPU: kernel " + info.name + " needs " + std::to_string(info.kernarg_size) +
                      " bytes of arguments; " + std::to_string(op.kernarg.size()) + " given");
  PreparedLaunch launch;
  launch.kernel = Ref<XdnaKernel>(kernel);
  const uint32_t masks = kernel->cu_index / 32 + 1;
  std::vector<std::byte> regmap(layout.regmap_size);
  auto put = [&](uint32_t at, const void* value, size_t size) {
    std::memcpy(regmap.data() + at, value, size);
  };
  uint64_t opcode = layout.opcode_value;
  put(layout.opcode_slot, &opcode, 8);
  put(layout.instr_slot, &kernel->instructions.xdna_addr, 8);
  uint32_t ninstr = static_cast<uint32_t>(kernel->instructions.size / 4);
  put(layout.ninstr_slot, &ninstr, 4);
  launch.handles.push_back(kernel->instructions.handle);
  for (size_t i = 0; i < layout.args.size(); ++i) {
    const codeobj::NpuArg& a = layout.args[i];
    const std::byte* value = op.kernarg.data() + info.args[i].offset;
    if (a.kind == codeobj::NpuArgKind::kScalar) {
      put(a.regmap_offset, value, a.size);
      continue;
    }
    void* pointer = nullptr;
    std::memcpy(&pointer, value, sizeof(pointer));
    auto found = device.find_allocation(pointer);
    if (!found)
      return Status(hipErrorInvalidValue,
                    "NPU: argument " + std::to_string(i) + " of kernel " + info.name +
                        " is not memory allocated on this NPU (hipMalloc on it)");
    auto& [bo, offset] = *found;
    uint64_t address = bo.xdna_addr + offset;
    put(a.regmap_offset, &address, 8);
    bool seen = false;
    for (uint32_t h : launch.handles) seen = seen || h == bo.handle;
    if (!seen) {
      launch.handles.push_back(bo.handle);
      launch.buffers.push_back(bo);
    }
  }
  if (masks + regmap.size() / 4 > uapi::kErtMaxCount)
    return Status(hipErrorInvalidValue,
                  "NPU: kernel " + info.name + "'s register map and CU masks need " +
                      std::to_string(masks + regmap.size() / 4) + " words; an ERT packet holds " +
                      std::to_string(uapi::kErtMaxCount));
  launch.words.assign(masks + regmap.size() / 4, 0);
  launch.words[kernel->cu_index / 32] = 1u << (kernel->cu_index % 32);
  std::memcpy(launch.words.data() + masks, regmap.data(), regmap.size());
  launch.header =
      uapi::ert_header(uapi::kErtNew, masks - 1, static_cast<uint32_t>(launch.words.size()),
                       uapi::kErtStartCu, uapi::kErtTypeCu);
  return launch;
}

struct XdnaQueue::State {
  Ref<XdnaDevice> device;
  Bo cmd;
  std::mutex mutex;
  std::condition_variable wake, drained;
  std::deque<Work> work;  // guarded by mutex
  size_t running = 0;     // ops taken but not finished; guarded by mutex
  bool closing = false;   // the Queue is gone: exit once drained
  Status error;           // the first asynchronous error; guarded by mutex

  ~State() { device->destroy_bo(cmd); }

  void loop();
  Status run(PreparedLaunch& launch);
  Status execute(PreparedLaunch& launch);
  Status run(CopyOp& op);
  Status run(FillOp& op);
  Status run(HostFuncOp& op);
  Status run(RecordWork& op);
  Status run(WaitWork& op);
  Status sticky() {
    std::lock_guard lock(mutex);
    return error;
  }
};

void XdnaQueue::State::loop() {
  std::unique_lock lock(mutex);
  for (;;) {
    wake.wait(lock, [&] { return !work.empty() || closing; });
    if (work.empty()) return;  // closing and drained
    Work next = std::move(work.front());
    work.pop_front();
    ++running;
    bool failed = !error.ok();
    lock.unlock();
    Status status;
    // After an error only what keeps waiters from hanging still runs.
    if (!failed || std::holds_alternative<HostFuncOp>(next) ||
        std::holds_alternative<RecordWork>(next))
      status = std::visit([&](auto& w) { return run(w); }, next);
    if (!status.ok()) log::error("{}", status.message());
    lock.lock();
    if (!status.ok() && error.ok()) error = status;
    --running;
    if (work.empty() && running == 0) drained.notify_all();
  }
}

Status XdnaQueue::State::run(PreparedLaunch& launch) {
  // A device lost mid-launch poisons the device: a sticky launch failure.
  Status status = execute(launch);
  if (status.code() == hipErrorNoDevice) return Status(hipErrorLaunchFailure, status.message());
  return status;
}

Status XdnaQueue::State::execute(PreparedLaunch& launch) {
  XdnaDevice& dev = *device;
  const HwContext& context = *launch.kernel->context;
  const std::string& name = launch.kernel->info().name;
  // The packet: header (state NEW), CU masks, register map.
  std::memcpy(cmd.host, &launch.header, 4);
  std::memcpy(cmd.host + 4, launch.words.data(), launch.words.size() * 4);
  for (const Bo& bo : launch.buffers) WEFT_RETURN_IF_ERROR(dev.sync_bo(bo, uapi::kSyncToDevice));
  uapi::ExecCmd exec;
  exec.hwctx = context.handle;
  exec.type = uapi::kSubmitExecBuf;
  exec.cmd_handles = cmd.handle;
  exec.args = reinterpret_cast<uintptr_t>(launch.handles.data());
  exec.cmd_count = 1;
  exec.arg_count = static_cast<uint32_t>(launch.handles.size());
  if (Status s = dev.ioctl(uapi::kExecCmd, &exec, "EXEC_CMD"); !s.ok())
    return Status(s.code(), s.message() + " (launching " + name + ")");
  log::debug(log::kKernel, "NPU: kernel {} submitted as command {} on context {}", name, exec.seq,
             context.handle);
  uapi::SyncobjTimelineWait wait;
  uint32_t syncobj = context.syncobj;
  uint64_t point = exec.seq;
  wait.handles = reinterpret_cast<uintptr_t>(&syncobj);
  wait.points = reinterpret_cast<uintptr_t>(&point);
  wait.timeout_nsec = monotonic_deadline_ns(dev.command_timeout());
  wait.count_handles = 1;
  wait.flags = uapi::kSyncobjWaitAll | uapi::kSyncobjWaitForSubmit;
  if (Status s = dev.ioctl(uapi::kSyncobjTimelineWait, &wait, "SYNCOBJ_TIMELINE_WAIT"); !s.ok()) {
    if (s.code() == hipErrorLaunchTimeOut)
      return Status(hipErrorLaunchTimeOut,
                    "NPU: kernel " + name + " (command " + std::to_string(exec.seq) +
                        ") did not finish within " + std::to_string(dev.command_timeout().count()) +
                        " ms");
    return Status(hipErrorLaunchFailure, s.message() + " (waiting for " + name + ")");
  }
  uint32_t header = 0;
  std::memcpy(&header, cmd.host, 4);
  uint32_t state = uapi::ert_state(header);
  if (state != uapi::kErtCompleted)
    return Status(state == uapi::kErtTimeout ? hipErrorLaunchTimeOut : hipErrorLaunchFailure,
                  "NPU: kernel " + name + " (command " + std::to_string(exec.seq) +
                      ") ended in state " + state_name(state) + " (" + std::to_string(state) +
                      "), not COMPLETED");
  for (const Bo& bo : launch.buffers) WEFT_RETURN_IF_ERROR(dev.sync_bo(bo, uapi::kSyncFromDevice));
  return Status();
}

Status XdnaQueue::State::run(CopyOp& op) {
  // Both sides are host-visible: SHMEM mappings, pinned or pageable host memory.
  auto* dst = static_cast<std::byte*>(op.dst);
  auto* src = static_cast<const std::byte*>(op.src);
  for (size_t row = 0; row < op.height; ++row)
    std::memmove(dst + row * op.dst_pitch, src + row * op.src_pitch, op.width);
  return Status();
}

Status XdnaQueue::State::run(FillOp& op) {
  auto* base = static_cast<std::byte*>(op.dst);
  for (size_t row = 0; row < op.height; ++row) {
    std::byte* p = base + row * op.pitch;
    switch (op.element_size) {
      case 1: std::memset(p, static_cast<int>(op.value & 0xff), op.width_elements); break;
      case 2: fill_elements(p, op.width_elements, static_cast<uint16_t>(op.value)); break;
      default: fill_elements(p, op.width_elements, op.value); break;
    }
  }
  return Status();
}

Status XdnaQueue::State::run(HostFuncOp& op) {
  if (op.fn) op.fn();
  return Status();
}

Status XdnaQueue::State::run(RecordWork& op) {
  op.event->complete(op.number, sticky());
  return Status();
}

Status XdnaQueue::State::run(WaitWork& op) {
  // The recording queue keeps its own error: waiting only orders the work.
  if (op.own) (void)op.own->wait_for(op.number);
  else (void)op.event->synchronize();
  return Status();
}

XdnaQueue::XdnaQueue(Ref<XdnaDevice> device, Bo cmd) : state_(std::make_shared<State>()) {
  state_->device = std::move(device);
  state_->cmd = cmd;
  std::thread([state = state_] { state->loop(); }).detach();
}

XdnaQueue::~XdnaQueue() {
  {
    std::lock_guard lock(state_->mutex);
    state_->closing = true;
  }
  state_->wake.notify_one();
}

Status XdnaQueue::push(Work work) {
  {
    std::lock_guard lock(state_->mutex);
    state_->work.push_back(std::move(work));
  }
  state_->wake.notify_one();
  return Status();
}

Status XdnaQueue::submit(Op&& op) {
  if (auto* d = std::get_if<DispatchOp>(&op)) {
    WEFT_ASSIGN_OR_RETURN(PreparedLaunch launch, prepare_launch(*state_->device, *d));
    return push(std::move(launch));
  }
  if (auto* f = std::get_if<FillOp>(&op)) {
    if (f->element_size != 1 && f->element_size != 2 && f->element_size != 4)
      return Status(
          hipErrorInvalidValue,
          "NPU: fill element size " + std::to_string(f->element_size) + " (1, 2 or 4 expected)");
    return push(*f);
  }
  if (auto* c = std::get_if<CopyOp>(&op)) return push(*c);
  if (auto* h = std::get_if<HostFuncOp>(&op)) return push(std::move(*h));
  if (auto* r = std::get_if<EventRecordOp>(&op)) {
    auto event = Ref<XdnaEvent>(dynamic_cast<XdnaEvent*>(r->event.get()));
    if (!event)
      return Status(hipErrorInvalidHandle, "NPU: cannot record an event of another driver");
    uint64_t number = event->begin_record();
    return push(RecordWork{event, number});
  }
  auto& w = std::get<EventWaitOp>(op);
  WaitWork wait;
  wait.event = w.event;
  wait.own = Ref<XdnaEvent>(dynamic_cast<XdnaEvent*>(w.event.get()));
  if (wait.own) wait.number = wait.own->latest_record();
  return push(std::move(wait));
}

Status XdnaQueue::synchronize() {
  std::unique_lock lock(state_->mutex);
  state_->drained.wait(lock, [&] { return state_->work.empty() && state_->running == 0; });
  return state_->error;
}

bool XdnaQueue::is_idle() {
  std::lock_guard lock(state_->mutex);
  return state_->work.empty() && state_->running == 0;
}

}  // namespace weft::xdna
