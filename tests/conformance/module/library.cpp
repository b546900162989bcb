// SPDX-License-Identifier: MIT
// Conformance: library and kernel objects (hipLibrary*, hipKernel*) and
// hipModuleGetFunctionCount, on the CPU code object of module_kernels.cpp.
#include "hip_test.hpp"
#include "test_files.hpp"

#include <fstream>
#include <iterator>
#include <set>
#include <string>

// Found next to the executable when the tests run outside the build tree.
static const std::string kModuleObject = hip_test::helper_file(WEFT_TEST_MODULE_OBJECT);

namespace {

const std::set<std::string> kKernelNames = {"write_index", "add_scalar", "grid_total"};

std::vector<char> file_bytes(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Loads the test library, or skips when the device under test cannot run CPU code objects.
bool load_library(hipLibrary_t* library) {
  const hipError_t rc = hipLibraryLoadFromFile(library, kModuleObject.c_str(), nullptr, nullptr, 0,
                                               nullptr, nullptr, 0);
  if (rc == hipErrorNoBinaryForGpu || rc == hipErrorInvalidImage) {
    hip_test::skip("the device under test does not load CPU code objects");
    return false;
  }
  HIP_CHECK(rc);
  return true;
}

}  // namespace

TEST_CASE("Unit_hipModuleGetFunctionCount_Positive") {
  hipModule_t module = nullptr;
  const hipError_t rc = hipModuleLoad(&module, kModuleObject.c_str());
  if (rc == hipErrorNoBinaryForGpu || rc == hipErrorInvalidImage) {
    hip_test::skip("the device under test does not load CPU code objects");
    return;
  }
  HIP_CHECK(rc);
  unsigned count = 0;
  HIP_CHECK(hipModuleGetFunctionCount(&count, module));
  REQUIRE(count == kKernelNames.size());
  HIP_CHECK_ERROR(hipModuleGetFunctionCount(nullptr, module), hipErrorInvalidValue);
  HIP_CHECK(hipModuleUnload(module));
  HIP_CHECK_ERROR(hipModuleGetFunctionCount(&count, module), hipErrorInvalidResourceHandle);
}

TEST_CASE("Unit_hipLibrary_Positive_EnumerateAndLaunch") {
  hipLibrary_t library = nullptr;
  if (!load_library(&library)) return;
  unsigned count = 0;
  HIP_CHECK(hipLibraryGetKernelCount(&count, library));
  REQUIRE(count == kKernelNames.size());

  std::vector<hipKernel_t> kernels(count, nullptr);
  HIP_CHECK(hipLibraryEnumerateKernels(kernels.data(), count, library));
  std::set<std::string> names;
  for (hipKernel_t k : kernels) {
    const char* name = nullptr;
    HIP_CHECK(hipKernelGetName(&name, k));
    REQUIRE(name != nullptr);
    names.insert(name);
    hipLibrary_t owner = nullptr;
    HIP_CHECK(hipKernelGetLibrary(&owner, k));
    REQUIRE(owner == library);
  }
  REQUIRE(names == kKernelNames);

  // By name: the same object as the enumeration's.
  hipKernel_t add = nullptr;
  HIP_CHECK(hipLibraryGetKernel(&add, library, "add_scalar"));
  REQUIRE(std::find(kernels.begin(), kernels.end(), add) != kernels.end());

  // Parameters of add_scalar(float*, float, int): offsets 0, 8, 12.
  size_t offset = 99, size = 99;
  HIP_CHECK(hipKernelGetParamInfo(add, 0, &offset, &size));
  REQUIRE(offset == 0);
  REQUIRE(size == sizeof(float*));
  HIP_CHECK(hipKernelGetParamInfo(add, 1, &offset, &size));
  REQUIRE(offset == 8);
  REQUIRE(size == sizeof(float));
  HIP_CHECK(hipKernelGetParamInfo(add, 2, &offset, &size));
  REQUIRE(offset == 12);
  REQUIRE(size == sizeof(int));
  HIP_CHECK_ERROR(hipKernelGetParamInfo(add, 3, &offset, &size), hipErrorInvalidValue);

  // Launch through the current device's function.
  hipFunction_t function = nullptr;
  HIP_CHECK(hipKernelGetFunction(&function, add));
  constexpr int kN = 200;
  std::vector<float> host(kN);
  for (int i = 0; i < kN; ++i) host[i] = static_cast<float>(i);
  hip_test::DeviceBuffer<float> y(kN);
  HIP_CHECK(hipMemcpy(y.get(), host.data(), y.bytes(), hipMemcpyHostToDevice));
  float* y_ptr = y.get();
  float a = 2.5f;
  int n = kN;
  void* params[] = {&y_ptr, &a, &n};
  HIP_CHECK(
      hipModuleLaunchKernel(function, (kN + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  HIP_CHECK(hipMemcpy(host.data(), y.get(), y.bytes(), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) REQUIRE(host[i] == static_cast<float>(i) + 2.5f);

  // Unloading invalidates the kernels and their functions.
  HIP_CHECK(hipLibraryUnload(library));
  const char* name = nullptr;
  HIP_CHECK_ERROR(hipKernelGetName(&name, add), hipErrorInvalidResourceHandle);
  HIP_CHECK_ERROR(hipModuleLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr),
                  hipErrorInvalidResourceHandle);
  HIP_CHECK_ERROR(hipLibraryUnload(library), hipErrorInvalidResourceHandle);
}

TEST_CASE("Unit_hipLibraryLoadData_Positive") {
  std::vector<char> image = file_bytes(kModuleObject.c_str());
  REQUIRE(!image.empty());
  hipLibrary_t library = nullptr;
  hipLibraryOption option = hipLibraryBinaryIsPreserved;
  void* option_value = nullptr;
  const hipError_t rc =
      hipLibraryLoadData(&library, image.data(), nullptr, nullptr, 0, &option, &option_value, 1);
  if (rc == hipErrorNoBinaryForGpu || rc == hipErrorInvalidImage) {
    hip_test::skip("the device under test does not load CPU code objects");
    return;
  }
  HIP_CHECK(rc);
  hipKernel_t k = nullptr;
  HIP_CHECK(hipLibraryGetKernel(&k, library, "write_index"));
  hipFunction_t f = nullptr;
  HIP_CHECK(hipKernelGetFunction(&f, k));
  hip_test::DeviceBuffer<int> out(32);
  int* out_ptr = out.get();
  int base = 1000;
  void* params[] = {&out_ptr, &base};
  HIP_CHECK(hipModuleLaunchKernel(f, 2, 1, 1, 16, 1, 1, 0, nullptr, params, nullptr));
  std::vector<int> host(32);
  HIP_CHECK(hipMemcpy(host.data(), out.get(), out.bytes(), hipMemcpyDeviceToHost));
  for (int i = 0; i < 32; ++i) REQUIRE(host[i] == 1000 + i);
  HIP_CHECK(hipLibraryUnload(library));
}

TEST_CASE("Unit_hipKernelAttribute_Positive_SetGet") {
  hipLibrary_t library = nullptr;
  if (!load_library(&library)) return;
  hipKernel_t k = nullptr;
  HIP_CHECK(hipLibraryGetKernel(&k, library, "write_index"));
  const int device = hip_test::device();
  int value = 0;
  HIP_CHECK(hipKernelGetAttribute(&value, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, device));
  REQUIRE(value > 0);
  REQUIRE(value <= hip_test::props().maxThreadsPerBlock);

  HIP_CHECK(
      hipKernelSetAttribute(HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024, k, device));
  HIP_CHECK(
      hipKernelGetAttribute(&value, HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, device));
  REQUIRE(value == 1024);
  // The limit holds for launches of the kernel's function.
  hipFunction_t f = nullptr;
  HIP_CHECK(hipKernelGetFunction(&f, k));
  hip_test::DeviceBuffer<int> out(1);
  int* out_ptr = out.get();
  int base = 0;
  void* params[] = {&out_ptr, &base};
  HIP_CHECK_ERROR(hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 2048, nullptr, params, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK(hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 512, nullptr, params, nullptr));
  HIP_CHECK(hipDeviceSynchronize());

  HIP_CHECK(
      hipKernelSetAttribute(HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50, k, device));
  HIP_CHECK(hipKernelGetAttribute(&value, HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, k,
                                  device));
  REQUIRE(value == 50);

  // Read-only attributes and bad values are refused.
  HIP_CHECK_ERROR(hipKernelSetAttribute(HIP_FUNC_ATTRIBUTE_NUM_REGS, 1, k, device),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipKernelSetAttribute(HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101, k, device),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipKernelGetAttribute(nullptr, HIP_FUNC_ATTRIBUTE_NUM_REGS, k, device),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipKernelGetAttribute(&value, HIP_FUNC_ATTRIBUTE_NUM_REGS, k, -1),
                  hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipKernelGetAttribute(&value, HIP_FUNC_ATTRIBUTE_NUM_REGS, k, 1 << 20),
                  hipErrorInvalidDevice);
  HIP_CHECK(hipLibraryUnload(library));
}

TEST_CASE("Unit_hipLibrary_Negative") {
  hipLibrary_t library = nullptr;
  HIP_CHECK_ERROR(hipLibraryLoadFromFile(nullptr, kModuleObject.c_str(), nullptr, nullptr, 0,
                                         nullptr, nullptr, 0),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipLibraryLoadFromFile(&library, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipLibraryLoadFromFile(&library, "/nonexistent/weft/library.so", nullptr, nullptr,
                                         0, nullptr, nullptr, 0),
                  hipErrorFileNotFound);
  HIP_CHECK_ERROR(hipLibraryLoadData(&library, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0),
                  hipErrorInvalidValue);
  const char garbage[64] = "this is not a code object";
  HIP_CHECK_ERROR(hipLibraryLoadData(&library, garbage, nullptr, nullptr, 0, nullptr, nullptr, 0),
                  hipErrorInvalidImage);
  HIP_CHECK_ERROR(hipLibraryLoadFromFile(&library, kModuleObject.c_str(), nullptr, nullptr, 2,
                                         nullptr, nullptr, 0),
                  hipErrorInvalidValue);
  // An unknown option value, stored without an out-of-range enum conversion.
  hipLibraryOption bad_option;
  const int unknown_option = 7;
  std::memcpy(&bad_option, &unknown_option, sizeof bad_option);
  void* value = nullptr;
  HIP_CHECK_ERROR(hipLibraryLoadFromFile(&library, kModuleObject.c_str(), nullptr, nullptr, 0,
                                         &bad_option, &value, 1),
                  hipErrorInvalidValue);
  REQUIRE(library == nullptr);

  unsigned count = 0;
  HIP_CHECK_ERROR(hipLibraryGetKernelCount(&count, nullptr), hipErrorInvalidResourceHandle);
  HIP_CHECK_ERROR(hipLibraryUnload(nullptr), hipErrorInvalidResourceHandle);
  hipKernel_t k = nullptr;
  const char* name = nullptr;
  HIP_CHECK_ERROR(hipKernelGetName(&name, nullptr), hipErrorInvalidResourceHandle);
  hipFunction_t f = nullptr;
  HIP_CHECK_ERROR(hipKernelGetFunction(&f, reinterpret_cast<hipKernel_t>(&count)),
                  hipErrorInvalidResourceHandle);

  if (!load_library(&library)) return;
  HIP_CHECK_ERROR(hipLibraryGetKernel(&k, library, "no_such_kernel"), hipErrorNotFound);
  HIP_CHECK_ERROR(hipLibraryGetKernel(nullptr, library, "write_index"), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipLibraryGetKernel(&k, library, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipLibraryGetKernelCount(nullptr, library), hipErrorInvalidValue);
  hipKernel_t one = nullptr;
  HIP_CHECK_ERROR(hipLibraryEnumerateKernels(&one, 0, library), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipLibraryEnumerateKernels(nullptr, 1, library), hipErrorInvalidValue);
  // A short array gets the first kernels only.
  HIP_CHECK(hipLibraryEnumerateKernels(&one, 1, library));
  REQUIRE(one != nullptr);
  HIP_CHECK(hipLibraryUnload(library));
}
