// SPDX-License-Identifier: MIT
// Conformance: copies and fills that run past the end of a tracked allocation fail with
// hipErrorInvalidValue and write nothing at all.
//
// Two kinds of evidence: (1) the overflowed device allocation and a neighbour allocation are
// byte-for-byte unchanged; (2) a host buffer of which only a prefix is registered with
// hipHostRegister: the registered prefix is the tracked allocation, and the bytes right after
// it belong to the test, so an overrun that slipped through would be seen there.
#include "hip_test.hpp"

#include <cstring>
#include <vector>

namespace {

constexpr size_t kSize = 4096;
constexpr unsigned char kBefore = 0x5C;

// Two device allocations filled with kBefore; unchanged() checks both.
class Pair {
 public:
  Pair() : a_(kSize), b_(kSize) {
    HIP_CHECK(hipMemset(a_.get(), kBefore, kSize));
    HIP_CHECK(hipMemset(b_.get(), kBefore, kSize));
    HIP_CHECK(hipDeviceSynchronize());
  }
  unsigned char* a() const { return a_.get(); }
  unsigned char* b() const { return b_.get(); }
  void require_unchanged() const {
    HIP_CHECK(hipDeviceSynchronize());
    for (auto* p : {a_.get(), b_.get()}) {
      std::vector<unsigned char> got(kSize);
      HIP_CHECK(hipMemcpy(got.data(), p, kSize, hipMemcpyDeviceToHost));
      for (size_t i = 0; i < kSize; ++i) {
        if (got[i] != kBefore)
          FAIL("byte " << i << " of " << (p == a_.get() ? "a" : "b")
                       << " changed by a failed call");
      }
    }
  }

 private:
  hip_test::DeviceBuffer<unsigned char> a_, b_;
};

// A host buffer of 3 * kSize bytes whose middle third is registered. Bytes outside the
// registered range are canaries.
class RegisteredWindow {
 public:
  RegisteredWindow() : buf_(3 * kSize, kBefore) { HIP_CHECK(hipHostRegister(window(), kSize, 0)); }
  ~RegisteredWindow() { (void)hipHostUnregister(window()); }
  unsigned char* window() { return buf_.data() + kSize; }
  void require_unchanged() {
    HIP_CHECK(hipDeviceSynchronize());
    for (size_t i = 0; i < buf_.size(); ++i) {
      if (buf_[i] != kBefore)
        FAIL("host byte " << i << " changed (registered range is [" << kSize << ", " << 2 * kSize
                          << "))");
    }
  }

 private:
  std::vector<unsigned char> buf_;
};

}  // namespace

TEST_CASE("Unit_hipMemcpy_Negative_BoundsHostToDevice") {
  Pair pair;
  std::vector<unsigned char> src(2 * kSize, 0xE1);
  HIP_CHECK_ERROR(hipMemcpy(pair.a(), src.data(), kSize + 1, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy(pair.a(), src.data(), 2 * kSize, hipMemcpyDefault),
                  hipErrorInvalidValue);
  // An interior pointer leaves less room.
  HIP_CHECK_ERROR(hipMemcpy(pair.a() + kSize / 2, src.data(), kSize / 2 + 1, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyHtoD(pair.a() + kSize - 1, src.data(), 2), hipErrorInvalidValue);
  pair.require_unchanged();
  // Exactly up to the end is fine.
  HIP_CHECK(hipMemcpy(pair.a() + kSize / 2, src.data(), kSize / 2, hipMemcpyHostToDevice));
}

TEST_CASE("Unit_hipMemcpy_Negative_BoundsDeviceToHost") {
  Pair pair;
  std::vector<unsigned char> dst(2 * kSize, 0x33);
  HIP_CHECK_ERROR(hipMemcpy(dst.data(), pair.a(), kSize + 1, hipMemcpyDeviceToHost),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyDtoH(dst.data(), pair.a() + 100, kSize), hipErrorInvalidValue);
  for (size_t i = 0; i < dst.size(); ++i) {
    if (dst[i] != 0x33) FAIL("host byte " << i << " written by a failed copy");
  }
  pair.require_unchanged();
}

TEST_CASE("Unit_hipMemcpy_Negative_BoundsDeviceToDevice") {
  Pair pair;
  // Destination overrun and source overrun.
  HIP_CHECK_ERROR(hipMemcpy(pair.a() + 1, pair.b(), kSize, hipMemcpyDeviceToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy(pair.a(), pair.b() + 1, kSize, hipMemcpyDeviceToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyDtoD(pair.a(), pair.b(), kSize + 8), hipErrorInvalidValue);
  pair.require_unchanged();
}

TEST_CASE("Unit_hipMemcpyAsync_Negative_Bounds") {
  Pair pair;
  hip_test::Stream s;
  std::vector<unsigned char> host(2 * kSize, 0xE2);
  HIP_CHECK_ERROR(hipMemcpyAsync(pair.a(), host.data(), kSize + 1, hipMemcpyHostToDevice, s.get()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyAsync(host.data(), pair.a(), kSize + 1, hipMemcpyDeviceToHost, s.get()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyAsync(pair.b(), pair.a() + 16, kSize, hipMemcpyDeviceToDevice, s.get()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyHtoDAsync(pair.a() + 8, host.data(), kSize, s.get()),
                  hipErrorInvalidValue);
  HIP_CHECK(hipStreamSynchronize(s.get()));
  for (size_t i = 0; i < host.size(); ++i) {
    if (host[i] != 0xE2) FAIL("host byte " << i << " written by a failed copy");
  }
  pair.require_unchanged();
}

TEST_CASE("Unit_hipMemset_Negative_Bounds") {
  Pair pair;
  HIP_CHECK_ERROR(hipMemset(pair.a(), 0, kSize + 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemset(pair.a() + kSize - 4, 0, 5), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD8(pair.a(), 0, kSize + 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD16(pair.a(), 0, kSize / 2 + 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD32(pair.a() + 4, 0, kSize / 4), hipErrorInvalidValue);
  hip_test::Stream s;
  HIP_CHECK_ERROR(hipMemsetAsync(pair.a(), 0, kSize + 1, s.get()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD32Async(pair.a(), 0, kSize / 4 + 1, s.get()), hipErrorInvalidValue);
  HIP_CHECK(hipStreamSynchronize(s.get()));
  pair.require_unchanged();
  // Up to the end is fine.
  HIP_CHECK(hipMemsetD32(pair.a() + 4, 0, kSize / 4 - 1));
}

TEST_CASE("Unit_hipMemcpy2D_Negative_Bounds") {
  Pair pair;
  std::vector<unsigned char> host(64 * 128, 0xE3);
  // 65 rows of 64 bytes with pitch 64 = 4160 bytes > kSize.
  HIP_CHECK_ERROR(hipMemcpy2D(pair.a(), 64, host.data(), 64, 64, 65, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  pair.require_unchanged();
}

TEST_CASE("Unit_hipMemcpy_Negative_BoundsRegisteredHost") {
  RegisteredWindow w;
  std::vector<unsigned char> src(2 * kSize, 0xE4);
  HIP_CHECK_ERROR(hipMemcpy(w.window(), src.data(), kSize + 16, hipMemcpyHostToHost),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy(w.window(), src.data(), kSize + 16, hipMemcpyDefault),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpy(w.window() + 10, src.data(), kSize, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  hip_test::DeviceBuffer<unsigned char> dev(2 * kSize);
  HIP_CHECK(hipMemset(dev.get(), 0xE5, 2 * kSize));
  HIP_CHECK_ERROR(hipMemcpy(w.window(), dev.get(), kSize + 1, hipMemcpyDeviceToHost),
                  hipErrorInvalidValue);
  w.require_unchanged();
  // In bounds works and leaves the canaries alone.
  std::vector<unsigned char> fill(kSize, kBefore);
  HIP_CHECK(hipMemcpy(w.window(), fill.data(), kSize, hipMemcpyHostToHost));
  w.require_unchanged();
}

TEST_CASE("Unit_hipMemset_Negative_BoundsRegisteredHost") {
  RegisteredWindow w;
  HIP_CHECK_ERROR(hipMemset(w.window(), 0, kSize + 1), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD32(w.window() + 4, 0, kSize / 4), hipErrorInvalidValue);
  hip_test::Stream s;
  HIP_CHECK_ERROR(hipMemsetAsync(w.window() + kSize - 1, 0, 2, s.get()), hipErrorInvalidValue);
  HIP_CHECK(hipStreamSynchronize(s.get()));
  w.require_unchanged();
}
