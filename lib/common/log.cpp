// SPDX-License-Identifier: MIT
#include <weft/common/log.hpp>

#include <weft/common/env.hpp>

#include <unistd.h>

#include <cstdio>
#include <string>

namespace weft::log {

Level level() {
  // Read once: the level is a process setting, and this sits on hot paths.
  static const Level cached = static_cast<Level>(env::settings().log_level);
  return cached;
}

void write(Level lvl, std::string_view message) {
  static constexpr const char* kTags[] = {"", "error", "warning", "info", "debug"};
  std::string line = fmt::format(":{}:weft[{}] {}\n", static_cast<int>(lvl),
                                 kTags[static_cast<int>(lvl)], message);
  // One write(2) per line keeps concurrent messages whole.
  ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

}  // namespace weft::log
