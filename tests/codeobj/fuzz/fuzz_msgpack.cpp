// SPDX-License-Identifier: MIT
// libFuzzer target: the msgpack reader and the AMDGPU metadata decoder on top of it.
#include <weft/codeobj/amdgpu.hpp>
#include <weft/codeobj/msgpack.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace weft::codeobj;
  Bytes bytes(reinterpret_cast<const std::byte*>(data), size);
  if (auto v = parse_msgpack(bytes); v.ok()) {
    (void)v.value().find("amdhsa.kernels");
    (void)v.value().as_uint();
  }
  (void)parse_amdgpu_metadata(bytes);
  return 0;
}
