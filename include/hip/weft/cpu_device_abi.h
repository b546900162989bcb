// SPDX-License-Identifier: MIT
// The GPU built-ins of weftcc's CPU image (the x86-64 device pass), as calls: the
// block-loop pass (issue 18) recognizes these names and rewrites a kernel into loops over
// the block's threads; without it they are the CPU engine's per-thread fast paths
// (hip/weft/device/x86_64.h defines them, always_inline, so they stay calls until the
// inliner runs, after the pass's pipeline-start extension point).
//
// dim: 0, 1, 2 for x, y, z. op: WEFT_REDUCE_COUNT / _AND / _OR (kernel_abi.h).
// __weft_cpu_warp_read: the lanes of the warp at this call site pass `value` and get
// lane src_lane's (their own when src_lane did not take part); the header computes
// up/down/xor/width into src_lane and clamps it. __weft_cpu_kernel_runs_block_ranges(&K):
// nonzero once the pass turned kernel K into a function that runs every thread of every
// block of the caller's range (the image's entry then calls it once per range): it reads
// the range with __weft_cpu_block_range (0: the first linear block id, 1: one past the
// last; x fastest) and calls __weft_cpu_block_enter(blockIdx) before each block, which
// publishes the block and returns nonzero when the range must stop (another block
// failed). __weft_cpu_kernel_is_whole_block(&K): nonzero once the pass turned K into a
// function that runs every thread of the current block (the form for entries that do not
// ask for ranges; the image's entry then calls it once per block). Both 0 without the pass.
#ifndef WEFT_HIP_CPU_DEVICE_ABI_H
#define WEFT_HIP_CPU_DEVICE_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

uint32_t __weft_cpu_thread_idx(uint32_t dim);
uint32_t __weft_cpu_block_idx(uint32_t dim);
uint32_t __weft_cpu_block_dim(uint32_t dim);
uint32_t __weft_cpu_grid_dim(uint32_t dim);
void __weft_cpu_barrier(void);
int __weft_cpu_barrier_reduce(int predicate, int op);
uint64_t __weft_cpu_warp_read(uint64_t value, uint32_t src_lane);
uint64_t __weft_cpu_warp_ballot(int predicate);
void __weft_cpu_warp_sync(void);
void* __weft_cpu_dynamic_shared(void);
int __weft_cpu_kernel_is_whole_block(const void* kernel);
int __weft_cpu_kernel_runs_block_ranges(const void* kernel);
uint64_t __weft_cpu_block_range(uint32_t which);
int __weft_cpu_block_enter(uint32_t x, uint32_t y, uint32_t z);

#ifdef __cplusplus
}
#endif

#endif  // WEFT_HIP_CPU_DEVICE_ABI_H
