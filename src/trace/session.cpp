// SPDX-License-Identifier: MIT
// The trace's buffers, its file and its windows (see session.hpp, docs/trace.md).
//
// The file is valid JSON after every write: the header is written when tracing
// starts, and each write (hipProfilerStop, exit) appends its events where the
// trailer (otherData, closing brackets) was, then writes the trailer again.
#include "trace/session.hpp"

#include "trace/json_writer.hpp"
#include "trace/trace.hpp"

#include <weft/common/log.hpp>

#include <weft/driver/op_observer.hpp>

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace weft::trace {

std::atomic<bool> g_recording{false};

namespace {

constexpr size_t kDefaultMaxEvents = size_t(1) << 18;  // about 60 MB of records
constexpr size_t kWriteChunk = size_t(1) << 20;        // bytes rendered before each fwrite

struct ThreadBuffer {
  std::mutex mutex;
  std::vector<Record> records;
  // False once the owning thread exited: a new thread may take the buffer over.
  // Sharing one is harmless (records carry their thread id; the lock orders pushes).
  std::atomic<bool> owned{true};
};

struct Session {
  std::string path;
  size_t max_events = kDefaultMaxEvents;
  uint64_t origin_ns = 0;
  int pid = 0;
  std::string process_name;

  std::atomic<size_t> buffered{0};  // records waiting in all buffers
  std::atomic<uint64_t> dropped{0};
  std::atomic<uint32_t> epoch{0};
  std::atomic<uint64_t> flows{0};

  std::mutex buffers_mutex;  // the list below; before any buffer's own lock
  std::vector<ThreadBuffer*> buffers;

  std::mutex names_mutex;  // a leaf
  std::vector<TrackName> names;
  std::unordered_set<uint32_t> named;

  // Writes and window changes. Order: write_mutex → buffers_mutex → a buffer's lock.
  std::mutex write_mutex;
  FILE* file = nullptr;
  long events_end = 0;     // where the trailer starts, i.e. where the next events go
  bool any_event = false;  // an event was written (the next one needs a comma)
  size_t names_written = 0;
  bool program_windows = false;  // the program called hipProfilerStart or Stop
  bool wrote_window = false;     // a write happened (the first Start then keeps it)
  bool window_open = true;       // the implicit window runs from process start
  unsigned windows = 1;
  bool closed = false;
};

Session* g_session = nullptr;  // set by the library constructor, never freed

struct BufferLease {
  ThreadBuffer* buffer = nullptr;
  ~BufferLease() {
    if (buffer) buffer->owned.store(false, std::memory_order_release);
  }
};
thread_local BufferLease t_lease;

ThreadBuffer& this_thread_buffer(Session& s) {
  if (t_lease.buffer) return *t_lease.buffer;
  std::lock_guard lock(s.buffers_mutex);
  for (ThreadBuffer* b : s.buffers) {
    bool expected = false;
    if (b->owned.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
      t_lease.buffer = b;
      return *b;
    }
  }
  s.buffers.push_back(new ThreadBuffer());
  t_lease.buffer = s.buffers.back();
  return *t_lease.buffer;
}

void write_text(Session& s, const std::string& text) {
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), s.file) != text.size())
    log::error("WEFT_TRACE: writing {} failed: {}", s.path, std::strerror(errno));
}

// Writes the trailer at the end of the events and cuts the file there.
void write_trailer(Session& s) {
  std::string t = fmt::format(
      "\n],\n\"otherData\":{{\"producer\":\"weft\",\"clock\":\"CLOCK_MONOTONIC\",\"max_events\":{},"
      "\"dropped_events\":{},\"windows\":{}}}}}\n",
      s.max_events, s.dropped.load(std::memory_order_relaxed), s.windows);
  write_text(s, t);
  std::fflush(s.file);
  if (ftruncate(fileno(s.file), std::ftell(s.file)) != 0)
    log::error("WEFT_TRACE: truncating {} failed: {}", s.path, std::strerror(errno));
}

// Appends every buffered record of the current epoch. Requires write_mutex.
void write_pending(Session& s) {
  if (!s.file || s.closed) return;
  if (getpid() != s.pid) return;  // a fork()ed child must not write its parent's file
  WriteContext ctx{s.pid, s.origin_ns};
  std::fseek(s.file, s.events_end, SEEK_SET);
  bool first = !s.any_event;
  std::string out;
  {
    std::lock_guard lock(s.names_mutex);
    if (s.names_written == 0) append_process_name(out, s.process_name, ctx, first);
    for (; s.names_written < s.names.size(); ++s.names_written)
      append_track_name(out, s.names[s.names_written], ctx, first);
  }
  uint32_t epoch = s.epoch.load(std::memory_order_relaxed);
  std::vector<ThreadBuffer*> buffers;
  {
    std::lock_guard lock(s.buffers_mutex);
    buffers = s.buffers;
  }
  std::vector<Record> taken;
  for (ThreadBuffer* b : buffers) {
    {
      std::lock_guard lock(b->mutex);
      taken.swap(b->records);
    }
    s.buffered.fetch_sub(taken.size(), std::memory_order_relaxed);
    for (const Record& r : taken) {
      if (r.epoch != epoch) continue;  // from before the first window
      append_record(out, r, ctx, first);
      if (out.size() >= kWriteChunk) {
        write_text(s, out);
        out.clear();
      }
    }
    taken.clear();
  }
  write_text(s, out);
  s.any_event = !first;
  s.events_end = std::ftell(s.file);
  write_trailer(s);
}

// Drops everything buffered (the first hipProfilerStart). Requires write_mutex.
void discard_pending(Session& s) {
  // In-flight records of before (open API calls, queued ops) are skipped when written.
  uint32_t epoch = s.epoch.fetch_add(1, std::memory_order_relaxed) + 1;
  std::lock_guard lock(s.buffers_mutex);
  for (ThreadBuffer* b : s.buffers) {
    std::lock_guard buffer_lock(b->mutex);
    size_t before = b->records.size();
    std::erase_if(b->records, [&](const Record& r) { return r.epoch != epoch; });
    s.buffered.fetch_sub(before - b->records.size(), std::memory_order_relaxed);
  }
  s.dropped.store(0, std::memory_order_relaxed);
}

void write_at_exit() {
  Session* s = g_session;
  std::lock_guard lock(s->write_mutex);
  g_recording.store(false, std::memory_order_relaxed);
  write_pending(*s);
  if (s->file && getpid() == s->pid) {
    std::fclose(s->file);
    s->file = nullptr;
  }
  s->closed = true;
}

size_t max_events_setting() {
  const char* text = std::getenv("WEFT_TRACE_MAX_EVENTS");
  if (!text || !*text) return kDefaultMaxEvents;
  size_t value = 0;
  std::string_view v(text);
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (ec != std::errc() || end != v.data() + v.size() || value == 0) {
    log::warning("WEFT_TRACE_MAX_EVENTS={} is not a positive number of events; using {}", v,
                 kDefaultMaxEvents);
    return kDefaultMaxEvents;
  }
  return value;
}

// "%p" in WEFT_TRACE becomes the process id, so processes that share the
// environment (a launcher and its children) write separate files.
std::string expand_path(std::string_view pattern) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == 'p') {
      out += std::to_string(getpid());
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

std::string read_process_name() {
  char comm[64] = {};
  if (FILE* f = std::fopen("/proc/self/comm", "r")) {
    if (std::fgets(comm, sizeof comm, f)) comm[std::strcspn(comm, "\n")] = '\0';
    std::fclose(f);
  }
  return fmt::format("{} (pid {}, weft)", comm, getpid());
}

// Runs when libamdhip64 is loaded, before the program's first HIP call, so
// that call is traced too; the exit handler registered here runs after the
// program's own static destructors (registered later), which may still call HIP.
__attribute__((constructor)) void start_from_environment() {
  const char* pattern = std::getenv("WEFT_TRACE");
  if (!pattern || !*pattern) return;
  auto* s = new Session();
  s->path = expand_path(pattern);
  s->max_events = max_events_setting();
  s->origin_ns = op_clock_ns();
  s->pid = getpid();
  s->process_name = read_process_name();
  s->file = std::fopen(s->path.c_str(), "w");
  if (!s->file) {
    log::error("WEFT_TRACE={}: cannot open {}: {}; tracing is off", pattern, s->path,
               std::strerror(errno));
    delete s;
    return;
  }
  write_text(*s, "{\"displayTimeUnit\":\"ns\",\n\"traceEvents\":[\n");
  s->events_end = std::ftell(s->file);
  write_trailer(*s);
  g_session = s;
  std::atexit(write_at_exit);
  g_recording.store(true, std::memory_order_relaxed);
}

}  // namespace

void push(Record&& record) noexcept {
  Session* s = g_session;
  if (!s) return;
  if (s->buffered.fetch_add(1, std::memory_order_relaxed) >= s->max_events) {
    s->buffered.fetch_sub(1, std::memory_order_relaxed);
    s->dropped.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  try {
    ThreadBuffer& b = this_thread_buffer(*s);
    std::lock_guard lock(b.mutex);
    b.records.push_back(std::move(record));
  } catch (...) {
    s->buffered.fetch_sub(1, std::memory_order_relaxed);
    s->dropped.fetch_add(1, std::memory_order_relaxed);
  }
}

void count_dropped() noexcept {
  if (Session* s = g_session) s->dropped.fetch_add(1, std::memory_order_relaxed);
}

void name_track(uint32_t tid, int sort_index, std::string name) {
  Session* s = g_session;
  if (!s) return;
  std::lock_guard lock(s->names_mutex);
  if (s->named.insert(tid).second) s->names.push_back(TrackName{tid, sort_index, std::move(name)});
}

uint32_t this_thread_tid() noexcept {
  thread_local uint32_t tid = static_cast<uint32_t>(syscall(SYS_gettid));
  return tid;
}

uint32_t current_epoch() noexcept {
  Session* s = g_session;
  return s ? s->epoch.load(std::memory_order_relaxed) : 0;
}

uint64_t next_flow_id() noexcept {
  Session* s = g_session;
  return s ? s->flows.fetch_add(1, std::memory_order_relaxed) + 1 : 0;
}

void profiler_start() {
  Session* s = g_session;
  if (!s) return;
  std::lock_guard lock(s->write_mutex);
  if (s->closed) return;
  // The implicit window (from process start) ends unwritten: the program chose its own.
  if (!s->program_windows && !s->wrote_window) {
    discard_pending(*s);
    s->windows = 0;
    s->window_open = false;
  }
  s->program_windows = true;
  if (!s->window_open) ++s->windows;
  s->window_open = true;
  g_recording.store(true, std::memory_order_relaxed);
}

void profiler_stop() {
  Session* s = g_session;
  if (!s) return;
  std::lock_guard lock(s->write_mutex);
  if (s->closed) return;
  g_recording.store(false, std::memory_order_relaxed);
  s->program_windows = true;
  s->window_open = false;
  s->wrote_window = true;
  write_pending(*s);
}

}  // namespace weft::trace
