// SPDX-License-Identifier: MIT
// Per-thread hazard pointers for the lock-free lookups of registered kernels
// (codeobj/registry.hpp): while a thread takes a reference to an object
// it found without a lock, its record names the object, and whoever removes the
// object from the registry waits until no record does before the registry's
// reference may go. A lookup holds its guard for a few instructions and never
// blocks, so the wait is short. A hot entry point may instead hold the objects
// it looked up in its record's hold slots for the rest of a short, non-blocking
// section (HandleRegistry::find_held: no reference count), and the remover waits
// for those too. One record per thread (lookups do not nest), taken on its
// first lookup and handed back when the thread exits; records are never freed.
// Thread-safe.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace weft::hazard {

// Hold slots per record: objects an API call uses without a reference, for the
// whole of a short section that never blocks (HandleRegistry::find_held). Slot
// kHoldFirst and kHoldSecond are the entry point's own (an event and a stream, a
// function and a stream); a call never nests another call that holds.
inline constexpr size_t kHolds = 2;
inline constexpr size_t kHoldFirst = 0;
inline constexpr size_t kHoldSecond = 1;

struct alignas(64) Record {
  std::atomic<const void*> guarded{nullptr};
  std::atomic<const void*> held[kHolds] = {};
  // An object held across a wait for the device (hipEventSynchronize;
  // HandleRegistry::find_waiting_held). Removers do not wait for this slot, which
  // could take as long as the device: they park their reference instead, and the
  // hold's end (or a later removal) lets it go.
  std::atomic<const void*> waiting{nullptr};
  std::atomic<bool> in_use{false};
  Record* next = nullptr;  // immutable once the record is published
};

extern __thread Record* t_record __attribute__((tls_model("initial-exec")));

// This thread's record; null while the thread is exiting (lookups then take the lock).
Record* acquire_record();
inline Record* record() {
  if (Record* r = t_record) [[likely]]
    return r;
  return acquire_record();
}

// Whether the guard's store-load fence is asymmetric: set once while the library
// loads (before any lookup), where the kernel offers
// membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED). Then a guard is a plain store,
// ordered before the lookup's next load only against the compiler, and
// wait_unguarded() makes every running thread of the process execute a full
// fence before it reads the guards: a store still in a reader's store buffer is
// then visible, and a reader whose load comes after that fence sees the cleared
// cache entry. Without membarrier (old kernels, valgrind) the guard is a
// sequentially consistent store (a locked exchange, ~20 cycles a lookup).
extern bool g_asymmetric_fences;

// Publishes `object` as `r`'s guard, ordered before the caller's next load.
inline void guard(Record* r, const void* object) {
  if (g_asymmetric_fences) [[likely]] {
    r->guarded.store(object, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    r->guarded.store(object, std::memory_order_seq_cst);
  }
}
inline void unguard(Record* r) { r->guarded.store(nullptr, std::memory_order_release); }

// Ends a hold (HandleRegistry::find_held) when it goes out of scope; a null slot
// (the lookup missed or never ran) is left alone.
class HoldEnd {
 public:
  HoldEnd() = default;
  HoldEnd(const HoldEnd&) = delete;
  HoldEnd& operator=(const HoldEnd&) = delete;
  ~HoldEnd() {
    if (slot_) slot_->store(nullptr, std::memory_order_release);
  }
  void arm(std::atomic<const void*>& slot) { slot_ = &slot; }

 private:
  std::atomic<const void*>* slot_ = nullptr;
};

// Returns once no thread's record guards or holds `object`. The caller has already made
// `object` unreachable for new lookups (cleared its cache entry).
void wait_unguarded(const void* object);
// The same for several objects, with one fence for all of them.
void wait_unguarded(const void* const* objects, size_t count);

// The remover's half of a fence against guards and holds: a full fence on every
// running thread (or on this one where guards fence themselves).
void fence_against_guards();
// Whether some record's waiting slot names `object`. Call after
// fence_against_guards() (wait_unguarded makes one), once `object` is unreachable.
bool waited_on(const void* object);

// The slot of a handle in a direct-mapped lookup cache of 2^Bits entries (the
// caches the guarded lookups probe).
template <unsigned Bits>
inline size_t cache_slot(const void* handle) {
  return size_t((reinterpret_cast<uintptr_t>(handle) >> 4) * 0x9E3779B97F4A7C15ull >> (64 - Bits));
}

}  // namespace weft::hazard
