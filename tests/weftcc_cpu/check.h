// SPDX-License-Identifier: MIT
// Tiny self-checking helpers for the weftcc CPU-image programs (no Catch2: each program
// is one HIP source built by weftcc, and its exit status is the verdict).
#pragma once
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>

inline int g_failures = 0;

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++g_failures;                                                                 \
    }                                                                               \
  } while (0)

#define HIP_OK(expr)                                                                             \
  do {                                                                                           \
    hipError_t e_ = (expr);                                                                      \
    if (e_ != hipSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr, hipGetErrorString(e_)); \
      std::exit(2);                                                                              \
    }                                                                                            \
  } while (0)

inline int finish(const char* name) {
  std::printf("%s: %s\n", name, g_failures ? "FAILED" : "passed");
  return g_failures ? 1 : 0;
}
