// SPDX-License-Identifier: MIT
// Rewrites a prepared kernel into a function of the same signature that runs
// every GPU thread of the current block (docs/cpu-engine.md, "Compiled
// whole-block kernels").
#pragma once

#include <llvm/IR/Function.h>

#include <string>

namespace weft::block_loops {

struct RewriteStats {
  unsigned sync_points = 0;  // barriers and warp operations
  unsigned spilled = 0;      // values kept per thread across them
  unsigned regions = 0;
  unsigned parallel_loops = 0;        // thread loops marked llvm.loop.parallel_accesses
  unsigned warp_exchanges = 0;        // shuffles exchanged inside the region after them
  unsigned shifted_exchanges = 0;     // of which the source lane is recognized as lane shifts
  bool block_ranges = false;          // the function runs a range of blocks
  unsigned bounded_regions = 0;       // regions whose x loops stop at a uniform bound (XBound)
  unsigned lane_bounded_regions = 0;  // exchange regions that run only the lanes seen later
};

// Empty on success (`kernel` then points at the new function, which took the
// kernel's name and uses), else why the kernel stays as it was. Needs the
// block_runtime functions in the module. With `ranges` the new function runs every
// block of the caller's range (__weft_cpu_block_range, __weft_cpu_block_enter before
// each block; the setup that depends only on the launch is done once per range),
// else one block, the current one.
std::string rewrite_kernel(llvm::Function*& kernel, RewriteStats& stats, bool ranges);

}  // namespace weft::block_loops
