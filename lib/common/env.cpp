// SPDX-License-Identifier: MIT
#include <weft/common/env.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string_view>

namespace weft::env {
namespace {

std::optional<long> read_long(const char* name) {
  const char* text = std::getenv(name);
  if (!text || !*text) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  long value = std::strtol(text, &end, 0);
  if (errno != 0 || *end != '\0') return std::nullopt;
  return value;
}

Settings load() {
  Settings s;
  if (auto v = read_long("WEFT_LOG_LEVEL")) s.log_level = static_cast<int>(*v);
  else if (auto a = read_long("AMD_LOG_LEVEL")) s.log_level = static_cast<int>(*a);
  s.log_level = std::clamp(s.log_level, 0, 4);
  if (const char* v = std::getenv("HIP_VISIBLE_DEVICES")) s.visible_devices = v;
  if (const char* c = std::getenv("CUDA_VISIBLE_DEVICES")) s.cuda_visible_devices = c;
  if (auto v = read_long("HIP_LAUNCH_BLOCKING")) s.launch_blocking = *v != 0;
  if (auto v = read_long("AMD_SERIALIZE_KERNEL")) s.launch_blocking = s.launch_blocking || (*v & 2);
  if (auto v = read_long("WEFT_CPU_AGENT")) s.cpu_agent = *v != 0;
  if (auto v = read_long("WEFT_CPU_WORKERS"); v && *v > 0) s.cpu_workers = static_cast<unsigned>(*v);
  if (auto v = read_long("WEFT_CPU_STACK_SIZE"); v && *v >= 16384)
    s.cpu_fiber_stack_bytes = static_cast<size_t>(*v);
  return s;
}

}  // namespace

const Settings& settings() {
  static const Settings s = load();
  return s;
}

std::vector<int> parse_visible_list(const std::string& text, int count) {
  std::vector<int> out;
  std::string_view rest(text);
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string token(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    char* end = nullptr;
    long index = std::strtol(token.c_str(), &end, 10);
    if (token.empty() || *end != '\0' || index < 0 || index >= count) break;
    if (std::find(out.begin(), out.end(), index) != out.end()) continue;  // duplicates dropped
    out.push_back(static_cast<int>(index));
  }
  return out;
}

}  // namespace weft::env
