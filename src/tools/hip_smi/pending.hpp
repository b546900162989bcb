// SPDX-License-Identifier: MIT
// A device query running on its own thread, waited for against a deadline.
// hip-smi never blocks on a device: a query that misses the deadline keeps
// running detached (its result lands in shared state nobody reads any more) and
// the agent is reported as not responding. The process ends with _exit, so a
// stuck thread never holds it up (main.cpp).
// Thread-safe: one thread fills the value, any thread may wait.
#pragma once

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

namespace weft::smi {

using Clock = std::chrono::steady_clock;

template <typename R>
class Pending {
 public:
  Pending() = default;

  // Starts `fn` on a new detached thread.
  static Pending start(std::function<R()> fn) {
    Pending p;
    p.state_ = std::make_shared<State>();
    auto state = p.state_;
    try {
      std::thread([state, fn = std::move(fn)]() mutable {
        std::optional<R> value;
        std::string error;
        try {
          value = fn();
        } catch (const std::exception& e) {
          error = e.what();
        } catch (...) {
          error = "unknown exception";
        }
        std::lock_guard<std::mutex> lock(state->mutex);
        state->value = std::move(value);
        state->error = std::move(error);
        state->done = true;
        state->cv.notify_all();
      }).detach();
    } catch (const std::system_error& e) {
      std::lock_guard<std::mutex> lock(state->mutex);
      state->error = std::string("cannot start a query thread: ") + e.what();
      state->done = true;
    }
    return p;
  }

  bool valid() const { return state_ != nullptr; }

  // True once the query finished (successfully or not) before `deadline`.
  bool wait_until(Clock::time_point deadline) const {
    if (!state_) return false;
    std::unique_lock<std::mutex> lock(state_->mutex);
    return state_->cv.wait_until(lock, deadline, [&] { return state_->done; });
  }
  bool done() const { return wait_until(Clock::time_point::min()); }

  // After done(): the value, or null when the query threw (see error()).
  const R* value() const { return state_ && state_->value ? &*state_->value : nullptr; }
  std::string error() const {
    if (!state_) return {};
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->error;
  }

 private:
  struct State {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    std::optional<R> value;
    std::string error;
  };
  std::shared_ptr<State> state_;
};

}  // namespace weft::smi
