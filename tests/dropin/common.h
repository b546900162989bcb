// SPDX-License-Identifier: MIT
// Shared by the drop-in programs: ordinary HIP programs that hipcc builds and
// that then run against weft's libamdhip64 unmodified. DROPIN_EXPECT says what
// the run must show: "nobinary" (the bundle carries only GPU code objects: each
// launch and each device-variable access fails with hipErrorNoBinaryForGpu while
// every other call works) or "run" (the bundle also carries a CPU code object:
// every kernel runs and its results are checked).
#pragma once

#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define DROPIN_CHECK(expr)                                                   \
  do {                                                                       \
    hipError_t dropin_e_ = (expr);                                           \
    if (dropin_e_ != hipSuccess) {                                           \
      std::printf("FAIL %s:%d: %s returned %s\n", __FILE__, __LINE__, #expr, \
                  hipGetErrorName(dropin_e_));                               \
      std::exit(1);                                                          \
    }                                                                        \
  } while (0)

#define DROPIN_REQUIRE(cond)                                      \
  do {                                                            \
    if (!(cond)) {                                                \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      std::exit(1);                                               \
    }                                                             \
  } while (0)

inline bool dropin_expect_run() {
  const char* e = std::getenv("DROPIN_EXPECT");
  return e && std::strcmp(e, "run") == 0;
}

inline void dropin_print_agent() {
  int count = 0;
  DROPIN_CHECK(hipGetDeviceCount(&count));
  hipDeviceProp_t p;
  DROPIN_CHECK(hipGetDeviceProperties(&p, 0));
  std::printf("devices %d, device 0: %s, arch %s\n", count, p.name, p.gcnArchName);
}

// A call that needs the device's code object (a launch's last error, or a
// device-variable access). Returns true when the kernels are expected to run.
inline bool dropin_needs_code(hipError_t e, const char* what) {
  (void)hipGetLastError();  // a failure here must not be mistaken for a later launch's
  if (dropin_expect_run()) {
    if (e != hipSuccess) {
      std::printf("FAIL: %s returned %s\n", what, hipGetErrorName(e));
      std::exit(1);
    }
    return true;
  }
  if (e != hipErrorNoBinaryForGpu) {
    std::printf("FAIL: %s returned %s, expected hipErrorNoBinaryForGpu\n", what,
                hipGetErrorName(e));
    std::exit(1);
  }
  std::printf("%s: hipErrorNoBinaryForGpu as expected\n", what);
  return false;
}

// Checks the launch just made with <<<>>> or hipLaunchKernelGGL.
#define DROPIN_LAUNCHED(what) dropin_needs_code(hipGetLastError(), what)
