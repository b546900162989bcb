// SPDX-License-Identifier: MIT
// The module API on the device under test with the CPU code object that the
// build makes (cpu_kernels.cpp): load from file and from memory, functions,
// globals, launches with kernelParams and with extra, attributes, occupancy,
// unload, and malformed images.
#include "hip_test.hpp"

#include <hip/hip_ext.h>

#include <fstream>
#include <iterator>
#include <numeric>

namespace {

std::vector<char> read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Loads the test object, or skips when the device cannot run CPU code objects.
bool load(hipModule_t* module) {
  hipError_t rc = hipModuleLoad(module, WEFT_TEST_CPU_OBJECT);
  if (rc == hipErrorNoBinaryForGpu) {
    hip_test::skip("the device under test does not run x86_64 code objects");
    return false;
  }
  REQUIRE(rc == hipSuccess);
  return true;
}

struct ModuleGuard {
  hipModule_t m = nullptr;
  ~ModuleGuard() {
    if (m) (void)hipModuleUnload(m);
  }
};

}  // namespace

TEST_CASE("Unit_hipModuleLaunchKernel_Positive_KernelParams") {
  ModuleGuard g;
  if (!load(&g.m)) return;
  hipFunction_t f = nullptr;
  HIP_CHECK(hipModuleGetFunction(&f, g.m, "fill_index"));
  constexpr int n = 1000;
  hip_test::DeviceBuffer<int> out(n);
  int* ptr = out.get();
  int count = n;
  void* params[] = {&ptr, &count};
  HIP_CHECK(hipModuleLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  std::vector<int> host(n);
  HIP_CHECK(hipMemcpy(host.data(), ptr, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) REQUIRE(host[i] == i);
}

TEST_CASE("Unit_hipModuleLaunchKernel_Positive_Extra") {
  ModuleGuard g;
  if (!load(&g.m)) return;
  hipFunction_t f = nullptr;
  // Found by its linker (mangled) name, as hipcc programs register it.
  HIP_CHECK(hipModuleGetFunction(&f, g.m, "_Z4axpyPfPKffi"));
  constexpr int n = 300;
  hip_test::DeviceBuffer<float> x(n), y(n);
  std::vector<float> hx(n), hy(n);
  std::iota(hx.begin(), hx.end(), 0.0f);
  std::fill(hy.begin(), hy.end(), 1.0f);
  HIP_CHECK(hipMemcpy(x.get(), hx.data(), x.bytes(), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(y.get(), hy.data(), y.bytes(), hipMemcpyHostToDevice));
  struct {
    float* y;
    const float* x;
    float a;
    int n;
  } args{y.get(), x.get(), 2.0f, n};
  size_t size = sizeof(args);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   HIP_LAUNCH_PARAM_END};
  HIP_CHECK(hipModuleLaunchKernel(f, 2, 1, 1, 256, 1, 1, 0, nullptr, nullptr, extra));
  HIP_CHECK(hipMemcpy(hy.data(), y.get(), y.bytes(), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) REQUIRE(hy[i] == 2.0f * i + 1.0f);
}

TEST_CASE("Unit_hipModuleLaunchKernel_Positive_PaddedArgumentsAndTemplates") {
  ModuleGuard g;
  if (!load(&g.m)) return;
  hipFunction_t mixed = nullptr, scale = nullptr;
  HIP_CHECK(hipModuleGetFunction(&mixed, g.m, "mixed"));
  HIP_CHECK(hipModuleGetFunction(&scale, g.m, "scale<double>"));
  hip_test::DeviceBuffer<double> out(4);
  char c = 3;
  double d = 0.25;
  short s = -2;
  long l = 1000;
  double* p = out.get();
  void* params[] = {&c, &d, &s, &l, &p};
  HIP_CHECK(hipModuleLaunchKernel(mixed, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  double factor = 4.0;
  int n = 1;
  void* scale_params[] = {&p, &factor, &n};
  HIP_CHECK(hipModuleLaunchKernel(scale, 1, 1, 1, 32, 1, 1, 0, nullptr, scale_params, nullptr));
  double result = 0;
  HIP_CHECK(hipMemcpy(&result, p, sizeof(result), hipMemcpyDeviceToHost));
  CHECK(result == 4.0 * (3 + 0.25 - 2 + 1000));
}

TEST_CASE("Unit_hipModuleLaunchKernel_Positive_BarriersAndDynamicShared") {
  ModuleGuard g;
  if (!load(&g.m)) return;
  hipFunction_t sum = nullptr, rev = nullptr;
  HIP_CHECK(hipModuleGetFunction(&sum, g.m, "block_sum"));
  HIP_CHECK(hipModuleGetFunction(&rev, g.m, "reverse_dynamic"));
  constexpr int blocks = 8, threads = 256;
  std::vector<int> host(blocks * threads);
  std::iota(host.begin(), host.end(), 0);
  hip_test::DeviceBuffer<int> in(host.size()), out(blocks);
  HIP_CHECK(hipMemcpy(in.get(), host.data(), in.bytes(), hipMemcpyHostToDevice));
  int* pin = in.get();
  int* pout = out.get();
  void* params[] = {&pin, &pout};
  HIP_CHECK(hipModuleLaunchKernel(sum, blocks, 1, 1, threads, 1, 1, 0, nullptr, params, nullptr));
  std::vector<int> sums(blocks);
  HIP_CHECK(hipMemcpy(sums.data(), pout, out.bytes(), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    int expected = 0;
    for (int t = 0; t < threads; ++t) expected += b * threads + t;
    REQUIRE(sums[b] == expected);
  }
  void* rev_params[] = {&pin};
  HIP_CHECK(hipModuleLaunchKernel(rev, 1, 1, 1, 64, 1, 1, 64 * sizeof(int), nullptr, rev_params,
                                  nullptr));
  HIP_CHECK(hipMemcpy(host.data(), pin, 64 * sizeof(int), hipMemcpyDeviceToHost));
  for (int t = 0; t < 64; ++t) REQUIRE(host[t] == 63 - t);
}

TEST_CASE("Unit_hipModuleGetGlobal_Positive_ReadWrite") {
  ModuleGuard g;
  if (!load(&g.m)) return;
  hipDeviceptr_t table = nullptr;
  size_t bytes = 0;
  HIP_CHECK(hipModuleGetGlobal(&table, &bytes, g.m, "table"));
  CHECK(bytes == 16 * sizeof(int));
  std::vector<int> values(16);
  std::iota(values.begin(), values.end(), 100);
  HIP_CHECK(hipMemcpyHtoD(table, values.data(), bytes));
  hipFunction_t f = nullptr;
  HIP_CHECK(hipModuleGetFunction(&f, g.m, "read_table"));
  hip_test::DeviceBuffer<int> out(16);
  int* p = out.get();
  void* params[] = {&p};
  HIP_CHECK(hipModuleLaunchKernel(f, 1, 1, 1, 16, 1, 1, 0, nullptr, params, nullptr));
  std::vector<int> host(16);
  HIP_CHECK(hipMemcpy(host.data(), p, out.bytes(), hipMemcpyDeviceToHost));
  for (int i = 0; i < 16; ++i) REQUIRE(host[i] == 101 + i);
  HIP_CHECK_ERROR(hipModuleGetGlobal(&table, &bytes, g.m, "no_such_global"), hipErrorNotFound);
}

TEST_CASE("Unit_hipModuleLoadData_Positive_FromMemory") {
  auto bytes = read_file(WEFT_TEST_CPU_OBJECT);
  hipModule_t m = nullptr;
  hipError_t rc = hipModuleLoadData(&m, bytes.data());
  if (rc == hipErrorNoBinaryForGpu) {
    hip_test::skip("the device under test does not run x86_64 code objects");
    return;
  }
  HIP_CHECK(rc);
  hipFunction_t f = nullptr;
  HIP_CHECK(hipModuleGetFunction(&f, m, "fill_index"));
  CHECK(std::string(hipKernelNameRef(f)) == "fill_index");
  hipModule_t m2 = nullptr;
  HIP_CHECK(hipModuleLoadDataEx(&m2, bytes.data(), 0, nullptr, nullptr));
  HIP_CHECK(hipModuleUnload(m2));
  HIP_CHECK(hipModuleUnload(m));
  HIP_CHECK_ERROR(hipModuleUnload(m), hipErrorInvalidResourceHandle);
  HIP_CHECK_ERROR(hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
                  hipErrorInvalidResourceHandle);
}

TEST_CASE("Unit_hipModuleLoad_Negative_BadInput") {
  hipModule_t m = nullptr;
  HIP_CHECK_ERROR(hipModuleLoad(&m, "/nonexistent/weft/kernels.so"), hipErrorFileNotFound);
  HIP_CHECK_ERROR(hipModuleLoad(nullptr, WEFT_TEST_CPU_OBJECT), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipModuleLoadData(&m, nullptr), hipErrorInvalidValue);
  const char garbage[64] = "this is not a code object";
  HIP_CHECK_ERROR(hipModuleLoadData(&m, garbage), hipErrorInvalidImage);
  // A truncated ELF: the headers promise more than is there, so weft must notice
  // when it reads the copy it made (the headers are intact, the tables are not).
  auto bytes = read_file(WEFT_TEST_CPU_OBJECT);
  std::vector<char> broken(bytes.begin(), bytes.end());
  std::fill(broken.begin() + 64, broken.end(), 0);
  broken[40] = 0x40;  // e_shoff = 64: section headers of zeros
  broken[41] = 0;
  broken[42] = 0;
  broken[43] = 0;
  HIP_CHECK_ERROR(hipModuleLoadData(&m, broken.data()), hipErrorInvalidImage);
}

TEST_CASE("Unit_hipModuleLaunchKernel_Negative_Arguments") {
  ModuleGuard g;
  if (!load(&g.m)) return;
  hipFunction_t f = nullptr;
  HIP_CHECK(hipModuleGetFunction(&f, g.m, "fill_index"));
  HIP_CHECK_ERROR(hipModuleGetFunction(&f, g.m, "no_such_kernel"), hipErrorNotFound);
  int* p = nullptr;
  int n = 0;
  void* params[] = {&p, &n};
  size_t size = 16;
  char buffer[16] = {};
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, buffer, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   HIP_LAUNCH_PARAM_END};
  HIP_CHECK_ERROR(hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, extra),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
                  hipErrorInvalidValue);
  size = 4;  // smaller than the kernel's 12 bytes of arguments
  HIP_CHECK_ERROR(hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, extra),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipModuleLaunchKernel(f, 0, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipModuleLaunchKernel(f, 1, 1, 1, 4096, 1, 1, 0, nullptr, params, nullptr),
                  hipErrorInvalidConfiguration);
  hipFunction_t sum = nullptr;
  HIP_CHECK(hipModuleGetFunction(&sum, g.m, "block_sum"));  // listed with a 256-thread limit
  HIP_CHECK_ERROR(hipModuleLaunchKernel(sum, 1, 1, 1, 512, 1, 1, 0, nullptr, params, nullptr),
                  hipErrorInvalidConfiguration);
  HIP_CHECK_ERROR(hipModuleLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr),
                  hipErrorInvalidResourceHandle);
}

TEST_CASE("Unit_hipFuncGetAttribute_Positive_CpuKernel") {
  ModuleGuard g;
  if (!load(&g.m)) return;
  hipFunction_t sum = nullptr;
  HIP_CHECK(hipModuleGetFunction(&sum, g.m, "block_sum"));
  int value = 0;
  HIP_CHECK(hipFuncGetAttribute(&value, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, sum));
  CHECK(value == 256);
  HIP_CHECK(hipFuncGetAttribute(&value, HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, sum));
  CHECK(value == static_cast<int>(hip_test::props().sharedMemPerBlock));
  HIP_CHECK_ERROR(hipFuncGetAttribute(&value, HIP_FUNC_ATTRIBUTE_MAX, sum), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipFuncGetAttribute(nullptr, HIP_FUNC_ATTRIBUTE_NUM_REGS, sum),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipModuleOccupancy_Positive_CpuAgentAnswers") {
  ModuleGuard g;
  if (!load(&g.m)) return;
  hipFunction_t f = nullptr, sum = nullptr;
  HIP_CHECK(hipModuleGetFunction(&f, g.m, "fill_index"));
  HIP_CHECK(hipModuleGetFunction(&sum, g.m, "block_sum"));
  const auto& p = hip_test::props();
  int blocks = -1;
  HIP_CHECK(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 128, 0));
  // The CPU agent runs one block per worker at a time.
  CHECK(blocks == p.maxBlocksPerMultiProcessor);
  HIP_CHECK(
      hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, p.maxThreadsPerBlock + 1, 0));
  CHECK(blocks == 0);
  int grid = 0, block = 0;
  HIP_CHECK(hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, f, 0, 0));
  CHECK(block == p.maxThreadsPerBlock);
  CHECK(grid == p.multiProcessorCount * p.maxBlocksPerMultiProcessor);
  HIP_CHECK(hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, sum, 0, 0));
  CHECK(block == 256);
  HIP_CHECK(hipModuleOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, f, 0, 100, 0));
  CHECK(block <= 100);
  HIP_CHECK_ERROR(
      hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, f, 64, 0, 0x10),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 0, 0),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipExtModuleLaunchKernel_Positive_WorkItemsEventsAndLaunchEx") {
  ModuleGuard g;
  if (!load(&g.m)) return;
  hipFunction_t f = nullptr;
  HIP_CHECK(hipModuleGetFunction(&f, g.m, "fill_index"));
  constexpr int n = 512;
  hip_test::DeviceBuffer<int> out(n);
  int* p = out.get();
  int count = n;
  void* params[] = {&p, &count};
  hip_test::Event start, stop;
  HIP_CHECK(hipExtModuleLaunchKernel(f, n, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr,
                                     start.get(), stop.get(), 0));
  HIP_CHECK(hipEventSynchronize(stop.get()));
  std::vector<int> host(n);
  HIP_CHECK(hipMemcpy(host.data(), p, out.bytes(), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) REQUIRE(host[i] == i);
  HIP_CHECK_ERROR(hipExtModuleLaunchKernel(f, 100, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr,
                                           nullptr, nullptr, 0),
                  hipErrorInvalidValue);  // not whole blocks
  HIP_CHECK(hipMemset(p, 0, out.bytes()));
  HIP_LAUNCH_CONFIG config{};
  config.gridDimX = config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = n;
  config.blockDimY = config.blockDimZ = 1;
  HIP_CHECK(hipDrvLaunchKernelEx(&config, f, params, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(host.data(), p, out.bytes(), hipMemcpyDeviceToHost));
  CHECK(host[n - 1] == n - 1);
  HIP_CHECK_ERROR(hipDrvLaunchKernelEx(nullptr, f, params, nullptr), hipErrorInvalidValue);
}
