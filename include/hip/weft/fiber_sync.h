// SPDX-License-Identifier: MIT
// The fast paths of the CPU engine's GPU-thread scheduling: __syncthreads, warp
// exchanges and the end of a GPU thread, on the shared weftFiberBlock
// (kernel_abi.h). One copy of the algorithm serves two callers:
//
// - single_source.h inlines it into every kernel, with InlineSwitch below, so a
//   barrier crossing costs a handful of instructions and the compiler saves only
//   the registers that are live across it (docs/cpu-engine.md);
// - the engine (drivers/cpu/block_runner.cpp) runs it with its own switch, which
//   tells AddressSanitizer about every stack change, for loop-mode entries, for
//   sanitizer builds and on architectures without InlineSwitch.
//
// A thread that must wait records what it waits for (waitsOn/seen) and hands
// control straight to its precomputed successor; the arrival that completes a
// barrier carries on without a switch. A resumed thread whose wait is not over
// (divergent barriers, returned threads, an aborted block) calls the engine's
// slow path, which finds a runnable thread or reports the deadlock.
#ifndef WEFT_HIP_FIBER_SYNC_H
#define WEFT_HIP_FIBER_SYNC_H

#include <hip/weft/kernel_abi.h>

#include <stdint.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define WEFT_FIBER_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define WEFT_FIBER_SANITIZED 1
#endif

// Sanitizers must see every stack switch, so sanitized code always goes through
// the engine.
#if defined(__x86_64__) && !defined(WEFT_FIBER_SANITIZED)
#define WEFT_INLINE_FIBER_SWITCH 1
#else
#define WEFT_INLINE_FIBER_SWITCH 0
#endif

#define WEFT_FIBER_INLINE inline __attribute__((always_inline))

namespace weft::fiber {

WEFT_FIBER_INLINE bool still_waiting(const weftFiber* f) { return *f->waitsOn == f->seen; }

// The successor in the block ring. While every thread of the block is in the
// ring in order, it is computed rather than loaded: each crossing depends on the
// one before through the running thread's id, and a load would lengthen that chain.
WEFT_FIBER_INLINE uint32_t block_next(const weftFiberBlock* fb, const weftFiber* f, uint32_t me) {
  const uint32_t n = fb->orderedRing;
  if (__builtin_expect(n != 0, 1)) return me + 1 < n ? me + 1 : 0;
  return f->next;
}
WEFT_FIBER_INLINE uint32_t warp_next(const weftFiberBlock* fb, const weftFiber* f, uint32_t me) {
  const uint32_t n = fb->orderedRing;
  if (__builtin_expect(n != 0, 1)) {
    const uint32_t up = me + 1;
    return (up % WEFT_CPU_WARP_SIZE == 0 || up == n) ? me / WEFT_CPU_WARP_SIZE * WEFT_CPU_WARP_SIZE
                                                     : up;
  }
  return f->warpNext;
}

// Switch: uint32_t(weftFiber* from, weftFiber* to, uint32_t to_id) saves the
// running thread in `from`, resumes `to` and returns, once something resumes the
// caller, the id it was handed (its own). Wait: uint32_t(uint32_t me) returns
// when `me` may run (the engine's slow path). A resumed thread checks only the
// counter it waits on (cheaper than still_waiting()); the engine keeps that
// check sufficient, also when it must stop a thread after an abort.

// Thread `me` waits until *counter moves on from `seen`: it records that, hands
// control to `next` and, once resumed, returns the running thread's id (its own).
template <class Switch, class Wait>
WEFT_FIBER_INLINE uint32_t wait_for(weftFiberBlock* fb, uint32_t me, const uint32_t* counter,
                                    uint32_t seen, uint32_t next, Switch&& sw, Wait&& wait) {
  weftFiber* f = &fb->fibers[me];
  f->waitsOn = counter;
  f->seen = seen;
  fb->current = next;
  me = sw(f, &fb->fibers[next], next);
  if (__builtin_expect(*counter == seen, 0)) me = wait(me);
  return me;
}

// __syncthreads and its _count/_and/_or forms (op: WEFT_REDUCE_*) for thread `me`;
// returns the id of the running thread afterwards (`me`).
template <class Switch, class Wait>
WEFT_FIBER_INLINE uint32_t barrier(weftFiberBlock* fb, uint32_t me, int predicate, int op,
                                   int* result, Switch&& sw, Wait&& wait) {
  const uint32_t generation = fb->generation;
  fb->trueCount += predicate != 0;
  if (++fb->arrived == fb->alive) {
    fb->results[generation & 1] = weftBarrierResult{fb->trueCount, fb->arrived};
    fb->trueCount = 0;
    fb->arrived = 0;
    fb->generation = generation + 1;
  } else {
    me = wait_for(fb, me, &fb->generation, generation, block_next(fb, &fb->fibers[me], me), sw,
                  wait);
  }
  if (op != WEFT_REDUCE_NONE) {
    const weftBarrierResult r = fb->results[generation & 1];
    *result = op == WEFT_REDUCE_COUNT ? int(r.trueCount)
            : op == WEFT_REDUCE_AND   ? int(r.trueCount == r.arrived)
                                      : int(r.trueCount > 0);
  }
  return me;
}

// What a warp exchange hands back: the lanes' values (valid until the caller's next
// exchange) and the mask of the lanes that took part. Returned by value, so that an
// inlined exchange keeps the mask in a register.
struct WarpExchange {
  const uint64_t* values;
  uint64_t mask;
};

// A warp-wide exchange at call site `site` (warp_site() below): every live lane
// contributes `value`; returns the lanes' values and who took part. `me` is updated
// to the running thread's id afterwards. Lanes exchange only with lanes at the same site. The fast path is
// the warp's open exchange (w->site): a lane at another site while lanes wait
// goes to `divergent` (the engine), which holds it until every live lane waits
// and then completes the group at the earliest site first, as a GPU runs a
// divergent branch before its lanes reconverge (docs/cpu-engine.md). While the
// engine holds lanes, w->site is WEFT_WARP_SITE_DIVERGENT, so every arrival goes there.
template <class Switch, class Wait, class Divergent>
WEFT_FIBER_INLINE WarpExchange warp_exchange(weftFiberBlock* fb, uint32_t& me, uint64_t value,
                                             uint64_t site, Switch&& sw, Wait&& wait,
                                             Divergent&& divergent) {
  weftWarpState* w = &fb->warps[me / WEFT_CPU_WARP_SIZE];
  if (__builtin_expect(w->site != site, 0)) {
    if (w->arrived != 0) return divergent();
    w->site = site;  // nobody waits: this lane opens the exchange at its site
  }
  const uint32_t lane = me % WEFT_CPU_WARP_SIZE;
  const uint32_t generation = w->generation;
  const uint32_t buffer = generation & 1;
  w->values[buffer][lane] = value;
  w->masks[buffer] |= uint64_t(1) << lane;
  if (++w->arrived == w->alive) {
    w->arrived = 0;
    w->generation = generation + 1;
    w->masks[buffer ^ 1] = 0;
  } else {
    me = wait_for(fb, me, &w->generation, generation, warp_next(fb, &fb->fibers[me], me), sw, wait);
  }
  return WarpExchange{w->values[buffer], w->masks[buffer]};
}

// The site key of a warp operation's call: its line first, so that comparing keys
// compares lines (the engine's "earlier" rule), then the file's name address.
WEFT_FIBER_INLINE uint64_t warp_site(unsigned line, const char* file) {
  return uint64_t(line) << 32 | uint32_t(reinterpret_cast<uintptr_t>(file));
}

// Thread `me`'s kernel returned. The common case waits for the block's end right
// here; an exit that ends the block or completes a pending barrier or exchange
// goes to `slow`. Returns the thread to run next on this fiber (the same slot in
// the next block) or WEFT_FIBER_DONE.
template <class Switch, class Wait, class Slow>
WEFT_FIBER_INLINE uint32_t thread_exit(weftFiberBlock* fb, uint32_t me, Switch&& sw, Wait&& wait,
                                       Slow&& slow) {
  weftWarpState* w = &fb->warps[me / WEFT_CPU_WARP_SIZE];
  const uint32_t alive = fb->alive - 1;
  const uint32_t warp_alive = w->alive - 1;
  if (alive == 0 || (fb->arrived != 0 && fb->arrived == alive) ||
      (w->arrived != 0 && w->arrived == warp_alive))
    return slow();
  fb->alive = alive;
  w->alive = warp_alive;
  me = wait_for(fb, me, &fb->blockSerial, fb->blockSerial, block_next(fb, &fb->fibers[me], me), sw,
                wait);
  return fb->rangeDone ? WEFT_FIBER_DONE : me;
}

#if WEFT_INLINE_FIBER_SWITCH
#if defined(__CET__) && (__CET__ & 1)
#define WEFT_FIBER_ENDBR "endbr64\n\t"
#else
#define WEFT_FIBER_ENDBR ""
#endif
#ifdef __AVX512F__
#define WEFT_FIBER_AVX512_CLOBBERS                                                              \
  "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25",     \
      "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", "k1", "k2", "k3", "k4", "k5", "k6", \
      "k7",
#else
#define WEFT_FIBER_AVX512_CLOBBERS
#endif

// The switch as inline assembly (x86-64): the running thread's stack, frame and
// resume address go to `from`, `to`'s are loaded, and its id travels in rdx.
// Every other register is declared clobbered, so the compiler spills exactly
// what is live across the barrier. The resume address is the label inside this
// asm, the same for every thread at the same barrier, so the indirect jump is
// predicted; no call or return is involved, so the return-stack predictor stays
// in step. Nothing is written below the stack pointer (the red zone is safe).
//
// Whoever resumes a thread (this switch or the engine's weft_cpu_switch) jumps with the
// resumed thread's own weftFiber in rsi, so jump() hands it back in `to`: a resumed
// thread finds its fiber without reloading the block (single_source.h's ResumingSwitch).
struct InlineSwitch {
  WEFT_FIBER_INLINE uint32_t operator()(weftFiber* from, weftFiber* to, uint32_t to_id) const {
    return jump(from, to, to_id);
  }
  // As operator(); afterwards `to` is the fiber of the thread that runs (the caller's).
  static WEFT_FIBER_INLINE uint32_t jump(weftFiber* from, weftFiber*& to, uint32_t to_id) {
    uint64_t id = to_id;
    __asm__ __volatile__(
        "leaq 1f(%%rip), %%rax\n\t"
        "movq %%rsp, 0(%1)\n\t"
        "movq %%rax, 8(%1)\n\t"
        "movq %%rbp, 16(%1)\n\t"
        "movq 0(%2), %%rsp\n\t"
        "movq 16(%2), %%rbp\n\t"
        "jmpq *8(%2)\n"
        "1:\n\t" WEFT_FIBER_ENDBR
        : "+d"(id), "+D"(from), "+S"(to)
        :
        : "rax", "rbx", "rcx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "xmm0", "xmm1",
          "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
          "xmm13", "xmm14", "xmm15", WEFT_FIBER_AVX512_CLOBBERS "st", "st(1)", "st(2)", "st(3)",
          "st(4)", "st(5)", "st(6)", "st(7)", "memory", "cc");
    return static_cast<uint32_t>(id);
  }
};
#endif

}  // namespace weft::fiber

#endif  // WEFT_HIP_FIBER_SYNC_H
