// SPDX-License-Identifier: MIT
// Brief spinning before blocking: dependent work usually arrives within
// microseconds, and a futex wake-up costs more than that (tens of µs when the
// scheduler has put the core to sleep). Spinning stops after kSpinWindow so idle
// threads use no CPU.
//
// A spinner only helps while the thread it waits for runs on another CPU: on a
// CPU it shares with that thread it only delays it (a whole scheduler tick). So
// a thread spins only while the process has a CPU for every spinner and one
// left for the thread doing the work: not at all with one usable CPU (taskset
// -c 0), and with N usable CPUs at most N-1 threads spin at once. Waiters (a
// thread waiting for work that runs now, e.g. a synchronize) take precedence
// over idle spinners (a thread hoping for new work): an idle spinner stops as
// soon as a waiter would go over the limit.
//
// The process's CPUs may still be shared with other processes (a loaded machine):
// the scheduler then often puts the spinner and the thread it waits for on one
// CPU, where the spinner keeps the other one from running until its window ends.
// So after kPoliteAfter of plain spinning a spinner yields its CPU between
// checks (sched_yield: a no-op when nothing else waits for that CPU).
#pragma once

#include <sched.h>

#include <atomic>
#include <chrono>

namespace weft::cpu {

inline constexpr std::chrono::microseconds kSpinWindow{50};
inline constexpr std::chrono::microseconds kPoliteAfter{2};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// CPUs the process may run on (its affinity mask when first asked, as
// taskset sets it before the program starts).
inline unsigned usable_cpus() {
  static const unsigned count = [] {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1u;
    int n = CPU_COUNT(&set);
    return n > 0 ? static_cast<unsigned>(n) : 1u;
  }();
  return count;
}

// Threads of this process spinning in spin_until right now.
inline std::atomic<unsigned>& spinners() {
  static std::atomic<unsigned> count{0};
  return count;
}

enum class SpinKind {
  kWaiter,  // waits for work another thread is running (or about to)
  kIdle,    // hopes for new work; gives way to waiters
};

// Spins until done() is true, the window (kSpinWindow unless given) passes, or spinning would take a CPU
// that another thread needs (see above); returns done().
template <typename Done>
bool spin_until(Done done, SpinKind kind = SpinKind::kWaiter,
                std::chrono::microseconds window = kSpinWindow) {
  if (done()) return true;
  const unsigned limit = usable_cpus() - 1;  // one CPU stays for the thread doing the work
  if (limit == 0) return done();
  std::atomic<unsigned>& count = spinners();
  if (count.fetch_add(1, std::memory_order_relaxed) >= limit && kind == SpinKind::kIdle) {
    count.fetch_sub(1, std::memory_order_relaxed);
    return done();
  }
  // A waiter over the limit still spins: an idle spinner sees the count and stops.
  const auto start = std::chrono::steady_clock::now();
  const auto polite = start + kPoliteAfter, deadline = start + window;
  bool result;
  for (unsigned i = 0;; ++i) {
    if (done()) {
      result = true;
      break;
    }
    cpu_relax();
    if ((i & 63) == 63) {
      if (kind == SpinKind::kIdle && count.load(std::memory_order_relaxed) > limit) {
        result = done();
        break;
      }
      auto now = std::chrono::steady_clock::now();
      if (now > deadline) {
        result = done();
        break;
      }
      if (now > polite) sched_yield();
    }
  }
  count.fetch_sub(1, std::memory_order_relaxed);
  return result;
}

}  // namespace weft::cpu
