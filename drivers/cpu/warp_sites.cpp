// SPDX-License-Identifier: MIT
// Warp operations whose lanes wait at different call sites (docs/cpu-engine.md,
// "Divergent warp operations").
//
// The inline fast path (hip/weft/fiber_sync.h) serves the warp's open exchange:
// lanes at its site join it and wait on the warp's generation. A lane that
// reaches another site while lanes wait comes here and is held (it waits on
// hold_, which never moves); from then on, until only one site is left, every
// arrival of the warp comes here (w.site is WEFT_WARP_SITE_DIVERGENT). Lanes
// already waiting in the open exchange are never moved: their inline wait checks
// only the generation, so the open exchange is completed only by moving it.
//
// Once every live lane of the warp waits, the group at the earliest site (the
// smallest key: the lowest line) completes with only its lanes in the mask: a
// GPU runs a divergent branch, or the rest of a loop, before its lanes reach the
// code where they reconverge, which in structured code lies further down.
#include "block_runner.hpp"

#include <cstdint>

namespace weft::cpu {
namespace {

constexpr uint32_t kWarp = WEFT_CPU_WARP_SIZE;

void wait_on(weftFiber& f, const uint32_t* counter, uint32_t seen) {
  f.waitsOn = counter;
  f.seen = seen;
}

}  // namespace

const uint64_t* BlockRunner::warp_divergent(uint64_t value, uint64_t* active_mask, uint64_t site) {
  const uint32_t me = hot_.current;
  const uint32_t warp = me / kWarp;
  const uint64_t bit = uint64_t(1) << (me % kWarp);
  weftWarpState& w = warps_[warp];
  HeldLanes& h = held_[warp];
  weftFiber& f = fibers_[me];
  if (w.site != WEFT_WARP_SITE_DIVERGENT) {
    h.open = w.site;
    w.site = WEFT_WARP_SITE_DIVERGENT;
  }
  ++w.arrived;
  if (site == h.open) {
    const uint32_t buffer = w.generation & 1;
    w.values[buffer][me % kWarp] = value;
    w.masks[buffer] |= bit;
    wait_on(f, &w.generation, w.generation);
  } else {
    h.site[me % kWarp] = site;
    h.value[me % kWarp] = value;
    h.held |= bit;
    wait_on(f, &hold_, hold_);
  }
  if (w.arrived == w.alive) complete_earliest(warp);
  wait_slow(me);
  if (f.waitsOn == &w.generation) {  // completed as (or promoted into) the open exchange
    const uint32_t buffer = f.seen & 1;
    if (active_mask) *active_mask = w.masks[buffer];
    return w.values[buffer];
  }
  if (active_mask) *active_mask = h.done;
  return h.result;
}

// Every live lane of `warp` waits at a warp operation, at two or more sites.
void BlockRunner::complete_earliest(uint32_t warp) {
  weftWarpState& w = warps_[warp];
  HeldLanes& h = held_[warp];
  const uint32_t buffer = w.generation & 1;
  const uint64_t open_lanes = w.masks[buffer];
  uint64_t earliest = UINT64_MAX;
  for (uint64_t m = h.held; m; m &= m - 1) {
    const uint64_t site = h.site[__builtin_ctzll(m)];
    if (site < earliest) earliest = site;
  }
  if (open_lanes && h.open <= earliest) {
    w.arrived -= static_cast<uint32_t>(__builtin_popcountll(open_lanes));
    ++w.generation;  // releases exactly the open exchange's lanes
    w.masks[buffer ^ 1] = 0;
  } else {
    uint64_t group = 0;
    for (uint64_t m = h.held; m; m &= m - 1) {
      const uint32_t lane = __builtin_ctzll(m);
      if (h.site[lane] != earliest) continue;
      group |= uint64_t(1) << lane;
      h.result[lane] = h.value[lane];
      wait_on(fibers_[warp * kWarp + lane], &hold_, hold_ + 1);  // may run
    }
    h.done = group;
    h.held &= ~group;
    w.arrived -= static_cast<uint32_t>(__builtin_popcountll(group));
  }
  settle_warp(warp);
}

// Back to the fast path's form where one site is left: no lane held, or held
// lanes at a single site while the open exchange has none (they become it).
void BlockRunner::settle_warp(uint32_t warp) {
  weftWarpState& w = warps_[warp];
  HeldLanes& h = held_[warp];
  const uint32_t buffer = w.generation & 1;
  if (h.held != 0) {
    if (w.masks[buffer] != 0) return;
    const uint64_t site = h.site[__builtin_ctzll(h.held)];
    for (uint64_t m = h.held; m; m &= m - 1)
      if (h.site[__builtin_ctzll(m)] != site) return;
    for (uint64_t m = h.held; m; m &= m - 1) {
      const uint32_t lane = __builtin_ctzll(m);
      w.values[buffer][lane] = h.value[lane];
      wait_on(fibers_[warp * kWarp + lane], &w.generation, w.generation);
    }
    w.masks[buffer] = h.held;
    h.held = 0;
    h.open = site;
  }
  w.site = h.open;
}

}  // namespace weft::cpu
