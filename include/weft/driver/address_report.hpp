// SPDX-License-Identifier: MIT
// For drivers' fault reports: where an address lies relative to the process's
// HIP allocations ("8 bytes past the end of the 4096-byte allocation at 0x..."),
// from the runtime's pointer table. Thread-safe; not async-signal-safe.
#pragma once

#include <string>

namespace weft {

std::string describe_nearest_allocation(const void* address);

}  // namespace weft
