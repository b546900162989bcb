// SPDX-License-Identifier: MIT
#include "fault_guard.hpp"

#include "block_runner.hpp"
#include "sanitizers.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstddef>
#include <mutex>

namespace weft::cpu {
namespace {

struct sigaction g_previous_segv {};
struct sigaction g_previous_bus {};

// The thread's alternate signal stack, if weft gave it one; freed when the thread ends.
struct AltStack {
  std::byte* base = nullptr;
  size_t bytes = 0;
  bool prepared = false;
  ~AltStack() {
    if (!base) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    unmap_stack(base, bytes);  // handlers that switched away left frames behind
  }
};
thread_local AltStack t_alt_stack;

// Room for the handler and the switch out of the block, sanitizer frames included.
constexpr size_t kAltStackBytes = 64 * 1024;

// Not a kernel's fault: whoever handled it before weft does, or the default action.
void forward(int signal, siginfo_t* info, void* context) {
  const struct sigaction& previous = signal == SIGBUS ? g_previous_bus : g_previous_segv;
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction) return previous.sa_sigaction(signal, info, context);
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    return previous.sa_handler(signal);
  }
  // Back to the default action: a hardware fault recurs when the instruction is
  // retried after this returns and kills the process as it did before weft; a
  // sent signal is re-raised (blocked until the handler returns).
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, nullptr);
  if (info->si_code <= 0) raise(signal);
}

void on_fault(int signal, siginfo_t* info, void* raw_context) {
  BlockRunner* runner = BlockRunner::current();
  // si_code <= 0: sent by kill() or similar, not raised by the kernel's own access.
  // A pending fault means the fault path itself faulted: crash rather than loop.
  // The thread's runner is active (BlockRunner::current(), an initial-exec
  // thread_local) only inside run_range, around the kernel's entry calls: that
  // is the "this thread runs a kernel" mark, whichever path started the range.
  if (!runner || info->si_code <= 0 || runner->fault_pending())
    return forward(signal, info, raw_context);
  auto* context = static_cast<ucontext_t*>(raw_context);
  BlockRunner::Fault fault;
  fault.address = info->si_addr;
  fault.signal = signal;
#if defined(__x86_64__)
  fault.stack_pointer = reinterpret_cast<void*>(context->uc_mcontext.gregs[REG_RSP]);
  // Page-fault error code bit 1: the access was a write.
  fault.access = (context->uc_mcontext.gregs[REG_ERR] & 2) ? BlockRunner::Fault::kWrite
                                                           : BlockRunner::Fault::kRead;
#elif defined(__aarch64__)
  fault.stack_pointer = reinterpret_cast<void*>(context->uc_mcontext.sp);
#endif
  // The block is left without returning from this handler, so the signal mask the
  // kernel ran with is not restored by the kernel: restore it here.
  pthread_sigmask(SIG_SETMASK, &context->uc_sigmask, nullptr);
  runner->fault_block(fault);
}

void install_handlers() {
  struct sigaction action {};
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &g_previous_segv);
  sigaction(SIGBUS, &action, &g_previous_bus);
}

}  // namespace

void prepare_thread_for_kernels() {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  AltStack& alt = t_alt_stack;
  if (alt.prepared) return;
  alt.prepared = true;
  // A thread that has one already (the program's, or a sanitizer's) keeps it.
  stack_t current{};
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t bytes = kAltStackBytes + page;
  void* base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return;   // faults on this thread then crash as without weft
  mprotect(base, page, PROT_NONE);  // an overflowing handler crashes instead of corrupting
  stack_t stack{};
  stack.ss_sp = static_cast<std::byte*>(base) + page;
  stack.ss_size = kAltStackBytes;
  if (sigaltstack(&stack, nullptr) != 0) {
    munmap(base, bytes);
    return;
  }
  alt.base = static_cast<std::byte*>(base);
  alt.bytes = bytes;
}

}  // namespace weft::cpu
