// SPDX-License-Identifier: MIT
// External semaphores shared by the stream calls (src/api/external_semaphore.cpp)
// and the graph nodes (src/api/graph_external_semaphore.cpp).
#pragma once

#include "api/api.hpp"

#include <vector>

namespace weft::api {

// A checked signal or wait of one imported semaphore.
struct SemaphoreStep {
  DeviceState* device = nullptr;
  Ref<ExternalSemaphore> semaphore;
  uint64_t value = 0;  // timeline value; ignored by binary semaphores
};

// Validates `count` semaphores with their parameters (signal: `signal_params`,
// wait: `wait_params`; the other is null). Every bad argument is
// hipErrorInvalidValue, as AMD's runtime answers.
Result<std::vector<SemaphoreStep>> semaphore_steps(
    const hipExternalSemaphore_t* semaphores, const hipExternalSemaphoreSignalParams* signal_params,
    const hipExternalSemaphoreWaitParams* wait_params, unsigned count);

}  // namespace weft::api
