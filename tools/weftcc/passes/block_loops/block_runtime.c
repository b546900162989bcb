// SPDX-License-Identifier: MIT
// The slow paths of a whole-block kernel (block_loops pass), compiled to LLVM IR
// when the plugin is built and linked into each module the pass rewrites (as
// internal functions, so every image carries its own copy and needs nothing
// from the runtime).
//
// A rewritten kernel keeps one state per GPU thread while its threads are not
// all at the same point: the id of the barrier or warp operation it waits at
// (1..m), BL_DONE once it returned. A thread marked BL_RELEASED | s may run
// the region after sync point s now. The kernel's code runs the regions; these
// functions decide which group runs next and compute what a warp operation or
// a reducing barrier hands back.
#include <stdint.h>

#define BL_DONE 0x7fffffffu
#define BL_RELEASED 0x80000000u
#define BL_MIXED 0xfffffffdu
#define BL_DEADLOCK 0xfffffffeu
#define BL_FINISHED 0xffffffffu

// Kinds of sync points (the pass's SyncKind).
#define BL_BARRIER 0
#define BL_BARRIER_REDUCE 1
#define BL_WARP_READ 2
#define BL_WARP_BALLOT 3
#define BL_WARP_SYNC 4

#define BL_WARP 32u

// The same as weft's WEFT_REDUCE_* (hip/weft/kernel_abi.h).
#define BL_REDUCE_COUNT 1
#define BL_REDUCE_AND 2
#define BL_REDUCE_OR 3

static int is_warp_kind(uint8_t kind) { return kind >= BL_WARP_READ; }

// st[0] when every thread of [0, n) is in the same state, else BL_MIXED.
uint32_t __weft_bl_uniform(const uint32_t* st, uint32_t n) {
  uint32_t first = st[0], differ = 0;
  for (uint32_t t = 1; t < n; ++t) differ |= st[t] ^ first;
  return differ ? BL_MIXED : first;
}

// Picks the next group of threads to run while their states differ. Returns the
// sync point s whose region runs next (for the threads of [range[0], range[1])
// whose state is BL_RELEASED | s), BL_FINISHED when every thread returned, or
// BL_DEADLOCK when live threads wait for each other at different kinds of points
// (lanes at a warp operation while others of their warp wait at __syncthreads).
//
// Order, as the fiber engine's: threads released by a barrier run first (every
// group released by one barrier generation runs before the next generation);
// then a warp whose live lanes all wait at warp operations completes the one at
// the lowest sync id among them (ids follow source order, so that is the code a
// GPU runs first: lanes that skipped a branch wait further down); once no warp
// can move, a barrier releases every thread waiting at one.
uint32_t __weft_bl_schedule(uint32_t* st, uint32_t n, const uint8_t* kinds, uint32_t* range) {
  for (uint32_t t = 0; t < n; ++t) {
    if (st[t] != BL_DONE && (st[t] & BL_RELEASED)) {
      range[0] = 0;
      range[1] = n;
      return st[t] & ~BL_RELEASED;
    }
  }
  int any_warp_wait = 0, any_barrier_wait = 0;
  for (uint32_t lo = 0; lo < n; lo += BL_WARP) {
    uint32_t hi = n - lo < BL_WARP ? n : lo + BL_WARP;
    uint32_t lowest = BL_DONE;
    int blocked = 0;
    for (uint32_t t = lo; t < hi; ++t) {
      uint32_t s = st[t];
      if (s == BL_DONE) continue;
      if (is_warp_kind(kinds[s])) {
        if (s < lowest) lowest = s;
      } else {
        blocked = 1;
      }
    }
    if (lowest == BL_DONE) {
      any_barrier_wait |= blocked;
      continue;
    }
    if (blocked) {
      any_warp_wait = 1;
      any_barrier_wait = 1;
      continue;
    }
    for (uint32_t t = lo; t < hi; ++t)
      if (st[t] == lowest) st[t] = lowest | BL_RELEASED;
    range[0] = lo;
    range[1] = hi;
    return lowest;
  }
  if (any_warp_wait) return BL_DEADLOCK;
  if (!any_barrier_wait) return BL_FINISHED;
  uint32_t first = BL_DONE;
  for (uint32_t t = 0; t < n; ++t) {
    if (st[t] == BL_DONE) continue;
    if (first == BL_DONE) first = st[t];
    st[t] |= BL_RELEASED;
  }
  range[0] = 0;
  range[1] = n;
  return first;
}

// Computes what sync point `kind` returns to each thread of [lo, hi) about to
// resume after it: every thread of the range when st is NULL (all threads are
// there), else those whose state is `want`. xval/xsrc hold what each thread
// passed (value and source lane, predicate and reduce op); results go to xres.
void __weft_bl_prepare(uint32_t kind, const uint32_t* st, uint32_t want, uint32_t lo, uint32_t hi,
                       const uint64_t* xval, const uint32_t* xsrc, uint64_t* xres) {
  if (kind == BL_BARRIER_REDUCE) {
    uint64_t count = 0, taking_part = 0;
    for (uint32_t t = lo; t < hi; ++t) {
      if (st && st[t] != want) continue;
      ++taking_part;
      count += xval[t] != 0;
    }
    for (uint32_t t = lo; t < hi; ++t) {
      if (st && st[t] != want) continue;
      uint32_t op = xsrc[t];
      xres[t] = op == BL_REDUCE_AND ? count == taking_part
              : op == BL_REDUCE_OR  ? count != 0
                                    : count;
    }
    return;
  }
  if (kind != BL_WARP_READ && kind != BL_WARP_BALLOT) return;
  for (uint32_t base = lo; base < hi; base += BL_WARP) {
    uint32_t end = hi - base < BL_WARP ? hi : base + BL_WARP;
    if (kind == BL_WARP_READ) {
      if (!st) {
        // Scalar: a gather of 64-bit lanes costs more than these loads on the CPUs at hand.
#pragma clang loop vectorize(disable) interleave(disable)
        for (uint32_t t = base; t < end; ++t) {
          uint32_t src = base + xsrc[t];
          xres[t] = xsrc[t] < BL_WARP && src < end ? xval[src] : xval[t];
        }
        continue;
      }
      for (uint32_t t = base; t < end; ++t) {
        if (st[t] != want) continue;
        uint32_t src = base + xsrc[t];
        xres[t] = xsrc[t] < BL_WARP && src < end && st[src] == want ? xval[src] : xval[t];
      }
      continue;
    }
    uint64_t mask = 0;
    for (uint32_t t = base; t < end; ++t)
      if ((!st || st[t] == want) && xval[t]) mask |= 1ull << (t - base);
    for (uint32_t t = base; t < end; ++t)
      if (!st || st[t] == want) xres[t] = mask;
  }
}
