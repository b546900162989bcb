// SPDX-License-Identifier: MIT
// Conformance: hipMemset, hipMemsetD8/D16/D32 and their Async forms, checked byte by byte
// (including that bytes outside the target range are untouched).
#include "hip_test.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

constexpr size_t kBytes = 4096 + 128;  // room for every offset + length below
constexpr unsigned char kBackground = 0x11;

// A device buffer pre-filled with kBackground; contents() reads it back.
class Target {
 public:
  Target() : dev_(kBytes) {
    std::vector<unsigned char> bg(kBytes, kBackground);
    HIP_CHECK(hipMemcpy(dev_.get(), bg.data(), kBytes, hipMemcpyHostToDevice));
  }
  unsigned char* get() const { return dev_.get(); }
  std::vector<unsigned char> contents() const {
    std::vector<unsigned char> out(kBytes);
    HIP_CHECK(hipMemcpy(out.data(), dev_.get(), kBytes, hipMemcpyDeviceToHost));
    return out;
  }

 private:
  hip_test::DeviceBuffer<unsigned char> dev_;
};

// Checks that bytes [offset, offset + len) hold `pattern` repeated (little-endian element
// bytes) and every other byte is still kBackground.
void expect_fill(const std::vector<unsigned char>& got, size_t offset, size_t len,
                 const std::vector<unsigned char>& pattern) {
  for (size_t i = 0; i < got.size(); ++i) {
    const bool inside = i >= offset && i < offset + len;
    const unsigned char expected = inside ? pattern[(i - offset) % pattern.size()] : kBackground;
    if (got[i] != expected) {
      FAIL("byte " << i << " is 0x" << std::hex << int(got[i]) << ", expected 0x" << int(expected)
                   << (inside ? " (inside the range)" : " (outside the range)"));
    }
  }
}

std::vector<unsigned char> bytes_of(uint16_t v) {
  return {static_cast<unsigned char>(v & 0xFF), static_cast<unsigned char>(v >> 8)};
}
std::vector<unsigned char> bytes_of(uint32_t v) {
  return {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
          static_cast<unsigned char>(v >> 16), static_cast<unsigned char>(v >> 24)};
}

}  // namespace

TEST_CASE("Unit_hipMemset_Positive_Patterns") {
  for (int value : {0, 0xAB, 0xFF, 0x1FF /* only the low byte counts */}) {
    for (size_t offset : {size_t{0}, size_t{1}, size_t{3}, size_t{64}}) {
      for (size_t len : {size_t{1}, size_t{7}, size_t{4096}}) {
        INFO("value " << value << " offset " << offset << " len " << len);
        Target t;
        HIP_CHECK(hipMemset(t.get() + offset, value, len));
        expect_fill(t.contents(), offset, len, {static_cast<unsigned char>(value & 0xFF)});
      }
    }
  }
}

TEST_CASE("Unit_hipMemset_Positive_ZeroBytes") {
  Target t;
  HIP_CHECK(hipMemset(t.get(), 0x55, 0));
  expect_fill(t.contents(), 0, 0, {0});
}

TEST_CASE("Unit_hipMemsetD8_Positive_Basic") {
  Target t;
  HIP_CHECK(hipMemsetD8(t.get() + 5, 0xC3, 1000));
  expect_fill(t.contents(), 5, 1000, {0xC3});
}

TEST_CASE("Unit_hipMemsetD16_Positive_Basic") {
  Target t;
  HIP_CHECK(hipMemsetD16(t.get() + 2, 0xBEEF, 777));
  expect_fill(t.contents(), 2, 777 * 2, bytes_of(uint16_t{0xBEEF}));
}

TEST_CASE("Unit_hipMemsetD32_Positive_Basic") {
  Target t;
  HIP_CHECK(hipMemsetD32(t.get() + 8, static_cast<int>(0xDEADBEEFu), 1001));
  expect_fill(t.contents(), 8, 1001 * 4, bytes_of(uint32_t{0xDEADBEEFu}));
}

TEST_CASE("Unit_hipMemsetAsync_Positive_Streams") {
  hip_test::Stream created;
  for (hipStream_t s : {hipStream_t{nullptr}, created.get(), hipStreamPerThread}) {
    INFO("stream " << s);
    Target t;
    HIP_CHECK(hipMemsetAsync(t.get() + 1, 0x9A, 3000, s));
    HIP_CHECK(hipStreamSynchronize(s));
    expect_fill(t.contents(), 1, 3000, {0x9A});
  }
}

TEST_CASE("Unit_hipMemsetD8Async_D16Async_D32Async_Positive_Basic") {
  hip_test::Stream s;
  {
    Target t;
    HIP_CHECK(hipMemsetD8Async(t.get() + 3, 0x7E, 333, s.get()));
    HIP_CHECK(hipStreamSynchronize(s.get()));
    expect_fill(t.contents(), 3, 333, {0x7E});
  }
  {
    Target t;
    HIP_CHECK(hipMemsetD16Async(t.get() + 6, 0x1234, 500, s.get()));
    HIP_CHECK(hipStreamSynchronize(s.get()));
    expect_fill(t.contents(), 6, 1000, bytes_of(uint16_t{0x1234}));
  }
  {
    Target t;
    HIP_CHECK(hipMemsetD32Async(t.get() + 12, 0x0A0B0C0D, 1000, s.get()));
    HIP_CHECK(hipStreamSynchronize(s.get()));
    expect_fill(t.contents(), 12, 4000, bytes_of(uint32_t{0x0A0B0C0D}));
  }
}

TEST_CASE("Unit_hipMemsetAsync_Positive_StreamOrder") {
  // Fills on one stream land in order: the last one wins where they overlap.
  hip_test::Stream s;
  Target t;
  HIP_CHECK(hipMemsetAsync(t.get(), 0x01, 4000, s.get()));
  HIP_CHECK(hipMemsetAsync(t.get() + 1000, 0x02, 2000, s.get()));
  HIP_CHECK(hipMemsetD32Async(t.get() + 1500, 0x03030303, 100, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  const auto got = t.contents();
  for (size_t i = 0; i < kBytes; ++i) {
    unsigned char expected = kBackground;
    if (i < 4000) expected = 0x01;
    if (i >= 1000 && i < 3000) expected = 0x02;
    if (i >= 1500 && i < 1900) expected = 0x03;
    if (got[i] != expected) FAIL("byte " << i << " is " << int(got[i]));
  }
}

TEST_CASE("Unit_hipMemset_Positive_PinnedAndManaged") {
  hip_test::PinnedBuffer<unsigned char> pinned(1000);
  HIP_CHECK(hipMemset(pinned.get(), 0x66, 1000));
  HIP_CHECK(hipDeviceSynchronize());
  for (size_t i = 0; i < 1000; ++i) REQUIRE(pinned[i] == 0x66);

  unsigned char* managed = nullptr;
  HIP_CHECK(hipMallocManaged(reinterpret_cast<void**>(&managed), 1000, hipMemAttachGlobal));
  HIP_CHECK(hipMemset(managed, 0x67, 1000));
  HIP_CHECK(hipDeviceSynchronize());
  for (size_t i = 0; i < 1000; ++i) REQUIRE(managed[i] == 0x67);
  HIP_CHECK(hipFree(managed));
}

TEST_CASE("Unit_hipMemset_Negative_Null") {
  HIP_CHECK_ERROR(hipMemset(nullptr, 0, 16), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD8(nullptr, 0, 16), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD16(nullptr, 0, 16), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD32(nullptr, 0, 16), hipErrorInvalidValue);
  hip_test::Stream s;
  HIP_CHECK_ERROR(hipMemsetAsync(nullptr, 0, 16, s.get()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemsetD32Async(nullptr, 0, 16, s.get()), hipErrorInvalidValue);
}
