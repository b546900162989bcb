// SPDX-License-Identifier: MIT
// libFuzzer target: xclbin containers (section table, AIE_PARTITION with its
// PDIs, CDO groups and DPU kernel IDs).
#include <weft/codeobj/xclbin.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace weft::codeobj;
  Bytes bytes(reinterpret_cast<const std::byte*>(data), size);
  auto x = parse_xclbin(bytes);
  if (x.ok()) {
    (void)x.value().pdi_for_kernel(0x901);
    size_t total = 0;
    for (const auto& pdi : x.value().partition.pdis)
      total += pdi.image.size() + pdi.kernel_ids.size();
    for (const auto& s : x.value().sections) total += s.data.size();
    (void)total;
  }
  return 0;
}
