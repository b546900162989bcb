// SPDX-License-Identifier: MIT
// Bounds-checked little-endian reads over a byte span: the one way the code-object
// parsers touch input bytes, so malformed input can fail but never read out of range.
// Pure functions; thread-compatible.
#pragma once

#include <weft/driver/status.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace weft::codeobj {

using Bytes = std::span<const std::byte>;

// Value of type T (trivially copyable) at `offset`, or nullopt when it does not fit.
template <typename T>
std::optional<T> read_le(Bytes bytes, uint64_t offset) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return std::nullopt;
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));  // x86-64 and aarch64 hosts are LE
  return value;
}

// [offset, offset + size) of `bytes`, or nullopt when it does not fit.
inline std::optional<Bytes> sub_span(Bytes bytes, uint64_t offset, uint64_t size) {
  if (offset > bytes.size() || bytes.size() - offset < size) return std::nullopt;
  return bytes.subspan(static_cast<size_t>(offset), static_cast<size_t>(size));
}

inline std::string_view as_text(Bytes bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

inline bool starts_with(Bytes bytes, std::string_view magic) {
  return bytes.size() >= magic.size() && as_text(bytes.first(magic.size())) == magic;
}

inline Bytes as_bytes(std::string_view text) {
  return {reinterpret_cast<const std::byte*>(text.data()), text.size()};
}

// The error every parser returns for malformed input.
inline Status invalid_image(std::string message) {
  return Status(hipErrorInvalidImage, std::move(message));
}

// Concatenates text and numbers for error messages (the parsers do not depend on fmt).
template <typename... Parts>
std::string text_of(const Parts&... parts) {
  std::string out;
  auto add = [&](const auto& part) {
    if constexpr (std::is_arithmetic_v<std::decay_t<decltype(part)>>) out += std::to_string(part);
    else out += part;
  };
  (add(parts), ...);
  return out;
}

}  // namespace weft::codeobj
