// SPDX-License-Identifier: MIT
// API slices: one "X" event per outermost HIP call of a thread.
#include "trace/session.hpp"
#include "trace/trace.hpp"

#include <pthread.h>
#include <unistd.h>

#include <fmt/format.h>

#include <string>

namespace weft::trace {

namespace {
// The open API slice of this thread (at most one: only the outermost call is a slice).
thread_local bool t_span_open = false;
thread_local uint32_t t_span_epoch = 0;
thread_local const char* t_span_name = nullptr;
thread_local uint64_t t_span_begin_ns = 0;
thread_local std::string t_span_args;
thread_local bool t_thread_named = false;

// Names this host thread's track once, when it makes its first traced call.
void name_this_thread() {
  if (t_thread_named) return;
  t_thread_named = true;
  uint32_t tid = this_thread_tid();
  char comm[32] = {};
  pthread_getname_np(pthread_self(), comm, sizeof comm);
  bool main_thread = tid == static_cast<uint32_t>(getpid());
  name_track(tid, main_thread ? 0 : 1,
             fmt::format("{} {} ({})", main_thread ? "main thread" : "host thread", tid, comm));
}
}  // namespace

bool api_slice_open_on_this_thread() noexcept { return t_span_open; }

OpenSpan open_span_on_this_thread() noexcept { return OpenSpan{t_span_open, t_span_epoch}; }

bool open_api_slice(const char* name, std::string args) noexcept {
  if (t_span_open) return false;
  t_span_open = true;
  t_span_epoch = current_epoch();
  t_span_name = name;
  t_span_args = std::move(args);
  t_span_begin_ns = op_clock_ns();
  return true;
}

void close_api_slice(hipError_t result) noexcept {
  uint64_t end = op_clock_ns();
  t_span_open = false;
  try {
    name_this_thread();
    Record r;
    r.kind = Record::Kind::kApi;
    r.epoch = t_span_epoch;
    r.tid = this_thread_tid();
    r.begin_ns = t_span_begin_ns;
    r.end_ns = end;
    r.category = "api";
    r.api_name = t_span_name;
    r.result = result;
    r.args = std::move(t_span_args);
    push(std::move(r));
  } catch (...) {
    count_dropped();  // out of memory: counted like a full buffer
  }
  t_span_args = std::string();  // a moved-from string may keep its buffer
}

}  // namespace weft::trace
