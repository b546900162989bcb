// SPDX-License-Identifier: MIT
// libFuzzer target: target IDs, the compatibility rule and bundle entry IDs.
// The input is "<image target>\n<device target>".
#include <weft/codeobj/bundle.hpp>
#include <weft/codeobj/target_id.hpp>

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace weft::codeobj;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  size_t newline = text.find('\n');
  std::string_view image = text.substr(0, newline);
  std::string_view device = newline == std::string_view::npos ? text : text.substr(newline + 1);
  (void)is_compatible(image, device);
  if (auto id = parse_target_id(image); id.ok()) (void)id.value().str();
  auto entry = parse_entry_id(text);
  (void)is_compatible(entry.target, device);
  if (size >= 5) {
    uint32_t flags = uint32_t(data[0]) | uint32_t(data[1]) << 8 | uint32_t(data[2]) << 16 |
                     uint32_t(data[3]) << 24;
    (void)amdgpu_target_from_flags(flags, data[4]);
  }
  return 0;
}
