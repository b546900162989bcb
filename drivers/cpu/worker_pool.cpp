// SPDX-License-Identifier: MIT
#include "worker_pool.hpp"

#include "spin.hpp"

#include <algorithm>

namespace weft::cpu {

WorkerPool::WorkerPool(unsigned threads) {
  threads_.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this, i] { worker_loop(i); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void WorkerPool::work_on(Job& job) {
  for (;;) {
    uint64_t first = job.next.fetch_add(job.chunk, std::memory_order_relaxed);
    if (first >= job.count) return;
    uint64_t last = std::min(job.count, first + job.chunk);
    job.fn(job.data, first, last);
    uint64_t finished =
        job.done.fetch_add(last - first, std::memory_order_acq_rel) + (last - first);
    // Only a shared job's caller can be waiting; notify_all is a futex call every time.
    if (finished == job.count && job.shared) job.done.notify_all();
  }
}

bool WorkerPool::allows(const std::vector<uint32_t>* cu_mask, unsigned unit) {
  if (!cu_mask) return true;
  return unit / 32 < cu_mask->size() && ((*cu_mask)[unit / 32] >> (unit % 32)) & 1u;
}

WorkerPool::Job* WorkerPool::claimable_job(unsigned unit) {
  for (Job* job : jobs_)
    if (job->next.load(std::memory_order_relaxed) < job->count && allows(job->cu_mask, unit))
      return job;
  return nullptr;
}

void WorkerPool::worker_loop(unsigned unit) {
  std::unique_lock lock(mutex_);
  for (;;) {
    Job* job = claimable_job(unit);
    if (!job && !stopping_) {
      // Kernels come in bursts: look for the next job a little before sleeping.
      lock.unlock();
      uint64_t seen = posted_.load(std::memory_order_relaxed);
      spin_until([&] { return posted_.load(std::memory_order_acquire) != seen; }, SpinKind::kIdle);
      lock.lock();
      ++sleepers_;
      work_cv_.wait(lock, [&] { return stopping_ || (job = claimable_job(unit)) != nullptr; });
      --sleepers_;
    }
    if (stopping_) return;
    ++job->helpers;
    lock.unlock();
    work_on(*job);
    lock.lock();
    if (--job->helpers == 0) leave_cv_.notify_all();
  }
}

void WorkerPool::run(RunBlocks fn, void* data, uint64_t count,
                     const std::vector<uint32_t>* cu_mask) {
  if (count == 0) return;
  Job job;
  job.fn = fn;
  job.data = data;
  job.count = count;
  const unsigned caller_unit = threads();
  unsigned units = caller_unit + 1;  // threads allowed to run blocks, the caller included
  if (cu_mask) {
    units = 0;
    for (unsigned unit = 0; unit <= caller_unit; ++unit) units += allows(cu_mask, unit) ? 1 : 0;
  }
  bool caller_works = allows(cu_mask, caller_unit);
  if (units == 0) {  // a mask naming no unit of the pool: the caller runs everything
    cu_mask = nullptr;
    units = 1;
    caller_works = true;
  }
  const bool helpers = units > (caller_works ? 1u : 0u);
  job.cu_mask = helpers ? cu_mask : nullptr;
  // Small chunks balance uneven blocks; a few per thread keeps claiming cheap.
  uint64_t parts = static_cast<uint64_t>(units) * 8;
  job.chunk = std::max<uint64_t>(1, count / parts);
  // Shared when helpers may take part, and always when the caller may not.
  bool share = helpers && (count > job.chunk || !caller_works);
  job.shared = share;
  if (share) {
    bool wake;
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(&job);
      posted_.fetch_add(1, std::memory_order_release);
      wake = sleepers_ > 0;
    }
    if (wake) work_cv_.notify_all();
  }
  if (caller_works) work_on(job);
  for (uint64_t done = job.done.load(std::memory_order_acquire); done != count;
       done = job.done.load(std::memory_order_acquire))
    job.done.wait(done, std::memory_order_acquire);
  if (share) {
    std::unique_lock lock(mutex_);
    jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));
    leave_cv_.wait(lock, [&] { return job.helpers == 0; });
  }
}

}  // namespace weft::cpu
