// SPDX-License-Identifier: MIT
// MessagePack decoder (the format spec: big-endian lengths and numbers).
#include <weft/codeobj/msgpack.hpp>

#include <bit>

namespace weft::codeobj {
namespace {

class Decoder {
 public:
  Decoder(Bytes bytes, unsigned max_depth) : b_(bytes), max_depth_(max_depth) {}

  Status value(MsgValue& out, unsigned depth) {
    if (depth > max_depth_) return invalid_image("msgpack: nesting too deep");
    uint8_t tag;
    if (!take(tag)) return truncated();
    if (tag <= 0x7f) return set_uint(out, tag);
    if (tag >= 0xe0) return set_int(out, static_cast<int8_t>(tag));
    if ((tag & 0xf0) == 0x80) return map(out, tag & 0x0f, depth);
    if ((tag & 0xf0) == 0x90) return array(out, tag & 0x0f, depth);
    if ((tag & 0xe0) == 0xa0) return blob(out, MsgValue::Type::kString, tag & 0x1f);
    switch (tag) {
      case 0xc0: out.type = MsgValue::Type::kNil; return Status();
      case 0xc2:
      case 0xc3:
        out.type = MsgValue::Type::kBool;
        out.boolean = tag == 0xc3;
        return Status();
      case 0xc4: return sized_blob<uint8_t>(out, MsgValue::Type::kBinary);
      case 0xc5: return sized_blob<uint16_t>(out, MsgValue::Type::kBinary);
      case 0xc6: return sized_blob<uint32_t>(out, MsgValue::Type::kBinary);
      case 0xc7: return ext<uint8_t>(out);
      case 0xc8: return ext<uint16_t>(out);
      case 0xc9: return ext<uint32_t>(out);
      case 0xca: {
        uint32_t bits;
        if (!take_be(bits)) return truncated();
        out.type = MsgValue::Type::kFloat;
        out.float_value = std::bit_cast<float>(bits);
        return Status();
      }
      case 0xcb: {
        uint64_t bits;
        if (!take_be(bits)) return truncated();
        out.type = MsgValue::Type::kFloat;
        out.float_value = std::bit_cast<double>(bits);
        return Status();
      }
      case 0xcc: return number<uint8_t>(out);
      case 0xcd: return number<uint16_t>(out);
      case 0xce: return number<uint32_t>(out);
      case 0xcf: return number<uint64_t>(out);
      case 0xd0: return number<int8_t>(out);
      case 0xd1: return number<int16_t>(out);
      case 0xd2: return number<int32_t>(out);
      case 0xd3: return number<int64_t>(out);
      case 0xd4: return fixext(out, 1);
      case 0xd5: return fixext(out, 2);
      case 0xd6: return fixext(out, 4);
      case 0xd7: return fixext(out, 8);
      case 0xd8: return fixext(out, 16);
      case 0xd9: return sized_blob<uint8_t>(out, MsgValue::Type::kString);
      case 0xda: return sized_blob<uint16_t>(out, MsgValue::Type::kString);
      case 0xdb: return sized_blob<uint32_t>(out, MsgValue::Type::kString);
      case 0xdc: return sized_container<uint16_t>(out, depth, false);
      case 0xdd: return sized_container<uint32_t>(out, depth, false);
      case 0xde: return sized_container<uint16_t>(out, depth, true);
      case 0xdf: return sized_container<uint32_t>(out, depth, true);
      default: return invalid_image(text_of("msgpack: invalid type byte ", tag));
    }
  }

  bool done() const { return at_ == b_.size(); }

 private:
  static Status truncated() { return invalid_image("msgpack: truncated value"); }

  template <typename T>
  bool take_be(T& out) {
    if (b_.size() - at_ < sizeof(T)) return false;
    using U = std::make_unsigned_t<T>;
    U v = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      v = static_cast<U>((v << 8) | static_cast<uint8_t>(b_[at_ + i]));
    at_ += sizeof(T);
    out = static_cast<T>(v);
    return true;
  }
  bool take(uint8_t& out) { return take_be(out); }

  static Status set_uint(MsgValue& out, uint64_t v) {
    out.type = MsgValue::Type::kUint;
    out.uint_value = v;
    return Status();
  }
  static Status set_int(MsgValue& out, int64_t v) {
    out.type = MsgValue::Type::kInt;
    out.int_value = v;
    return Status();
  }
  template <typename T>
  Status number(MsgValue& out) {
    T v;
    if (!take_be(v)) return truncated();
    if constexpr (std::is_signed_v<T>) return set_int(out, v);
    else return set_uint(out, v);
  }
  Status blob(MsgValue& out, MsgValue::Type type, uint64_t size) {
    if (b_.size() - at_ < size) return truncated();
    out.type = type;
    out.bytes = as_text(b_.subspan(at_, size));
    at_ += size;
    return Status();
  }
  template <typename T>
  Status sized_blob(MsgValue& out, MsgValue::Type type) {
    T size;
    if (!take_be(size)) return truncated();
    return blob(out, type, size);
  }
  Status fixext(MsgValue& out, uint64_t size) {
    uint8_t ext_type;
    if (!take(ext_type)) return truncated();
    return blob(out, MsgValue::Type::kExt, size);
  }
  template <typename T>
  Status ext(MsgValue& out) {
    T size;
    uint8_t ext_type;
    if (!take_be(size) || !take(ext_type)) return truncated();
    return blob(out, MsgValue::Type::kExt, size);
  }
  Status array(MsgValue& out, uint64_t count, unsigned depth) {
    // Every element takes at least one byte: a count beyond the input is malformed.
    if (count > b_.size() - at_) return truncated();
    out.type = MsgValue::Type::kArray;
    out.array.resize(count);
    for (auto& element : out.array) WEFT_RETURN_IF_ERROR(value(element, depth + 1));
    return Status();
  }
  Status map(MsgValue& out, uint64_t count, unsigned depth) {
    if (count > (b_.size() - at_) / 2) return truncated();
    out.type = MsgValue::Type::kMap;
    out.map.resize(count * 2);
    for (auto& item : out.map) WEFT_RETURN_IF_ERROR(value(item, depth + 1));
    return Status();
  }
  template <typename T>
  Status sized_container(MsgValue& out, unsigned depth, bool is_map) {
    T count;
    if (!take_be(count)) return truncated();
    return is_map ? map(out, count, depth) : array(out, count, depth);
  }

  Bytes b_;
  size_t at_ = 0;
  unsigned max_depth_;
};

}  // namespace

const MsgValue* MsgValue::find(std::string_view key) const {
  if (type != Type::kMap) return nullptr;
  for (size_t i = 0; i + 1 < map.size(); i += 2)
    if (map[i].type == Type::kString && map[i].bytes == key) return &map[i + 1];
  return nullptr;
}

std::optional<uint64_t> MsgValue::as_uint() const {
  if (type == Type::kUint) return uint_value;
  if (type == Type::kInt && int_value >= 0) return static_cast<uint64_t>(int_value);
  return std::nullopt;
}

std::optional<std::string_view> MsgValue::as_string() const {
  if (type == Type::kString) return bytes;
  return std::nullopt;
}

std::optional<bool> MsgValue::as_bool() const {
  if (type == Type::kBool) return boolean;
  return std::nullopt;
}

Result<MsgValue> parse_msgpack(Bytes bytes, unsigned max_depth) {
  Decoder decoder(bytes, max_depth);
  MsgValue root;
  WEFT_RETURN_IF_ERROR(decoder.value(root, 0));
  if (!decoder.done()) return invalid_image("msgpack: trailing bytes after the value");
  return root;
}

}  // namespace weft::codeobj
