// SPDX-License-Identifier: MIT
// A small strict JSON parser (RFC 8259) for tests that check files weft writes
// (the WEFT_TRACE timeline). Strict: no trailing commas, comments, NaN, leading
// zeros, unescaped control characters, lone surrogates or invalid UTF-8; the
// whole input must be one value. Header-only; throws strict_json::Error.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace strict_json {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Value;
using Array = std::vector<Value>;
using Object = std::map<std::string, Value>;

struct Value {
  std::variant<std::nullptr_t, bool, double, std::string, std::shared_ptr<Array>,
               std::shared_ptr<Object>>
      v;

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(v); }
  bool is_bool() const { return std::holds_alternative<bool>(v); }
  bool is_number() const { return std::holds_alternative<double>(v); }
  bool is_string() const { return std::holds_alternative<std::string>(v); }
  bool is_array() const { return std::holds_alternative<std::shared_ptr<Array>>(v); }
  bool is_object() const { return std::holds_alternative<std::shared_ptr<Object>>(v); }
  double number() const { return get<double>("number"); }
  const std::string& string() const { return get<std::string>("string"); }
  bool boolean() const { return get<bool>("boolean"); }
  const Array& array() const { return *get<std::shared_ptr<Array>>("array"); }
  const Object& object() const { return *get<std::shared_ptr<Object>>("object"); }
  bool has(const std::string& key) const { return is_object() && object().count(key) != 0; }
  const Value& operator[](const std::string& key) const {
    auto it = object().find(key);
    if (it == object().end()) throw Error("no member \"" + key + "\"");
    return it->second;
  }

 private:
  template <typename T>
  const T& get(const char* what) const {
    if (auto* p = std::get_if<T>(&v)) return *p;
    throw Error(std::string("not a ") + what);
  }
};

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Value parse_document() {
    Value v = value(0);
    skip_space();
    if (i_ != s_.size()) fail("trailing characters after the value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw Error("JSON error at byte " + std::to_string(i_) + ": " + why);
  }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  void literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) fail("invalid literal");
    i_ += word.size();
  }

  Value value(int depth) {
    if (depth > 512) fail("nesting too deep");
    skip_space();
    Value out;
    switch (peek()) {
      case '{': out.v = object(depth); break;
      case '[': out.v = array(depth); break;
      case '"': out.v = string(); break;
      case 't':
        literal("true");
        out.v = true;
        break;
      case 'f':
        literal("false");
        out.v = false;
        break;
      case 'n':
        literal("null");
        out.v = nullptr;
        break;
      default: out.v = number(); break;
    }
    return out;
  }

  std::shared_ptr<Object> object(int depth) {
    auto obj = std::make_shared<Object>();
    expect('{');
    skip_space();
    if (peek() == '}') {
      ++i_;
      return obj;
    }
    for (;;) {
      skip_space();
      if (peek() != '"') fail("expected a member name");
      std::string key = string();
      skip_space();
      expect(':');
      Value v = value(depth + 1);
      if (!obj->emplace(std::move(key), std::move(v)).second) fail("duplicate member name");
      skip_space();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      expect('}');
      return obj;
    }
  }

  std::shared_ptr<Array> array(int depth) {
    auto arr = std::make_shared<Array>();
    expect('[');
    skip_space();
    if (peek() == ']') {
      ++i_;
      return arr;
    }
    for (;;) {
      arr->push_back(value(depth + 1));
      skip_space();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      expect(']');
      return arr;
    }
  }

  unsigned hex4() {
    if (i_ + 4 > s_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      char c = s_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f') v |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= unsigned(c - 'A' + 10);
      else fail("bad hex digit in \\u escape");
    }
    return v;
  }

  static void put_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xc0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += char(0xe0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    } else {
      out += char(0xf0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3f));
      out += char(0x80 | ((cp >> 6) & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    }
  }

  // One UTF-8 sequence copied through, checked (no overlongs, surrogates, > U+10FFFF).
  void utf8(std::string& out) {
    auto b = [&](size_t k) { return static_cast<unsigned char>(s_[k]); };
    unsigned char c = b(i_);
    size_t n = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i_ + n > s_.size()) fail("invalid UTF-8");
    uint32_t cp = c & (0x7f >> n);
    for (size_t k = 1; k < n; ++k) {
      if ((b(i_ + k) & 0xc0) != 0x80) fail("invalid UTF-8");
      cp = (cp << 6) | (b(i_ + k) & 0x3f);
    }
    static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) fail("invalid UTF-8");
    out.append(s_.substr(i_, n));
    i_ += n;
  }

  std::string string() {
    expect('"');
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        return out;
      }
      if (c < 0x20) fail("unescaped control character in a string");
      if (c >= 0x80) {
        utf8(out);
        continue;
      }
      ++i_;
      if (c != '\\') {
        out += char(c);
        continue;
      }
      char e = peek();
      ++i_;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = hex4();
          if (cp >= 0xdc00 && cp <= 0xdfff) fail("lone low surrogate");
          if (cp >= 0xd800 && cp <= 0xdbff) {
            if (s_.substr(i_, 2) != "\\u") fail("lone high surrogate");
            i_ += 2;
            uint32_t low = hex4();
            if (low < 0xdc00 || low > 0xdfff) fail("bad low surrogate");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          }
          put_utf8(out, cp);
          break;
        }
        default: fail("invalid escape");
      }
    }
  }

  double number() {
    size_t start = i_;
    if (peek() == '-') ++i_;
    if (peek() == '0') {
      ++i_;
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9') ++i_;
    } else {
      fail("invalid value");
    }
    if (peek() == '.') {
      ++i_;
      if (!(peek() >= '0' && peek() <= '9')) fail("digit expected after '.'");
      while (peek() >= '0' && peek() <= '9') ++i_;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++i_;
      if (peek() == '+' || peek() == '-') ++i_;
      if (!(peek() >= '0' && peek() <= '9')) fail("digit expected in exponent");
      while (peek() >= '0' && peek() <= '9') ++i_;
    }
    return std::stod(std::string(s_.substr(start, i_ - start)));
  }

  std::string_view s_;
  size_t i_ = 0;
};

inline Value parse(std::string_view text) { return Parser(text).parse_document(); }

}  // namespace strict_json
