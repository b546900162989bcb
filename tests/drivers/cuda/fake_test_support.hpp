// SPDX-License-Identifier: MIT
// Helpers the white-box tests of the NVIDIA driver on the fake libcuda share.
#pragma once

#include <utility>
#include <weft/driver/status.hpp>

#include "fake_cuda.hpp"
#include "hip_test.hpp"

namespace fake_cuda {

// The value of a driver call that must succeed (its message is shown when it did not).
template <typename T>
T require_value(weft::Result<T> r) {
  INFO(r.status().message());
  REQUIRE(r.ok());
  return std::move(r).value();
}

// The last cuMem*/external call the fake recorded.
inline const VmCall& last_vm_call() {
  REQUIRE(!state().vm_calls.empty());
  return state().vm_calls.back();
}

}  // namespace fake_cuda
