// SPDX-License-Identifier: MIT
// CHECK(call) for the HIP benchmarks: a failing call prints its text and error and
// ends the run, since a figure measured after a failure would be meaningless.
#pragma once

#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                   \
  do {                                                                \
    hipError_t e_ = (call);                                           \
    if (e_ != hipSuccess) {                                           \
      std::fprintf(stderr, "%s: %s\n", #call, hipGetErrorString(e_)); \
      std::exit(1);                                                   \
    }                                                                 \
  } while (0)
