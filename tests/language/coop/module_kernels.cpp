// SPDX-License-Identifier: MIT
// A CPU code object whose kernel waits at grid.sync(), for
// hipModuleLaunchCooperativeKernel (module.cpp; built in meson.build).
#include <hip/weft/cpu_code_object.h>

#include "../../support/grid_total_kernel.hpp"  // grid_total

WEFT_CPU_KERNEL(grid_total);
