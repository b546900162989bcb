// SPDX-License-Identifier: MIT
// The API boundary. Every exported HIP function is `extern "C" noexcept` and runs
// its body through api::call, which: checks the current device's sticky error,
// turns exceptions into HIP errors, logs each failure with the call's arguments
// (AMD_LOG_LEVEL >= 1), and is the only place that writes the last error.
#pragma once

#include "runtime/fork_guard.hpp"
#include "runtime/runtime.hpp"
#include "runtime/thread_state.hpp"
#include "trace/trace.hpp"

#include <weft/common/log.hpp>
#include <weft/driver/status.hpp>

#include <fmt/format.h>

#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <type_traits>

#define WEFT_EXPORT extern "C" __attribute__((visibility("default")))

namespace weft::api {

// The integer value of an enum argument, read without loading it as the enum
// type: C callers may pass values outside the enum, and such a load is undefined
// (UBSan flags it). Validate the integer before casting it back.
template <typename E>
int raw_value(const E& e) {
  static_assert(std::is_enum_v<E> && sizeof(E) == sizeof(int));
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

// Formats one argument for the failure log line.
template <typename T>
std::string arg_text(const T& value) {
  // A `char*` is an output buffer (hipDeviceGetName...): possibly unwritten, so
  // only its address is shown; a `const char*` is an input string.
  if constexpr (std::is_same_v<T, const char*>)
    return value ? fmt::format("\"{}\"", value) : "null";
  else if constexpr (std::is_pointer_v<T> || std::is_member_pointer_v<T>)
    return value ? fmt::format("{}", reinterpret_cast<const void*>(value)) : "null";
  else if constexpr (std::is_enum_v<T> && sizeof(T) == sizeof(int))
    return fmt::format("{}", raw_value(value));
  else if constexpr (std::is_enum_v<T>) return fmt::format("{}", static_cast<long long>(value));
  else if constexpr (std::is_arithmetic_v<T>) return fmt::format("{}", value);
  else if constexpr (std::is_same_v<T, dim3>)
    return fmt::format("{{{},{},{}}}", value.x, value.y, value.z);
  else return "<value>";
}

template <typename... Args>
std::string args_text(const Args&... args) {
  std::string out;
  ((out += (out.empty() ? "" : ", ") + arg_text(args)), ...);
  return out;
}

// Records the result as the thread's last error and logs a failure.
hipError_t finish(const char* name, const Status& status, const std::string& args);

// AMD_LOG_LEVEL >= 3: one line per call with its arguments and result (and at
// level 4 a line when the call starts, so a call that hangs shows), if
// AMD_LOG_MASK has kApi or the call's own category (log::api_category). Off,
// it costs one relaxed load and a predictable branch.
struct CallLog {
  const char* name = nullptr;  // null: this call is not logged
  uint64_t started_us = 0;

  static CallLog open(const char* api_name) {
    if (log::level() < log::Level::kInfo) [[likely]]
      return {};
    return open_enabled(api_name);
  }
  static CallLog open_enabled(const char* api_name);
  void entered(const std::string& args) const;
  void returned(const Status& status, const std::string& args) const;
};

// The current device's sticky error, if any (hipSuccess otherwise).
hipError_t sticky_error_of_current_device();
// What a call answers while the current device holds sticky error `sticky`: where the
// agent's faults lose its context (DeviceCaps::faults_lose_context) the message says
// the process must restart; elsewhere that hipDeviceReset clears it.
[[gnu::cold]] Status sticky_status(hipError_t sticky);

// WEFT_TRACE: the outermost call of a thread becomes a slice (src/trace). Off,
// this is one relaxed load and a branch, and a test of a flag at the end: the
// slice lives in thread-local storage in src/trace and the formatting of the
// arguments in a cold function, so call() stays small enough to be inlined
// into its entry point as without tracing. The slice's result is the call's,
// as call() left it in last_call.
class TracedCall {
 public:
  template <typename... Args>
  TracedCall(const char* name, const Args&... args) noexcept {
    if (trace::on()) [[unlikely]]
      open_ = open(name, args...);
  }
  ~TracedCall() {
    if (open_) [[unlikely]]
      trace::close_api_slice(thread_state().last_call);
  }
  TracedCall(const TracedCall&) = delete;
  TracedCall& operator=(const TracedCall&) = delete;

 private:
  template <typename... Args>
  [[gnu::cold, gnu::noinline]] static bool open(const char* name, const Args&... args) noexcept {
    if (trace::api_slice_open_on_this_thread()) return false;
    try {
      return trace::open_api_slice(name, args_text(args...));
    } catch (...) {  // out of memory: the call runs untraced
      return false;
    }
  }
  bool open_ = false;
};

// The body of a call, with the sticky-error check in front and exceptions
// turned into errors. The Status is built in place (no move-assignment of its
// message on the way out).
template <typename Body>
Status run_body(Body& body) noexcept {
  try {
    if (any_sticky_error()) [[unlikely]]
      if (hipError_t sticky = sticky_error_of_current_device(); sticky != hipSuccess)
        return sticky_status(sticky);
    return body();
  } catch (const std::bad_alloc&) {
    return Status(hipErrorOutOfMemory, "host memory exhausted");
  } catch (const std::exception& e) {
    return Status(hipErrorUnknown, std::string("internal exception: ") + e.what());
  } catch (...) {
    return Status(hipErrorUnknown, "internal exception");
  }
}

template <typename Body, typename... Args>
hipError_t call(const char* name, Body&& body, const Args&... args) noexcept {
  TracedCall traced(name, args...);
  if (fork_guard::in_forked_child()) [[unlikely]]
    return fork_guard::refuse(name);
  const CallLog logged = CallLog::open(name);
  if (logged.name && log::level() >= log::Level::kDebug) [[unlikely]]
    logged.entered(args_text(args...));
  const Status status = run_body(body);
  if (logged.name) [[unlikely]]
    logged.returned(status, args_text(args...));
  if (status.ok()) {
    thread_state().last_call = hipSuccess;
    return hipSuccess;
  }
  if (log::level() >= log::Level::kError) return finish(name, status, args_text(args...));
  return finish(name, status, std::string());
}

inline Status invalid_value(std::string message) {
  return Status(hipErrorInvalidValue, std::move(message));
}

// The current device of this thread (hipErrorNoDevice when there is none).
Result<DeviceState*> current_device();
// The device for an ordinal (hipErrorInvalidDevice when out of range).
Result<DeviceState*> device_at(int ordinal);

// What a NULL stream handle names: the current device's legacy null stream, or
// (the _spt entry points) the calling thread's default stream.
enum class DefaultStream { kLegacy, kPerThread };
using enum DefaultStream;

// Whether a call returns once its work is done (hipMemcpy) or once it is queued
// (hipMemcpyAsync).
enum class Blocking { kSync, kAsync };
using enum Blocking;

// Resolves a stream handle: NULL and hipStreamLegacy are the current device's
// null stream (or, with kPerThread, the thread's default stream),
// hipStreamPerThread the thread's default stream, anything else must be a live
// stream (hipErrorInvalidHandle otherwise).
Result<Ref<Stream>> resolve_stream(hipStream_t stream, DefaultStream default_stream = kLegacy);

}  // namespace weft::api
