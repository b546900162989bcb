// SPDX-License-Identifier: MIT
// Brief spinning before blocking: dependent work usually arrives within
// microseconds, and a futex wake-up costs more than that. Spinning stops after
// kSpinWindow so idle threads use no CPU.
#pragma once

#include <chrono>

namespace weft::cpu {

inline constexpr std::chrono::microseconds kSpinWindow{50};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// Spins until done() is true or the window passes; returns done().
template <typename Done>
bool spin_until(Done done) {
  auto deadline = std::chrono::steady_clock::now() + kSpinWindow;
  for (unsigned i = 0;; ++i) {
    if (done()) return true;
    cpu_relax();
    if ((i & 63) == 63 && std::chrono::steady_clock::now() > deadline) return done();
  }
}

}  // namespace weft::cpu
