// SPDX-License-Identifier: MIT
// C entry points that single-source kernels call from inside a block
// (include/hip/weft/kernel_abi.h).
#include "block_runner.hpp"

#include <weft/common/log.hpp>

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace {
// glibc's own __assert_fail, for asserts outside kernels.
[[noreturn]] void forward_assert_to_glibc(const char* expression, const char* file, unsigned line,
                                          const char* function) {
  using AssertFail = void (*)(const char*, const char*, unsigned, const char*);
  auto real = reinterpret_cast<AssertFail>(dlvsym(RTLD_NEXT, "__assert_fail", "GLIBC_2.2.5"));
  if (!real) real = reinterpret_cast<AssertFail>(dlsym(RTLD_NEXT, "__assert_fail"));
  if (real) real(expression, file, line, function);
  std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, expression);
  std::abort();
}
}  // namespace

extern "C" {

// weftSyncThreads, weftSyncThreadsReduce and weftWarpCollective live in
// block_runner.cpp, inlined into the barrier path.

__attribute__((visibility("default"))) void weftKernelAssertFail(const char* expression,
                                                                 const char* file, unsigned line,
                                                                 const char* function) {
  auto* runner = weft::cpu::BlockRunner::current();
  if (!runner) forward_assert_to_glibc(expression, file, line, function);
  const weftKernelContext* c = runner->context();
  const dim3 thread = runner->current_thread_index();
  std::string message = fmt::format(
      "{}:{}: {}: block [{},{},{}], thread [{},{},{}]: device-side assertion `{}' failed", file,
      line, function, c->blockIdx.x, c->blockIdx.y, c->blockIdx.z, thread.x, thread.y, thread.z,
      expression);
  std::fprintf(stderr, "%s\n", message.c_str());
  runner->abort_block(std::move(message), hipErrorAssert);
}

// For compiled whole-block kernels (weftcc's block-loop pass declares it in the code it
// emits): threads that wait for each other at different kinds of sync points. Stops the
// block; the launch reports hipErrorLaunchFailure, as the fiber engine's deadlock does.
void weftKernelFail(const char* why);
__attribute__((visibility("default"))) void weftKernelFail(const char* why) {
  auto* runner = weft::cpu::BlockRunner::current();
  if (!runner) {
    weft::log::error("weftKernelFail called outside a kernel: {}", why ? why : "");
    return;
  }
  const weftKernelContext* c = runner->context();
  runner->abort_block(fmt::format("block [{},{},{}]: {}", c->blockIdx.x, c->blockIdx.y,
                                  c->blockIdx.z, why ? why : "the kernel failed"),
                      hipErrorLaunchFailure);
}

// Interposes glibc's handler (exported as __assert_fail@GLIBC_2.2.5, see
// src/api/exports.txt): a plain assert() failing inside a kernel ends the launch
// with hipErrorAssert whatever the order of the program's #includes.
__attribute__((visibility("default"), noreturn)) void __assert_fail(const char* expression,
                                                                    const char* file,
                                                                    unsigned int line,
                                                                    const char* function) noexcept {
  weftKernelAssertFail(expression, file, line, function);
  std::abort();
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
