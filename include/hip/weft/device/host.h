// SPDX-License-Identifier: MIT
// The host pass's primitive layer (README.md in this folder): declarations only. The host
// pass parses kernel bodies (and instantiates template kernels) but emits none of them, so
// nothing here needs a definition; a host function that calls one fails to link, as it
// would fail under hipcc.
#ifndef WEFT_HIP_DEVICE_HOST_H
#define WEFT_HIP_DEVICE_HOST_H

#include <stdint.h>

#define WEFT_DEVICE_WARP_SIZE 32

__device__ uint32_t __weft_thread_idx(uint32_t dim);
__device__ uint32_t __weft_block_idx(uint32_t dim);
__device__ uint32_t __weft_block_dim(uint32_t dim);
__device__ uint32_t __weft_grid_dim(uint32_t dim);
__device__ uint32_t __weft_lane_id();
__device__ void __weft_barrier();
__device__ int __weft_barrier_reduce(int predicate, int op);
__device__ void __weft_fence(int scope);
__device__ uint64_t __weft_warp_read(uint64_t value, uint32_t src_lane);
__device__ uint64_t __weft_warp_ballot(int predicate);
__device__ void __weft_warp_sync();
__device__ void* __weft_dynamic_shared();
__device__ long long __weft_clock64();
__device__ long long __weft_wall_clock64();
__device__ int __weft_wall_clock_khz();
__device__ void __weft_grid_sync();
[[noreturn]] __device__ void __weft_assert_fail(const char* expression, const char* file,
                                                unsigned line, const char* function);

#endif  // WEFT_HIP_DEVICE_HOST_H
