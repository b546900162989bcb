// SPDX-License-Identifier: MIT
// Drop-in program 4: hipMemcpyToSymbol/FromSymbol (sync and async),
// hipGetSymbolAddress and hipGetSymbolSize.
#include "common.h"
#include "symbols_kernels.h"

int main() {
  dropin_print_agent();
  double table[32];
  for (int i = 0; i < 32; ++i) table[i] = i * 0.25;
  bool run = dropin_needs_code(hipMemcpyToSymbol(HIP_SYMBOL(lut), table, sizeof(table)),
                               "hipMemcpyToSymbol(lut)");
  hipStream_t stream;
  DROPIN_CHECK(hipStreamCreate(&stream));
  int seven = 7;
  dropin_needs_code(hipMemcpyToSymbolAsync(HIP_SYMBOL(offset), &seven, sizeof(int), 0,
                                           hipMemcpyHostToDevice, stream),
                    "hipMemcpyToSymbolAsync(offset)");
  DROPIN_CHECK(hipStreamSynchronize(stream));
  size_t size = 0;
  void* address = nullptr;
  dropin_needs_code(hipGetSymbolSize(&size, HIP_SYMBOL(lut)), "hipGetSymbolSize(lut)");
  dropin_needs_code(hipGetSymbolAddress(&address, HIP_SYMBOL(lut)), "hipGetSymbolAddress(lut)");
  double* out = nullptr;
  DROPIN_CHECK(hipMalloc(&out, sizeof(table)));
  apply_lut<<<1, 32, 0, stream>>>(out);
  if (DROPIN_LAUNCHED("apply_lut") && run) {
    DROPIN_REQUIRE(size == sizeof(table));
    DROPIN_REQUIRE(address != nullptr);
    double back[32] = {};
    DROPIN_CHECK(hipMemcpyFromSymbol(back, HIP_SYMBOL(lut), sizeof(back)));
    for (int i = 0; i < 32; ++i) DROPIN_REQUIRE(back[i] == table[i]);
    DROPIN_CHECK(hipMemcpy(back, address, sizeof(back), hipMemcpyDeviceToHost));
    DROPIN_REQUIRE(back[31] == table[31]);
    DROPIN_CHECK(hipStreamSynchronize(stream));
    DROPIN_CHECK(hipMemcpy(back, out, sizeof(back), hipMemcpyDeviceToHost));
    for (int i = 0; i < 32; ++i) DROPIN_REQUIRE(back[i] == 2.0 * table[i] + 7);
  }
  DROPIN_CHECK(hipStreamDestroy(stream));
  DROPIN_CHECK(hipFree(out));
  std::printf("PASS symbols\n");
  return 0;
}
