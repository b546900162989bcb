// SPDX-License-Identifier: MIT
// Conformance: hipGetProcAddress and hipGetDriverEntryPoint (and their _spt forms) give
// the library's own exported functions: every hip* name of the export list resolves to
// the address the dynamic linker gives it, versioned forms (R0600, _spt) follow the
// version and flags, and unknown names, low versions and bad arguments fail as HIP says.
#include "hip_test.hpp"
#include "test_files.hpp"

#include <dlfcn.h>

#include <climits>
#include <fstream>
#include <sstream>
#include <string>

// Found next to the executable when the tests run outside the build tree.
static const std::string kExportsTxt = hip_test::helper_file(WEFT_EXPORTS_TXT);

namespace {

void* linker_address(const char* name) { return dlsym(RTLD_DEFAULT, name); }

// The hip* function names of src/api/exports.txt.
std::vector<std::string> exported_hip_names() {
  std::ifstream in(kExportsTxt.c_str());
  REQUIRE(in.good());
  std::vector<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream fields(line);
    std::string name, node, kind;
    if (!(fields >> name >> node >> kind) || name == "%node") continue;
    if (name.rfind("hip", 0) == 0) names.push_back(name);
  }
  return names;
}

}  // namespace

TEST_CASE("Unit_hipGetProcAddress_EveryExportResolves") {
  const std::vector<std::string> names = exported_hip_names();
  REQUIRE(names.size() > 400);
  for (const std::string& name : names) {
    INFO(name);
    void* fn = nullptr;
    hipDriverProcAddressQueryResult status = HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    // Version 500 and the legacy stream: the plain form of every name (R0600 forms are
    // only chosen from 600 on, _spt forms only for per-thread streams).
    const bool newer = name.find("R0600") != std::string::npos ||
                       (linker_address((name + "R0600").c_str()) != nullptr);
    const int version = newer ? INT_MAX : 9999;
    hipError_t rc =
        hipGetProcAddress(name.c_str(), &fn, version, HIP_GET_PROC_ADDRESS_LEGACY_STREAM, &status);
    REQUIRE(rc == hipSuccess);
    CHECK(status == HIP_GET_PROC_ADDRESS_SUCCESS);
    void* expected = linker_address(
        newer && name.find("R0") == std::string::npos ? (name + "R0600").c_str() : name.c_str());
    REQUIRE(expected != nullptr);
    CHECK(fn == expected);
  }
}

TEST_CASE("Unit_hipGetProcAddress_CallThroughPointer") {
  void* fn = nullptr;
  HIP_CHECK(hipGetProcAddress("hipMalloc", &fn, 600, HIP_GET_PROC_ADDRESS_DEFAULT, nullptr));
  auto malloc_fn = reinterpret_cast<hipError_t (*)(void**, size_t)>(fn);
  void* p = nullptr;
  HIP_CHECK(malloc_fn(&p, 256));
  REQUIRE(p != nullptr);
  HIP_CHECK(hipGetProcAddress("hipFree", &fn, 600, HIP_GET_PROC_ADDRESS_DEFAULT, nullptr));
  HIP_CHECK(reinterpret_cast<hipError_t (*)(void*)>(fn)(p));
}

TEST_CASE("Unit_hipGetProcAddress_VersionedForms") {
  void* fn = nullptr;
  hipDriverProcAddressQueryResult status{};
  HIP_CHECK(hipGetProcAddress("hipGetDeviceProperties", &fn, 600, 0, &status));
  CHECK(fn == linker_address("hipGetDevicePropertiesR0600"));
  HIP_CHECK(hipGetProcAddress("hipGetDeviceProperties", &fn, 502, 0, &status));
  CHECK(fn == linker_address("hipGetDeviceProperties"));
  HIP_CHECK(hipGetProcAddress("hipChooseDevice", &fn, 601, 0, &status));
  CHECK(fn == linker_address("hipChooseDeviceR0600"));

  // Streams: per-thread flag, legacy flag, and the _spt entry point's default.
  HIP_CHECK(hipGetProcAddress("hipMemcpy", &fn, 600, HIP_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
                              &status));
  CHECK(fn == linker_address("hipMemcpy_spt"));
  HIP_CHECK(hipGetProcAddress("hipMemcpy", &fn, 600, HIP_GET_PROC_ADDRESS_LEGACY_STREAM, &status));
  CHECK(fn == linker_address("hipMemcpy"));
  HIP_CHECK(hipGetProcAddress("hipMemcpy", &fn, 600, HIP_GET_PROC_ADDRESS_DEFAULT, &status));
  CHECK(fn == linker_address("hipMemcpy"));
  HIP_CHECK(hipGetProcAddress_spt("hipMemcpy", &fn, 600, HIP_GET_PROC_ADDRESS_DEFAULT, &status));
  CHECK(fn == linker_address("hipMemcpy_spt"));
  HIP_CHECK(
      hipGetProcAddress_spt("hipMemcpy", &fn, 600, HIP_GET_PROC_ADDRESS_LEGACY_STREAM, &status));
  CHECK(fn == linker_address("hipMemcpy"));
  // No _spt form: the plain one.
  HIP_CHECK(hipGetProcAddress("hipMalloc", &fn, 600, HIP_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
                              &status));
  CHECK(fn == linker_address("hipMalloc"));
}

TEST_CASE("Unit_hipGetProcAddress_Negative") {
  void* fn = reinterpret_cast<void*>(uintptr_t{1});
  hipDriverProcAddressQueryResult status = HIP_GET_PROC_ADDRESS_SUCCESS;
  HIP_CHECK_ERROR(hipGetProcAddress("hipNoSuchFunction", &fn, 600, 0, &status),
                  hipErrorInvalidValue);
  CHECK(status == HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  CHECK(fn == nullptr);
  // Only hip* functions: weft's own kernel-side entry points are not for lookup.
  HIP_CHECK_ERROR(hipGetProcAddress("weftLaunchHostKernel", &fn, 600, 0, &status),
                  hipErrorInvalidValue);
  // hipMemCreate is in the hip_5.1 node.
  status = HIP_GET_PROC_ADDRESS_SUCCESS;
  HIP_CHECK_ERROR(hipGetProcAddress("hipMemCreate", &fn, 500, 0, &status), hipErrorInvalidValue);
  CHECK(status == HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
  CHECK(fn == nullptr);
  HIP_CHECK(hipGetProcAddress("hipMemCreate", &fn, 501, 0, &status));
  CHECK(status == HIP_GET_PROC_ADDRESS_SUCCESS);

  HIP_CHECK_ERROR(hipGetProcAddress(nullptr, &fn, 600, 0, &status), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetProcAddress("", &fn, 600, 0, &status), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetProcAddress("hipMalloc", nullptr, 600, 0, &status), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetProcAddress("hipMalloc", &fn, 600, 4, &status), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetProcAddress("hipMalloc", &fn, -1, 0, &status), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetProcAddress_spt("hipNoSuchFunction", &fn, 600, 0, nullptr),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGetDriverEntryPoint") {
  void* fn = nullptr;
  hipDriverEntryPointQueryResult status = hipDriverEntryPointSymbolNotFound;
  HIP_CHECK(hipGetDriverEntryPoint("hipStreamCreate", &fn, hipEnableDefault, &status));
  CHECK(status == hipDriverEntryPointSuccess);
  CHECK(fn == linker_address("hipStreamCreate"));
  HIP_CHECK(hipGetDriverEntryPoint("hipGetDeviceProperties", &fn, hipEnableDefault, &status));
  CHECK(fn == linker_address("hipGetDevicePropertiesR0600"));
  HIP_CHECK(
      hipGetDriverEntryPoint("hipMemcpyAsync", &fn, hipEnablePerThreadDefaultStream, &status));
  CHECK(fn == linker_address("hipMemcpyAsync_spt"));
  HIP_CHECK(hipGetDriverEntryPoint_spt("hipMemcpyAsync", &fn, hipEnableDefault, &status));
  CHECK(fn == linker_address("hipMemcpyAsync_spt"));
  HIP_CHECK(hipGetDriverEntryPoint_spt("hipMemcpyAsync", &fn, hipEnableLegacyStream, &status));
  CHECK(fn == linker_address("hipMemcpyAsync"));

  HIP_CHECK_ERROR(hipGetDriverEntryPoint("hipNoSuchFunction", &fn, hipEnableDefault, &status),
                  hipErrorInvalidValue);
  CHECK(status == hipDriverEntryPointSymbolNotFound);
  CHECK(fn == nullptr);
  HIP_CHECK_ERROR(hipGetDriverEntryPoint(nullptr, &fn, 0, &status), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetDriverEntryPoint("", &fn, 0, &status), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetDriverEntryPoint("hipMalloc", nullptr, 0, &status), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetDriverEntryPoint("hipMalloc", &fn, 8, &status), hipErrorInvalidValue);
}
