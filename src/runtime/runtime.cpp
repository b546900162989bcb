// SPDX-License-Identifier: MIT
#include "runtime/runtime.hpp"

#include "runtime/process_registry.hpp"

#include "runtime/fork_guard.hpp"

#include <weft/common/env.hpp>
#include <weft/common/log.hpp>
#include <weft/driver/registry.hpp>

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace weft {

bool is_sticky_error(hipError_t error) {
  switch (error) {
    case hipErrorIllegalAddress:
    case hipErrorLaunchFailure:
    case hipErrorAssert:
    case hipErrorLaunchTimeOut:
    case hipErrorECCNotCorrectable: return true;
    default: return false;
  }
}

DeviceState::DeviceState(int ordinal, Ref<Device> device)
    : ordinal_(ordinal), device_(std::move(device)) {
  device_->properties(props_);
}

void DeviceState::set_sticky_error(hipError_t error) {
  hipError_t expected = hipSuccess;
  if (!sticky_.compare_exchange_strong(expected, error)) return;
  g_sticky_devices.fetch_add(1, std::memory_order_relaxed);
  if (device_->caps().faults_lose_context)
    log::error(
        "device {} is now in error state {}: a device fault lost its context, which this "
        "agent cannot recover (hipDeviceReset cannot either); every later call on it "
        "fails until the process restarts",
        ordinal_, static_cast<int>(error));
  else
    log::error(
        "device {} is now in error state {}: every later call on it fails until "
        "hipDeviceReset",
        ordinal_, static_cast<int>(error));
}

void DeviceState::clear_sticky_error() {
  if (sticky_.exchange(hipSuccess) != hipSuccess)
    g_sticky_devices.fetch_sub(1, std::memory_order_relaxed);
}

Result<Stream*> DeviceState::null_stream() {
  std::lock_guard lock(order_mutex_);
  if (!null_stream_) {
    WEFT_ASSIGN_OR_RETURN(Ref<Queue> queue, device_->create_queue(QueueOptions{}));
    null_stream_ = make_ref<Stream>(*this, std::move(queue), Stream::Kind::kNull, 0u, 0);
  }
  return null_stream_.get();
}

Result<Ref<Stream>> DeviceState::create_stream(Stream::Kind kind, unsigned flags, int priority,
                                               std::vector<uint32_t> cu_mask) {
  QueueOptions options;
  options.priority = priority;
  options.cu_mask = cu_mask;
  WEFT_ASSIGN_OR_RETURN(Ref<Queue> queue, device_->create_queue(options));
  auto stream =
      make_ref<Stream>(*this, std::move(queue), kind, flags, priority, std::move(cu_mask));
  std::lock_guard lock(order_mutex_);
  streams_.push_back(stream.get());
  return Ref<Stream>(stream);
}

void DeviceState::remove_stream(Stream* stream) {
  std::lock_guard lock(order_mutex_);
  streams_.erase(std::remove(streams_.begin(), streams_.end(), stream), streams_.end());
  // Drained ones go now, so programs that never synchronize the device keep few.
  std::erase_if(retired_, [](const Ref<Queue>& queue) { return queue->is_idle(); });
  if (!stream->is_idle()) retired_.push_back(Ref<Queue>(&stream->queue()));
}

std::vector<Ref<Stream>> DeviceState::streams() {
  std::lock_guard lock(order_mutex_);
  std::vector<Ref<Stream>> out;
  if (null_stream_) out.push_back(null_stream_);
  for (Stream* s : streams_) out.push_back(Ref<Stream>(s));
  return out;
}

void DeviceState::drop_streams() {
  std::lock_guard lock(order_mutex_);
  null_stream_ = nullptr;
  streams_.clear();
  retired_.clear();
}

Status DeviceState::synchronize() {
  // Copied, not taken: a thread that destroyed a stream with work pending and then
  // synchronizes must wait for that work even while another thread's
  // synchronize waits for it too (taking the list let the second caller return
  // early and free memory the pending kernel still wrote: the 16-thread stress).
  std::vector<Ref<Queue>> retired;
  {
    std::lock_guard lock(order_mutex_);
    retired = retired_;
  }
  Status first;
  for (auto& queue : retired) {
    Status s = queue->synchronize();
    if (!s.ok() && is_sticky_error(s.code())) set_sticky_error(s.code());
    if (!s.ok() && first.ok()) first = s;
  }
  {
    std::lock_guard lock(order_mutex_);
    std::erase_if(retired_, [](const Ref<Queue>& queue) { return queue->is_idle(); });
  }
  for (auto& stream : streams()) {
    Status s = stream->synchronize();
    if (!s.ok() && first.ok()) first = s;
  }
  return first;
}

namespace {
// A visible-devices list stops at its first entry that is not a GPU index (CUDA's
// rule); say so, since the agents after it would disappear without a word.
void warn_if_truncated(const char* name, const std::string& text, size_t gpus) {
  size_t entry = 0;
  for (size_t at = 0; at < text.size(); ++entry) {
    size_t comma = std::min(text.find(',', at), text.size());
    std::string token = text.substr(at, comma - at);
    char* end = nullptr;
    long index = std::strtol(token.c_str(), &end, 10);
    if (token.empty() || *end != '\0' || index < 0 || index >= long(gpus)) {
      log::warn_once(
          name,
          fmt::format("{}={}: entry {} ('{}') is not a GPU index below {}; it and the entries "
                      "after it are ignored",
                      name, text, entry + 1, token, gpus));
      return;
    }
    at = comma + 1;
  }
}
}  // namespace

Runtime::Runtime() {
  drivers_ = make_builtin_drivers();
  const auto& settings = env::settings();
  std::vector<Ref<Device>> gpus, cpus;
  // Per GPU agent: its driver applies CUDA_VISIBLE_DEVICES itself (libcuda does),
  // so weft must not filter it a second time.
  std::vector<bool> filtered_by_driver;
  for (auto& driver : drivers_) {
    auto found = driver->devices();
    log::info(log::kInit, "driver {}: {} agent(s); {}", driver->name(), found.size(),
              driver->status_note());
    for (auto& d : found) {
      if (d->kind() == AgentKind::kCpu) {
        cpus.push_back(d);
      } else {
        gpus.push_back(d);
        filtered_by_driver.push_back(driver->applies_cuda_visible_devices());
        any_gpu_ = true;
      }
    }
  }
  // HIP_VISIBLE_DEVICES selects among all GPU agents. CUDA_VISIBLE_DEVICES, AMD's
  // alias for it, applies (when HIP_VISIBLE_DEVICES is unset) to the GPU agents of
  // drivers that do not apply it themselves. The CPU agent is weft's own and is
  // hidden with WEFT_CPU_AGENT=0 instead.
  std::vector<Ref<Device>> ordered;
  if (settings.visible_devices) {
    for (int index : env::parse_visible_list(*settings.visible_devices, int(gpus.size())))
      ordered.push_back(gpus[index]);
    warn_if_truncated("HIP_VISIBLE_DEVICES", *settings.visible_devices, gpus.size());
  } else if (settings.cuda_visible_devices) {
    std::vector<Ref<Device>> others;
    for (size_t i = 0; i < gpus.size(); ++i)
      if (!filtered_by_driver[i]) others.push_back(gpus[i]);
    for (int index : env::parse_visible_list(*settings.cuda_visible_devices, int(others.size())))
      ordered.push_back(others[index]);
    // With no GPU left for weft to filter (every one came from libcuda, which applied
    // the list already), a warning would call a valid list wrong.
    if (!others.empty())
      warn_if_truncated("CUDA_VISIBLE_DEVICES", *settings.cuda_visible_devices, others.size());
    for (size_t i = 0; i < gpus.size(); ++i)
      if (filtered_by_driver[i]) ordered.push_back(gpus[i]);
  } else {
    ordered = gpus;
  }
  ordered.insert(ordered.end(), cpus.begin(), cpus.end());
  for (auto& d : ordered)
    devices_.push_back(std::make_unique<DeviceState>(int(devices_.size()), d));
  if (!cpus.empty()) process_registry::register_this_process();  // hip-smi lists CPU agent users
  if (devices_.empty())
    log::error("no agents found: every device call will fail with hipErrorNoDevice");
  fork_guard::arm();  // from now on a fork()ed child must not use these agents
}

}  // namespace weft
