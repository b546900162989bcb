// SPDX-License-Identifier: MIT
// libFuzzer target: offload bundles, plain and compressed (CCOB v1-v3, zlib/zstd),
// entry IDs and image selection.
#include <weft/codeobj/bundle.hpp>
#include <weft/codeobj/image.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace weft::codeobj;
  Bytes bytes(reinterpret_cast<const std::byte*>(data), size);
  if (auto bundle = parse_bundle(bytes); bundle.ok())
    for (const auto& e : bundle.value().entries) (void)parse_entry_id(e.id);
  (void)parse_compressed_header(bytes);
  (void)decompress_bundle(bytes, 1u << 24);
  auto image = OpenedImage::open(bytes, 1u << 24);
  if (image.ok()) {
    (void)image.value().select("gfx90a:sramecc+:xnack-");
    (void)image.value().select("x86_64");
    (void)image.value().select("sm_90");
    (void)image.value().targets_text();
  }
  return 0;
}
