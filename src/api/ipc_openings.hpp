// SPDX-License-Identifier: MIT
// Addresses returned by hipIpcOpenMemHandle: only hipIpcCloseMemHandle releases
// them (hipFree refuses them, hipDeviceReset leaves them). Thread-safe.
#pragma once

namespace weft::api {

void note_ipc_opening(void* ptr);
// False when `ptr` was not open.
bool forget_ipc_opening(void* ptr);
bool is_ipc_opening(const void* ptr);

}  // namespace weft::api
