// SPDX-License-Identifier: MIT
// Device clocks (monotonic; wall_clock64 at the rate hipDeviceAttributeWallClockRate reports),
// HIP_SYMBOL with the symbol copies, and the function qualifiers (__noinline__,
// __forceinline__, __launch_bounds__) with standard headers included after hip_runtime.h.
#include <hip/hip_runtime.h>

// After hip_runtime.h on purpose: libstdc++ spells __attribute__((__noinline__)) in <memory>.
#include <ctime>
#include <memory>
#include <thread>

#include "hip_test.hpp"

#include <type_traits>

namespace {

static_assert(std::is_same<decltype(clock64()), long long>::value);
static_assert(std::is_same<decltype(__clock64()), long long>::value);
static_assert(std::is_same<decltype(__clock()), long long>::value);
static_assert(std::is_same<decltype(wall_clock64()), long long>::value);
// clock() in a kernel is <ctime>'s (device_clock.h says why): 64 bits, as AMD's long long.
static_assert(sizeof(decltype(clock())) == sizeof(long long));

struct Stamps {
  long long c64[2], cc64[2], cc[2], wall[2], clk[2];
};

__device__ __noinline__ unsigned busy_work(unsigned seed) {
  volatile unsigned x = seed;
  for (int i = 0; i < 2000; ++i) x = x * 1664525u + 1013904223u;
  return x;
}

__global__ void __launch_bounds__(256, 1) stamp_clocks(Stamps* out, unsigned* sink) {
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  Stamps& s = out[tid];
  s.c64[0] = clock64();
  s.cc64[0] = __clock64();
  s.cc[0] = __clock();
  s.wall[0] = wall_clock64();
  s.clk[0] = clock();
  sink[tid] = busy_work(tid);
  s.c64[1] = clock64();
  s.cc64[1] = __clock64();
  s.cc[1] = __clock();
  s.wall[1] = wall_clock64();
  s.clk[1] = clock();
}

long long raw_monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000000000ll + ts.tv_nsec;
}

// wall_clock64 against CLOCK_MONOTONIC_RAW (a different clock: not slewed by NTP): the kernel
// spins until wall_clock64 advanced by `ticks` (200 ms at the reported rate) and stores its
// first and last reads; the host reads the raw clock before the launch and after the
// synchronize, so the raw interval encloses the wall one. A wrong rate makes the spin last
// longer or shorter than 200 ms of raw time by its factor. (Device code reads device clocks
// only, as HIP's kernels must.)
__global__ void spin_on_wall_clock(long long ticks, long long* out) {
  const long long first = wall_clock64();
  long long now = first;
  while (now - first < ticks) now = wall_clock64();
  out[0] = first;
  out[1] = now;
}

}  // namespace

TEST_CASE("language_types_clocks_are_monotonic_in_every_gpu_thread") {
  if (!hip_test::kernels_supported()) return;
  constexpr unsigned blocks = 4, threads = 256, n = blocks * threads;
  hip_test::DeviceBuffer<Stamps> stamps(n);
  hip_test::DeviceBuffer<unsigned> sink(n);
  HIP_LAUNCH_CHECK(stamp_clocks, dim3(blocks), dim3(threads), 0, 0, stamps.get(), sink.get());
  std::vector<Stamps> s(n);
  HIP_CHECK(hipMemcpy(s.data(), stamps.get(), stamps.bytes(), hipMemcpyDeviceToHost));
  bool advanced = false;
  for (unsigned i = 0; i < n; ++i) {
    INFO("GPU thread " << i);
    REQUIRE(s[i].c64[1] >= s[i].c64[0]);
    REQUIRE(s[i].cc64[1] >= s[i].cc64[0]);
    REQUIRE(s[i].cc[1] >= s[i].cc[0]);
    REQUIRE(s[i].wall[1] >= s[i].wall[0]);
    REQUIRE(s[i].clk[1] >= s[i].clk[0]);
    REQUIRE(s[i].c64[0] > 0);
    REQUIRE(s[i].wall[0] > 0);
    advanced = advanced || (s[i].c64[1] > s[i].c64[0] && s[i].wall[1] > s[i].wall[0]);
  }
  REQUIRE(advanced);
}

TEST_CASE("language_types_wall_clock64_runs_at_the_reported_wall_clock_rate") {
  if (!hip_test::kernels_supported()) return;
  int rate_khz = 0;
  HIP_CHECK(hipDeviceGetAttribute(&rate_khz, hipDeviceAttributeWallClockRate, hip_test::device()));
  REQUIRE(rate_khz > 0);
  hip_test::DeviceBuffer<long long> out(2);
  // A first launch loads the module (not part of the measured interval).
  HIP_LAUNCH_CHECK(spin_on_wall_clock, dim3(1), dim3(1), 0, 0, 0ll, out.get());
  HIP_CHECK(hipDeviceSynchronize());
  const long long ticks = 200ll * rate_khz;  // 200 ms
  const long long raw_start = raw_monotonic_ns();
  HIP_LAUNCH_CHECK(spin_on_wall_clock, dim3(1), dim3(1), 0, 0, ticks, out.get());
  HIP_CHECK(hipDeviceSynchronize());
  const long long raw_end = raw_monotonic_ns();
  long long t[2];
  HIP_CHECK(hipMemcpy(t, out.get(), sizeof t, hipMemcpyDeviceToHost));
  REQUIRE(t[1] - t[0] >= ticks);
  const double wall_seconds = static_cast<double>(t[1] - t[0]) / (rate_khz * 1000.0);
  const double raw_outer = static_cast<double>(raw_end - raw_start) * 1e-9;
  // The raw interval encloses the wall one (so the ratio stays below 1 but for the clocks'
  // granularity); a wrong rate (e.g. the core clock's) is off by far more than the loose
  // lower bound, which only allows for the launch, the synchronize and being descheduled.
  const double ratio = wall_seconds / raw_outer;
  INFO("wall_clock64 seconds / CLOCK_MONOTONIC_RAW seconds = " << ratio << " at " << rate_khz
                                                               << " kHz");
  REQUIRE(ratio > 0.5);
  REQUIRE(ratio < 1.05);
}

// The variables the host copies to and from are `static`, not in an anonymous namespace:
// clang-15's device passes (weftcc's every image, hipcc's too) keep an internal device
// variable that host code uses only when it is declared static (they give it external
// linkage); one in an anonymous namespace is optimized out of the image (its reads fold to
// zero and hipMemcpyToSymbol finds no symbol). Later clangs keep both.
constexpr int kTable = 64;
static __device__ int table[kTable];
static __constant__ float coeff[4];
static __device__ int results[kTable];

namespace {

__global__ void use_symbols() {
  int i = threadIdx.x;
  results[i] = table[i] * static_cast<int>(coeff[i % 4]);
}

}  // namespace

TEST_CASE("language_types_hip_symbol_with_symbol_copies") {
  if (!hip_test::kernels_supported()) return;
  std::vector<int> t(kTable);
  for (int i = 0; i < kTable; ++i) t[i] = 3 * i - 50;
  const float c[4] = {1.0f, 2.0f, -3.0f, 4.0f};
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(table), t.data(), sizeof(int) * kTable));
  // Two halves, the second at an offset.
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeff), c, 2 * sizeof(float), 0, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeff), c + 2, 2 * sizeof(float), 2 * sizeof(float),
                              hipMemcpyHostToDevice));
  void* address = nullptr;
  size_t size = 0;
  HIP_CHECK(hipGetSymbolAddress(&address, HIP_SYMBOL(table)));
  HIP_CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(table)));
  REQUIRE(size == sizeof(table));
  // The device address of the image's variable (the host's `table` is its shadow, the same
  // object only where kernels are host code): it holds what was copied to the symbol.
  REQUIRE(address != nullptr);
  std::vector<int> at_address(kTable, 0);
  HIP_CHECK(hipMemcpy(at_address.data(), address, sizeof(int) * kTable, hipMemcpyDeviceToHost));
  REQUIRE(at_address == t);
  HIP_LAUNCH_CHECK(use_symbols, dim3(1), dim3(kTable), 0, 0);
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<int> r(kTable, 0);
  HIP_CHECK(hipMemcpyFromSymbol(r.data(), HIP_SYMBOL(results), sizeof(int) * kTable));
  for (int i = 0; i < kTable; ++i) REQUIRE(r[i] == t[i] * static_cast<int>(c[i % 4]));
  // A libstdc++ type whose header spells __noinline__, used after hip_runtime.h.
  auto shared = std::make_shared<int>(r[1]);
  REQUIRE(*shared == t[1] * 2);
}
