// SPDX-License-Identifier: MIT
// Single-source kernel launches, and the launch-configuration checks shared by
// every launch entry point (defined in launch_host_kernel.cpp).
#pragma once

#include "api/api.hpp"

#include <algorithm>

namespace weft::api {

// Checks grid, block and dynamic shared memory against the device's limits, with
// HIP 7's error codes.
Status check_launch(const DeviceState& device, dim3 grid, dim3 block, size_t shared_bytes);
// The same test without the error: true when check_launch would succeed.
inline bool launch_shape_fits(const DeviceState& device, dim3 grid, dim3 block,
                              size_t shared_bytes) {
  const auto& p = device.props();
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  return grid.x != 0 && grid.y != 0 && grid.z != 0 && threads != 0 &&
         threads <= uint64_t(p.maxThreadsPerBlock) && block.x <= unsigned(p.maxThreadsDim[0]) &&
         block.y <= unsigned(p.maxThreadsDim[1]) && block.z <= unsigned(p.maxThreadsDim[2]) &&
         grid.x <= unsigned(p.maxGridSize[0]) && grid.y <= unsigned(p.maxGridSize[1]) &&
         grid.z <= unsigned(p.maxGridSize[2]) &&
         shared_bytes <= std::max(p.sharedMemPerBlock, p.sharedMemPerBlockOptin);
}

// Submits a single-source kernel (arguments packed) to `stream`.
Status launch_host_kernel(Ref<HostKernel> kernel, dim3 grid, dim3 block, size_t shared_bytes,
                          hipStream_t stream, DefaultStream default_stream = kLegacy);
// The same on a resolved stream; `cooperative`: every block resident at once, within the
// occupancy limit (check_cooperative), for grid.sync().
Status submit_host_kernel(Ref<HostKernel> kernel, dim3 grid, dim3 block, size_t shared_bytes,
                          const Ref<Stream>& stream, bool cooperative);

// The single-source kernel behind `function` (a kernel launched by name before, whose
// arguments can be rebuilt from `args`), or an error saying why there is none.
Result<Ref<HostKernel>> host_kernel_for(const void* function, void** args);

}  // namespace weft::api
