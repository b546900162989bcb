// SPDX-License-Identifier: MIT
#include "runtime/thread_state.hpp"

#include "runtime/runtime.hpp"

namespace weft {

ThreadState::~ThreadState() {
  // The thread's default streams die with it; their queued work still completes.
  for (auto& stream : per_thread_streams)
    if (stream) stream->device().remove_stream(stream.get());
}

ThreadState& thread_state() {
  thread_local ThreadState state;
  return state;
}

}  // namespace weft
