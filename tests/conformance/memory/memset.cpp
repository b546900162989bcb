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

namespace {

// Fills `count` elements of `element_size` bytes at byte `offset` of a device buffer of
// `total` background bytes, then checks every byte of the buffer against the host's
// expectation.
void check_element_fill(size_t total, size_t offset, size_t count, unsigned element_size,
                        uint32_t value) {
  hip_test::DeviceBuffer<unsigned char> dev(total);
  std::vector<unsigned char> host(total, kBackground);
  HIP_CHECK(hipMemcpy(dev.get(), host.data(), total, hipMemcpyHostToDevice));
  unsigned char* at = dev.get() + offset;
  switch (element_size) {
    case 1: HIP_CHECK(hipMemsetD8(at, static_cast<unsigned char>(value), count)); break;
    case 2: HIP_CHECK(hipMemsetD16(at, static_cast<unsigned short>(value), count)); break;
    default: HIP_CHECK(hipMemsetD32(at, static_cast<int>(value), count)); break;
  }
  HIP_CHECK(hipMemcpy(host.data(), dev.get(), total, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < total; ++i) {
    const bool inside = i >= offset && i < offset + count * element_size;
    const unsigned char expected =
        inside ? static_cast<unsigned char>(value >> (8 * ((i - offset) % element_size)))
               : kBackground;
    if (host[i] != expected) {
      FAIL("byte " << i << " is 0x" << std::hex << int(host[i]) << ", expected 0x" << int(expected)
                   << (inside ? " (inside the range)" : " (outside the range)"));
    }
  }
}

bool on_cpu_agent() {
  int device = 0;
  hipDeviceProp_t props{};
  HIP_CHECK(hipGetDevice(&device));
  HIP_CHECK(hipGetDeviceProperties(&props, device));
  return std::strcmp(props.gcnArchName, "x86_64") == 0 ||
         std::strcmp(props.gcnArchName, "aarch64") == 0;
}

}  // namespace

// The CPU agent fills with wide stores of the replicated pattern: an unaligned head, a body
// of 64-byte steps and a tail. Every start offset within two 16-byte lines and element
// counts around each boundary of those pieces. Starts that are not a multiple of the
// element size only on the CPU agent (GPU drivers may require aligned elements).
TEST_CASE("Unit_hipMemsetD16_D32_Positive_OddSizesUnalignedStarts") {
  const size_t counts[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 1000, 1023};
  const bool any_offset = on_cpu_agent();
  for (unsigned element_size : {2u, 4u}) {
    for (uint32_t value : {0xA55A3CC3u, 0x00FF00FFu}) {
      for (size_t offset = 0; offset < 34; offset += any_offset ? 1 : element_size) {
        for (size_t count : counts) {
          INFO("element size " << element_size << " value 0x" << std::hex << value << std::dec
                               << " offset " << offset << " count " << count);
          check_element_fill(offset + count * element_size + 64, offset, count, element_size,
                             value);
        }
      }
    }
  }
}

// Fills larger than the caches take the streaming-store path. Unaligned element starts only
// on the CPU agent, as above (CUDA's cuMemsetD16/D32 refuse them).
TEST_CASE("Unit_hipMemsetD8_D16_D32_Positive_Large") {
  const size_t big = (size_t{9} << 20) + 3;  // elements: past the streaming threshold in bytes
  const bool any_offset = on_cpu_agent();
  for (unsigned element_size : {1u, 2u, 4u}) {
    for (size_t offset : {size_t{0}, size_t{6}, size_t{13}}) {
      if (!any_offset && offset % element_size != 0) continue;
      INFO("element size " << element_size << " offset " << offset);
      check_element_fill(offset + big * element_size + 100, offset, big, element_size, 0xCAFEBABEu);
    }
  }
}

TEST_CASE("Unit_hipMemsetD32Async_Positive_LargeOnStream") {
  hip_test::Stream s;
  const size_t count = (size_t{5} << 20) + 1;
  hip_test::DeviceBuffer<uint32_t> dev(count + 2);
  HIP_CHECK(hipMemsetD32Async(dev.get(), 7, count + 2, s.get()));
  HIP_CHECK(hipMemsetD32Async(dev.get() + 1, static_cast<int>(0x89ABCDEFu), count, s.get()));
  std::vector<uint32_t> host(count + 2);
  HIP_CHECK(
      hipMemcpyAsync(host.data(), dev.get(), host.size() * 4, hipMemcpyDeviceToHost, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(host.front() == 7u);
  REQUIRE(host.back() == 7u);
  size_t wrong = 0;
  for (size_t i = 1; i <= count; ++i) wrong += host[i] != 0x89ABCDEFu;
  REQUIRE(wrong == 0);
}
