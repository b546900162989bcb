// SPDX-License-Identifier: MIT
// The block_loops test kernels' launchers (kernels.cpp): each returns 1 when the
// pass turned its kernel into a whole-block kernel, 0 when it left it alone.
// bl_kernels_form: 2 when this build asks for ranges of blocks (BL_RANGES), else 1.
#pragma once

#include <stdint.h>

extern "C" {
int bl_kernels_form();
int bl_run_vector_add(const float* a, const float* b, float* c, int n, unsigned threads);
int bl_run_saxpy(float alpha, const float* x, float* y, int n, unsigned threads);
int bl_run_block_sum(const float* in, float* out, unsigned blocks, unsigned threads);
int bl_run_warp_sum(const float* in, float* out, unsigned blocks, unsigned threads);
int bl_run_warp_low_lanes(const float* in, float* out, unsigned blocks, unsigned tx, unsigned ty);
int bl_run_warp_traced_sum(const float* in, float* out, float* trace, unsigned blocks, unsigned tx,
                           unsigned ty);
// out: 4 values per thread (kernels.cpp, thread_coords).
int bl_run_thread_coords(unsigned* out, unsigned blocks, unsigned tx, unsigned ty, unsigned tz);
int bl_run_sgemm(const float* A, const float* B, float* C, int n);
int bl_run_early_return_sum(const int* in, int* out, unsigned blocks, unsigned threads,
                            unsigned active);
int bl_run_divergent(const int* in, int* out, unsigned blocks, unsigned threads);
int bl_run_reverse_dynamic(const float* in, float* out, unsigned blocks, unsigned threads);
int bl_run_histogram(const unsigned* in, unsigned* bins, unsigned* total, unsigned blocks,
                     unsigned threads);
int bl_run_sync_reduce(const int* in, int* out, unsigned blocks, unsigned threads, unsigned active);
int bl_run_smooth(const float* in, float* out, unsigned blocks, unsigned threads, int rounds,
                  int steps);
int bl_run_two_level_sum(const float* in, float* out, unsigned* ballots, unsigned blocks,
                         unsigned threads);
// out: 12 results per thread (kernels.cpp, shuffle_forms), out64: one.
int bl_run_shuffle_forms(const unsigned* in, unsigned* out, const uint64_t* in64, uint64_t* out64,
                         int d, unsigned blocks, unsigned tx, unsigned ty);
// out: 8 results per thread (kernels.cpp, shuffle_shifts).
int bl_run_shuffle_shifts(const unsigned* in, unsigned* out, int d, unsigned m, unsigned blocks,
                          unsigned tx, unsigned ty);
int bl_run_recursive(int* out, unsigned threads);
int bl_run_warp_barrier_deadlock(int* out, unsigned blocks, unsigned threads);
int bl_run_empty(unsigned blocks, unsigned threads);
int bl_run_bounded(const int* in, int* out, int lim, unsigned blocks, unsigned tx, unsigned ty);
// out: 4 values per thread of a gx x gy x gz grid of tx x ty blocks (kernels.cpp, block_coords).
int bl_run_block_coords(unsigned* out, unsigned dim, unsigned gx, unsigned gy, unsigned gz,
                        unsigned tx, unsigned ty);
}
