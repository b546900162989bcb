// SPDX-License-Identifier: MIT
#include "api/api.hpp"

#include "runtime/error_names.hpp"

#include <chrono>

namespace weft::api {

hipError_t finish(const char* name, const Status& status, const std::string& args) {
  ThreadState& ts = thread_state();
  ts.last_call = status.code();
  // hipErrorNotReady answers a query; it is not an error (HIP 7 / CUDA rule).
  if (status.code() == hipErrorNotReady) return status.code();
  ts.last_error = status.code();
  log::at(log::Level::kError, log::kApi, "{}({}) failed: {} ({}): {}", name, args,
          error_name(status.code()), static_cast<int>(status.code()), status.message());
  return status.code();
}

namespace {
uint64_t monotonic_us() {
  using namespace std::chrono;
  return uint64_t(duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count());
}
}  // namespace

CallLog CallLog::open_enabled(const char* api_name) {
  if (!log::enabled(log::Level::kInfo, log::kApi | log::api_category(api_name))) return {};
  return CallLog{api_name, monotonic_us()};
}

void CallLog::entered(const std::string& args) const {
  log::write(log::Level::kDebug, log::kApi | log::api_category(name),
             fmt::format("{} ( {} ) ...", name, args));
}

void CallLog::returned(const Status& status, const std::string& args) const {
  uint64_t took = monotonic_us() - started_us;
  uint32_t category = log::kApi | log::api_category(name);
  if (status.ok())
    log::write(log::Level::kInfo, category,
               fmt::format("{} ( {} ) = hipSuccess : {} us", name, args, took));
  else
    log::write(
        log::Level::kInfo, category,
        fmt::format("{} ( {} ) = {} ({}) : {} us : {}", name, args, error_name(status.code()),
                    static_cast<int>(status.code()), took, status.message()));
}

hipError_t sticky_error_of_current_device() {
  Runtime& rt = Runtime::get();
  DeviceState* device = rt.device(thread_state().device);
  return device ? device->sticky_error() : hipSuccess;
}

Status sticky_status(hipError_t sticky) {
  DeviceState* device = Runtime::get().device(thread_state().device);
  if (device && device->driver_device().caps().faults_lose_context)
    return Status(sticky, fmt::format("device {} lost its context to a device fault earlier ({}); "
                                      "this agent cannot recover it, not by hipDeviceReset "
                                      "either: restart the process",
                                      device->ordinal(), error_name(sticky)));
  return Status(sticky,
                "the device is in an error state from earlier work (hipDeviceReset clears it)");
}

Result<DeviceState*> current_device() {
  Runtime& rt = Runtime::get();
  if (rt.device_count() == 0) return Status(hipErrorNoDevice, "no HIP agent is available");
  DeviceState* device = rt.device(thread_state().device);
  if (!device) return Status(hipErrorInvalidDevice, "current device is out of range");
  return device;
}

Result<DeviceState*> device_at(int ordinal) {
  Runtime& rt = Runtime::get();
  if (rt.device_count() == 0) return Status(hipErrorNoDevice, "no HIP agent is available");
  DeviceState* device = rt.device(ordinal);
  if (!device)
    return Status(hipErrorInvalidDevice, fmt::format("device {} does not exist ({} available)",
                                                     ordinal, rt.device_count()));
  return device;
}

namespace {
Result<Ref<Stream>> per_thread_stream() {
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  ThreadState& ts = thread_state();
  if (ts.per_thread_streams.size() <= size_t(device->ordinal()))
    ts.per_thread_streams.resize(device->ordinal() + 1);
  Ref<Stream>& slot = ts.per_thread_streams[device->ordinal()];
  if (!slot) {
    WEFT_ASSIGN_OR_RETURN(slot, device->create_stream(Stream::Kind::kPerThread, 0, 0));
  }
  return slot;
}
}  // namespace

Result<Ref<Stream>> resolve_stream(hipStream_t stream, DefaultStream default_stream) {
  if (stream == nullptr || stream == hipStreamLegacy) {
    if (default_stream == kPerThread) return per_thread_stream();
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    WEFT_ASSIGN_OR_RETURN(Stream * null, device->null_stream());
    return Ref<Stream>(null);
  }
  if (stream == hipStreamPerThread) return per_thread_stream();
  Ref<Stream> found = Runtime::get().streams().find(stream);
  if (!found) return Status(hipErrorInvalidHandle, "stream handle is unknown or was destroyed");
  return found;
}

}  // namespace weft::api
