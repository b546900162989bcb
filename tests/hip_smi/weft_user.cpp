// SPDX-License-Identifier: MIT
// A process using weft, for hip-smi's real-machine test: starts the runtime
// (which registers the process with hip-smi), says "ready", then waits until
// its stdin closes and exits normally (which removes the registration).
#include <hip/hip_runtime.h>

#include <cstdio>

int main() {
  int count = 0;
  if (hipGetDeviceCount(&count) != hipSuccess || count < 1) return 1;
  std::printf("ready\n");
  std::fflush(stdout);
  char buffer[64];
  while (std::fread(buffer, 1, sizeof buffer, stdin) > 0) {
  }
  return 0;
}
