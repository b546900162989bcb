// SPDX-License-Identifier: MIT
// A persistent pool of worker threads that runs the blocks of kernel dispatches.
// The thread that submits a job works on it too, so a pool of N-1 workers keeps
// N cores busy. Several jobs (from several queues) may run at once; idle workers
// sleep on a condition variable. Thread-safe.
//
// Compute unit i (hipExtStreamCreateWithCUMask) is worker thread i for i below
// threads(), and unit threads() is the submitting thread itself, so a CU mask
// selects exactly which threads run a job's blocks.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace weft::cpu {

class WorkerPool {
 public:
  // Runs blocks [first, last) of a job; called on any pool thread.
  using RunBlocks = void (*)(void* data, uint64_t first, uint64_t last);

  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs `count` blocks and returns when all of them finished. `cu_mask`, when
  // not null, names the units that may run them (bit i of word i/32); a mask
  // naming no unit of the pool is treated as naming only the caller.
  void run(RunBlocks fn, void* data, uint64_t count,
           const std::vector<uint32_t>* cu_mask = nullptr);

  unsigned threads() const { return static_cast<unsigned>(threads_.size()); }

 private:
  struct Job {
    RunBlocks fn;
    void* data;
    uint64_t count;
    uint64_t chunk;
    std::atomic<uint64_t> next{0};
    std::atomic<uint64_t> done{0};
    unsigned helpers = 0;  // workers currently inside work_on(); guarded by mutex_
    bool shared = false;   // posted to the workers (else only the caller runs it)
    const std::vector<uint32_t>* cu_mask = nullptr;  // null: every unit
  };

  static bool allows(const std::vector<uint32_t>* cu_mask, unsigned unit);
  void worker_loop(unsigned unit);
  Job* claimable_job(unsigned unit);  // requires mutex_
  static void work_on(Job& job);

  std::mutex mutex_;
  std::condition_variable work_cv_;   // workers wait for jobs
  std::condition_variable leave_cv_;  // job owners wait for helpers to leave
  std::vector<Job*> jobs_;
  bool stopping_ = false;
  unsigned sleepers_ = 0;            // workers blocked on work_cv_; guarded by mutex_
  std::atomic<uint64_t> posted_{0};  // jobs ever posted, watched while spinning
  std::vector<std::thread> threads_;
};

}  // namespace weft::cpu
