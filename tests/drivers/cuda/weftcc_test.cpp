// SPDX-License-Identifier: MIT
// weftcc's NVIDIA image on a real GPU: tests/weftcc_gpu/primitives.hip, built at
// build time by weftcc's NVIDIA device step for sm_90 (kernels.weftcc_sm_90: a
// fatbin of the sm_90 cubin and sm_86 PTX; kernels.weftcc_sm_90.ptx: the PTX),
// loaded with hipModuleLoadData on the NVIDIA agent. Each kernel exercises one
// group of the nvptx device layer's primitives; every result is checked against
// the value the host computes. Also: the PTX alone, in an offload bundle entry
// for sm_86, is chosen for an sm_90 GPU and JIT-compiled by the driver.
// The Cuda_Weftcc_Language cases run tests/weftcc_gpu/language.hip, HIP source
// through weft's HIP-mode headers (kernels.weftcc_language_sm_90).
// Without an NVIDIA agent, or without the image (no CUDA toolkit at build
// time), each case prints SKIPPED; the binary then exits 77.
#include <unistd.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

#include "hip_test.hpp"

namespace {

int nvidia_gpu_or_skip() {
  int count = 0;
  if (hipGetDeviceCount(&count) == hipSuccess) {
    for (int i = 0; i < count; ++i) {
      hipDeviceProp_t p{};
      if (hipGetDeviceProperties(&p, i) == hipSuccess &&
          std::string(p.gcnArchName).rfind("sm_", 0) == 0) {
        HIP_CHECK(hipSetDevice(i));
        return i;
      }
    }
  }
  hip_test::skip("no NVIDIA agent (AMD_LOG_LEVEL=3 says why)");
  return -1;
}

std::filesystem::path kernel_dir() {
  if (const char* dir = std::getenv("WEFT_CUDA_TEST_KERNELS"); dir && *dir) return dir;
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::current_path() : self.parent_path();
}

// The image device_step.py wrote; empty after skip(). A compile that failed at
// build time left its diagnostics there: that fails the test.
std::vector<char> image_or_skip(const char* name) {
  auto path = kernel_dir() / name;
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty()) {
    hip_test::skip(path.string() +
                   " is missing or empty (weftcc's NVIDIA step needs a CUDA toolkit's libdevice)");
    return bytes;
  }
  std::string head(bytes.begin(), bytes.begin() + std::min<size_t>(bytes.size(), 13));
  INFO(std::string(bytes.begin(), bytes.end()));
  REQUIRE(head != "weftcc-error\n");
  return bytes;
}

struct Module {
  hipModule_t module = nullptr;
  explicit Module(const std::vector<char>& image) {
    HIP_CHECK(hipModuleLoadData(&module, image.data()));
  }
  ~Module() {
    if (module) (void)hipModuleUnload(module);
  }
  hipFunction_t function(const char* name) const {
    hipFunction_t f = nullptr;
    HIP_CHECK(hipModuleGetFunction(&f, module, name));
    return f;
  }
};

template <typename T>
struct DeviceArray {
  T* ptr = nullptr;
  size_t n;
  explicit DeviceArray(size_t count, const std::vector<T>& init = {}) : n(count) {
    HIP_CHECK(hipMalloc(&ptr, n * sizeof(T)));
    if (init.empty()) HIP_CHECK(hipMemset(ptr, 0, n * sizeof(T)));
    else HIP_CHECK(hipMemcpy(ptr, init.data(), n * sizeof(T), hipMemcpyHostToDevice));
  }
  ~DeviceArray() { (void)hipFree(ptr); }
  std::vector<T> read() const {
    std::vector<T> out(n);
    HIP_CHECK(hipMemcpy(out.data(), ptr, n * sizeof(T), hipMemcpyDeviceToHost));
    return out;
  }
};

void launch(hipFunction_t f, dim3 grid, dim3 block, std::vector<void*> params) {
  HIP_CHECK(hipModuleLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, nullptr,
                                  params.data(), nullptr));
  HIP_CHECK(hipDeviceSynchronize());
}

// Float results within a few units in the last place of the host's (libdevice's
// documented bounds are 1-2 ulp; the host's own error and a product add a few for these functions).
bool near(double got, double want, double eps) {
  return std::fabs(got - want) <= 8 * eps * std::fabs(want);
}

}  // namespace

TEST_CASE("Cuda_Weftcc_Ids") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_sm_90");
  if (image.empty()) return;
  Module m(image);
  dim3 grid(3, 2, 2), block(8, 4, 2);
  const size_t threads = 12 * 64;
  DeviceArray<uint32_t> out(threads * 12);
  launch(m.function("ids"), grid, block, {&out.ptr});
  auto o = out.read();
  size_t flat = 0, bad = 0;
  for (uint32_t bz = 0; bz < 2; ++bz)
    for (uint32_t by = 0; by < 2; ++by)
      for (uint32_t bx = 0; bx < 3; ++bx)
        for (uint32_t tz = 0; tz < 2; ++tz)
          for (uint32_t ty = 0; ty < 4; ++ty)
            for (uint32_t tx = 0; tx < 8; ++tx, ++flat) {
              const uint32_t want[12] = {tx, ty, tz, bx, by, bz, 8, 4, 2, 3, 2, 2};
              bad += std::memcmp(want, &o[flat * 12], sizeof(want)) != 0;
            }
  CHECK(flat == threads);
  CHECK(bad == 0);
}

TEST_CASE("Cuda_Weftcc_WarpShuffleBallotVote") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_sm_90");
  if (image.empty()) return;
  Module m(image);
  const uint32_t n = 128;
  DeviceArray<uint32_t> out(n * 6);
  launch(m.function("shuffles"), dim3(2), dim3(64), {&out.ptr});
  auto o = out.read();
  for (uint32_t g = 0; g < n; ++g) {
    INFO("thread " << g);
    uint32_t lane = g % 32, base = g - lane;
    CHECK(o[g * 6 + 0] == lane);
    CHECK(o[g * 6 + 1] == (g ^ 1) * 3 + 1);
    CHECK(o[g * 6 + 2] == (base + (lane + 1) % 32) * 3 + 1);
    CHECK(o[g * 6 + 3] == 0xAAAAAAAAu);
    CHECK(o[g * 6 + 4] == 0xFu);  // lanes 0..3
    CHECK(o[g * 6 + 5] == base + 3);
  }
}

// Only the lower half of each warp runs the read; its sources (lane + 16) are
// inactive, so every lane keeps its own value.
TEST_CASE("Cuda_Weftcc_WarpReadOfInactiveLaneKeepsOwnValue") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_sm_90");
  if (image.empty()) return;
  Module m(image);
  DeviceArray<uint32_t> out(64);
  launch(m.function("half_warp"), dim3(1), dim3(64), {&out.ptr});
  auto o = out.read();
  for (uint32_t g = 0; g < 64; ++g) CHECK(o[g] == (g % 32 < 16 ? 1000 + g : 0u));
}

TEST_CASE("Cuda_Weftcc_Atomics") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_sm_90");
  if (image.empty()) return;
  Module m(image);
  const uint32_t n = 1024;
  DeviceArray<uint32_t> u(9, {0, 0, 0, 0, 0xffffffffu, 0, 0, n, 0xffffffffu});
  DeviceArray<unsigned long long> l(1);
  DeviceArray<float> f(2);
  launch(m.function("atomics"), dim3(4), dim3(256), {&u.ptr, &l.ptr, &f.ptr});
  auto uv = u.read();
  CHECK(uv[0] == n);
  CHECK(uv[1] == n - 1);
  CHECK(uv[2] == n % 1000);  // atomicInc wraps to 0 after 999
  CHECK(uv[3] == 2 * n);
  CHECK(uv[4] == 0);
  CHECK(uv[5] == 0xffffffffu);
  CHECK(uv[6] == n);
  CHECK(uv[7] == 0);
  CHECK(uv[8] == 0);
  CHECK(l.read()[0] == uint64_t(n) * (n - 1) / 2);
  auto fv = f.read();
  CHECK(fv[0] == 0.5f * n);
  CHECK(fv[1] == 0.25f * n);
}

TEST_CASE("Cuda_Weftcc_MathFromLibdevice") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_sm_90");
  if (image.empty()) return;
  Module m(image);
  int n = 1000;
  std::vector<float> xf(n);
  std::vector<double> xd(n);
  for (int i = 0; i < n; ++i) xf[i] = 0.01f + 0.0173f * i, xd[i] = 0.003 + 0.0191 * i;
  DeviceArray<float> dxf(n, xf), dyf(n * 6);
  DeviceArray<double> dxd(n, xd), dyd(n * 6);
  launch(m.function("math"), dim3((n + 127) / 128), dim3(128),
         {&dxf.ptr, &dyf.ptr, &dxd.ptr, &dyd.ptr, &n});
  auto yf = dyf.read();
  auto yd = dyd.read();
  size_t bad = 0;
  for (int i = 0; i < n; ++i) {
    double x = xf[i];
    int e = 0;
    float fr = std::frexp(xf[i], &e);
    const double wantf[6] = {std::sin(x),
                             std::exp(x),
                             std::pow(x, 1.5),
                             std::sqrt(x),
                             std::fma(xf[i], 3.0f, 1.0f),
                             double(fr + float(e))};
    for (int k = 0; k < 6; ++k)
      if (!near(yf[i * 6 + k], wantf[k], FLT_EPSILON)) {
        ++bad;
        UNSCOPED_INFO("float fn " << k << " at x=" << x << ": " << yf[i * 6 + k] << " want "
                                  << wantf[k]);
      }
    double y = xd[i];
    const double wantd[6] = {std::sin(y),
                             std::exp(y),
                             std::log1p(y),
                             std::atan2(y, 2.0),
                             std::sin(y) * std::cos(y),
                             std::cbrt(y) + std::ldexp(y, 3)};
    for (int k = 0; k < 6; ++k)
      if (!near(yd[i * 6 + k], wantd[k], DBL_EPSILON)) {
        ++bad;
        UNSCOPED_INFO("double fn " << k << " at x=" << y << ": " << yd[i * 6 + k] << " want "
                                   << wantd[k]);
      }
  }
  CHECK(bad == 0);
}

TEST_CASE("Cuda_Weftcc_BarrierReductions") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_sm_90");
  if (image.empty()) return;
  Module m(image);
  DeviceArray<int> out(5);
  launch(m.function("barriers"), dim3(1), dim3(256), {&out.ptr});
  auto o = out.read();
  CHECK(o[0] == 86);  // tid % 3 == 0 for 0, 3, ..., 255
  CHECK(o[1] == 1);
  CHECK(o[2] == 0);
  CHECK(o[3] == 1);
  CHECK(o[4] == 256);
}

TEST_CASE("Cuda_Weftcc_ClocksAdvance") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_sm_90");
  if (image.empty()) return;
  Module m(image);
  DeviceArray<long long> t(5);
  launch(m.function("clocks"), dim3(1), dim3(32), {&t.ptr});
  auto v = t.read();
  CHECK(v[1] > v[0]);  // cycles passed during the 20 µs sleep
  CHECK(v[3] > v[2]);  // and the nanosecond timer moved
  CHECK(v[4] == 1000000);
}

TEST_CASE("Cuda_Weftcc_DynamicSharedBaseIsTheUsersArray") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_sm_90");
  if (image.empty()) return;
  Module m(image);
  DeviceArray<uint32_t> out(64);
  void* params[] = {&out.ptr};
  HIP_CHECK(hipModuleLaunchKernel(m.function("dynamic_shared"), 1, 1, 1, 64, 1, 1, 256, nullptr,
                                  params, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  auto o = out.read();
  for (uint32_t t = 0; t < 64; ++t) CHECK(o[t] == (63 - t) * 7);
}

TEST_CASE("Cuda_Weftcc_GridSyncInCooperativeLaunch") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_sm_90");
  if (image.empty()) return;
  Module m(image);
  DeviceArray<uint32_t> sum(1), out(8);
  void* params[] = {&sum.ptr, &out.ptr};
  HIP_CHECK(hipModuleLaunchCooperativeKernel(m.function("grid_sync"), 8, 1, 1, 64, 1, 1, 0, nullptr,
                                             params));
  HIP_CHECK(hipDeviceSynchronize());
  auto o = out.read();
  for (uint32_t b = 0; b < 8; ++b)
    CHECK(o[b] == 36u);  // 1 + 2 + ... + 8, seen after the barrier by every block
}

TEST_CASE("Cuda_Weftcc_TemplateKernelByMangledName") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_sm_90");
  if (image.empty()) return;
  Module m(image);
  int n = 1000;
  std::vector<float> p(n);
  std::iota(p.begin(), p.end(), 0.0f);
  DeviceArray<float> d(n, p);
  float s = 2.5f;
  launch(m.function("_Z5scaleIfEvPT_S0_i"), dim3(8), dim3(128), {&d.ptr, &s, &n});
  auto out = d.read();
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == float(i) * 2.5f);
}

// The PTX alone (written for sm_86) in an offload bundle entry for sm_86: the core
// offers it to the sm_90 GPU (PTX runs on later GPUs) and the driver JIT-compiles it.
TEST_CASE("Cuda_Weftcc_PtxBundleEntryForEarlierSmIsJitCompiled") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto ptx = image_or_skip("kernels.weftcc_sm_90.ptx");
  if (ptx.empty()) return;
  const std::string id = "hipv4-nvptx64-nvidia-cuda--sm_86";
  auto put = [](std::vector<char>& b, uint64_t v) {
    for (int i = 0; i < 8; ++i) b.push_back(char(v >> (8 * i)));
  };
  std::vector<char> bundle(std::begin("__CLANG_OFFLOAD_BUNDLE__"),
                           std::end("__CLANG_OFFLOAD_BUNDLE__") - 1);
  put(bundle, 1);
  const uint64_t offset = 4096;
  put(bundle, offset);
  put(bundle, ptx.size());
  put(bundle, id.size());
  bundle.insert(bundle.end(), id.begin(), id.end());
  bundle.resize(offset, 0);
  bundle.insert(bundle.end(), ptx.begin(), ptx.end());
  Module m(bundle);
  DeviceArray<int> out(5);
  launch(m.function("barriers"), dim3(1), dim3(96), {&out.ptr});
  auto o = out.read();
  CHECK(o[0] == 32);
  CHECK(o[4] == 96);
}

TEST_CASE("Cuda_Weftcc_Language_BlockSumWithShufflesSharedAndAtomics") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_language_sm_90");
  if (image.empty()) return;
  Module m(image);
  int n = 10000;
  std::vector<float> in(n);
  double want = 0;
  for (int i = 0; i < n; ++i) in[i] = float(i % 7), want += i % 7;
  DeviceArray<float> din(n, in), dout(1);
  void* params[] = {&din.ptr, &dout.ptr, &n};
  HIP_CHECK(hipModuleLaunchKernel(m.function("_Z9block_sumIfEvPKT_PS0_i"), (n + 255) / 256, 1, 1,
                                  256, 1, 1, 256, nullptr, params, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  CHECK(dout.read()[0] == float(want));  // integers below 2^24: exact in any order
}

TEST_CASE("Cuda_Weftcc_Language_CmathOverloads") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_language_sm_90");
  if (image.empty()) return;
  Module m(image);
  int n = 1000;
  std::vector<float> xf(n);
  std::vector<double> xd(n);
  for (int i = 0; i < n; ++i) xf[i] = 0.01f + 0.0173f * i, xd[i] = 0.003 + 0.0191 * i;
  DeviceArray<float> dxf(n, xf), dyf(n * 3);
  DeviceArray<double> dxd(n, xd), dyd(n * 3);
  launch(m.function("std_math"), dim3((n + 127) / 128), dim3(128),
         {&dxf.ptr, &dyf.ptr, &dxd.ptr, &dyd.ptr, &n});
  auto yf = dyf.read();
  auto yd = dyd.read();
  size_t bad = 0;
  auto close = [](double got, double want, double eps) {
    return std::fabs(got - want) <= 16 * eps * std::max(1.0, std::fabs(want));
  };
  for (int i = 0; i < n; ++i) {
    double x = xf[i], y = xd[i];
    const double wf[3] = {std::sin(x) + std::cos(x), std::exp(x) / std::sqrt(x),
                          std::sin(x) * x + std::floor(x)};
    const double wd[3] = {std::log(y) + std::pow(y, 2.5), std::atan2(y, 1.0) + std::tanh(y),
                          std::hypot(y, 3.0) + std::fmod(y, 0.7)};
    for (int k = 0; k < 3; ++k) {
      if (!close(yf[i * 3 + k], wf[k], FLT_EPSILON)) {
        ++bad;
        UNSCOPED_INFO("float " << k << " at " << x << ": " << yf[i * 3 + k] << " want " << wf[k]);
      }
      if (!close(yd[i * 3 + k], wd[k], DBL_EPSILON)) {
        ++bad;
        UNSCOPED_INFO("double " << k << " at " << y << ": " << yd[i * 3 + k] << " want " << wd[k]);
      }
    }
  }
  CHECK(bad == 0);
}

TEST_CASE("Cuda_Weftcc_Language_VotesAndShuffles") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_language_sm_90");
  if (image.empty()) return;
  Module m(image);
  DeviceArray<unsigned> out(64 * 6);
  launch(m.function("votes"), dim3(1), dim3(64), {&out.ptr});
  auto o = out.read();
  for (unsigned t = 0; t < 64; ++t) {
    INFO("thread " << t);
    unsigned lane = t % 32;
    CHECK(o[t * 6 + 0] == 0xAAAAAAAAu);
    CHECK(o[t * 6 + 1] == 1u);
    CHECK(o[t * 6 + 2] == 1u);
    CHECK(o[t * 6 + 3] == (lane % 8 == 0 ? lane : lane - 1));
    CHECK(o[t * 6 + 4] == (lane + 2 < 32 ? lane + 2 : lane));
    CHECK(o[t * 6 + 5] == 50u);
  }
}

TEST_CASE("Cuda_Weftcc_Language_Atomics") {
  if (nvidia_gpu_or_skip() < 0) return;
  auto image = image_or_skip("kernels.weftcc_language_sm_90");
  if (image.empty()) return;
  Module m(image);
  const int n = 1024;
  DeviceArray<int> c(8, {0, 0, 0, 0, -1, 0, n, 0});
  DeviceArray<unsigned> u(2);
  DeviceArray<float> f(1);
  launch(m.function("counters"), dim3(4), dim3(256), {&c.ptr, &u.ptr, &f.ptr});
  auto cv = c.read();
  auto uv = u.read();
  CHECK(cv[0] == n);
  CHECK(cv[1] == n - 1);
  CHECK(uv[0] == unsigned(n % 100));  // atomicInc wraps to 0 after 99
  CHECK(cv[3] == 3 * n);
  CHECK(cv[4] >= 0);
  CHECK(cv[4] < n);
  CHECK(cv[5] == 128);
  CHECK(cv[6] == 0);
  CHECK(uv[1] == 0xffffffffu);
  CHECK(f.read()[0] == 0.25f * n);
}
