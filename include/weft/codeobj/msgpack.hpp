// SPDX-License-Identifier: MIT
// A small MessagePack reader for the AMDGPU metadata note (NT_AMDGPU_METADATA).
//
// weft reads msgpack with its own ~150-line decoder rather than a library: the
// metadata uses a handful of types, the decoder must be bounds-checked and
// fuzzable without exceptions, and Debian's msgpack-c would add a dependency that
// throws. Strings and binaries view the input bytes. Pure; depth-limited.
#pragma once

#include <weft/codeobj/bytes.hpp>
#include <weft/driver/status.hpp>

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace weft::codeobj {

struct MsgValue {
  enum class Type { kNil, kBool, kInt, kUint, kFloat, kString, kBinary, kArray, kMap, kExt };
  Type type = Type::kNil;
  bool boolean = false;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  double float_value = 0;
  std::string_view bytes;  // kString, kBinary, kExt payload
  std::vector<MsgValue> array;
  std::vector<MsgValue> map;  // keys and values alternating: key 2i, value 2i+1

  // The value under a string key of a map, or null.
  const MsgValue* find(std::string_view key) const;
  std::optional<uint64_t> as_uint() const;  // non-negative integers of either sign type
  std::optional<std::string_view> as_string() const;
  std::optional<bool> as_bool() const;
};

// Decodes one value; trailing bytes are an error.
Result<MsgValue> parse_msgpack(Bytes bytes, unsigned max_depth = 32);

}  // namespace weft::codeobj
