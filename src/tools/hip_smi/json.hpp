// SPDX-License-Identifier: MIT
// A small JSON value for hip-smi's machine-readable output. Objects keep their
// keys in insertion order, so the printed schema is stable and diffable.
// Not thread-safe; values are built on one thread and printed once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace weft::smi {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() = default;  // null
  Json(std::nullptr_t) {}
  Json(bool v) : v_(v) {}
  Json(int v) : v_(int64_t{v}) {}
  Json(long v) : v_(int64_t{v}) {}
  Json(long long v) : v_(int64_t{v}) {}
  Json(unsigned v) : v_(uint64_t{v}) {}
  Json(unsigned long v) : v_(uint64_t{v}) {}
  Json(unsigned long long v) : v_(uint64_t{v}) {}
  Json(double v) : v_(v) {}
  Json(const char* v) : v_(std::string(v)) {}
  Json(std::string v) : v_(std::move(v)) {}
  Json(std::string_view v) : v_(std::string(v)) {}
  Json(Array v) : v_(std::move(v)) {}
  Json(Object v) : v_(std::move(v)) {}
  template <typename T>
  Json(const std::optional<T>& v) {
    if (v) *this = Json(*v);
  }

  static Json array() { return Json(Array{}); }
  static Json object() { return Json(Object{}); }

  bool is_null() const { return std::holds_alternative<std::monostate>(v_); }
  const std::string* as_string() const { return std::get_if<std::string>(&v_); }

  // Object access: returns the member, appending a null one when absent.
  Json& operator[](std::string_view key);
  void push_back(Json value);  // arrays only

  // indent < 0: one line (JSON lines); otherwise pretty-printed with that many spaces.
  std::string dump(int indent = -1) const;

 private:
  void write(std::string& out, int indent, int depth) const;
  std::variant<std::monostate, bool, int64_t, uint64_t, double, std::string, Array, Object> v_;
};

// JSON string escaping (RFC 8259); also used by the CSV writer's sanity checks.
void append_json_string(std::string& out, std::string_view text);

}  // namespace weft::smi
