// SPDX-License-Identifier: MIT
// Helpers for the driver white-box tests (tests/drivers/*), which talk to a
// weft::Device through include/weft/driver directly instead of the HIP API.
#pragma once

#include <weft/driver/device.hpp>

#include "hip_test.hpp"

#include <atomic>
#include <chrono>
#include <thread>
#include <utility>

namespace hip_test {

// The value of a driver call that must succeed; fails the test case with the
// status message otherwise.
template <typename T>
T value_of(weft::Result<T> r) {
  INFO(r.status().message());
  REQUIRE(r.ok());
  return std::move(r).value();
}

// An event of "another agent" that the test completes by hand: a queue waiting
// on it must hold back its later work until complete().
class ManualEvent final : public weft::Event {
 public:
  bool is_complete() override { return done_.load(); }
  weft::Status synchronize() override {
    while (!done_.load()) std::this_thread::sleep_for(std::chrono::microseconds(50));
    return weft::Status();
  }
  weft::Result<float> elapsed_ms_since(weft::Event&) override {
    return weft::Status(hipErrorNotSupported, "a manual event has no timing");
  }
  bool ever_recorded() override { return true; }
  void complete() { done_.store(true); }

 private:
  std::atomic<bool> done_{false};
};

}  // namespace hip_test
