// SPDX-License-Identifier: MIT
// Kernels for blockloops_vectorize (check_vectorize.py): compiled only, never run.
// "expect-shifted: KERNEL N" and "expect-kept: KERNEL N": how many of its in-region
// shuffles read lane shifts (not a gather), how many values it keeps per thread.
// "expect-vectorized: KERNEL" says the kernel's loops over threads vectorize without
// a run-time alias check; "expect-parallel: KERNEL N" says how many of its loops over
// threads the pass must mark llvm.loop.parallel_accesses (only loops whose accesses
// may run in any order across threads: no atomics, fences, volatile or opaque calls).
#include "markers.h"

using namespace bl;

extern "C" void opaque_effect(float* p);

// External kernels (as a CPU image's are: its entries call them), so they stay in
// the object and go through the whole pipeline.
namespace vec {

// __shared__ in a CPU image is a thread_local (one block at a time per worker).
thread_local float t_partial[1024];

// The round's partial[t] += partial[t + s] overlaps itself across the loop over
// threads as far as a run-time check can tell, so without the annotation its
// vector loop is never taken.
// Its rounds' threads at or past s do nothing: both regions after a barrier stop their x
// loops at s (where the loop goes on).
// expect-parallel: tree_sum 3
// expect-bounded: tree_sum 2
// expect-vectorized: tree_sum
void tree_sum(const float* in, float* out) {
  float* partial = t_partial;
  unsigned t = tid_x();
  partial[t] = in[bid_x() * bdim_x() + t];
  syncthreads();
  for (unsigned s = bdim_x() / 2; s > 0; s /= 2) {
    if (t < s) partial[t] += partial[t + s];
    syncthreads();
  }
  if (t == 0) out[bid_x()] = partial[0];
}

// The first region counts arrivals with an atomic: its loop keeps the threads' order.
// expect-parallel: counted 1
// expect-bounded: counted 0
void counted(const float* in, float* out, unsigned* arrivals) {
  static float stage[1024];
  unsigned t = tid_x();
  stage[t] = in[bid_x() * bdim_x() + t];
  __atomic_fetch_add(arrivals, 1u, __ATOMIC_RELAXED);
  syncthreads();
  out[bid_x() * bdim_x() + t] = stage[t ^ 1u];
}

// Warp-synchronous code on volatile shared memory (no barrier between the rounds).
// expect-parallel: volatile_rounds 1
void volatile_rounds(const float* in, float* out) {
  float* partial = t_partial;
  unsigned t = tid_x();
  partial[t] = in[bid_x() * bdim_x() + t];
  syncthreads();
  volatile float* p = partial;
  if (t < 16) p[t] = p[t] + p[t + 16];
  if (t == 0) out[bid_x()] = p[0];
}

// Shuffles are exchanged inside the region after them: the lanes' values and offsets
// stored by one loop over threads, read by the next (contiguous loads when the offsets
// are one shift), and both loops vectorize.
// The loop's five rounds are unrolled first (a constant trip count): five shuffle sites,
// each with a constant amount. Each source lane is recognized as the lane plus a shift
// (read with one contiguous load and a select, no gather; the last round's
// `lane == 31 ? 31 : lane + 1` included), and the shuffled value is read from its own
// exchange entry: nothing is kept per thread. Only lane 0 stores: the last region runs lane 0
// of each warp, the rounds before it lanes 0-1, 0-3, 0-7 and 0-15 (lane bounds).
// expect-unrolled: warp_down_sum 1
// expect-lanes: warp_down_sum 5
// expect-exchanges: warp_down_sum 5
// expect-shifted: warp_down_sum 5
// expect-kept: warp_down_sum 0
// expect-vectorized: warp_down_sum
void warp_down_sum(const float* in, float* out) {
  float v = in[bid_x() * bdim_x() + tid_x()];
  for (int o = 16; o > 0; o /= 2) v += shfl_down(v, unsigned(o));
  if (lane_id() == 0) out[(bid_x() * bdim_x() + tid_x()) / 32] = v;
}

// The same rounds from a run-time start stay a loop: one shuffle site with a block-uniform
// amount (read from its slot: the loop counter is the one value kept per thread).
// expect-unrolled: warp_loop_sum 0
// expect-lanes: warp_loop_sum 0
// expect-exchanges: warp_loop_sum 1
// expect-shifted: warp_loop_sum 1
// expect-kept: warp_loop_sum 1
// expect-vectorized: warp_loop_sum
void warp_loop_sum(const float* in, float* out, int first) {
  float v = in[bid_x() * bdim_x() + tid_x()];
  for (int o = first; o > 0; o /= 2) v += shfl_down(v, unsigned(o));
  if (lane_id() == 0) out[(bid_x() * bdim_x() + tid_x()) / 32] = v;
}

// A butterfly, unrolled by hand: five shuffle sites, each exchanged in-region.
// Every lane stores: no lane bounds.
// expect-lanes: warp_xor_sum 0
// expect-exchanges: warp_xor_sum 5
// expect-shifted: warp_xor_sum 5
// expect-vectorized: warp_xor_sum
void warp_xor_sum(const float* in, float* out) {
  float v = in[bid_x() * bdim_x() + tid_x()];
  v += shfl_xor(v, 16);
  v += shfl_xor(v, 8);
  v += shfl_xor(v, 4);
  v += shfl_xor(v, 2);
  v += shfl_xor(v, 1);
  out[bid_x() * bdim_x() + tid_x()] = v;
}

// The HIP header's forms (hip/weft/device/builtins.h: the source clamped to the width's
// segment) on the linear id's lane, with run-time amounts; a per-lane source is a gather.
inline float read_lane(float v, int src, unsigned lane, int width) {
  int segment = int(lane & ~unsigned(width - 1));
  return shfl(v, (src < segment || src >= segment + width) ? int(lane) : src);
}
// The xor loop is unrolled (three sites): six exchanges, the per-lane one a gather.
// expect-unrolled: warp_header_forms 1
// expect-exchanges: warp_header_forms 6
// expect-shifted: warp_header_forms 5
// expect-vectorized: warp_header_forms
void warp_header_forms(const float* in, float* out, int d, const int* lanes) {
  unsigned lane = lane_id(), g = bid_x() * (bdim_x() * bdim_y()) + linear_tid();
  float v = in[g];
  v += read_lane(v, int(lane) - d, lane, 16);  // __shfl_up(v, d, 16)
  for (int m = 4; m > 0; m /= 2) v += read_lane(v, int(lane ^ unsigned(m)), lane, 8);
  v += read_lane(v, int(lane) + d, lane, 32);  // __shfl_down(v, d)
  v += read_lane(v, lanes[lane], lane, 32);    // __shfl(v, lanes[lane])
  out[g] = v;
}

// Threads that return early put the kernel in mixed mode: its shuffles go through
// block_runtime (per-thread states), not in-region.
// expect-exchanges: warp_early_return 0
void warp_early_return(const float* in, float* out, unsigned n) {
  unsigned i = bid_x() * bdim_x() + tid_x();
  if (i >= n) return;
  float v = in[i];
  v += shfl_down(v, 1);
  out[i] = v;
}

// A call the pass cannot see into may order threads (a lock, a flag).
// expect-parallel: opaque 1
void opaque(float* data) {
  static float stage[1024];
  unsigned t = tid_x();
  stage[t] = data[t];
  syncthreads();
  opaque_effect(&stage[t]);
}

// A callee with only plain accesses does not.
void plain_helper(float* p, float v) { *p = v * 2.0f; }
// expect-parallel: plain_call 2
void plain_call(const float* in, float* out) {
  static float stage[1024];
  unsigned t = tid_x();
  plain_helper(&stage[t], in[bid_x() * bdim_x() + t]);
  syncthreads();
  out[bid_x() * bdim_x() + t] = stage[bdim_x() - 1 - t];
}

}  // namespace vec

using namespace vec;

extern "C" int bl_ask_all() {
  return BL_ASK(tree_sum) + BL_ASK(counted) + BL_ASK(volatile_rounds) + BL_ASK(opaque) +
         BL_ASK(plain_call) + BL_ASK(warp_down_sum) + BL_ASK(warp_loop_sum) + BL_ASK(warp_xor_sum) +
         BL_ASK(warp_header_forms) + BL_ASK(warp_early_return);
}
