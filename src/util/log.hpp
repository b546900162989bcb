// SPDX-License-Identifier: MIT
// Logging through fmt to stderr, filtered by AMD_LOG_LEVEL (or WEFT_LOG_LEVEL):
// 0 off, 1 errors, 2 warnings, 3 info, 4 debug. Thread-safe; each message is
// written with one call so lines from different threads never interleave.
#pragma once

#include <fmt/core.h>

#include <cstdint>
#include <string_view>

namespace weft::log {

enum class Level { kOff = 0, kError = 1, kWarning = 2, kInfo = 3, kDebug = 4 };

// The level in effect (kOff while logging is disabled with set_enabled(false)).
Level level();
void write(Level level, std::string_view message);

// Run-time control, for hipExtSetLoggingParams / hipExtEnableLogging /
// hipExtDisableLogging. set_level clamps to 0..4. The mask (AMD_LOG_MASK's
// categories) is stored for those who filter by it. set_enabled(false) silences
// every line without forgetting the level; set_enabled(true) restores it (and,
// when the level is 0, turns on level 3 so "enable" is never a no-op).
void set_level(int level);
void set_mask(uint32_t categories);
uint32_t mask();
void set_enabled(bool on);
bool is_enabled();

template <typename... Args>
void at(Level lvl, fmt::format_string<Args...> format, Args&&... args) {
  if (static_cast<int>(lvl) > static_cast<int>(level())) return;
  write(lvl, fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void error(fmt::format_string<Args...> f, Args&&... a) { at(Level::kError, f, std::forward<Args>(a)...); }
template <typename... Args>
void warning(fmt::format_string<Args...> f, Args&&... a) { at(Level::kWarning, f, std::forward<Args>(a)...); }
template <typename... Args>
void info(fmt::format_string<Args...> f, Args&&... a) { at(Level::kInfo, f, std::forward<Args>(a)...); }
template <typename... Args>
void debug(fmt::format_string<Args...> f, Args&&... a) { at(Level::kDebug, f, std::forward<Args>(a)...); }

}  // namespace weft::log
