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

ThreadState& thread_state();

}  // namespace weft
