// SPDX-License-Identifier: MIT
// Cooperative dispatches (hipLaunchCooperativeKernel) on the CPU agent: every
// block of the grid is resident at once, each on an OS thread of its own, so a
// block may wait for all the others at grid.sync() (weftGridSync, kernel_abi.h).
//
// Why OS threads: an ordinary dispatch runs ranges of blocks one after another on
// the shared pool's workers, so a block waiting for a block that has no worker
// yet would wait forever. A block of a cooperative launch owns its OS thread, so
// blocking it at the grid barrier (a futex wait) holds up nothing but that block,
// whose other GPU threads are waiting at the block barrier around grid.sync().
// The number of blocks is bounded by the occupancy the agent reports
// (docs/cpu-engine.md, "Cooperative launches"); the core checks it.
#pragma once

#include <hip/weft/kernel_abi.h>
#include <weft/driver/op.hpp>
#include <weft/driver/status.hpp>

#include <cstddef>

namespace weft::cpu {

// Runs every block of the dispatch at once and returns when all of them ended.
// The first failing block's status wins; blocks waiting at the grid barrier then
// fail too (no block waits for one that cannot arrive).
Status run_cooperative(weftKernelEntry entry, void* args, const LaunchDims& dims,
                       size_t stack_bytes);

}  // namespace weft::cpu
