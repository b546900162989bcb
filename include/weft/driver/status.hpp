// SPDX-License-Identifier: MIT
// Status and Result<T>: how every layer of weft reports failure without exceptions.
//
// A Status is a hipError_t plus a message that names what failed. Drivers build
// one where a vendor call fails; the API boundary logs it and stores the code as
// the thread's last error. Immutable value types; thread-compatible.
#pragma once

#include <hip/hip_runtime_api.h>

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace weft {

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(hipError_t code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == hipSuccess; }
  hipError_t code() const { return code_; }
  // Empty for a success; otherwise says which call failed and why.
  const std::string& message() const { return message_; }

 private:
  hipError_t code_ = hipSuccess;
  std::string message_;
};

inline Status ok_status() { return Status(); }

// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  Result(Status status) : state_(std::in_place_index<1>, std::move(status)) {
    assert(!std::get<1>(state_).ok() && "a Result built from a Status must carry an error");
  }

  bool ok() const { return state_.index() == 0; }
  const T& value() const& { return std::get<0>(state_); }
  T& value() & { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  Status status() const { return ok() ? Status() : std::get<1>(state_); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace weft

#define WEFT_CONCAT_INNER_(a, b) a##b
#define WEFT_CONCAT_(a, b) WEFT_CONCAT_INNER_(a, b)

// The only macros allowed to hide a return (style.md).
#define WEFT_RETURN_IF_ERROR(expr)               \
  do {                                           \
    ::weft::Status weft_status_ = (expr);        \
    if (!weft_status_.ok()) return weft_status_; \
  } while (0)

#define WEFT_ASSIGN_OR_RETURN(lhs, expr)                  \
  auto WEFT_CONCAT_(weft_result_, __LINE__) = (expr);     \
  if (!WEFT_CONCAT_(weft_result_, __LINE__).ok())         \
    return WEFT_CONCAT_(weft_result_, __LINE__).status(); \
  lhs = std::move(WEFT_CONCAT_(weft_result_, __LINE__)).value()
