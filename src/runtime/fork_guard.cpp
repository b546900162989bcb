// SPDX-License-Identifier: MIT
#include "runtime/fork_guard.hpp"

#include "runtime/thread_state.hpp"

#include <weft/common/log.hpp>

#include <pthread.h>
#include <unistd.h>

#include <mutex>

namespace weft::fork_guard {

std::atomic<bool> g_in_forked_child{false};

namespace {
std::atomic<bool> g_explained{false};
void mark_child() { g_in_forked_child.store(true, std::memory_order_relaxed); }
}  // namespace

void arm() {
  static std::once_flag once;
  std::call_once(once, [] { pthread_atfork(nullptr, nullptr, &mark_child); });
}

hipError_t refuse(const char* api_name) {
  ThreadState& ts = thread_state();
  ts.last_call = hipErrorNotInitialized;
  ts.last_error = hipErrorNotInitialized;
  if (!g_explained.exchange(true))
    log::write(
        log::Level::kError,
        fmt::format(
            "{} failed: hipErrorNotInitialized: weft was initialised before fork(): this child "
            "(pid {}) has none of the parent's HIP agent threads or device contexts, so every HIP "
            "call here returns hipErrorNotInitialized; call HIP only in the parent, or fork before "
            "the first HIP call, or exec",
            api_name, static_cast<long>(getpid())));
  return hipErrorNotInitialized;
}

}  // namespace weft::fork_guard
