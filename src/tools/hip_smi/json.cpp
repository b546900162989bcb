// SPDX-License-Identifier: MIT
// JSON printing: insertion-ordered objects, RFC 8259 escaping, null for unknown numbers.
#include "json.hpp"

#include <fmt/format.h>

#include <cmath>

namespace weft::smi {

Json& Json::operator[](std::string_view key) {
  if (!std::holds_alternative<Object>(v_)) v_ = Object{};
  auto& members = std::get<Object>(v_);
  for (auto& [name, value] : members)
    if (name == key) return value;
  members.emplace_back(std::string(key), Json());
  return members.back().second;
}

void Json::push_back(Json value) {
  if (!std::holds_alternative<Array>(v_)) v_ = Array{};
  std::get<Array>(v_).push_back(std::move(value));
}

namespace {

// Length of the well-formed UTF-8 sequence at text[at] (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0 when it is not one.
size_t utf8_sequence(std::string_view text, size_t at) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char c = byte(at);
  size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (n == 0 || c > 0xF4 || at + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((byte(at + k) & 0xC0) != 0x80) return 0;
  unsigned char second = byte(at + 1);
  if (c == 0xE0 && second < 0xA0) return 0;  // overlong
  if (c == 0xED && second > 0x9F) return 0;  // UTF-16 surrogate
  if (c == 0xF0 && second < 0x90) return 0;  // overlong
  if (c == 0xF4 && second > 0x8F) return 0;  // above U+10FFFF
  return n;
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (size_t at = 0; at < text.size(); ++at) {
    unsigned char c = static_cast<unsigned char>(text[at]);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += fmt::format("\\u{:04x}", c);
        } else if (c < 0x80) {
          out += static_cast<char>(c);
        } else if (size_t n = utf8_sequence(text, at)) {
          out.append(text.substr(at, n));  // well-formed UTF-8 passes through
          at += n - 1;
        } else {
          // sysfs and procfs strings are bytes: one that is not UTF-8 is written
          // as the Latin-1 character of that byte (\u00XX), so the output stays
          // valid JSON for every parser and still shows which byte it was.
          out += fmt::format("\\u{:04x}", c);
        }
    }
  }
  out += '"';
}

std::string Json::dump(int indent) const {
  std::string out;
  write(out, indent, 0);
  return out;
}

void Json::write(std::string& out, int indent, int depth) const {
  auto newline = [&](int level) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<size_t>(indent * level), ' ');
  };
  if (std::holds_alternative<std::monostate>(v_)) {
    out += "null";
  } else if (auto* b = std::get_if<bool>(&v_)) {
    out += *b ? "true" : "false";
  } else if (auto* i = std::get_if<int64_t>(&v_)) {
    out += fmt::format("{}", *i);
  } else if (auto* u = std::get_if<uint64_t>(&v_)) {
    out += fmt::format("{}", *u);
  } else if (auto* d = std::get_if<double>(&v_)) {
    // NaN and infinity are not JSON; an unknown number is null.
    if (!std::isfinite(*d)) out += "null";
    else out += fmt::format("{}", *d);
  } else if (auto* s = std::get_if<std::string>(&v_)) {
    append_json_string(out, *s);
  } else if (auto* a = std::get_if<Array>(&v_)) {
    // Arrays of scalars stay on one line even when pretty-printing.
    bool flat = true;
    for (const Json& e : *a)
      if (std::holds_alternative<Array>(e.v_) || std::holds_alternative<Object>(e.v_)) flat = false;
    out += '[';
    for (size_t k = 0; k < a->size(); ++k) {
      if (k) out += indent >= 0 && flat ? ", " : ",";
      if (!flat) newline(depth + 1);
      (*a)[k].write(out, indent, depth + 1);
    }
    if (!flat && !a->empty()) newline(depth);
    out += ']';
  } else if (auto* o = std::get_if<Object>(&v_)) {
    out += '{';
    for (size_t k = 0; k < o->size(); ++k) {
      if (k) out += ',';
      newline(depth + 1);
      append_json_string(out, (*o)[k].first);
      out += indent >= 0 ? ": " : ":";
      (*o)[k].second.write(out, indent, depth + 1);
    }
    if (!o->empty()) newline(depth);
    out += '}';
  }
}

}  // namespace weft::smi
