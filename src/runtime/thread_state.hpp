// SPDX-License-Identifier: MIT
// Everything weft keeps per host thread: the current device, the last-error
// slots and the per-thread default streams (hipStreamPerThread).
#pragma once

#include "runtime/stream.hpp"

#include <hip/hip_runtime_api.h>

#include <vector>

namespace weft {

// The device a thread starts on: 0, or the first of hipSetValidDevices' list.
int initial_device();
void set_initial_device(int ordinal);

struct ThreadState {
  int device = initial_device();
  bool device_chosen = false;  // hipSetDevice was called on this thread
  // HIP 7 / CUDA semantics: only failures are stored; hipGetLastError clears.
  hipError_t last_error = hipSuccess;
  // Result of the most recent call, success included (hipExtGetLastError).
  hipError_t last_call = hipSuccess;
  std::vector<Ref<Stream>> per_thread_streams;  // by device ordinal
  // hipThreadExchangeStreamCaptureMode (a hipStreamCaptureMode; src/graph/capture.cpp).
  int capture_mode = hipStreamCaptureModeGlobal;

  ~ThreadState();
};

// The calling thread's state, built by the first call on the thread. Every
// API call reads it two or three times, so the fast path is one load: an
// initial-exec TLS pointer (a function-local thread_local costs a guard test
// and a __tls_get_addr call). libamdhip64 is already a static-TLS library
// (DF_STATIC_TLS: the CPU driver's block runner uses initial-exec TLS), so the
// 8 bytes come out of the same static TLS block a dlopen reserves for it.
extern __thread ThreadState* t_thread_state __attribute__((tls_model("initial-exec")));
ThreadState& thread_state_slow();
inline ThreadState& thread_state() {
  if (ThreadState* state = t_thread_state) [[likely]]
    return *state;
  return thread_state_slow();
}

}  // namespace weft
