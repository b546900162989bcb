// SPDX-License-Identifier: MIT
// libFuzzer target: weft's NPU code object (header, kernel and argument
// tables, register-map slots, the xclbin inside), its extent as
// hipModuleLoadData measures it, and image selection for NPU targets.
#include <weft/codeobj/image.hpp>
#include <weft/codeobj/npu_object.hpp>

#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace weft::codeobj;
  Bytes bytes(reinterpret_cast<const std::byte*>(data), size);
  auto o = parse_npu_object(bytes);
  if (o.ok())
    for (const auto& k : o.value().kernels)
      (void)(k.pdi->image.size() + k.instructions.size() + k.args.size());
  (void)npu_object_target(bytes);
  (void)image_extent([&](uint64_t offset, std::span<std::byte> out) {
    if (offset > size || out.size() > size - offset) return false;
    if (!out.empty()) std::memcpy(out.data(), data + offset, out.size());
    return true;
  });
  auto image = OpenedImage::open(bytes, 1u << 24);
  if (image.ok()) {
    (void)image.value().select("aie2");
    (void)image.value().select("aie2p");
    (void)image.value().targets_text();
  }
  return 0;
}
