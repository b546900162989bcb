// SPDX-License-Identifier: MIT
// The null driver: the smallest complete weft driver, and the template to copy
// when writing a new one (docs/new-driver.md walks through it).
//
// Its one kind of agent is a "device" whose memory is host memory and whose
// queues run every op on the submitting thread, before submit() returns. It
// runs no kernels and loads no code objects. Use it to learn the contract in
// include/weft/driver/, to exercise the core without hardware, and as the
// reference the driver contract suite (tests/drivers/contract/) checks first.
//
// It never adds agents to an ordinary program: hipGetDeviceCount must not change
// because a test driver is compiled in. devices() is empty unless the
// environment asks for null agents:
//
//   WEFT_NULL_DRIVER=1   one null agent (2..16: that many); unset, 0 or
//                        anything else: none (the reason is in status_note()).
//
// A driver folder may include only include/ (weft's public and driver headers),
// the C++ standard library and its vendor's headers; this one needs no vendor.
#pragma once

#include <weft/driver/device.hpp>

#include <memory>

namespace weft::null {

// The factory src/runtime/driver_registry.cpp calls (through a weak reference):
// reads WEFT_NULL_DRIVER when devices() is called.
std::unique_ptr<Driver> make_driver();

// For tests that link the driver directly: `agent_count` agents whatever the
// environment says.
std::unique_ptr<Driver> make_driver_with_agents(int agent_count);

}  // namespace weft::null
