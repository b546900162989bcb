// SPDX-License-Identifier: MIT
#include <weft/common/log.hpp>

#include <weft/common/env.hpp>

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <mutex>
#include <set>
#include <string>

namespace weft::log {
namespace {

struct State {
  std::atomic<int> level{0};
  std::atomic<uint32_t> mask{kDefaultMask};
  std::atomic<bool> on{true};

  // level while on, 0 while off: what level() reads.
  void publish() {
    detail::effective_level.store(
        on.load(std::memory_order_relaxed) ? level.load(std::memory_order_relaxed) : 0,
        std::memory_order_relaxed);
  }
};

// Built at first use from the environment; the settings' own complaints (invalid
// values) are written here, after the level is known, since the parser cannot
// log without asking for the level it is computing.
State& state() {
  static State* s = [] {
    auto* st = new State;  // never destroyed: threads may log during exit
    const env::Settings& settings = env::settings();
    st->level.store(settings.log_level, std::memory_order_relaxed);
    st->mask.store(settings.log_mask, std::memory_order_relaxed);
    st->publish();
    // Complaints about settings also show when no level was chosen at all: the
    // user set the variable and should hear that it was not taken.
    if (settings.log_level >= int(Level::kWarning) || !settings.log_level_set)
      for (const std::string& w : settings.warnings) write(Level::kWarning, kInit, w);
    return st;
  }();
  return *s;
}

long this_thread_id() {
  // The kernel's thread id: what top -H, gdb and perf show.
  thread_local const long tid = static_cast<long>(::syscall(SYS_gettid));
  return tid;
}

uint64_t now_us() {
  // Monotonic, as AMD's `us` column: differences between lines are durations.
  using namespace std::chrono;
  return uint64_t(duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count());
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

}  // namespace

namespace detail {
constinit std::atomic<int> effective_level{-1};

int load_level() {
  state();  // reads the environment once and publishes the level
  return effective_level.load(std::memory_order_relaxed);
}
}  // namespace detail

uint32_t mask() { return state().mask.load(std::memory_order_relaxed); }

bool enabled(Level lvl, uint32_t category) {
  if (static_cast<int>(lvl) > static_cast<int>(level())) return false;
  return lvl <= Level::kWarning || (mask() & category) != 0;
}

void set_level(int lvl) {
  State& s = state();
  s.level.store(std::clamp(lvl, 0, 5), std::memory_order_relaxed);
  s.publish();
}
void set_mask(uint32_t categories) { state().mask.store(categories, std::memory_order_relaxed); }

void set_enabled(bool on) {
  State& s = state();
  if (on && s.level.load(std::memory_order_relaxed) == 0)
    s.level.store(int(Level::kInfo), std::memory_order_relaxed);
  s.on.store(on, std::memory_order_relaxed);
  s.publish();
}

bool is_enabled() { return state().on.load(std::memory_order_relaxed); }

std::string_view category_name(uint32_t category) {
  static constexpr std::string_view kNames[] = {
      "api", "cmd",  "wait", "aql",  "queue", "sig",  "lock", "kern", "copy", "copy2",
      "res", "init", "misc", "aql2", "code",  "cmd2", "loc",  "mem",  "pool", "ts"};
  if (category == 0) return "misc";
  unsigned bit = unsigned(std::countr_zero(category));
  return bit < std::size(kNames) ? kNames[bit] : "misc";
}

std::string format_line(Level lvl, uint32_t category, std::string_view message, uint64_t time_us,
                        long pid, long tid) {
  // AMD's shape (`:3:hip_memory.cpp :123 : 0001234567 us: [pid:.. tid:..] msg`), with
  // the category in place of the source file and pid/tid on every level.
  return fmt::format(":{}:weft:{:<5}: {:010} us: [pid:{} tid:{}] {}\n", static_cast<int>(lvl),
                     category_name(category), time_us, pid, tid, message);
}

void write(Level lvl, uint32_t category, std::string_view message) {
  std::string line =
      format_line(lvl, category, message, now_us(), long(::getpid()), this_thread_id());
  // One write(2) per line keeps concurrent messages whole.
  ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

uint32_t api_category(std::string_view name) {
  if (contains(name, "Graph")) return contains(name, "Launch") ? uint32_t(kCommand) : 0u;
  if (contains(name, "Launch") || starts_with(name, "hipConfigureCall")) return kKernel;
  if (starts_with(name, "hipMemcpy") || starts_with(name, "hipMemset") ||
      starts_with(name, "hipMemPrefetch"))
    return kCopy;
  if (starts_with(name, "hipMemPool") || starts_with(name, "hipMallocFromPool") ||
      (contains(name, "Async") && (starts_with(name, "hipMalloc") || starts_with(name, "hipFree"))))
    return kMemoryPool;
  if (starts_with(name, "hipMalloc") || starts_with(name, "hipFree") ||
      starts_with(name, "hipHostMalloc") || starts_with(name, "hipHostFree") ||
      starts_with(name, "hipHostAlloc") || starts_with(name, "hipHostRegister") ||
      starts_with(name, "hipHostUnregister") || starts_with(name, "hipExtMalloc") ||
      starts_with(name, "hipMemAlloc") || starts_with(name, "hipMemCreate") ||
      starts_with(name, "hipMemRelease") || starts_with(name, "hipMemMap") ||
      starts_with(name, "hipMemUnmap") || starts_with(name, "hipMemAddress"))
    return kMemory;
  if (contains(name, "Synchronize") || contains(name, "Query") ||
      starts_with(name, "hipStreamWait"))
    return kWait;
  if (starts_with(name, "hipModule") || starts_with(name, "__hipRegister") ||
      starts_with(name, "__hipUnregister"))
    return kCode;
  if (name == "hipInit" || name == "hipDeviceReset") return kInit;
  return 0;
}

void warn_once(std::string_view key, std::string_view message) {
  // Cold path (a misconfigured setting): a plain mutex is fine here.
  static std::mutex mutex;
  static auto* seen = new std::set<std::string, std::less<>>;
  {
    std::lock_guard lock(mutex);
    if (!seen->emplace(key).second) return;
  }
  if (enabled(Level::kWarning, kInit) || !env::settings().log_level_set)
    write(Level::kWarning, kInit, message);
}

}  // namespace weft::log
