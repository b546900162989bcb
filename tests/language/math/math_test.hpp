// SPDX-License-Identifier: MIT
// Shared by the language_math tests: copies inputs to the device, runs a kernel
// over them (one GPU thread per element, hipLaunchKernelGGL on the CPU agent)
// and returns the outputs; ULP distances for comparing with host references.
#ifndef WEFT_TESTS_LANGUAGE_MATH_MATH_TEST_HPP
#define WEFT_TESTS_LANGUAGE_MATH_MATH_TEST_HPP

#include "hip_test.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace math_test {

inline constexpr int kBlock = 64;

template <typename T>
class DeviceArray {
 public:
  explicit DeviceArray(const std::vector<T>& host) : size_(host.size()) {
    HIP_CHECK(hipMalloc(&ptr_, bytes()));
    HIP_CHECK(hipMemcpy(ptr_, host.data(), bytes(), hipMemcpyHostToDevice));
  }
  explicit DeviceArray(size_t n) : DeviceArray(std::vector<T>(n)) {}
  ~DeviceArray() { (void)hipFree(ptr_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return ptr_; }
  std::vector<T> read() const {
    std::vector<T> host(size_);
    HIP_CHECK(hipMemcpy(host.data(), ptr_, bytes(), hipMemcpyDeviceToHost));
    return host;
  }

 private:
  size_t bytes() const { return size_ * sizeof(T); }
  T* ptr_ = nullptr;
  size_t size_;
};

inline dim3 grid_for(size_t n) { return dim3(static_cast<unsigned>((n + kBlock - 1) / kBlock)); }

// Distance in representable values (0: equal; NaN matches only NaN).
template <typename F>
int64_t ulp_distance(F a, F b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INT64_MAX;
  if (a == b) return 0;  // also +0 == -0
  using Bits = std::conditional_t<sizeof(F) == 4, int32_t, int64_t>;
  auto ordered = [](F v) {
    Bits bits;
    std::memcpy(&bits, &v, sizeof v);
    return bits < 0 ? static_cast<int64_t>(std::numeric_limits<Bits>::min()) - bits
                    : static_cast<int64_t>(bits);
  };
  const int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

// The values every unary test runs over: signed zeros, infinities, NaN, subnormals,
// the extremes, plus `random` values log-uniform in magnitude between 2^lo and 2^hi.
template <typename F>
std::vector<F> edge_and_random(int random, int lo, int hi, uint32_t seed = 12) {
  using L = std::numeric_limits<F>;
  std::vector<F> v = {F(0),           -F(0),           L::infinity(),    -L::infinity(),
                      L::quiet_NaN(), L::denorm_min(), -L::denorm_min(), L::min(),
                      L::min() / 3,   L::max(),        -L::max(),        F(1),
                      F(-1),          F(0.5),          F(-0.5),          F(2),
                      F(3),           F(-7.25),        F(1e-3)};
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> exponent(lo, hi);
  for (int i = 0; i < random; ++i) {
    const double magnitude = std::exp2(exponent(gen));
    v.push_back(static_cast<F>(gen() & 1 ? magnitude : -magnitude));
  }
  return v;
}

// Accuracy by agent: weft's CPU agent computes HIP's math in a wider type (the bounds each
// case states for it); a GPU runs its vendor's library, whose documented maximum errors the
// cases give as the second bound (NVIDIA: the CUDA C++ Programming Guide's "Mathematical
// Functions" tables, which the H200 runs of weftcc's sm_90 builds are checked against).
inline bool cpu_agent() {
  const std::string arch = hip_test::props().gcnArchName;
  return arch == "x86_64" || arch == "aarch64";
}
inline int64_t agent_ulps(int64_t cpu, int64_t gpu) { return cpu_agent() ? cpu : gpu; }

}  // namespace math_test

#endif  // WEFT_TESTS_LANGUAGE_MATH_MATH_TEST_HPP
