// SPDX-License-Identifier: MIT
// Launch-configuration checks shared by every launch entry point (defined in launch.cpp).
#pragma once

#include "api/api.hpp"

namespace weft::api {

// Checks grid, block and dynamic shared memory against the device's limits, with
// HIP 7's error codes.
Status check_launch(const DeviceState& device, dim3 grid, dim3 block, size_t shared_bytes);

}  // namespace weft::api
