// SPDX-License-Identifier: MIT
// hipLink*: a link state takes a finished code object (here the CPU code object these
// tests load) and completes to that object, which hipModuleLoadData loads; inputs weft
// cannot link (bitcode, PTX, several objects) are hipErrorNotSupported, bad arguments
// hipErrorInvalidValue / hipErrorInvalidHandle.
#include "hip_test.hpp"
#include "test_files.hpp"

#include <cstring>
#include <string>
#include <vector>

// Found next to the executable when the tests run outside the build tree.
static const std::string kLinkModuleObject = hip_test::helper_file(WEFT_TEST_MODULE_OBJECT);

TEST_CASE("Unit_hipLink_Positive_OneObjectLoads") {
  hipLinkState_t state = nullptr;
  HIP_CHECK(hipLinkCreate(0, nullptr, nullptr, &state));
  HIP_CHECK(
      hipLinkAddFile(state, hipJitInputObject, kLinkModuleObject.c_str(), 0, nullptr, nullptr));
  void* image = nullptr;
  size_t size = 0;
  HIP_CHECK(hipLinkComplete(state, &image, &size));
  std::vector<std::byte> file = hip_test::read_file(kLinkModuleObject);
  REQUIRE(size == file.size());
  REQUIRE(std::memcmp(image, file.data(), size) == 0);
  // Loading it needs an agent that runs CPU code objects (the link itself does not).
  hipModule_t module = nullptr;
  const hipError_t loaded = hipModuleLoadData(&module, image);
  if (loaded == hipErrorNoBinaryForGpu || loaded == hipErrorInvalidImage) {
    INFO("the device under test does not load CPU code objects: the linked object is not loaded");
  } else {
    HIP_CHECK(loaded);
    unsigned count = 0;
    HIP_CHECK(hipModuleGetFunctionCount(&count, module));
    REQUIRE(count > 0);
    HIP_CHECK(hipModuleUnload(module));
  }
  HIP_CHECK(hipLinkDestroy(state));

  // The same from memory, with an option (ignored for finished objects).
  hipJitOption option = hipJitOptionMaxRegisters;
  void* value = reinterpret_cast<void*>(uintptr_t{32});
  HIP_CHECK(hipLinkCreate(1, &option, &value, &state));
  HIP_CHECK(hipLinkAddData(state, hipJitInputObject, file.data(), file.size(), "object", 0, nullptr,
                           nullptr));
  HIP_CHECK(hipLinkComplete(state, &image, &size));
  REQUIRE(size == file.size());
  HIP_CHECK(hipLinkDestroy(state));
}

TEST_CASE("Unit_hipLink_Negative_Parameters") {
  hipLinkState_t state = nullptr;
  HIP_CHECK_ERROR(hipLinkCreate(0, nullptr, nullptr, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipLinkCreate(1, nullptr, nullptr, &state), hipErrorInvalidValue);
  hipJitOption bad_option = static_cast<hipJitOption>(999);
  void* value = nullptr;
  HIP_CHECK_ERROR(hipLinkCreate(1, &bad_option, &value, &state), hipErrorInvalidValue);
  HIP_CHECK(hipLinkCreate(0, nullptr, nullptr, &state));
  char bytes[16] = {1};
  void* image = nullptr;
  size_t size = 0;
  HIP_CHECK_ERROR(hipLinkComplete(state, &image, &size), hipErrorInvalidValue);  // empty
  HIP_CHECK_ERROR(
      hipLinkAddData(state, hipJitInputLLVMBitcode, bytes, sizeof bytes, "bc", 0, nullptr, nullptr),
      hipErrorNotSupported);
  HIP_CHECK_ERROR(hipLinkAddData(state, static_cast<hipJitInputType>(55), bytes, sizeof bytes, "x",
                                 0, nullptr, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipLinkAddData(state, hipJitInputObject, nullptr, 16, "x", 0, nullptr, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipLinkAddFile(state, hipJitInputObject, "/nonexistent/object.o", 0, nullptr, nullptr),
      hipErrorFileNotFound);
  HIP_CHECK_ERROR(hipLinkAddFile(state, hipJitInputObject, nullptr, 0, nullptr, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK(
      hipLinkAddData(state, hipJitInputObject, bytes, sizeof bytes, "a", 0, nullptr, nullptr));
  HIP_CHECK(
      hipLinkAddData(state, hipJitInputObject, bytes, sizeof bytes, "b", 0, nullptr, nullptr));
  HIP_CHECK_ERROR(hipLinkComplete(state, &image, &size), hipErrorNotSupported);  // two objects
  HIP_CHECK_ERROR(hipLinkComplete(state, nullptr, &size), hipErrorInvalidValue);
  HIP_CHECK(hipLinkDestroy(state));
  HIP_CHECK_ERROR(hipLinkDestroy(state), hipErrorInvalidHandle);
  HIP_CHECK_ERROR(
      hipLinkAddData(state, hipJitInputObject, bytes, sizeof bytes, "a", 0, nullptr, nullptr),
      hipErrorInvalidHandle);
}
