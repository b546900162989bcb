// SPDX-License-Identifier: MIT
// Parsers for the kernel text formats hip-smi reads (see parse.hpp).
#include "parse.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

namespace weft::smi {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    size_t at = text.find(sep);
    out.push_back(text.substr(0, at));
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + 1);
  }
  return out;
}

std::pair<std::string_view, std::string_view> split_pair(std::string_view text, char sep) {
  size_t at = text.find(sep);
  if (at == std::string_view::npos) return {text, {}};
  return {text.substr(0, at), text.substr(at + 1)};
}

std::optional<uint64_t> parse_u64(std::string_view text) {
  text = trim(text);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<int64_t> parse_int(std::string_view text) {
  text = trim(text);
  bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  auto magnitude = parse_u64(text);
  if (!magnitude || *magnitude > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  return negative ? -static_cast<int64_t>(*magnitude) : static_cast<int64_t>(*magnitude);
}

std::optional<double> parse_double(std::string_view text) {
  std::string copy(trim(text));
  if (copy.empty()) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str()) return std::nullopt;
  return value;
}

Properties::Properties(std::string_view text) {
  for (std::string_view row : split(text, '\n')) {
    row = trim(row);
    size_t space = row.find(' ');
    if (space == std::string_view::npos) continue;
    values_[std::string(row.substr(0, space))] = std::string(trim(row.substr(space + 1)));
  }
}

std::optional<uint64_t> Properties::u64(std::string_view key) const {
  auto it = values_.find(std::string(key));
  if (it == values_.end()) return std::nullopt;
  return parse_u64(it->second);
}

uint64_t Properties::get(std::string_view key, uint64_t fallback) const {
  return u64(key).value_or(fallback);
}

std::optional<uint32_t> DpmLevels::max() const {
  if (mhz.empty()) return std::nullopt;
  return *std::max_element(mhz.begin(), mhz.end());
}

DpmLevels parse_dpm_levels(std::string_view text) {
  DpmLevels out;
  for (std::string_view row : split(text, '\n')) {
    row = trim(row);
    size_t colon = row.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view rest = trim(row.substr(colon + 1));
    bool active = !rest.empty() && rest.back() == '*';
    auto value = parse_double(rest);  // "1300Mhz *" → 1300
    if (!value) continue;
    auto mhz = static_cast<uint32_t>(*value);
    // The deep-sleep pseudo level ("S: 19Mhz") is a state, not a DPM level.
    bool sleep_level = trim(row.substr(0, colon)) == "S";
    if (!sleep_level) out.mhz.push_back(mhz);
    if (active) out.current = mhz;
  }
  return out;
}

std::string gfx_name(uint64_t version) {
  if (version == 0) return {};
  uint64_t major = version / 10000, minor = (version / 100) % 100, stepping = version % 100;
  return fmt::format("gfx{}{:x}{:x}", major, minor, stepping);
}

std::vector<int> parse_range_list(std::string_view text) {
  std::vector<int> out;
  for (std::string_view item : split(trim(text), ',')) {
    item = trim(item);
    if (item.empty()) continue;
    auto [first, last] = split_pair(item, '-');
    auto a = parse_int(first);
    auto b = last.empty() ? a : parse_int(last);
    if (!a || !b || *b < *a || *b - *a > 1 << 20) continue;
    for (int64_t v = *a; v <= *b; ++v) out.push_back(static_cast<int>(v));
  }
  return out;
}

std::string format_range_list(const std::vector<int>& values) {
  std::vector<int> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::string out;
  for (size_t k = 0; k < sorted.size();) {
    size_t end = k;
    while (end + 1 < sorted.size() && sorted[end + 1] == sorted[end] + 1) ++end;
    if (!out.empty()) out += ',';
    out += end == k ? fmt::format("{}", sorted[k]) : fmt::format("{}-{}", sorted[k], sorted[end]);
    k = end + 1;
  }
  return out;
}

std::optional<CpuTicks> parse_proc_stat(std::string_view text) {
  for (std::string_view row : split(text, '\n')) {
    if (row.substr(0, 4) != "cpu ") continue;
    CpuTicks t;
    int field = 0;
    for (std::string_view word : split(trim(row.substr(4)), ' ')) {
      if (word.empty()) continue;
      auto v = parse_u64(word);
      if (!v) return std::nullopt;
      if (field < 8) t.total += *v;
      if (field == 3 || field == 4) t.idle += *v;  // idle, iowait
      ++field;
    }
    if (field < 4) return std::nullopt;
    return t;
  }
  return std::nullopt;
}

std::map<std::string, uint64_t> parse_meminfo(std::string_view text) {
  std::map<std::string, uint64_t> out;
  for (std::string_view row : split(text, '\n')) {
    size_t colon = row.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view key = trim(row.substr(0, colon));
    // "Node 0 MemTotal" → "MemTotal"
    if (key.substr(0, 5) == "Node ") key = key.substr(key.rfind(' ') + 1);
    std::string_view value = trim(row.substr(colon + 1));
    bool kib = value.size() > 3 && value.substr(value.size() - 2) == "kB";
    if (kib) value = trim(value.substr(0, value.size() - 2));
    auto number = parse_u64(value);
    if (!number) continue;
    out[std::string(key)] = kib ? *number * 1024 : *number;
  }
  return out;
}

std::optional<double> parse_link_speed(std::string_view text) {
  auto value = parse_double(text);
  if (!value || *value <= 0) return std::nullopt;
  return value;
}

std::string format_bdf(uint64_t domain, uint64_t location_id) {
  return fmt::format("{:04x}:{:02x}:{:02x}.{:x}", domain & 0xffff, (location_id >> 8) & 0xff,
                     (location_id >> 3) & 0x1f, location_id & 0x7);
}

std::string normalize_bdf(std::string_view text) {
  text = trim(text);
  auto parts = split(text, ':');
  std::string lower;
  if (parts.size() == 2) {
    lower = "0000:" + std::string(text);
  } else if (parts.size() == 3) {
    std::string_view domain = parts[0];
    if (domain.size() > 4) domain = domain.substr(domain.size() - 4);
    lower = std::string(domain) + ":" + std::string(parts[1]) + ":" + std::string(parts[2]);
  } else {
    lower = std::string(text);
  }
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

std::string lookup_amdgpu_ids(std::string_view text, unsigned device, unsigned revision) {
  for (std::string_view row : split(text, '\n')) {
    row = trim(row);
    if (row.empty() || row[0] == '#') continue;
    auto fields = split(row, ',');
    if (fields.size() < 3) continue;
    auto dev = parse_u64("0x" + std::string(trim(fields[0])));
    auto rev = parse_u64("0x" + std::string(trim(fields[1])));
    if (!dev || !rev || *dev != device) continue;
    // The name may itself contain commas.
    std::string_view name = trim(row.substr(row.find(',', row.find(',') + 1) + 1));
    if (*rev == revision) return std::string(name);
  }
  return {};
}

std::optional<uint64_t> sane_bytes(uint64_t value) {
  if (value >= (uint64_t{1} << 62)) return std::nullopt;
  return value;
}

}  // namespace weft::smi
