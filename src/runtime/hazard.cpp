// SPDX-License-Identifier: MIT
#include "runtime/hazard.hpp"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <thread>

namespace weft::hazard {
namespace {

long membarrier(int command) { return syscall(__NR_membarrier, command, 0, 0); }

// Registers the process for private expedited membarriers (Linux 4.14+); false
// where the kernel (or valgrind, or a seccomp filter) does not offer them.
bool register_asymmetric_fences() {
  long supported = membarrier(MEMBARRIER_CMD_QUERY);
  if (supported < 0 || !(supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) ||
      !(supported & MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED))
    return false;
  return membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

// The remover's half of the guard's fence (hazard.hpp): a full fence on every
// running thread of the process, or on this one where guards fence themselves.
void heavy_fence() {
  // After fork() the child is not registered (membarrier answers EPERM); it has
  // one thread, which needs no fence from another.
  if (g_asymmetric_fences) (void)membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

bool guards(const Record& r, const void* object) {
  if (r.guarded.load(std::memory_order_seq_cst) == object) return true;
  for (const auto& held : r.held)
    if (held.load(std::memory_order_seq_cst) == object) return true;
  return false;
}

std::atomic<Record*> g_records{nullptr};  // a push-only list

__thread bool t_exited = false;

// Hands the record back when the thread exits.
struct Release {
  Record* record = nullptr;
  ~Release() {
    t_exited = true;
    t_record = nullptr;
    if (record) {
      record->guarded.store(nullptr, std::memory_order_release);
      for (auto& held : record->held) held.store(nullptr, std::memory_order_release);
      record->waiting.store(nullptr, std::memory_order_release);
      record->in_use.store(false, std::memory_order_release);
    }
  }
};

}  // namespace

__thread Record* t_record __attribute__((tls_model("initial-exec"))) = nullptr;

// Set while the library's static objects are built: before any thread looks up
// a handle.
bool g_asymmetric_fences = register_asymmetric_fences();

Record* acquire_record() {
  if (t_exited) return nullptr;
  Record* mine = nullptr;
  for (Record* r = g_records.load(std::memory_order_acquire); r && !mine; r = r->next) {
    bool free = false;
    if (r->in_use.compare_exchange_strong(free, true, std::memory_order_acq_rel)) mine = r;
  }
  if (!mine) {
    mine = new Record;  // never freed: other threads scan the list at any time
    mine->in_use.store(true, std::memory_order_relaxed);
    Record* head = g_records.load(std::memory_order_relaxed);
    do {
      mine->next = head;
    } while (!g_records.compare_exchange_weak(head, mine, std::memory_order_release,
                                              std::memory_order_relaxed));
  }
  thread_local Release release;
  release.record = mine;
  t_record = mine;
  return mine;
}

void wait_unguarded(const void* object) { wait_unguarded(&object, 1); }

void wait_unguarded(const void* const* objects, size_t count) {
  heavy_fence();
  for (Record* r = g_records.load(std::memory_order_acquire); r; r = r->next)
    for (size_t i = 0; i < count; ++i)
      while (guards(*r, objects[i])) std::this_thread::yield();
}

void fence_against_guards() { heavy_fence(); }

bool waited_on(const void* object) {
  for (Record* r = g_records.load(std::memory_order_acquire); r; r = r->next)
    if (r->waiting.load(std::memory_order_seq_cst) == object) return true;
  return false;
}

}  // namespace weft::hazard
