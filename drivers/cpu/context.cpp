// SPDX-License-Identifier: MIT
#include "context.hpp"

#include <cstdint>

#if defined(__x86_64__)

extern "C" void weft_cpu_fiber_start();

namespace weft::cpu {

void make_fiber_context(FiberContext& ctx, void* stack_top, size_t, void (*fn)(void*), void* arg) {
  // Frame popped by weft_cpu_switch: r15 r14 r13 r12 rbx rbp, then the return
  // address. r13/r12 carry fn/arg into the trampoline; after `ret` the stack is
  // 16-byte aligned, as the trampoline's call requires.
  auto top = reinterpret_cast<uintptr_t>(stack_top) & ~uintptr_t(15);
  auto* frame = reinterpret_cast<uintptr_t*>(top - 72);
  frame[0] = 0;                                           // r15
  frame[1] = 0;                                           // r14
  frame[2] = reinterpret_cast<uintptr_t>(fn);             // r13
  frame[3] = reinterpret_cast<uintptr_t>(arg);            // r12
  frame[4] = 0;                                           // rbx
  frame[5] = 0;                                           // rbp
  frame[6] = reinterpret_cast<uintptr_t>(&weft_cpu_fiber_start);  // return address
  frame[7] = 0;
  frame[8] = 0;
  ctx.sp = frame;
}

}  // namespace weft::cpu

#else  // Boost.Context fcontext: jumps pass the origin's context back as data.

#include <boost/context/detail/fcontext.hpp>

namespace weft::cpu {
namespace fc = boost::context::detail;

namespace {
struct Jump {
  FiberContext* from;
  FiberContext* to;
};

void fiber_entry(fc::transfer_t t) {
  auto* jump = static_cast<Jump*>(t.data);
  jump->from->sp = t.fctx;
  FiberContext* self = jump->to;
  self->fn(self->arg);
}
}  // namespace

void make_fiber_context(FiberContext& ctx, void* stack_top, size_t stack_size, void (*fn)(void*),
                        void* arg) {
  ctx.sp = fc::make_fcontext(stack_top, stack_size, &fiber_entry);
  ctx.fn = fn;
  ctx.arg = arg;
}

void switch_fiber_context(FiberContext& from, FiberContext& to) {
  Jump jump{&from, &to};
  fc::transfer_t t = fc::jump_fcontext(to.sp, &jump);
  // Whoever resumed us passed its own Jump: record where it stopped.
  auto* back = static_cast<Jump*>(t.data);
  back->from->sp = t.fctx;
}

}  // namespace weft::cpu

#endif
