// SPDX-License-Identifier: MIT
// The fiber primitive of the CPU engine: a GPU thread switched out is a weftFiber
// (kernel_abi.h), and a switch hands the resumed thread its id. x86-64 uses
// context_switch_x86_64.S, compatible with the kernels' inline switch
// (hip/weft/fiber_sync.h); other architectures fall back to Boost.Context.
#pragma once

#include <hip/weft/kernel_abi.h>

#include <cstddef>
#include <cstdint>

// A new fiber starts here and never returns (defined by the engine).
extern "C" void weft_cpu_fiber_main();

#if defined(__x86_64__)
extern "C" void weft_cpu_switch(weftFiber* from, weftFiber* to, uint64_t to_id);
#endif

namespace weft::cpu {

// Prepares `fiber` so that the first switch to it runs weft_cpu_fiber_main() on
// the given stack.
void make_fiber_context(weftFiber& fiber, void* stack_top, size_t stack_size);

// Saves the running thread in `from` and resumes `to`, handing it `to_id`.
#if defined(__x86_64__)
inline __attribute__((always_inline)) void switch_fiber(weftFiber& from, weftFiber& to,
                                                        uint32_t to_id) {
  weft_cpu_switch(&from, &to, to_id);
}
#else
void switch_fiber(weftFiber& from, weftFiber& to, uint32_t to_id);
#endif

}  // namespace weft::cpu
