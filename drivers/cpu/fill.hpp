// SPDX-License-Identifier: MIT
// hipMemset* on the CPU agent: fills a range with a 1-, 2- or 4-byte element pattern at
// memset speed (wide stores of the replicated pattern, not a loop over elements).
#pragma once

#include <cstddef>
#include <cstdint>

namespace weft::cpu {

// Writes `bytes` bytes at `dst`: the little-endian bytes of `value`'s low `element_size`
// bytes, repeated from `dst` on. `element_size` is 1, 2 or 4; `bytes` need not be a
// multiple of it and `dst` need not be aligned.
void fill_pattern(void* dst, size_t bytes, uint32_t value, unsigned element_size);

}  // namespace weft::cpu
