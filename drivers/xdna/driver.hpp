// SPDX-License-Identifier: MIT
// The AMD NPU driver (docs/xdna.md): agents for the amdxdna accel nodes
// (/dev/accel/accelN, Linux 6.14+ or the amd/xdna-driver module), driven
// through the DRM ioctls directly: no XRT, no library at link or run time.
// Every system call goes through the table of os.hpp, which tests replace.
//
// Enumeration lists /sys/class/accel, keeps the nodes whose device's driver is
// amdxdna, opens each and asks GET_INFO(AIE_METADATA). Where nothing is found
// (no accel class, no amdxdna node, a node that cannot be opened) devices() is
// empty and status_note() says why; the runtime logs it at AMD_LOG_LEVEL=3.
#pragma once

#include <weft/driver/device.hpp>

#include <memory>

namespace weft::xdna {

// The factory src/runtime/driver_registry.cpp calls (through a weak reference).
std::unique_ptr<Driver> make_driver();

}  // namespace weft::xdna
