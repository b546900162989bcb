// SPDX-License-Identifier: MIT
#include "runtime/thread_state.hpp"

#include "runtime/runtime.hpp"

#include <atomic>

namespace weft {

namespace {
std::atomic<int> g_initial_device{0};
}  // namespace

int initial_device() { return g_initial_device.load(std::memory_order_relaxed); }
void set_initial_device(int ordinal) { g_initial_device.store(ordinal, std::memory_order_relaxed); }

ThreadState::~ThreadState() {
  // The thread's default streams die with it; their queued work still completes.
  for (auto& stream : per_thread_streams)
    if (stream) stream->device().remove_stream(stream.get());
}

__thread ThreadState* t_thread_state __attribute__((tls_model("initial-exec"))) = nullptr;

ThreadState& thread_state_slow() {
  thread_local ThreadState state;
  t_thread_state = &state;
  return state;
}

}  // namespace weft
