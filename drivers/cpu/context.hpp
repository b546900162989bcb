// SPDX-License-Identifier: MIT
// The smallest possible fiber primitive: a saved stack pointer and a symmetric
// switch. x86-64 uses context_switch_x86_64.S; other architectures fall back
// to Boost.Context's fcontext.
#pragma once

#include <cstddef>

#if defined(__x86_64__)
extern "C" void weft_cpu_switch(void** save_sp, void* resume_sp);
#endif

namespace weft::cpu {

struct FiberContext {
  void* sp = nullptr;  // saved stack pointer (x86-64) or fcontext handle
#if !defined(__x86_64__)
  // Used by the fcontext fallback only: what the first switch to it runs.
  void (*fn)(void*) = nullptr;
  void* arg = nullptr;
#endif
};

// Prepares `ctx` so that the first switch to it calls fn(arg) on the given stack.
// fn must never return: it switches away for the last time instead.
void make_fiber_context(FiberContext& ctx, void* stack_top, size_t stack_size, void (*fn)(void*),
                        void* arg);

// Saves the running context into `from` and resumes `to`.
#if defined(__x86_64__)
// Inline, so that the barrier path has no frame between its caller and the
// assembly switch.
inline __attribute__((always_inline)) void switch_fiber_context(FiberContext& from,
                                                                FiberContext& to) {
  weft_cpu_switch(&from.sp, to.sp);
}
#else
void switch_fiber_context(FiberContext& from, FiberContext& to);
#endif

}  // namespace weft::cpu
