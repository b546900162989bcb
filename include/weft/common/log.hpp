// SPDX-License-Identifier: MIT
// Logging through fmt to stderr, filtered by AMD_LOG_LEVEL (or WEFT_LOG_LEVEL):
// 0 off, 1 errors, 2 warnings, 3 info (every API call), 4 debug, 5 extra debug;
// and by AMD_LOG_MASK, a set of categories with AMD's bit values (docs/logging.md).
// Every line starts with `:<level>:weft:<category>: <time> us: [pid:P tid:T]`.
// Thread-safe; each line is written with one write(2) so lines from different
// threads never interleave. Level and mask can change at run time
// (hipExtSetLoggingParams, hipExtEnable/DisableLogging): they are atomics, read
// relaxed, so a disabled log costs one load and one predictable branch.
#pragma once

#include <fmt/core.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace weft::log {

enum class Level { kOff = 0, kError = 1, kWarning = 2, kInfo = 3, kDebug = 4, kExtraDebug = 5 };

// AMD_LOG_MASK bits, with the values AMD's runtime gives them, so a mask written
// for AMD's runtime selects the same kinds of lines here.
enum Category : uint32_t {
  kApi = 0x1,           // every API call with its arguments and result
  kCommand = 0x2,       // kernels, copies and barriers submitted to a queue
  kWait = 0x4,          // synchronization, waiting for work to finish
  kAql = 0x8,           // AQL packets (HSA driver)
  kQueue = 0x10,        // queue creation and contents
  kSignal = 0x20,       // signals
  kLock = 0x40,         // locks
  kKernel = 0x80,       // kernel launches and their arguments
  kCopy = 0x100,        // copies and fills
  kCopyDetail = 0x200,  // copy details (staging, chunks)
  kResource = 0x400,    // resource use with a performance cost
  kInit = 0x800,        // initialization and shutdown
  kMisc = 0x1000,       // not classified
  kAqlBytes = 0x2000,   // raw AQL packet bytes
  kCode = 0x4000,       // code objects: loading, symbols
  kCommandDetail = 0x8000,
  kLocation = 0x10000,  // (AMD: source location of the message; not used)
  kMemory = 0x20000,    // allocations
  kMemoryPool = 0x40000,
  kTimestamp = 0x80000,
};
// AMD's default when AMD_LOG_MASK is unset: everything.
inline constexpr uint32_t kDefaultMask = 0x7FFFFFFF;

namespace detail {
// The level in effect, or -1 before the environment was read: constant-initialized,
// so level() is one relaxed load on every path (api::call checks it per call).
extern std::atomic<int> effective_level;
int load_level();
}  // namespace detail

// The level in effect (kOff while logging is disabled with set_enabled(false)).
inline Level level() {
  int v = detail::effective_level.load(std::memory_order_relaxed);
  if (v < 0) [[unlikely]]
    v = detail::load_level();
  return static_cast<Level>(v);
}
uint32_t mask();
// Whether a line of this level and category is written. Errors and warnings are
// written whatever the mask (a failure is never hidden by a category choice);
// info and debug lines need their category's bit in the mask.
bool enabled(Level lvl, uint32_t category);

// Run-time control, for hipExtSetLoggingParams / hipExtEnableLogging /
// hipExtDisableLogging. set_level clamps to 0..5. set_enabled(false) silences
// every line without forgetting level and mask; set_enabled(true) restores them
// (and, when the level is 0, turns on level 3 so "enable" is never a no-op).
void set_level(int lvl);
void set_mask(uint32_t categories);
void set_enabled(bool on);
bool is_enabled();

// Writes one line (no filtering: callers check enabled() or use at()).
void write(Level lvl, uint32_t category, std::string_view message);
inline void write(Level lvl, std::string_view message) { write(lvl, kMisc, message); }

// The line write() emits, with every part given (unit tests check the format).
std::string format_line(Level lvl, uint32_t category, std::string_view message, uint64_t time_us,
                        long pid, long tid);
// The short name of the lowest category bit set ("api", "kern", "copy", ...).
std::string_view category_name(uint32_t category);

// The category of an API call's line besides kApi, from its name: launches are
// kKernel, copies and fills kCopy, allocations kMemory, waits kWait, so that
// AMD_LOG_MASK=0x80 shows only the launch calls (0 when none applies).
uint32_t api_category(std::string_view api_name);

template <typename... Args>
void at(Level lvl, uint32_t category, fmt::format_string<Args...> format, Args&&... args) {
  if (!enabled(lvl, category)) return;
  write(lvl, category, fmt::format(format, std::forward<Args>(args)...));
}
template <typename... Args>
void at(Level lvl, fmt::format_string<Args...> format, Args&&... args) {
  at(lvl, kMisc, format, std::forward<Args>(args)...);
}

template <typename... Args>
void error(fmt::format_string<Args...> f, Args&&... a) {
  at(Level::kError, f, std::forward<Args>(a)...);
}
template <typename... Args>
void warning(fmt::format_string<Args...> f, Args&&... a) {
  at(Level::kWarning, f, std::forward<Args>(a)...);
}
template <typename... Args>
void info(fmt::format_string<Args...> f, Args&&... a) {
  at(Level::kInfo, f, std::forward<Args>(a)...);
}
template <typename... Args>
void debug(fmt::format_string<Args...> f, Args&&... a) {
  at(Level::kDebug, f, std::forward<Args>(a)...);
}
// With a category (AMD_LOG_MASK bit).
template <typename... Args>
void info(Category c, fmt::format_string<Args...> f, Args&&... a) {
  at(Level::kInfo, c, f, std::forward<Args>(a)...);
}
template <typename... Args>
void debug(Category c, fmt::format_string<Args...> f, Args&&... a) {
  at(Level::kDebug, c, f, std::forward<Args>(a)...);
}

// A warning written once per process for one `key` (a setting's name): invalid
// environment values are reported at the first read, not at every use.
void warn_once(std::string_view key, std::string_view message);

}  // namespace weft::log
