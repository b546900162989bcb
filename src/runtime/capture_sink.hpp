// SPDX-License-Identifier: MIT
// The stream's one call out to stream capture. Capture itself (turning ops into
// graph nodes, the rules for calls that conflict with a capture) lives in
// src/graph, which sits above the runtime: the runtime declares this interface
// and src/graph registers its implementation, so src/runtime includes nothing
// from src/graph.
//
// The sink counts the streams that capture through stream_began_capturing() /
// stream_ended_capturing(); Stream::submit calls it only while that count is
// non-zero, so a process that never captures pays one relaxed atomic load per
// submit. The sink is installed while the library loads, before any stream can
// submit, and stays for the life of the process.
#pragma once

#include <weft/driver/op.hpp>
#include <weft/driver/status.hpp>

#include <atomic>
#include <optional>

namespace weft {

class Stream;

class CaptureSink {
 public:
  // Called by Stream::submit while any stream of the process captures (not only
  // `stream`: some rules apply to streams outside a capture, e.g. the legacy
  // stream's). Returns the submit's result when the sink took or refused `op`,
  // nullopt when the op runs normally.
  virtual std::optional<Status> intercept(Stream& stream, Op& op) = 0;

 protected:
  ~CaptureSink() = default;
};

namespace capture_hook {

namespace detail {
inline std::atomic<CaptureSink*> g_sink{nullptr};
inline std::atomic<int> g_capturing_streams{0};
}  // namespace detail

inline void install(CaptureSink& sink) { detail::g_sink.store(&sink, std::memory_order_release); }

inline void stream_began_capturing() {
  detail::g_capturing_streams.fetch_add(1, std::memory_order_relaxed);
}
inline void stream_ended_capturing() {
  detail::g_capturing_streams.fetch_sub(1, std::memory_order_relaxed);
}

// True while any stream of the process captures.
inline bool active() { return detail::g_capturing_streams.load(std::memory_order_relaxed) != 0; }

// The installed sink while any stream captures, else null.
inline CaptureSink* active_sink() {
  if (!active()) [[likely]]
    return nullptr;
  return detail::g_sink.load(std::memory_order_acquire);
}

}  // namespace capture_hook
}  // namespace weft
