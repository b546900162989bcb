// SPDX-License-Identifier: MIT
// The list of drivers compiled into this build, in the order their agents are
// numbered (GPUs first, the CPU agent last, so device 0 is a GPU when one exists).
#pragma once

#include <weft/driver/device.hpp>

#include <memory>
#include <vector>

namespace weft {

std::vector<std::unique_ptr<Driver>> make_builtin_drivers();

}  // namespace weft
