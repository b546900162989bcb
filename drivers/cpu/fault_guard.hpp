// SPDX-License-Identifier: MIT
// Kernel memory faults on the CPU agent. A GPU that faults ends the wave and
// reports hipErrorIllegalAddress; here a bad load or store in a kernel raises
// SIGSEGV/SIGBUS on the thread running it. The handler (installed once, chaining
// to whatever handler was there before) ends the block the way a failed device
// assert does when the thread runs a kernel (its BlockRunner is inside
// run_range, around the kernel's entry calls); any other fault
// goes to the previous handler, or to the default action, and crashes as before.
// The handler runs on an alternate signal stack, so it also runs when a fiber
// overflowed into its guard page.
#pragma once

namespace weft::cpu {

// Installs the handlers (first call in the process) and gives the calling thread
// an alternate signal stack (first call on the thread, unless it has one).
// Call on every thread before it runs kernels.
void prepare_thread_for_kernels();

}  // namespace weft::cpu
