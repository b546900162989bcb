// SPDX-License-Identifier: MIT
// Test prelude for the block_loops pass: the CPU device ABI's markers with the
// names and signatures of WEFTCC-plan ("CPU image and the block-loop pass"), and
// the few GPU built-ins the test kernels use, written on top of them. The
// kernels (kernels.cpp) are plain C++ built with clang++-15 and the plugin; the
// harness (harness.cpp) defines the markers for whatever the pass left.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern "C" {
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
}

#define BL_REDUCE_COUNT 1
#define BL_REDUCE_AND 2
#define BL_REDUCE_OR 3

struct bl_dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

// How the kernels of this build are asked for and launched: with BL_RANGES, as ranges of
// blocks (the pass's range form: one call runs every block of a range), else one block
// per call (the form for entries that ask only __weft_cpu_kernel_is_whole_block).
#ifdef BL_RANGES
#define BL_ASK(kernel) __weft_cpu_kernel_runs_block_ranges((const void*)&(kernel))
#define BL_FORM 2
#else
#define BL_ASK(kernel) __weft_cpu_kernel_is_whole_block((const void*)&(kernel))
#define BL_FORM 1
#endif

namespace bl {
// The harness runs `body` once per range of blocks for form 2 (the kernel runs ranges),
// once per block for form 1 (it runs whole blocks), else once per GPU thread (form 0:
// the markers' meaning without fibers).
void launch(int form, bl_dim3 grid, bl_dim3 block, size_t dynamic_shared, void (*body)(void*),
            void* closure);

// Device helpers as a HIP header would write them (they reach markers, so the
// pass must inline them into the kernels).
inline uint32_t tid_x() { return __weft_cpu_thread_idx(0); }
inline uint32_t tid_y() { return __weft_cpu_thread_idx(1); }
inline uint32_t bid_x() { return __weft_cpu_block_idx(0); }
inline uint32_t bid_y() { return __weft_cpu_block_idx(1); }
inline uint32_t bdim_x() { return __weft_cpu_block_dim(0); }
inline uint32_t bdim_y() { return __weft_cpu_block_dim(1); }
inline uint32_t linear_tid() {
  return tid_x() + bdim_x() * (tid_y() + bdim_y() * __weft_cpu_thread_idx(2));
}
inline uint32_t lane_id() { return linear_tid() % 32; }
inline void syncthreads() { __weft_cpu_barrier(); }
inline float shfl(float v, int src) {
  uint32_t bits;
  memcpy(&bits, &v, 4);
  uint32_t out = uint32_t(__weft_cpu_warp_read(bits, uint32_t(src)));
  float r;
  memcpy(&r, &out, 4);
  return r;
}
inline float shfl_down(float v, unsigned delta) {
  uint32_t lane = lane_id();
  return shfl(v, int(lane + delta < 32 ? lane + delta : lane));
}
inline float shfl_xor(float v, unsigned mask) { return shfl(v, int(lane_id() ^ mask)); }
}  // namespace bl

// Launches kernel(args...) through the marker, as a CPU image's entry does.
#define BL_LAUNCH(kernel, grid, block, shared, ...)                    \
  [&] {                                                                \
    int whole = BL_ASK(kernel);                                        \
    auto call = [&] { kernel(__VA_ARGS__); };                          \
    bl::launch(                                                        \
        whole ? BL_FORM : 0, grid, block, shared,                      \
        [](void* c) { (*static_cast<decltype(call)*>(c))(); }, &call); \
    return whole;                                                      \
      }()
