// SPDX-License-Identifier: MIT
// NPU code objects for the xdna tests: an xclbin with one PDI serving the
// mlir-aie DPU kernel ID, and kernels in the mlir-aie register-map layout
// whose instruction streams are the test double's instruction set
// (fake_xdna.hpp: kTestAdd, kTestFault), not AIE code.
#pragma once

#include <weft/codeobj/npu_object.hpp>
#include <weft/codeobj/xclbin.hpp>

#include "fake_xdna.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace xdna_test {

inline std::vector<std::byte> test_xclbin(uint16_t columns = 1, uint32_t ops_per_cycle = 2048) {
  weft::codeobj::XclbinInput in;
  in.operations_per_cycle = ops_per_cycle;
  in.column_width = columns;
  in.start_columns = {0, 1, 2, 3};
  weft::codeobj::XclbinPdiInput pdi;
  for (int i = 0; i < 16; ++i) pdi.uuid[i] = uint8_t(0xa0 + i);
  for (int i = 0; i < 200; ++i) pdi.image.push_back(std::byte(i * 7));
  pdi.kernel_ids = {0x901};
  in.pdis.push_back(pdi);
  return weft::codeobj::write_xclbin(in);
}

// add_k(in, out): out[i] = in[i] + k for i < n (k and n fixed in its instructions);
// copy3(a, b, c): three buffers, the add applied from a to b; fault(a): ends in ERROR.
inline std::vector<std::byte> test_object(uint32_t n, uint32_t k, std::string target = "aie2",
                                          uint16_t columns = 1) {
  using weft::codeobj::mlir_aie_kernel;
  std::vector<weft::codeobj::NpuKernelInput> kernels;
  kernels.push_back(mlir_aie_kernel("add_k", {fake_xdna::kTestAdd, n, k, 0}, 2));
  kernels.push_back(mlir_aie_kernel("add_k3", {fake_xdna::kTestAdd, n, k}, 3));
  kernels.push_back(mlir_aie_kernel("fault", {fake_xdna::kTestFault}, 1));
  return weft::codeobj::write_npu_object(target, test_xclbin(columns), kernels);
}

}  // namespace xdna_test
