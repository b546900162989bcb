// SPDX-License-Identifier: MIT
// Test cases that fault the device on purpose (a failed device assert, a failed launch).
//
// Such a fault is sticky on a GPU agent (CUDA, HSA): it loses the device's context until the
// process ends, and hipDeviceReset cannot bring it back (it answers the fault), so every
// later case of the binary would fail. Only weft's CPU agent recovers in-process (hipDeviceReset clears the fault).
// Implemented in hip_test.cpp.
#ifndef WEFT_TESTS_SUPPORT_FAULT_ISOLATION_HPP
#define WEFT_TESTS_SUPPORT_FAULT_ISOLATION_HPP

#include "hip_test.hpp"

namespace hip_test {

// True when the device under test recovers from a fault by hipDeviceReset (the CPU agent).
// $WEFT_TEST_ISOLATE=1 answers false everywhere (to exercise ran_isolated() on the CPU
// agent), =0 true everywhere.
bool device_recovers_from_faults();

// A case that faults the device starts with
//     if (hip_test::ran_isolated()) return;
// Where the device recovers it returns false and the case runs here, in this process.
// Elsewhere the binary runs itself again (posix_spawn of /proc/self/exe: never fork() after a
// GPU runtime started) with only this case, $WEFT_TEST_ISOLATED_CASE naming it; this process
// REQUIREs that the child passed (skips if the child skipped) and returns true: the caller
// returns. In that child it returns false, and the case stops after the checks of the fault
// itself where !device_recovers_from_faults(): the child's context is lost.
bool ran_isolated();

// In an isolated case after its fault, where !device_recovers_from_faults(): on an agent
// whose faults lose the context (a GPU) hipDeviceReset answers `fault` and the device stays
// failed (hipMalloc answers it too); where WEFT_TEST_ISOLATE=1 forced the isolation on the
// CPU agent, the reset recovers.
void reset_after_fault(hipError_t fault);

}  // namespace hip_test

#endif  // WEFT_TESTS_SUPPORT_FAULT_ISOLATION_HPP
