// SPDX-License-Identifier: MIT
// Test kernels for the block_loops pass, plain C++ on the markers (markers.h),
// built with clang++-15 -O2 -fpass-plugin=weft_block_loops.so. Each bl_run_*
// launches one kernel through the marker and returns whether the pass made it
// a whole-block kernel (kernels.h declares them for the harness).
#include "kernels.h"
#include "markers.h"

using namespace bl;

namespace {

void vector_add(const float* a, const float* b, float* c, int n) {
  int i = int(bid_x() * bdim_x() + tid_x());
  if (i < n) c[i] = a[i] + b[i];
}

void saxpy(float alpha, const float* x, float* y, int n) {
  int i = int(bid_x() * bdim_x() + tid_x());
  if (i < n) y[i] = alpha * x[i] + y[i];
}

void block_sum(const float* in, float* out) {
  static float partial[1024];
  unsigned t = tid_x();
  partial[t] = in[bid_x() * bdim_x() + t];
  syncthreads();
  for (unsigned s = bdim_x() / 2; s > 0; s /= 2) {
    if (t < s) partial[t] += partial[t + s];
    syncthreads();
  }
  if (t == 0) out[bid_x()] = partial[0];
}

void warp_sum(const float* in, float* out) {
  float v = in[bid_x() * bdim_x() + tid_x()];
  for (int o = 16; o > 0; o /= 2) v += shfl_down(v, unsigned(o));
  if (lane_id() == 0) out[(bid_x() * bdim_x() + tid_x()) / 32] = v;
}

// Lane bounds (block_loops, find_lane_bounds): after the last shuffle only some lanes store,
// so the rounds before it run only the lanes their results reach. The four lanes of each
// warp that store (a butterfly of two rounds); a round that stores every lane's value
// (`trace`), which the rounds before it must still compute for all lanes; and a value
// computed in a bounded round (`mid`) that the last region reads.
void warp_low_lanes(const float* in, float* out) {
  unsigned g = bid_x() * (bdim_x() * bdim_y()) + linear_tid();
  float v = in[g];
  v += shfl_xor(v, 2);
  v += shfl_xor(v, 1);
  if (lane_id() < 4) out[g] = v;
}
void warp_traced_sum(const float* in, float* out, float* trace) {
  unsigned g = bid_x() * (bdim_x() * bdim_y()) + linear_tid();
  float v = in[g];
  v += shfl_down(v, 16);
  v += shfl_down(v, 8);
  trace[g] = v;
  v += shfl_down(v, 4);
  float mid = v * 0.5f;
  v += shfl_down(v, 2);
  v += shfl_down(v, 1);
  if (lane_id() == 0) out[g / 32] = v + mid;
}

// Thread coordinates in 3-D blocks (the loops over a block's rows carry y and z, y wrapping
// into z): each thread writes its x, y, z and linear id in three regions.
void thread_coords(unsigned* out) {
  unsigned t = linear_tid(), tz = __weft_cpu_thread_idx(2);
  unsigned g = bid_x() * (bdim_x() * bdim_y() * __weft_cpu_block_dim(2)) + t;
  out[g * 4 + 0] = tid_x();
  syncthreads();
  out[g * 4 + 1] = tid_y() + 1000 * tz;
  syncthreads();
  out[g * 4 + 2] = __weft_cpu_thread_idx(2);
  out[g * 4 + 3] = linear_tid();
}

constexpr int kTile = 16;
void sgemm(const float* A, const float* B, float* C, int n) {
  static float As[kTile][kTile];
  static float Bs[kTile][kTile];
  int tx = int(tid_x()), ty = int(tid_y());
  int row = int(bid_y()) * kTile + ty, col = int(bid_x()) * kTile + tx;
  float acc = 0;
  for (int k0 = 0; k0 < n; k0 += kTile) {
    As[ty][tx] = A[row * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    syncthreads();
    for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
    syncthreads();
  }
  C[row * n + col] = acc;
}

// Threads at or past `active` return before the barriers; the rest sum their
// block's values in shared memory (the sums only count live threads).
void early_return_sum(const int* in, int* out, unsigned active) {
  static int partial[256];
  unsigned t = tid_x();
  partial[t] = 0;
  if (t >= active) return;
  partial[t] = in[bid_x() * bdim_x() + t];
  syncthreads();
  if (t == 0) {
    int s = 0;
    for (unsigned k = 0; k < active; ++k) s += partial[k];
    out[bid_x()] = s;
  }
}

// Different work per thread between barriers: branches and data-dependent loops.
void divergent(const int* in, int* out) {
  static int stage[256];
  unsigned t = tid_x();
  int v = in[bid_x() * bdim_x() + t];
  int local;
  if (t % 3 == 0) {
    local = v * 2;
  } else if (t % 3 == 1) {
    local = 0;
    for (int k = 0; k < v % 7; ++k) local += k;
  } else {
    local = -v;
  }
  stage[t] = local;
  syncthreads();
  unsigned left = (t + bdim_x() - 1) % bdim_x();
  int mine = stage[t] + stage[left];
  if (mine & 1) mine *= 3;
  syncthreads();
  stage[t] = mine;
  syncthreads();
  out[bid_x() * bdim_x() + t] = stage[(t + 1) % bdim_x()] + local;
}

// Reverses each block's values through dynamic shared memory.
void reverse_dynamic(const float* in, float* out) {
  float* s = static_cast<float*>(__weft_cpu_dynamic_shared());
  unsigned t = tid_x(), n = bdim_x();
  s[t] = in[bid_x() * n + t];
  syncthreads();
  out[bid_x() * n + t] = s[n - 1 - t];
}

// Shared-memory histogram with atomics, then a global atomic total.
void histogram(const unsigned* in, unsigned* bins, unsigned* total) {
  static unsigned local[16];
  unsigned t = tid_x();
  if (t < 16) local[t] = 0;
  syncthreads();
  __atomic_fetch_add(&local[in[bid_x() * bdim_x() + t] % 16], 1u, __ATOMIC_RELAXED);
  syncthreads();
  if (t < 16) __atomic_fetch_add(&bins[t], local[t], __ATOMIC_RELAXED);
  if (t == 0) __atomic_fetch_add(total, 1u, __ATOMIC_RELAXED);
}

// __syncthreads_count/_and/_or, also with threads that returned before.
void sync_reduce(const int* in, int* out, unsigned active) {
  unsigned t = tid_x();
  if (t >= active) return;
  int v = in[bid_x() * bdim_x() + t];
  int count = __weft_cpu_barrier_reduce(v > 0, BL_REDUCE_COUNT);
  int all = __weft_cpu_barrier_reduce(v > -100, BL_REDUCE_AND);
  int any = __weft_cpu_barrier_reduce(v > 90, BL_REDUCE_OR);
  if (t == 0) {
    out[bid_x() * 3 + 0] = count;
    out[bid_x() * 3 + 1] = all;
    out[bid_x() * 3 + 2] = any;
  }
}

// Barriers inside nested loops: a 1-D three-point smoothing, `steps` times per
// round, with a running per-thread sum kept across every barrier.
void smooth(const float* in, float* out, int rounds, int steps) {
  static float cur[256];
  unsigned t = tid_x(), n = bdim_x();
  cur[t] = in[bid_x() * n + t];
  float sum = 0;
  syncthreads();
  for (int r = 0; r < rounds; ++r) {
    for (int s = 0; s < steps; ++s) {
      float l = cur[t == 0 ? 0 : t - 1], c = cur[t], rr = cur[t + 1 < n ? t + 1 : t];
      syncthreads();
      cur[t] = (l + c + rr) / 3.0f;
      sum += cur[t];
      syncthreads();
    }
    if (t == 0) cur[0] += 1.0f;
    syncthreads();
  }
  out[bid_x() * n + t] = cur[t] + sum;
}

// Warp operations in divergent code: only the first warp of each block reduces
// the partial sums (the other warps wait at the final barrier), and a ballot.
void two_level_sum(const float* in, float* out, unsigned* ballots) {
  static float warp_partial[32];
  unsigned t = tid_x();
  float v = in[bid_x() * bdim_x() + t];
  for (int o = 16; o > 0; o /= 2) v += shfl_xor(v, unsigned(o));
  if (lane_id() == 0) warp_partial[t / 32] = v;
  syncthreads();
  if (t < 32) {
    float w = t < bdim_x() / 32 ? warp_partial[t] : 0.0f;
    for (int o = 16; o > 0; o /= 2) w += shfl_down(w, unsigned(o));
    uint64_t mask = __weft_cpu_warp_ballot(warp_partial[t % (bdim_x() / 32)] > 0.0f && (t & 1));
    __weft_cpu_warp_sync();
    if (t == 0) {
      out[bid_x()] = w;
      ballots[bid_x()] = unsigned(mask);
    }
  }
  syncthreads();
}

// Every shuffle form (block_loops' in-region exchange, issue 18): widths below 32, sources
// outside the segment, the warp or the block (a partial last warp), block-uniform and
// per-lane sources, 64-bit values, and shuffles in loops (a scan, a butterfly).
constexpr int kShuffleForms = 12;
inline uint32_t read_lane(uint32_t v, int src, unsigned lane, int width) {
  int segment = int(lane & ~unsigned(width - 1));
  uint32_t from = (src < segment || src >= segment + width) ? lane : uint32_t(src);
  return uint32_t(__weft_cpu_warp_read(v, from));
}
void shuffle_forms(const unsigned* in, unsigned* out, const uint64_t* in64, uint64_t* out64,
                   int d) {
  unsigned t = linear_tid(), lane = lane_id();
  unsigned g = bid_x() * (bdim_x() * bdim_y()) + t;
  unsigned v = in[g], r[kShuffleForms];
  r[0] = read_lane(v, int(lane + 3), lane, 8);          // __shfl_down(v, 3, 8)
  r[1] = read_lane(v, int(lane) - 5, lane, 32);         // __shfl_up(v, 5)
  r[2] = read_lane(v, int(lane ^ 6u), lane, 32);        // __shfl_xor(v, 6)
  r[3] = read_lane(v, int(lane ^ 16u), lane, 32);       // __shfl_xor(v, 16)
  r[4] = read_lane(v, int(lane & ~15u) + 7, lane, 16);  // __shfl(v, 7, 16)
  r[5] = uint32_t(__weft_cpu_warp_read(v, 31));         // lane 31 (maybe absent)
  r[6] = uint32_t(__weft_cpu_warp_read(v, lane + 40));  // outside the warp
  r[7] = read_lane(v, int(lane) + d, lane, 32);         // __shfl_down(v, d)
  r[8] = read_lane(v, int((lane * 7) % 32), lane, 32);  // a per-lane permutation
  unsigned scan = v;                                    // inclusive scan
  for (int o = 1; o < 32; o *= 2) {
    unsigned up = read_lane(scan, int(lane) - o, lane, 32);
    if (int(lane) >= o) scan += up;
  }
  r[9] = scan;
  unsigned sum = v;  // butterfly, width 8
  for (unsigned m = 4; m > 0; m /= 2) sum += read_lane(sum, int(lane ^ m), lane, 8);
  r[10] = sum;
  r[11] = uint32_t(__weft_cpu_warp_read(7, lane + 1)) + v;  // a constant value
  for (int k = 0; k < kShuffleForms; ++k) out[g * kShuffleForms + k] = r[k];
  uint64_t w = in64[g];
  out64[g] = __weft_cpu_warp_read(w, lane + 1 < 32 ? lane + 1 : lane);  // 64-bit __shfl_down(w, 1)
}

// Shuffles by block-uniform amounts known only at run time (block_loops reads a shift with
// contiguous loads when the source lane is the lane plus a uniform amount and the lane is
// the warp lane; a gather otherwise): the lane of threadIdx.x (a warp lane only in 1-D
// blocks or rows of whole warps), widths 8/16/32, xor masks that are or are not powers of
// two, and loops over halving amounts (a butterfly, a down-sweep as in a warp sum).
constexpr int kShiftForms = 8;
void shuffle_shifts(const unsigned* in, unsigned* out, int d, unsigned m) {
  unsigned t = linear_tid(), xl = tid_x() % 32, lane = lane_id();
  unsigned g = bid_x() * (bdim_x() * bdim_y()) + t;
  unsigned v = in[g], r[kShiftForms];
  r[0] = read_lane(v, int(xl) + d, xl, 32);      // __shfl_down(v, d), threadIdx.x's lane
  r[1] = read_lane(v, int(xl) - d, xl, 16);      // __shfl_up(v, d, 16), threadIdx.x's lane
  r[2] = read_lane(v, int(xl ^ m), xl, 32);      // __shfl_xor(v, m), threadIdx.x's lane
  r[3] = read_lane(v, int(lane ^ m), lane, 16);  // __shfl_xor(v, m, 16)
  r[4] = read_lane(v, int(lane) + d, lane, 8);   // __shfl_down(v, d, 8)
  r[5] = read_lane(v, int(lane) - d, lane, 32);  // __shfl_up(v, d)
  unsigned sum = v;
  for (unsigned k = m; k > 0; k /= 2) sum += read_lane(sum, int(lane ^ k), lane, 32);
  r[6] = sum;
  unsigned down = v;
  for (int o = d; o > 0; o /= 2) down += read_lane(down, int(lane) + o, lane, 32);
  r[7] = down;
  for (int k = 0; k < kShiftForms; ++k) out[g * kShiftForms + k] = r[k];
}

// Invalid HIP: half of each warp waits at __syncwarp while the other half waits at
// __syncthreads. The fiber engine reports a deadlock; so must the rewritten kernel.
void warp_barrier_deadlock(int* out) {
  if (lane_id() < 16) __weft_cpu_warp_sync();
  else syncthreads();
  out[tid_x()] = 1;
}

// A barrier in a recursive helper: the pass cannot inline it, so this kernel
// stays on fibers (the marker folds to 0).
int __attribute__((noinline)) recurse_with_barrier(int depth) {
  if (depth == 0) return int(tid_x());
  syncthreads();
  return recurse_with_barrier(depth - 1) + 1;
}
void recursive_kernel(int* out) { out[tid_x()] = recurse_with_barrier(2); }

void empty_kernel() {}

// Threads at or past a bound skip a region's work (the pass stops those regions' x loops at
// the bound): a signed guard whose bound may be negative, 0 or past the row, an unsigned one
// computed from it, a tree over each row (the bound halves in a loop around the barrier), a
// guarded region whose failing threads still compute a value used after the barrier, a guard
// whose bound differs by thread (neither may be bounded), and 2-D blocks (the guard on
// threadIdx.x holds in every row).
void bounded(const int* in, int* out, int lim) {
  static int stage[1024];
  const unsigned t = linear_tid(), w = bdim_x(), n = w * bdim_y();
  const int x = int(tid_x());
  stage[t] = in[bid_x() * n + t];
  syncthreads();
  if (x < lim) stage[t] += 1000;
  syncthreads();
  if (tid_x() < unsigned(lim) / 2) stage[t] *= 3;
  syncthreads();
  if (tid_x() < unsigned(in[bid_x() * n + t]) % 40u) stage[t] ^= 1;
  syncthreads();
  for (unsigned s = w / 2; s > 0; s /= 2) {
    if (tid_x() < s) stage[t] += stage[t + s];
    syncthreads();
  }
  int kept = stage[t] % 7;
  if (tid_x() < 3) kept = stage[t - tid_x()];
  syncthreads();
  out[bid_x() * n + t] = stage[t] + kept;
}

// blockIdx of a 3-D grid, read with constant dimensions and with one known only at run time
// (a marker call left in the region: it reads what the range form published), around a
// barrier; out: 4 values per thread.
void block_coords(unsigned* out, unsigned dim) {
  static unsigned stage[256];
  unsigned t = linear_tid(), n = bdim_x() * bdim_y();
  unsigned b = bid_x() + __weft_cpu_grid_dim(0) *
                             (bid_y() + __weft_cpu_grid_dim(1) * __weft_cpu_block_idx(2));
  stage[t] = __weft_cpu_block_idx(dim) * 1000 + t;
  syncthreads();
  unsigned* o = out + (size_t(b) * n + t) * 4;
  o[0] = bid_x();
  o[1] = bid_y();
  o[2] = __weft_cpu_block_idx(2);
  o[3] = stage[n - 1 - t];
}

}  // namespace

extern "C" {

int bl_kernels_form() { return BL_FORM; }

int bl_run_vector_add(const float* a, const float* b, float* c, int n, unsigned threads) {
  return BL_LAUNCH(vector_add, (bl_dim3{unsigned(n + threads - 1) / threads}), (bl_dim3{threads}),
                   0, a, b, c, n);
}
int bl_run_saxpy(float alpha, const float* x, float* y, int n, unsigned threads) {
  return BL_LAUNCH(saxpy, (bl_dim3{unsigned(n + threads - 1) / threads}), (bl_dim3{threads}), 0,
                   alpha, x, y, n);
}
int bl_run_block_sum(const float* in, float* out, unsigned blocks, unsigned threads) {
  return BL_LAUNCH(block_sum, (bl_dim3{blocks}), (bl_dim3{threads}), 0, in, out);
}
int bl_run_warp_sum(const float* in, float* out, unsigned blocks, unsigned threads) {
  return BL_LAUNCH(warp_sum, (bl_dim3{blocks}), (bl_dim3{threads}), 0, in, out);
}
int bl_run_warp_low_lanes(const float* in, float* out, unsigned blocks, unsigned tx, unsigned ty) {
  return BL_LAUNCH(warp_low_lanes, (bl_dim3{blocks}), (bl_dim3{tx, ty}), 0, in, out);
}
int bl_run_warp_traced_sum(const float* in, float* out, float* trace, unsigned blocks, unsigned tx,
                           unsigned ty) {
  return BL_LAUNCH(warp_traced_sum, (bl_dim3{blocks}), (bl_dim3{tx, ty}), 0, in, out, trace);
}
int bl_run_thread_coords(unsigned* out, unsigned blocks, unsigned tx, unsigned ty, unsigned tz) {
  return BL_LAUNCH(thread_coords, (bl_dim3{blocks}), (bl_dim3{tx, ty, tz}), 0, out);
}
int bl_run_sgemm(const float* A, const float* B, float* C, int n) {
  return BL_LAUNCH(sgemm, (bl_dim3{unsigned(n / kTile), unsigned(n / kTile)}),
                   (bl_dim3{kTile, kTile}), 0, A, B, C, n);
}
int bl_run_early_return_sum(const int* in, int* out, unsigned blocks, unsigned threads,
                            unsigned active) {
  return BL_LAUNCH(early_return_sum, (bl_dim3{blocks}), (bl_dim3{threads}), 0, in, out, active);
}
int bl_run_divergent(const int* in, int* out, unsigned blocks, unsigned threads) {
  return BL_LAUNCH(divergent, (bl_dim3{blocks}), (bl_dim3{threads}), 0, in, out);
}
int bl_run_reverse_dynamic(const float* in, float* out, unsigned blocks, unsigned threads) {
  return BL_LAUNCH(reverse_dynamic, (bl_dim3{blocks}), (bl_dim3{threads}), threads * sizeof(float),
                   in, out);
}
int bl_run_histogram(const unsigned* in, unsigned* bins, unsigned* total, unsigned blocks,
                     unsigned threads) {
  return BL_LAUNCH(histogram, (bl_dim3{blocks}), (bl_dim3{threads}), 0, in, bins, total);
}
int bl_run_sync_reduce(const int* in, int* out, unsigned blocks, unsigned threads,
                       unsigned active) {
  return BL_LAUNCH(sync_reduce, (bl_dim3{blocks}), (bl_dim3{threads}), 0, in, out, active);
}
int bl_run_smooth(const float* in, float* out, unsigned blocks, unsigned threads, int rounds,
                  int steps) {
  return BL_LAUNCH(smooth, (bl_dim3{blocks}), (bl_dim3{threads}), 0, in, out, rounds, steps);
}
int bl_run_two_level_sum(const float* in, float* out, unsigned* ballots, unsigned blocks,
                         unsigned threads) {
  return BL_LAUNCH(two_level_sum, (bl_dim3{blocks}), (bl_dim3{threads}), 0, in, out, ballots);
}
int bl_run_shuffle_forms(const unsigned* in, unsigned* out, const uint64_t* in64, uint64_t* out64,
                         int d, unsigned blocks, unsigned tx, unsigned ty) {
  return BL_LAUNCH(shuffle_forms, (bl_dim3{blocks}), (bl_dim3{tx, ty}), 0, in, out, in64, out64, d);
}
int bl_run_shuffle_shifts(const unsigned* in, unsigned* out, int d, unsigned m, unsigned blocks,
                          unsigned tx, unsigned ty) {
  return BL_LAUNCH(shuffle_shifts, (bl_dim3{blocks}), (bl_dim3{tx, ty}), 0, in, out, d, m);
}
int bl_run_recursive(int* out, unsigned threads) {
  return BL_LAUNCH(recursive_kernel, (bl_dim3{1}), (bl_dim3{threads}), 0, out);
}
int bl_run_warp_barrier_deadlock(int* out, unsigned blocks, unsigned threads) {
  return BL_LAUNCH(warp_barrier_deadlock, (bl_dim3{blocks}), (bl_dim3{threads}), 0, out);
}
int bl_run_empty(unsigned blocks, unsigned threads) {
  return BL_LAUNCH(empty_kernel, (bl_dim3{blocks}), (bl_dim3{threads}), 0);
}
int bl_run_bounded(const int* in, int* out, int lim, unsigned blocks, unsigned tx, unsigned ty) {
  return BL_LAUNCH(bounded, (bl_dim3{blocks}), (bl_dim3{tx, ty}), 0, in, out, lim);
}
int bl_run_block_coords(unsigned* out, unsigned dim, unsigned gx, unsigned gy, unsigned gz,
                        unsigned tx, unsigned ty) {
  return BL_LAUNCH(block_coords, (bl_dim3{gx, gy, gz}), (bl_dim3{tx, ty}), 0, out, dim);
}

}  // extern "C"
