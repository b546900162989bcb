// SPDX-License-Identifier: MIT
// C entry points that single-source kernels call from inside a block
// (include/hip/weft/kernel_abi.h).
#include "block_runner.hpp"

#include "util/log.hpp"

extern "C" {

__attribute__((visibility("default"))) void weftSyncThreads(void) {
  if (auto* runner = weft::cpu::BlockRunner::current()) {
    runner->barrier();
    return;
  }
  weft::log::error("__syncthreads called outside a kernel; ignored");
}

__attribute__((visibility("default"))) weftKernelContext* weftGetKernelContext(void) {
  auto* runner = weft::cpu::BlockRunner::current();
  return runner ? runner->context() : nullptr;
}

__attribute__((visibility("default"))) void* weftDynamicShared(void) {
  auto* runner = weft::cpu::BlockRunner::current();
  return runner ? runner->context()->dynamicShared : nullptr;
}

}  // extern "C"
