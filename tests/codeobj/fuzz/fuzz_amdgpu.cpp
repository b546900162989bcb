// SPDX-License-Identifier: MIT
// libFuzzer target: AMDGPU code objects end to end (ELF, notes, metadata, kernel
// descriptors, e_flags → target ID).
#include <weft/codeobj/amdgpu.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace weft::codeobj;
  Bytes bytes(reinterpret_cast<const std::byte*>(data), size);
  (void)parse_kernel_descriptor(bytes);
  (void)read_amdgpu_code_object(bytes);
  return 0;
}
