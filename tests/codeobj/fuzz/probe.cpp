// SPDX-License-Identifier: MIT
// Configure-time probe: does the compiler link libFuzzer targets?
#include <cstddef>
#include <cstdint>
extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }
