// SPDX-License-Identifier: MIT
// bench/cpu_engine: hipMemset, hipMemsetD16 and hipMemsetD32 on the CPU agent against the
// host's memset and std::fill of the same element type into malloc'ed memory of the same
// size, run side by side (alternating, same process), several rounds; min / median / max
// milliseconds per fill and the ratio of medians. Every fill is checked afterwards. Not a
// test: it asserts nothing about time.
//
//   build/bench/cpu_engine/bench_cpu_fill [rounds=7] [max MiB=256]
#include <hip/hip_runtime.h>

#include "../support/cpu_agent.hpp"
#include "../support/hip_check.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Stats {
  double min, median, max;
};

Stats stats(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return {t.front(), t[t.size() / 2], t.back()};
}

double ms_since(Clock::time_point a) {
  return std::chrono::duration<double, std::milli>(Clock::now() - a).count();
}

template <typename T>
bool all_equal(const void* p, size_t count, T value) {
  const T* q = static_cast<const T*>(p);
  for (size_t i = 0; i < count; ++i)
    if (q[i] != value) return false;
  return true;
}

// One row: `bytes` filled with elements of `element_size`, weft vs the host.
void row(int rounds, size_t bytes, unsigned element_size) {
  void* dev = nullptr;
  CHECK(hipMalloc(&dev, bytes));
  void* host = std::malloc(bytes);
  if (!host) {
    std::fprintf(stderr, "malloc(%zu) failed\n", bytes);
    std::exit(1);
  }
  const size_t count = bytes / element_size;
  const uint32_t value = element_size == 1 ? 0x5A : element_size == 2 ? 0xBEEF : 0xCAFEBABE;
  auto weft_fill = [&] {
    switch (element_size) {
      case 1: CHECK(hipMemset(dev, static_cast<int>(value), count)); break;
      case 2: CHECK(hipMemsetD16(dev, static_cast<unsigned short>(value), count)); break;
      default: CHECK(hipMemsetD32(dev, static_cast<int>(value), count)); break;
    }
  };
  auto host_fill = [&] {
    switch (element_size) {
      case 1: std::memset(host, static_cast<int>(value), count); break;
      case 2: std::fill_n(static_cast<uint16_t*>(host), count, static_cast<uint16_t>(value)); break;
      default: std::fill_n(static_cast<uint32_t*>(host), count, value); break;
    }
    // Keep the compiler from dropping a fill nobody reads.
    asm volatile("" : : "r"(host) : "memory");
  };
  // Touch both once, so neither pays first-touch page faults in a timed round.
  weft_fill();
  host_fill();
  const int reps = bytes >= (size_t{64} << 20) ? 1 : bytes >= (size_t{1} << 20) ? 20 : 2000;
  std::vector<double> w, h;
  for (int r = 0; r < rounds; ++r) {
    auto a = Clock::now();
    for (int i = 0; i < reps; ++i) weft_fill();
    w.push_back(ms_since(a) / reps);
    a = Clock::now();
    for (int i = 0; i < reps; ++i) host_fill();
    h.push_back(ms_since(a) / reps);
  }
  bool ok = false;
  switch (element_size) {
    case 1: ok = all_equal<uint8_t>(dev, count, static_cast<uint8_t>(value)); break;
    case 2: ok = all_equal<uint16_t>(dev, count, static_cast<uint16_t>(value)); break;
    default: ok = all_equal<uint32_t>(dev, count, value); break;
  }
  if (!ok) {
    std::fprintf(stderr, "wrong contents after the %u-byte fill of %zu bytes\n", element_size,
                 bytes);
    std::exit(1);
  }
  Stats sw = stats(w), sh = stats(h);
  const char* name = element_size == 1 ? "hipMemset / memset"
                   : element_size == 2 ? "hipMemsetD16 / std::fill<u16>"
                                       : "hipMemsetD32 / std::fill<u32>";
  std::printf("| %-30s | %9zu KiB | %8.4f / %8.4f / %8.4f | %8.4f / %8.4f / %8.4f | %5.2f |\n",
              name, bytes >> 10, sw.min, sw.median, sw.max, sh.min, sh.median, sh.max,
              sw.median / sh.median);
  std::free(host);
  CHECK(hipFree(dev));
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  const size_t max_mib = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 256;
  hipDeviceProp_t props{};
  const int device = select_cpu_agent(props);
  std::printf("device %d: %s, %d rounds, ms per fill min / median / max\n\n", device, props.name,
              rounds);
  std::printf("| %-30s | %13s | %-30s | %-30s | %5s |\n", "weft / host", "size", "weft ms",
              "host ms", "ratio");
  std::printf("|---|---:|---|---|---:|\n");
  // The fixed sizes up to the maximum, then the maximum itself unless it is one of them
  // (`bench_cpu_fill 3 64` printed the 64 MiB rows twice).
  const size_t sizes[] = {size_t{4} << 10, size_t{1} << 20, size_t{64} << 20, max_mib << 20};
  for (size_t i = 0; i < std::size(sizes); ++i) {
    const size_t bytes = sizes[i];
    if (bytes == 0 || bytes > (max_mib << 20)) continue;
    if (std::find(sizes, sizes + i, bytes) != sizes + i) continue;  // printed already
    for (unsigned element_size : {1u, 2u, 4u}) row(rounds, bytes, element_size);
  }
  return 0;
}
