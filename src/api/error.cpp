// SPDX-License-Identifier: MIT
// Error API. HIP 7 semantics: the last error holds the most recent failure of
// the thread and hipGetLastError clears it; hipExtGetLastError returns the
// result of the most recent call, success included, as HIP 6 did.
#include "api/api.hpp"
#include "runtime/error_names.hpp"

using namespace weft;

namespace {
// These three return a stored code and must not run through api::call (it would
// overwrite the slots they read), so their AMD_LOG_LEVEL=3 line is written here.
hipError_t logged(const char* name, hipError_t value) {
  if (log::enabled(log::Level::kInfo, log::kApi)) [[unlikely]]
    log::write(log::Level::kInfo, log::kApi,
               fmt::format("{} (  ) = {} ({})", name, error_name(value), static_cast<int>(value)));
  return value;
}
}  // namespace

WEFT_EXPORT hipError_t hipGetLastError(void) {
  ThreadState& ts = thread_state();
  hipError_t error = ts.last_error;
  ts.last_error = hipSuccess;
  return logged("hipGetLastError", error);
}

WEFT_EXPORT hipError_t hipPeekAtLastError(void) {
  return logged("hipPeekAtLastError", thread_state().last_error);
}

WEFT_EXPORT hipError_t hipExtGetLastError(void) {
  ThreadState& ts = thread_state();
  hipError_t error = ts.last_call;
  ts.last_call = hipSuccess;
  return logged("hipExtGetLastError", error);
}

WEFT_EXPORT const char* hipGetErrorName(hipError_t error) { return error_name(error); }

WEFT_EXPORT const char* hipGetErrorString(hipError_t error) { return error_string(error); }

WEFT_EXPORT hipError_t hipDrvGetErrorName(hipError_t error, const char** name) {
  return api::call(
      "hipDrvGetErrorName",
      [&] {
    if (!name) return api::invalid_value("null output pointer");
    *name = error_name(error);
    return Status();
      },
      error, name);
}

WEFT_EXPORT hipError_t hipDrvGetErrorString(hipError_t error, const char** text) {
  return api::call(
      "hipDrvGetErrorString",
      [&] {
    if (!text) return api::invalid_value("null output pointer");
    *text = error_string(error);
    return Status();
      },
      error, text);
}

// Called by the generated weak stubs of functions weft does not implement yet.
extern "C" void weft_log_unsupported(const char* name) {
  log::error("{} is not implemented by weft; returning hipErrorNotSupported", name);
}
