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

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        // Control characters only; UTF-8 passes through (sysfs strings are bytes).
        if (c < 0x20)
          out += fmt::format("\\u{:04x}", c);
        else
          out += static_cast<char>(c);
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
    if (!std::isfinite(*d))
      out += "null";
    else
      out += fmt::format("{}", *d);
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
