// SPDX-License-Identifier: MIT
// The element pattern is replicated into 64 bits; since 8 is a multiple of every element
// size, the same 64-bit word fits every 8-byte-aligned position once it is rotated to the
// phase of the first aligned byte. The unaligned head and the tail are written bytewise,
// the body with 16-byte stores (non-temporal ones for fills larger than the caches, as
// glibc's memset does, so a 1 GiB fill does not first read every line it overwrites).
#include "fill.hpp"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace weft::cpu {
namespace {

// Above this size the fill goes around the caches: it would evict them anyway.
constexpr size_t kStreamingBytes = size_t{8} << 20;

uint64_t replicate(uint32_t value, unsigned element_size) {
  switch (element_size) {
    case 1: return uint64_t{0x0101010101010101} * (value & 0xff);
    case 2: return uint64_t{0x0001000100010001} * (value & 0xffff);
    default: return (uint64_t{value} << 32) | value;
  }
}

// Pattern bytes (little-endian order of `pattern`) for `n` < 64 bytes at `p`.
void fill_bytes(unsigned char* p, size_t n, uint64_t pattern) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(pattern >> (8 * (i % 8)));
}

uint64_t rotate_right(uint64_t v, unsigned bytes) {
  unsigned bits = 8 * (bytes % 8);
  return bits ? (v >> bits) | (v << (64 - bits)) : v;
}

}  // namespace

void fill_pattern(void* dst, size_t bytes, uint32_t value, unsigned element_size) {
  auto* p = static_cast<unsigned char*>(dst);
  if (element_size == 1) {
    std::memset(p, static_cast<int>(value & 0xff), bytes);
    return;
  }
  uint64_t pattern = replicate(value, element_size);
  if (bytes < 64) {
    fill_bytes(p, bytes, pattern);
    return;
  }
  // Head: up to the first 16-byte boundary.
  size_t head = (16 - (reinterpret_cast<uintptr_t>(p) & 15)) & 15;
  fill_bytes(p, head, pattern);
  p += head;
  bytes -= head;
  pattern = rotate_right(pattern, static_cast<unsigned>(head));
  size_t body = bytes & ~size_t{63};
  unsigned char* end = p + body;
#if defined(__SSE2__)
  const __m128i wide = _mm_set1_epi64x(static_cast<long long>(pattern));
  if (body >= kStreamingBytes) {
    for (; p != end; p += 64) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(p), wide);
      _mm_stream_si128(reinterpret_cast<__m128i*>(p + 16), wide);
      _mm_stream_si128(reinterpret_cast<__m128i*>(p + 32), wide);
      _mm_stream_si128(reinterpret_cast<__m128i*>(p + 48), wide);
    }
    _mm_sfence();  // the queue reports the fill done after this: order the streamed stores
  } else {
    for (; p != end; p += 64) {
      _mm_store_si128(reinterpret_cast<__m128i*>(p), wide);
      _mm_store_si128(reinterpret_cast<__m128i*>(p + 16), wide);
      _mm_store_si128(reinterpret_cast<__m128i*>(p + 32), wide);
      _mm_store_si128(reinterpret_cast<__m128i*>(p + 48), wide);
    }
  }
#else
  for (; p != end; p += 8) std::memcpy(p, &pattern, 8);
#endif
  fill_bytes(p, bytes - body, pattern);  // body is a multiple of 8: the phase is unchanged
}

}  // namespace weft::cpu
