// SPDX-License-Identifier: MIT
// The registration ABI driven as a hipcc-built program's module constructor
// drives it, with fat binaries made here: one carrying the test CPU code object
// (its kernels run on the CPU agent), one carrying only GPU code objects
// (launches fail with hipErrorNoBinaryForGpu), and malformed wrappers.
#include "hip_test.hpp"
#include "test_files.hpp"

#include <weft/codeobj/bundle.hpp>

#include <numeric>

extern "C" {
void** __hipRegisterFatBinary(const void* data);
void __hipUnregisterFatBinary(void** modules);
// Parameter names left out: threadIdx & co. are macros in single-source mode.
void __hipRegisterFunction(void**, const void*, char*, const char*, unsigned int, uint3*, uint3*,
                           dim3*, dim3*, int*);
void __hipRegisterVar(void** modules, void* var, char* hostVar, char* deviceVar, int ext,
                      size_t size, int constant, int global);
void __hipRegisterManagedVar(void* hipModule, void** pointer, void* init_value, const char* name,
                             size_t size, unsigned align);
}

namespace {

using weft::codeobj::BundleInput;

using hip_test::read_file;

struct Wrapper {
  uint32_t magic = 0x48495046;
  uint32_t version = 1;
  const void* binary = nullptr;
  const void* reserved = nullptr;
};

// Host-side kernel handles, as clang makes them: any unique address.
const char k_fill_index = 0, k_axpy = 0, k_block_sum = 0, k_missing = 0;
int table_shadow[16];
int* managed_slot = nullptr;

// A program's fat binary, registered for the lifetime of the object.
class FakeProgram {
 public:
  explicit FakeProgram(std::vector<BundleInput> entries)
      : bundle_(weft::codeobj::write_bundle(entries)) {
    wrapper_.binary = bundle_.data();
    handle_ = __hipRegisterFatBinary(&wrapper_);
  }
  ~FakeProgram() { __hipUnregisterFatBinary(handle_); }
  void function(const void* key, const char* name) {
    __hipRegisterFunction(handle_, key, const_cast<char*>(name), name, ~0u, nullptr, nullptr,
                          nullptr, nullptr, nullptr);
  }
  void** handle() const { return handle_; }

 private:
  std::vector<std::byte> bundle_;
  Wrapper wrapper_;
  void** handle_ = nullptr;
};

std::vector<BundleInput> gpu_entries() {
  std::vector<std::byte> fake(64, std::byte{0});
  return {{"host-x86_64-unknown-linux", {}},
          {"hipv4-amdgcn-amd-amdhsa--gfx90a", fake},
          {"hipv4-amdgcn-amd-amdhsa--gfx1030", fake}};
}

std::vector<BundleInput> cpu_entries() {
  auto entries = gpu_entries();
  entries.push_back({"hipv4-x86_64-unknown-linux-gnu-x86_64", read_file(WEFT_TEST_CPU_OBJECT)});
  return entries;
}

bool cpu_agent() {
  if (std::string(hip_test::props().gcnArchName) == "x86_64") return true;
  hip_test::skip("the device under test is not the x86_64 CPU agent");
  return false;
}

}  // namespace

TEST_CASE("Unit_hipLaunchKernel_Positive_RegisteredCpuCodeObject") {
  if (!cpu_agent()) return;
  FakeProgram program(cpu_entries());
  REQUIRE(program.handle() != nullptr);
  program.function(&k_fill_index, "fill_index");
  program.function(&k_axpy, "_Z4axpyPfPKffi");
  constexpr int n = 777;
  hip_test::DeviceBuffer<int> out(n);
  int* p = out.get();
  int count = n;
  void* args[] = {&p, &count};
  HIP_CHECK(hipLaunchKernel(&k_fill_index, dim3(4), dim3(256), args, 0, nullptr));
  std::vector<int> host(n);
  HIP_CHECK(hipMemcpy(host.data(), p, out.bytes(), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) REQUIRE(host[i] == i);
  CHECK(std::string(hipKernelNameRefByPtr(&k_axpy, nullptr)) == "_Z4axpyPfPKffi");
  hipFunction_t f = nullptr;
  HIP_CHECK(hipGetFuncBySymbol(&f, &k_fill_index));
  CHECK(std::string(hipKernelNameRef(f)) == "fill_index");
  hipFuncAttributes attr{};
  HIP_CHECK(hipFuncGetAttributes(&attr, &k_fill_index));
  CHECK(attr.maxThreadsPerBlock == hip_test::props().maxThreadsPerBlock);
  HIP_CHECK(hipFuncSetAttribute(&k_fill_index, hipFuncAttributeMaxDynamicSharedMemorySize, 1024));
  HIP_CHECK(hipFuncGetAttributes(&attr, &k_fill_index));
  CHECK(attr.maxDynamicSharedSizeBytes == 1024);
  HIP_CHECK_ERROR(hipLaunchKernel(&k_fill_index, dim3(1), dim3(1), args, 2048, nullptr),
                  hipErrorInvalidValue);
  int blocks = 0;
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, &k_fill_index, 64, 0));
  CHECK(blocks == hip_test::props().maxBlocksPerMultiProcessor);
}

TEST_CASE("Unit_hipLaunchKernel_Positive_CallConfigurationPaths") {
  if (!cpu_agent()) return;
  FakeProgram program(cpu_entries());
  program.function(&k_fill_index, "fill_index");
  hip_test::DeviceBuffer<int> out(64);
  int* p = out.get();
  int count = 64;
  // <<<>>>: push, then the stub pops and launches.
  HIP_CHECK(__hipPushCallConfiguration(dim3(1), dim3(64), 0, nullptr));
  dim3 grid, block;
  size_t shared = 1;
  hipStream_t stream = reinterpret_cast<hipStream_t>(1);
  HIP_CHECK(__hipPopCallConfiguration(&grid, &block, &shared, &stream));
  CHECK(grid.x == 1);
  CHECK(block.x == 64);
  CHECK(shared == 0);
  CHECK(stream == nullptr);
  HIP_CHECK_ERROR(__hipPopCallConfiguration(&grid, &block, &shared, &stream),
                  hipErrorInvalidConfiguration);
  // The legacy path packs the arguments itself.
  HIP_CHECK(hipMemset(p, 0xff, out.bytes()));
  HIP_CHECK(hipConfigureCall(dim3(1), dim3(64), 0, nullptr));
  HIP_CHECK(hipSetupArgument(&p, sizeof(p), 0));
  HIP_CHECK(hipSetupArgument(&count, sizeof(count), 8));
  HIP_CHECK(hipLaunchByPtr(&k_fill_index));
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<int> host(64);
  HIP_CHECK(hipMemcpy(host.data(), p, out.bytes(), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) REQUIRE(host[i] == i);
  HIP_CHECK_ERROR(hipLaunchByPtr(&k_fill_index), hipErrorInvalidConfiguration);
}

TEST_CASE("Unit_hipMemcpyToSymbol_Positive_RegisteredVariables") {
  if (!cpu_agent()) return;
  FakeProgram program(cpu_entries());
  static const char k_read_table = 0;
  program.function(&k_read_table, "_Z10read_tablePi");
  __hipRegisterVar(program.handle(), table_shadow, const_cast<char*>("table"),
                   const_cast<char*>("table"), 0, sizeof(table_shadow), 0, 0);
  std::vector<int> values(16);
  std::iota(values.begin(), values.end(), 10);
  HIP_CHECK(hipMemcpyToSymbol(table_shadow, values.data(), sizeof(table_shadow), 0,
                              hipMemcpyHostToDevice));
  size_t size = 0;
  HIP_CHECK(hipGetSymbolSize(&size, table_shadow));
  CHECK(size == sizeof(table_shadow));
  void* address = nullptr;
  HIP_CHECK(hipGetSymbolAddress(&address, table_shadow));
  CHECK(address != static_cast<void*>(table_shadow));  // the device copy lives in the code object
  int tail[2] = {};
  HIP_CHECK(hipMemcpyFromSymbol(tail, table_shadow, sizeof(tail), 14 * sizeof(int),
                                hipMemcpyDeviceToHost));
  CHECK(tail[0] == 24);
  CHECK(tail[1] == 25);
  HIP_CHECK_ERROR(hipMemcpyToSymbol(table_shadow, values.data(), 8, 60, hipMemcpyHostToDevice),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipMemcpyToSymbol(table_shadow, values.data(), 8, 0, hipMemcpyDeviceToHost),
                  hipErrorInvalidMemcpyDirection);
  hip_test::DeviceBuffer<int> out(16);
  int* p = out.get();
  void* args[] = {&p};
  HIP_CHECK(hipLaunchKernel(&k_read_table, dim3(1), dim3(16), args, 0, nullptr));
  std::vector<int> host(16);
  HIP_CHECK(hipMemcpy(host.data(), p, out.bytes(), hipMemcpyDeviceToHost));
  for (int i = 0; i < 16; ++i) REQUIRE(host[i] == 11 + i);  // table[i] + int(0.5 * 2)
  HIP_CHECK(
      hipMemcpyToSymbolAsync(table_shadow, values.data(), 4, 0, hipMemcpyHostToDevice, nullptr));
  HIP_CHECK(hipStreamSynchronize(nullptr));
}

TEST_CASE("Unit_hipRegisterManagedVar_Positive_HostSlotFilled") {
  FakeProgram program(cpu_entries());
  int initial = 42;
  __hipRegisterManagedVar(program.handle(), reinterpret_cast<void**>(&managed_slot), &initial,
                          "managed_value", sizeof(int), alignof(int));
  REQUIRE(managed_slot != nullptr);
  CHECK(*managed_slot == 42);
  *managed_slot = 7;
  int read = 0;
  // (const void* casts: the C++ overloads would take the address of a temporary pointer.)
  HIP_CHECK(hipMemcpyFromSymbol(&read, static_cast<const void*>(&managed_slot), sizeof(int), 0,
                                hipMemcpyDefault));
  CHECK(read == 7);
  // hipcc's host code passes the storage address (`&m` reads through the slot).
  int eight = 8;
  HIP_CHECK(hipMemcpyToSymbol(static_cast<const void*>(managed_slot), &eight, sizeof(int), 0,
                              hipMemcpyHostToDevice));
  CHECK(*managed_slot == 8);
  size_t size = 0;
  HIP_CHECK(hipGetSymbolSize(&size, static_cast<const void*>(managed_slot)));
  CHECK(size == sizeof(int));
}

TEST_CASE("Unit_hipLaunchKernel_Negative_NoBinaryForAgent") {
  FakeProgram program(gpu_entries());
  program.function(&k_block_sum, "_Z9block_sumPKiPi");
  void* args[] = {nullptr, nullptr};
  HIP_CHECK_ERROR(hipLaunchKernel(&k_block_sum, dim3(1), dim3(1), args, 0, nullptr),
                  hipErrorNoBinaryForGpu);
  hipFuncAttributes attr{};
  HIP_CHECK_ERROR(hipFuncGetAttributes(&attr, &k_block_sum), hipErrorNoBinaryForGpu);
  hipFunction_t f = nullptr;
  HIP_CHECK_ERROR(hipGetFuncBySymbol(&f, &k_block_sum), hipErrorNoBinaryForGpu);
  // A kernel the bundle's CPU code object lacks fails the same way.
  FakeProgram with_cpu(cpu_entries());
  with_cpu.function(&k_missing, "_Z14not_in_the_objv");
  if (std::string(hip_test::props().gcnArchName) == "x86_64")
    HIP_CHECK_ERROR(hipLaunchKernel(&k_missing, dim3(1), dim3(1), args, 0, nullptr),
                    hipErrorNoBinaryForGpu);
}

TEST_CASE("Unit_hipRegisterFatBinary_Negative_Malformed") {
  Wrapper bad_magic;
  bad_magic.magic = 0x12345678;
  std::vector<std::byte> bundle = weft::codeobj::write_bundle(gpu_entries());
  bad_magic.binary = bundle.data();
  CHECK(__hipRegisterFatBinary(&bad_magic) == nullptr);
  Wrapper bad_version;
  bad_version.version = 2;
  bad_version.binary = bundle.data();
  CHECK(__hipRegisterFatBinary(&bad_version) == nullptr);
  CHECK(__hipRegisterFatBinary(nullptr) == nullptr);
  // Registration with a null handle is ignored, and so is unregistering it.
  static const char key = 0;
  __hipRegisterFunction(nullptr, &key, nullptr, "k", ~0u, nullptr, nullptr, nullptr, nullptr,
                        nullptr);
  __hipUnregisterFatBinary(nullptr);
  void* args[] = {nullptr};
  HIP_CHECK_ERROR(hipLaunchKernel(&key, dim3(1), dim3(1), args, 0, nullptr),
                  hipErrorInvalidDeviceFunction);
  // A bundle whose header is garbage registers (nothing is parsed yet) and fails at launch.
  std::vector<std::byte> garbage(64, std::byte{0x5a});
  std::memcpy(garbage.data(), "__CLANG_OFFLOAD_BUNDLE__", 24);
  Wrapper wrapper;
  wrapper.binary = garbage.data();
  void** handle = __hipRegisterFatBinary(&wrapper);
  REQUIRE(handle != nullptr);
  static const char key2 = 0;
  __hipRegisterFunction(handle, &key2, nullptr, "k2", ~0u, nullptr, nullptr, nullptr, nullptr,
                        nullptr);
  HIP_CHECK_ERROR(hipLaunchKernel(&key2, dim3(1), dim3(1), args, 0, nullptr), hipErrorInvalidImage);
  __hipUnregisterFatBinary(handle);
  HIP_CHECK_ERROR(hipLaunchKernel(&key2, dim3(1), dim3(1), args, 0, nullptr),
                  hipErrorInvalidDeviceFunction);
}
