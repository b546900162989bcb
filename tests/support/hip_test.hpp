// SPDX-License-Identifier: MIT
// Helpers shared by the conformance tests: error-checking macros, the device under test,
// the skip helper, RAII guards for HIP resources and a host-released "gate" kernel.
//
// Contract: everything here uses the public HIP API only. Catch2 assertions are not
// thread-safe, so helpers that run on other std::threads return values instead of asserting.
#ifndef WEFT_TESTS_SUPPORT_HIP_TEST_HPP
#define WEFT_TESTS_SUPPORT_HIP_TEST_HPP

// Standard headers first (a habit kept from when <hip/hip_runtime.h>'s __noinline__ broke
// libstdc++ headers included after it; hip/weft/single_source.h now includes those first).
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <latch>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <hip/hip_runtime.h>

// Catch prints hipError_t values as "hipErrorInvalidValue (1)".
namespace Catch {
template <>
struct StringMaker<hipError_t> {
  static std::string convert(hipError_t err) {
    const char* name = hipGetErrorName(err);
    return std::string(name != nullptr ? name : "<null name>") + " (" +
           std::to_string(static_cast<int>(err)) + ")";
  }
};
}  // namespace Catch

// REQUIRE that `expr` returns hipSuccess; on failure Catch prints the call and the
// actual error name.
#define HIP_CHECK(expr) REQUIRE((expr) == hipSuccess)

// REQUIRE that `expr` returns exactly `expected`.
#define HIP_CHECK_ERROR(expr, expected) REQUIRE((expr) == (expected))

// REQUIRE that `expr` returns one of two codes (for cases where HIP's documentation allows
// either; the caller comments why).
#define HIP_CHECK_ERROR_EITHER(expr, first, second)                                             \
  do {                                                                                          \
    const hipError_t hip_test_either_rc_ = (expr);                                              \
    INFO(#expr " returned " << ::Catch::StringMaker<hipError_t>::convert(hip_test_either_rc_)); \
    REQUIRE((hip_test_either_rc_ == (first) || hip_test_either_rc_ == (second)));               \
  } while (0)

// Launches a kernel through hipLaunchKernelGGL and REQUIREs that the launch succeeded.
// hipLaunchKernelGGL reports errors only through the last-error state, so clear it first.
#define HIP_LAUNCH_CHECK(...)        \
  do {                               \
    (void)hipGetLastError();         \
    hipLaunchKernelGGL(__VA_ARGS__); \
    HIP_CHECK(hipGetLastError());    \
  } while (0)

namespace hip_test {

// Whether this test binary runs under AddressSanitizer or ThreadSanitizer (which own the
// fault signals and make RSS figures meaningless).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// The ordinal under test: $WEFT_TEST_DEVICE, default 0. The test main makes it current on
// the main thread before every test case; threads a test starts must call
// hipSetDevice(hip_test::device()) themselves.
int device();

// Prints "SKIPPED: <reason>" through WARN and records that the running test case skipped.
// The caller returns right after. A binary whose every test case skipped exits 77.
void skip(const std::string& reason);

// True when the device under test runs single-source kernels compiled by the host compiler.
// Otherwise calls skip() (with the reason) and returns false. Cached per process.
bool kernels_supported();

// Properties of the device under test (hipGetDeviceProperties, cached).
const hipDeviceProp_t& props();

// Sleeps the calling thread.
void sleep_ms(int ms);

// ---- RAII guards ----------------------------------------------------------------------------

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) : count_(count) {
    void* p = nullptr;
    HIP_CHECK(hipMalloc(&p, count * sizeof(T)));
    ptr_ = static_cast<T*>(p);
  }
  ~DeviceBuffer() {
    if (ptr_ != nullptr) (void)hipFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }
  size_t count() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }
  // Gives up ownership (e.g. before a test frees the memory itself).
  T* release() {
    T* p = ptr_;
    ptr_ = nullptr;
    return p;
  }

 private:
  T* ptr_ = nullptr;
  size_t count_;
};

template <typename T>
class PinnedBuffer {
 public:
  explicit PinnedBuffer(size_t count, unsigned flags = 0) : count_(count) {
    void* p = nullptr;
    HIP_CHECK(hipHostMalloc(&p, count * sizeof(T), flags));
    ptr_ = static_cast<T*>(p);
  }
  ~PinnedBuffer() {
    if (ptr_ != nullptr) (void)hipHostFree(ptr_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  T* get() const { return ptr_; }
  T& operator[](size_t i) const { return ptr_[i]; }
  size_t count() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* ptr_ = nullptr;
  size_t count_;
};

class Stream {
 public:
  explicit Stream(unsigned flags = hipStreamDefault) {
    HIP_CHECK(hipStreamCreateWithFlags(&s_, flags));
  }
  ~Stream() {
    if (s_ != nullptr) (void)hipStreamDestroy(s_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  hipStream_t get() const { return s_; }

 private:
  hipStream_t s_ = nullptr;
};

class Event {
 public:
  explicit Event(unsigned flags = hipEventDefault) {
    HIP_CHECK(hipEventCreateWithFlags(&e_, flags));
  }
  ~Event() {
    if (e_ != nullptr) (void)hipEventDestroy(e_);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  hipEvent_t get() const { return e_; }

 private:
  hipEvent_t e_ = nullptr;
};

// ---- Gate -----------------------------------------------------------------------------------
// A one-thread kernel that spins until the host opens the gate, so a test can hold a stream
// busy for as long as it likes and prove that later work did not run early. The spin is
// bounded (a few seconds) so a runtime that runs launches synchronously fails the test instead
// of hanging it: state() then reports kTimedOut.
//
// Needs kernels_supported(). The destructor opens the gate and waits for the device, so a
// failing REQUIRE never leaves a kernel spinning. Declare a Gate after the streams it uses so
// it is destroyed first.
class Gate {
 public:
  enum State : int { kNotFinished = 0, kReleased = 1, kTimedOut = 2 };

  Gate();
  ~Gate();
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;

  // Enqueues the spinning kernel on `stream` (REQUIREs a successful launch).
  void launch(hipStream_t stream);
  // Opens the gate.
  void open();
  // Whether the kernel has started spinning.
  bool started() const;
  // Waits (host side) up to timeout_ms for the kernel to start; returns started().
  bool wait_started(int timeout_ms = 10000) const;
  // kNotFinished until the kernel ends, then kReleased or kTimedOut.
  int state() const;

 private:
  volatile int* flags_ = nullptr;  // [0] gate open, [1] state, [2] started
};

}  // namespace hip_test

#endif  // WEFT_TESTS_SUPPORT_HIP_TEST_HPP
