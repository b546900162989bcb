// SPDX-License-Identifier: MIT
#include <weft/common/env.hpp>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace weft::env {
namespace {

// Reads one integer setting. Unset or empty: nullopt, silently. Not an integer:
// nullopt and a warning naming the fallback.
class Reader {
 public:
  Reader(const char* (*lookup)(const char*), Settings& out) : lookup_(lookup), out_(out) {}

  const char* text(const char* name) const { return lookup_(name); }

  std::optional<long> integer(const char* name, std::string_view fallback) {
    const char* text = lookup_(name);
    if (!text || !*text) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    long value = std::strtol(text, &end, 0);
    if (errno != 0 || *end != '\0') {
      invalid(name, text, "is not an integer", fallback);
      return std::nullopt;
    }
    return value;
  }

  void invalid(const char* name, std::string_view text, std::string_view why,
               std::string_view fallback) {
    std::string line = std::string(name) + "=" + std::string(text) + " " + std::string(why) +
                       "; using " + std::string(fallback);
    out_.warnings.push_back(std::move(line));
  }

 private:
  const char* (*lookup_)(const char*);
  Settings& out_;
};

void read_log(Reader& r, Settings& s) {
  const char* name = r.text("WEFT_LOG_LEVEL") ? "WEFT_LOG_LEVEL" : "AMD_LOG_LEVEL";
  if (auto v = r.integer(name, "0 (off)")) {
    s.log_level_set = true;
    if (*v < 0 || *v > 5)
      r.invalid(name, r.text(name), "is outside 0..5", std::to_string(std::clamp(*v, 0L, 5L)));
    s.log_level = static_cast<int>(std::clamp(*v, 0L, 5L));
  }
  if (auto v = r.integer("AMD_LOG_MASK", "0x7fffffff (every category)")) {
    if (*v < 0 || *v > long(UINT32_MAX))
      r.invalid("AMD_LOG_MASK", r.text("AMD_LOG_MASK"), "is not a 32-bit mask",
                "0x7fffffff (every category)");
    else s.log_mask = static_cast<uint32_t>(*v);
  }
}

void read_launch(Reader& r, Settings& s) {
  if (auto v = r.integer("HIP_LAUNCH_BLOCKING", "0 (asynchronous launches)"))
    s.launch_blocking = *v != 0;
  if (auto v = r.integer("AMD_SERIALIZE_KERNEL", "0 (asynchronous launches)")) {
    if (*v < 0 || *v > 3)
      r.invalid("AMD_SERIALIZE_KERNEL", r.text("AMD_SERIALIZE_KERNEL"), "is outside 0..3",
                "0 (asynchronous launches)");
    else s.launch_blocking = s.launch_blocking || (*v & 2);
  }
}

void read_cpu(Reader& r, Settings& s) {
  if (auto v = r.integer("WEFT_CPU_AGENT", "1 (CPU agent shown)")) {
    if (*v != 0 && *v != 1)
      r.invalid("WEFT_CPU_AGENT", r.text("WEFT_CPU_AGENT"), "is not 0 or 1", "1 (CPU agent shown)");
    else s.cpu_agent = *v != 0;
  }
  if (auto v = r.integer("WEFT_CPU_WORKERS", "one worker per usable core")) {
    if (*v <= 0 || *v > 4096)
      r.invalid("WEFT_CPU_WORKERS", r.text("WEFT_CPU_WORKERS"), "is outside 1..4096",
                "one worker per usable core");
    else s.cpu_workers = static_cast<unsigned>(*v);  // the CPU driver caps it at the usable cores
  }
  if (auto v = r.integer("WEFT_CPU_STACK_SIZE", "262144 bytes")) {
    if (*v < long(kMinFiberStack) || *v > long(kMaxFiberStack))
      r.invalid("WEFT_CPU_STACK_SIZE", r.text("WEFT_CPU_STACK_SIZE"),
                "is outside 16384..1073741824 bytes", "262144 bytes");
    else s.cpu_fiber_stack_bytes = static_cast<size_t>(*v);
  }
}

void read_devices(Reader& r, Settings& s) {
  if (const char* v = r.text("HIP_VISIBLE_DEVICES")) s.visible_devices = v;
  if (const char* c = r.text("CUDA_VISIBLE_DEVICES")) s.cuda_visible_devices = c;
  if (const char* x = r.text("XDG_RUNTIME_DIR"); x && *x) s.runtime_dir = x;
}

const char* from_environment(const char* name) { return std::getenv(name); }

}  // namespace

Settings parse(const char* (*lookup)(const char* name)) {
  Settings s;
  Reader r(lookup, s);
  read_log(r, s);
  read_launch(r, s);
  read_cpu(r, s);
  read_devices(r, s);
  return s;
}

const Settings& settings() {
  static const Settings s = parse(from_environment);
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
