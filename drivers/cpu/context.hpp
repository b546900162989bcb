// SPDX-License-Identifier: MIT
// The smallest possible fiber primitive: a saved stack pointer and a symmetric
// switch. x86-64 uses context_switch_x86_64.S; other architectures fall back
// to Boost.Context's fcontext.
#pragma once

#include <cstddef>

namespace weft::cpu {

struct FiberContext {
  void* sp = nullptr;  // saved stack pointer (x86-64) or fcontext handle
  // Used by the fcontext fallback only: what the first switch to it runs.
  void (*fn)(void*) = nullptr;
  void* arg = nullptr;
};

// Prepares `ctx` so that the first switch to it calls fn(arg) on the given stack.
// fn must never return: it switches away for the last time instead.
void make_fiber_context(FiberContext& ctx, void* stack_top, size_t stack_size, void (*fn)(void*),
                        void* arg);

// Saves the running context into `from` and resumes `to`.
void switch_fiber_context(FiberContext& from, FiberContext& to);

}  // namespace weft::cpu
