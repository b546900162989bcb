// SPDX-License-Identifier: MIT
// The per-call paths' lookups without reference counts (bench/cuda_overhead):
// an entry point that uses a stream, event or function only for a short section
// that does not wait for the device holds it in the thread's hazard record
// (runtime/hazard.hpp, HandleRegistry::find_held) instead of taking a reference,
// which saves two locked instructions per object. Whoever removes the handle
// meanwhile (hipStreamDestroy, hipEventDestroy, hipModuleUnload) waits until the
// section ends. Where the lookup cache does not have the handle, a Held takes a
// reference as before.
#pragma once

#include "runtime/handle_registry.hpp"
#include "runtime/hazard.hpp"

#include <weft/driver/ref.hpp>

#include <cstddef>
#include <utility>

namespace weft::api {

// `slot` is hazard::kHoldFirst or kHoldSecond; one Held per slot at a time per
// thread, and the section must not remove handles itself.
template <typename T>
class Held {
 public:
  Held() = default;
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;

  void find(const HandleRegistry<T>& registry, const void* handle, size_t slot) {
    if (hazard::Record* r = hazard::record()) [[likely]] {
      if (T* hit = registry.find_held(handle, r->held[slot])) [[likely]] {
        end_.arm(r->held[slot]);
        p_ = hit;
        return;
      }
    }
    set(registry.find(handle));
  }
  // An object the caller found another way (held by `end`'s slot or referenced).
  void set(Ref<T> ref) {
    ref_ = std::move(ref);
    p_ = ref_.get();
  }
  // An object already held in `slot` of this thread's record.
  void adopt(T* held, std::atomic<const void*>& slot) {
    end_.arm(slot);
    p_ = held;
  }

  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  hazard::HoldEnd end_;  // declared first: the hold ends after the reference goes
  Ref<T> ref_;
  T* p_ = nullptr;
};

// An object used across a wait for the device (hipEventSynchronize), held in the
// thread's waiting slot (HandleRegistry::find_waiting_held: a removal meanwhile
// parks the object instead of waiting), or referenced where that slot is busy or
// the lookup cache misses. The hold ends after everything else of the section.
template <typename T>
class WaitHeld {
 public:
  WaitHeld(const HandleRegistry<T>& registry, const void* handle) : registry_(registry) {
    if (hazard::Record* r = hazard::record()) [[likely]] {
      if (T* hit = registry.find_waiting_held(handle, *r)) [[likely]] {
        record_ = r;
        p_ = hit;
        return;
      }
    }
    ref_ = registry.find(handle);
    p_ = ref_.get();
  }
  ~WaitHeld() {
    if (record_) registry_.end_waiting_hold(*record_);
  }
  WaitHeld(const WaitHeld&) = delete;
  WaitHeld& operator=(const WaitHeld&) = delete;

  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  const HandleRegistry<T>& registry_;
  hazard::Record* record_ = nullptr;
  Ref<T> ref_;
  T* p_ = nullptr;
};

}  // namespace weft::api
