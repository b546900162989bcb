// SPDX-License-Identifier: MIT
#pragma once

#include "api/api.hpp"

namespace weft::api {

// The value of `attr` taken from the properties (hipErrorInvalidValue if the
// attribute has no such counterpart).
Result<int> attribute_from_props(const hipDeviceProp_tR0600& props, hipDeviceAttribute_t attr);

}  // namespace weft::api
