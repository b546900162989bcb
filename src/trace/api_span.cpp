// SPDX-License-Identifier: MIT
// API slices: one "X" event per outermost HIP call of a thread.
#include "trace/session.hpp"
#include "trace/trace.hpp"

#include <pthread.h>
#include <unistd.h>

#include <fmt/format.h>

namespace weft::trace {

namespace {
thread_local bool t_span_open = false;
thread_local uint32_t t_span_epoch = 0;
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

ApiSpan::ApiSpan(const char* name) noexcept
    : name_(name), begin_ns_(op_clock_ns()), epoch_(current_epoch()) {
  t_span_open = true;
  t_span_epoch = epoch_;
}

ApiSpan::~ApiSpan() { t_span_open = false; }

bool ApiSpan::open_on_this_thread() noexcept { return t_span_open; }

OpenSpan open_span_on_this_thread() noexcept { return OpenSpan{t_span_open, t_span_epoch}; }

void ApiSpan::finish(hipError_t result, std::string args) noexcept {
  uint64_t end = op_clock_ns();
  try {
    name_this_thread();
    Record r;
    r.kind = Record::Kind::kApi;
    r.epoch = epoch_;
    r.tid = this_thread_tid();
    r.begin_ns = begin_ns_;
    r.end_ns = end;
    r.category = "api";
    r.api_name = name_;
    r.result = result;
    r.args = std::move(args);
    push(std::move(r));
  } catch (...) {
    count_dropped();  // out of memory: counted like a full buffer
  }
}

}  // namespace weft::trace
