// SPDX-License-Identifier: MIT
// bench/registration: what a hipcc-built program's start-up costs in weft.
// Registers a fat binary with 1000 kernels and 100 variables the way clang's
// module constructor does (__hipRegisterFatBinary, __hipRegisterFunction,
// __hipRegisterVar) and reports the median of 50 rounds; then the lazy part:
// the first launch on the CPU agent (bundle parsed, CPU code object loaded)
// against later launches.
//   registration <cpu_kernels.so>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" {
void** __hipRegisterFatBinary(const void* data);
void __hipUnregisterFatBinary(void** modules);
void __hipRegisterFunction(void**, const void*, char*, const char*, unsigned int, void*, void*,
                           dim3*, dim3*, int*);
void __hipRegisterVar(void** modules, void* var, char* hostVar, char* deviceVar, int ext,
                      size_t size, int constant, int global);
}

namespace {

using Clock = std::chrono::steady_clock;

struct Wrapper {
  uint32_t magic = 0x48495046;
  uint32_t version = 1;
  const void* binary = nullptr;
  const void* reserved = nullptr;
};

void put_u64(std::vector<char>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}

// A bundle: an empty host entry, a stand-in gfx90a object, and the CPU object.
std::vector<char> make_bundle(const std::vector<char>& cpu) {
  std::vector<std::pair<std::string, std::vector<char>>> entries = {
      {"host-x86_64-unknown-linux", {}},
      {"hipv4-amdgcn-amd-amdhsa--gfx90a", std::vector<char>(4096, 0)},
      {"hipv4-x86_64-unknown-linux-gnu-x86_64", cpu}};
  std::vector<char> out(std::begin("__CLANG_OFFLOAD_BUNDLE__"),
                        std::end("__CLANG_OFFLOAD_BUNDLE__") - 1);
  put_u64(out, entries.size());
  size_t header = out.size();
  for (auto& e : entries) header += 24 + e.first.size();
  size_t at = header;
  std::vector<size_t> offsets;
  for (auto& e : entries) {
    at = (at + 4095) / 4096 * 4096;
    offsets.push_back(at);
    at += e.second.size();
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    put_u64(out, offsets[i]);
    put_u64(out, entries[i].second.size());
    put_u64(out, entries[i].first.size());
    out.insert(out.end(), entries[i].first.begin(), entries[i].first.end());
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    out.resize(offsets[i], 0);
    out.insert(out.end(), entries[i].second.begin(), entries[i].second.end());
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: registration <cpu_kernels.so>\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::vector<char> cpu((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<char> bundle = make_bundle(cpu);
  Wrapper wrapper;
  wrapper.binary = bundle.data();

  constexpr int kKernels = 1000, kVars = 100, kRounds = 50;
  static char keys[kKernels];
  static int vars[kVars];
  std::vector<std::string> names(kKernels);
  for (int i = 0; i < kKernels; ++i) names[i] = "_Z14kernel_number" + std::to_string(i) + "Pfi";

  std::vector<double> us;
  for (int round = 0; round < kRounds; ++round) {
    auto start = Clock::now();
    void** handle = __hipRegisterFatBinary(&wrapper);
    for (int i = 0; i < kKernels; ++i)
      __hipRegisterFunction(handle, &keys[i], names[i].data(), names[i].c_str(), ~0u, nullptr,
                            nullptr, nullptr, nullptr, nullptr);
    for (int i = 0; i < kVars; ++i)
      __hipRegisterVar(handle, &vars[i], names[i].data(), names[i].data(), 0, sizeof(int), 0, 0);
    auto end = Clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(end - start).count());
    if (round + 1 < kRounds) __hipUnregisterFatBinary(handle);
  }
  std::sort(us.begin(), us.end());
  std::printf(
      "register 1 fat binary + %d kernels + %d variables: median %.1f us, min %.1f us, max %.1f us "
      "(%d rounds)\n",
      kKernels, kVars, us[us.size() / 2], us.front(), us.back(), kRounds);

  // The lazy part: first launch on the CPU agent vs. later ones.
  static const char fill_key = 0;
  std::vector<char> dummy;
  void** handle = __hipRegisterFatBinary(&wrapper);
  __hipRegisterFunction(handle, &fill_key, nullptr, "fill_index", ~0u, nullptr, nullptr, nullptr,
                        nullptr, nullptr);
  int* out = nullptr;
  if (hipMalloc(&out, 64 * sizeof(int)) != hipSuccess) return 1;
  int n = 64;
  void* args[] = {&out, &n};
  auto launch = [&] {
    auto start = Clock::now();
    hipError_t rc = hipLaunchKernel(&fill_key, dim3(1), dim3(64), args, 0, nullptr);
    auto end = Clock::now();
    if (rc != hipSuccess) std::printf("launch failed: %s\n", hipGetErrorName(rc));
    (void)hipDeviceSynchronize();
    return std::chrono::duration<double, std::micro>(end - start).count();
  };
  double first = launch();
  std::vector<double> later;
  for (int i = 0; i < 20; ++i) later.push_back(launch());
  std::sort(later.begin(), later.end());
  std::printf(
      "first hipLaunchKernel on the CPU agent (parse bundle, load CPU code object): %.1f us; "
      "later launches: median %.1f us\n",
      first, later[later.size() / 2]);
  (void)hipFree(out);
  __hipUnregisterFatBinary(handle);
  return 0;
}
