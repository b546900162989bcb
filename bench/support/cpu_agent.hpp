// SPDX-License-Identifier: MIT
// The CPU-agent benchmarks pick the CPU agent by its ISA name (it comes after any GPU
// agents), make it current, and stop the run when there is none.
#pragma once

#include "hip_check.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

// Returns the CPU agent's ordinal and fills props with its properties.
inline int select_cpu_agent(hipDeviceProp_t& props) {
  int count = 0;
  CHECK(hipGetDeviceCount(&count));
  for (int i = 0; i < count; ++i) {
    CHECK(hipGetDeviceProperties(&props, i));
    if (std::strcmp(props.gcnArchName, "x86_64") == 0 ||
        std::strcmp(props.gcnArchName, "aarch64") == 0) {
      CHECK(hipSetDevice(i));
      return i;
    }
  }
  std::fprintf(stderr, "no CPU agent (WEFT_CPU_AGENT=0?)\n");
  std::exit(1);
}
