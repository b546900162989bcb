// SPDX-License-Identifier: MIT
// Prints the agents this process sees, as "gpus=<n> cpus=<n>": device enumeration
// happens once per process, so the visible-devices tests run this with each
// environment in a child process.
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstring>

int main() {
  int count = 0;
  hipError_t rc = hipGetDeviceCount(&count);
  if (rc != hipSuccess && rc != hipErrorNoDevice) {
    std::printf("error=%d\n", static_cast<int>(rc));
    return 1;
  }
  int gpus = 0, cpus = 0;
  for (int i = 0; i < count; ++i) {
    hipDeviceProp_t props{};
    if (hipGetDeviceProperties(&props, i) != hipSuccess) return 1;
    bool cpu = std::strcmp(props.gcnArchName, "x86_64") == 0 ||
               std::strcmp(props.gcnArchName, "aarch64") == 0;
    (cpu ? cpus : gpus) += 1;
  }
  std::printf("gpus=%d cpus=%d\n", gpus, cpus);
  return 0;
}
