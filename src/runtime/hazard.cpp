// SPDX-License-Identifier: MIT
#include "runtime/hazard.hpp"

#include <thread>

namespace weft::hazard {
namespace {

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
      record->in_use.store(false, std::memory_order_release);
    }
  }
};

}  // namespace

__thread Record* t_record __attribute__((tls_model("initial-exec"))) = nullptr;

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

void wait_unguarded(const void* object) {
  for (Record* r = g_records.load(std::memory_order_acquire); r; r = r->next)
    while (r->guarded.load(std::memory_order_seq_cst) == object) std::this_thread::yield();
}

}  // namespace weft::hazard
