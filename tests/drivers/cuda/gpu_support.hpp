// SPDX-License-Identifier: MIT
// Helpers for the NVIDIA driver tests that need a real GPU: the driver instance,
// the kernels nvcc built next to the test binary, and skipping with a reason
// when there is no GPU (CI) or no nvcc (the build skipped the kernels).
#ifndef WEFT_TESTS_DRIVERS_CUDA_GPU_SUPPORT_HPP
#define WEFT_TESTS_DRIVERS_CUDA_GPU_SUPPORT_HPP

#include <string>
#include <vector>
#include <weft/driver/device.hpp>

#include "device.hpp"
#include "driver_test.hpp"
#include "hip_test.hpp"

namespace gpu_test {

// The first CUDA agent of a driver instance private to the test binary; null
// after calling hip_test::skip() with the reason when there is none.
weft::cuda::CudaDevice* gpu();
// Every CUDA agent (for peer tests); may be empty.
const std::vector<weft::Ref<weft::Device>>& all_gpus();

// Bytes of a file built next to the test binary (kernels.cubin, .fatbin, .ptx);
// empty after skip() when missing.
std::vector<std::byte> kernel_file(const std::string& name);

// The test module (kernels.cubin) loaded on gpu(); null after skip().
weft::Ref<weft::Module> kernels();
weft::Ref<weft::Kernel> kernel(const char* name);

// Packs arguments at the offsets CUDA reports for `kernel`.
class ArgPacker {
 public:
  explicit ArgPacker(const weft::Kernel& kernel);
  template <typename T>
  ArgPacker& add(const T& value) {
    put(&value, sizeof(T));
    return *this;
  }
  std::vector<std::byte> bytes() const { return bytes_; }

 private:
  void put(const void* data, size_t size);
  const weft::KernelInfo& info_;
  size_t next_ = 0;
  std::vector<std::byte> bytes_;
};

weft::DispatchOp dispatch(const weft::Ref<weft::Kernel>& kernel, dim3 grid, dim3 block,
                          std::vector<std::byte> args, uint32_t shared = 0);

// Runs `f` at scope exit: releases spinning kernels and blocked waits even when a
// REQUIRE fails, so a failure never turns into a hang of later tests.
template <typename F>
class Finally {
 public:
  explicit Finally(F f) : f_(std::move(f)) {}
  ~Finally() { f_(); }
  Finally(const Finally&) = delete;
  Finally& operator=(const Finally&) = delete;

 private:
  F f_;
};

using hip_test::value_of;

#define WEFT_REQUIRE_OK(expr)        \
  do {                               \
    ::weft::Status weft_s_ = (expr); \
    INFO(weft_s_.message());         \
    REQUIRE(weft_s_.ok());           \
  } while (0)

}  // namespace gpu_test

#endif  // WEFT_TESTS_DRIVERS_CUDA_GPU_SUPPORT_HPP
