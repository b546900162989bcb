// SPDX-License-Identifier: MIT
// fork() after weft initialised: the child has none of the CPU agent's worker
// threads (only the forking thread survives fork) and no GPU driver contexts,
// so a copy or launch there would wait forever. Once the runtime exists a
// pthread_atfork child handler marks the child, and every HIP entry point
// (api::call) then returns hipErrorNotInitialized at once, as CUDA does; one
// line says why. A process that forks before its first HIP call is unaffected.
// docs/architecture.md.
#pragma once

#include <hip/hip_runtime_api.h>

#include <atomic>

namespace weft::fork_guard {

extern std::atomic<bool> g_in_forked_child;

// Installs the atfork handler (once); called when the runtime is created.
void arm();

inline bool in_forked_child() { return g_in_forked_child.load(std::memory_order_relaxed); }

// Records the error as the thread's last error, writes the one explanation line
// (whatever AMD_LOG_LEVEL says) on the first refusal, and returns the error.
hipError_t refuse(const char* api_name);

}  // namespace weft::fork_guard
