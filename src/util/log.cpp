// SPDX-License-Identifier: MIT
#include "util/log.hpp"

#include "util/env.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>

namespace weft::log {

namespace {
// Atomics read relaxed: the level sits on hot paths, and a change only needs to
// be seen eventually by other threads.
std::atomic<int>& level_slot() {
  static std::atomic<int> slot{env::settings().log_level};
  return slot;
}
std::atomic<bool> g_disabled{false};
std::atomic<uint32_t> g_mask{0x7FFFFFFF};  // AMD's default: every category
}  // namespace

Level level() {
  if (g_disabled.load(std::memory_order_relaxed)) return Level::kOff;
  return static_cast<Level>(level_slot().load(std::memory_order_relaxed));
}

void set_level(int lvl) { level_slot().store(std::clamp(lvl, 0, 4), std::memory_order_relaxed); }
void set_mask(uint32_t categories) { g_mask.store(categories, std::memory_order_relaxed); }
uint32_t mask() { return g_mask.load(std::memory_order_relaxed); }
void set_enabled(bool on) {
  if (on && level_slot().load(std::memory_order_relaxed) == 0) set_level(static_cast<int>(Level::kInfo));
  g_disabled.store(!on, std::memory_order_relaxed);
}
bool is_enabled() { return !g_disabled.load(std::memory_order_relaxed); }

void write(Level lvl, std::string_view message) {
  static constexpr const char* kTags[] = {"", "error", "warning", "info", "debug"};
  std::string line = fmt::format(":{}:weft[{}] {}\n", static_cast<int>(lvl),
                                 kTags[static_cast<int>(lvl)], message);
  // One write(2) per line keeps concurrent messages whole.
  ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

}  // namespace weft::log
