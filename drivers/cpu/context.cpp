// SPDX-License-Identifier: MIT
#include "context.hpp"

#include <cstdint>

#if defined(__x86_64__)

extern "C" void weft_cpu_fiber_start();

namespace weft::cpu {

void make_fiber_context(weftFiber& fiber, void* stack_top, size_t) {
  // The trampoline calls weft_cpu_fiber_main with the 16-byte alignment the ABI
  // asks for at a call.
  fiber.sp = reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(stack_top) & ~uintptr_t(15));
  fiber.pc = reinterpret_cast<const void*>(&weft_cpu_fiber_start);
  fiber.bp = nullptr;
}

}  // namespace weft::cpu

#else  // Boost.Context fcontext: jumps pass the origin's context back as data.

#include <boost/context/detail/fcontext.hpp>

namespace weft::cpu {
namespace fc = boost::context::detail;

namespace {
void fiber_entry(fc::transfer_t t) {
  // The switch that started us passed the fiber it left, to record where it stopped.
  static_cast<weftFiber*>(t.data)->sp = t.fctx;
  weft_cpu_fiber_main();
}
}  // namespace

void make_fiber_context(weftFiber& fiber, void* stack_top, size_t stack_size) {
  fiber.sp = fc::make_fcontext(stack_top, stack_size, &fiber_entry);
  fiber.pc = nullptr;
  fiber.bp = nullptr;
}

void switch_fiber(weftFiber& from, weftFiber& to, uint32_t) {
  fc::transfer_t t = fc::jump_fcontext(to.sp, &from);
  static_cast<weftFiber*>(t.data)->sp = t.fctx;
}

}  // namespace weft::cpu

#endif
