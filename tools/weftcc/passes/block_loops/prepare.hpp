// SPDX-License-Identifier: MIT
// Gets a kernel ready for the block-loop rewrite: the callees that reach a
// per-thread marker are inlined (a loop over threads needs every use of
// threadIdx and every barrier in the kernel's own body), locals are promoted to
// registers, small constant loops around warp shuffles are unrolled, and what the
// rewrite cannot handle is reported.
#pragma once

#include <llvm/IR/Function.h>
#include <llvm/IR/PassManager.h>

#include <string>

namespace weft::block_loops {

// Empty when the kernel can be rewritten, else why not (one line). `unrolled_loops` gets
// how many loops around warp shuffles were unrolled.
std::string prepare_kernel(llvm::Function& kernel, llvm::FunctionAnalysisManager& fam,
                           unsigned* unrolled_loops = nullptr);

}  // namespace weft::block_loops
