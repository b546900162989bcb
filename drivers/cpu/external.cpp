// SPDX-License-Identifier: MIT
// External memory and semaphores on the CPU agent (docs/external-interop.md).
//
// Memory: the descriptor is a file that can be mapped (a memfd, a tmpfs or plain
// file; no dma-buf here), and a buffer is a MAP_SHARED view of part of it, so the
// exporter and every buffer see the same bytes.
//
// Semaphores, chosen so that another process can operate them with plain system
// calls:
//   binary (hipExternalSemaphoreHandleTypeOpaqueFd):
//     - an eventfd: a signal writes 1, a wait reads it (blocking until a signal is
//       there; a non-semaphore eventfd's read takes every pending signal at once,
//       which is what a binary semaphore is);
//     - or a memory file of at least 8 bytes: its first 8 bytes are a 64-bit word,
//       a signal stores 1, a wait waits for 1 and swaps it back to 0.
//   timeline (hipExternalSemaphoreHandleTypeTimelineSemaphoreFd): a memory file of
//     at least 8 bytes whose first word is the value: a signal raises it to the
//     given value (never lowers it), a wait lasts until it is at least the value.
// Signals and waits are host steps of the queue (HostFuncOp), so streams, capture
// and graphs order them like any other op. Waits on a word poll with a back-off from
// 1 µs to 1 ms, as stream wait-value operations do.
#include "device.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <weft/common/log.hpp>

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>

namespace weft::cpu {
namespace {

size_t page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

Status errno_status(hipError_t code, const std::string& what) {
  return Status(code, fmt::format("{} failed: {}", what, std::strerror(errno)));
}

// What /proc/self/fd says the descriptor is ("anon_inode:[eventfd]" for an eventfd).
std::string fd_target(int fd) {
  char path[64], target[256];
  std::snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  ssize_t n = ::readlink(path, target, sizeof target - 1);
  return n > 0 ? std::string(target, static_cast<size_t>(n)) : std::string();
}

class Mapping final : public RefCounted {
 public:
  Mapping(void* base, size_t bytes) : base_(base), bytes_(bytes) {}
  ~Mapping() override { ::munmap(base_, bytes_); }

 private:
  void* const base_;
  const size_t bytes_;
};

class CpuExternalMemory final : public ExternalMemory {
 public:
  explicit CpuExternalMemory(int fd) : fd_(fd) {}
  ~CpuExternalMemory() override { ::close(fd_); }

  Result<ExternalBuffer> map_buffer(uint64_t offset, uint64_t bytes) override {
    // mmap takes page-aligned offsets: map from the page holding `offset`.
    const uint64_t start = offset / page_size() * page_size();
    const size_t length = static_cast<size_t>(offset - start + bytes);
    void* base =
        ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, static_cast<off_t>(start));
    if (base == MAP_FAILED) return errno_status(hipErrorOutOfMemory, "mmap of the external memory");
    ExternalBuffer buffer;
    buffer.ptr = static_cast<std::byte*>(base) + (offset - start);
    buffer.mapping = make_ref<Mapping>(base, length);
    return buffer;
  }

 private:
  const int fd_;
};

// Waits until `ready()`, polling with a back-off that doubles from 1 µs to 1 ms.
template <typename Ready>
void wait_polling(Ready ready) {
  auto pause = std::chrono::microseconds(1);
  for (int spin = 0; spin < 64; ++spin)
    if (ready()) return;
  while (!ready()) {
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

// The first 8 bytes of a memory file, shared with whoever else maps it.
class WordSemaphore final : public ExternalSemaphore {
 public:
  WordSemaphore(void* page, ExternalSemaphoreKind kind) : page_(page), kind_(kind) {}
  ~WordSemaphore() override { ::munmap(page_, page_size()); }

  Result<Op> op(bool signal, uint64_t value) override {
    Ref<WordSemaphore> self(this);
    if (signal) return Op(HostFuncOp{[self, value] { self->signal(value); }});
    return Op(HostFuncOp{[self, value] { self->wait(value); }});
  }
  Status submit(Queue& queue, bool signal, uint64_t value) override {
    WEFT_ASSIGN_OR_RETURN(Op o, op(signal, value));
    return queue.submit(std::move(o));
  }

 private:
  std::atomic_ref<uint64_t> word() const {
    return std::atomic_ref<uint64_t>(*static_cast<uint64_t*>(page_));
  }
  void signal(uint64_t value) {
    auto w = word();
    if (kind_ == ExternalSemaphoreKind::kBinary) {
      w.store(1, std::memory_order_release);
      return;
    }
    uint64_t now = w.load(std::memory_order_relaxed);
    while (now < value && !w.compare_exchange_weak(now, value, std::memory_order_release)) {
    }
  }
  void wait(uint64_t value) {
    auto w = word();
    if (kind_ == ExternalSemaphoreKind::kBinary) {
      wait_polling([&] {
        uint64_t one = 1;
        return w.compare_exchange_strong(one, 0, std::memory_order_acquire);
      });
      return;
    }
    wait_polling([&] { return w.load(std::memory_order_acquire) >= value; });
  }

  void* const page_;
  const ExternalSemaphoreKind kind_;
};

class EventfdSemaphore final : public ExternalSemaphore {
 public:
  explicit EventfdSemaphore(int fd) : fd_(fd) {}
  ~EventfdSemaphore() override { ::close(fd_); }

  Result<Op> op(bool signal, uint64_t) override {
    Ref<EventfdSemaphore> self(this);
    if (signal) return Op(HostFuncOp{[self] { self->signal(); }});
    return Op(HostFuncOp{[self] { self->wait(); }});
  }
  Status submit(Queue& queue, bool signal, uint64_t value) override {
    WEFT_ASSIGN_OR_RETURN(Op o, op(signal, value));
    return queue.submit(std::move(o));
  }

 private:
  void signal() {
    const uint64_t one = 1;
    while (::write(fd_, &one, sizeof one) < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {  // the counter is full: the semaphore is signalled already
        return;
      }
      log::error("external semaphore (eventfd {}): signal failed: {}", fd_, std::strerror(errno));
      return;
    }
  }
  void wait() {
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, -1) < 0 && errno != EINTR) break;
      uint64_t count = 0;
      if (::read(fd_, &count, sizeof count) == sizeof count) return;
      if (errno != EAGAIN && errno != EINTR) break;  // another waiter took it: wait again
    }
    log::error("external semaphore (eventfd {}): wait failed: {}", fd_, std::strerror(errno));
  }

  const int fd_;
};

// A memory file long enough for the semaphore's word, mapped; null on failure.
Result<void*> map_word(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return errno_status(hipErrorInvalidValue, "fstat of the semaphore descriptor");
  if (!S_ISREG(st.st_mode) || st.st_size < static_cast<off_t>(sizeof(uint64_t)))
    return Status(
        hipErrorInvalidValue,
        fmt::format("descriptor {} is neither an eventfd nor a memory file of at least 8 bytes "
                    "(the CPU agent's semaphores, docs/external-interop.md)",
                    fd));
  void* page = ::mmap(nullptr, page_size(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (page == MAP_FAILED)
    return errno_status(hipErrorInvalidValue, "mmap of the semaphore's memory file");
  return page;
}

}  // namespace

Result<Ref<ExternalMemory>> CpuDevice::import_external_memory(const ExternalMemoryDesc& desc) {
  struct stat st {};
  if (::fstat(desc.fd, &st) != 0)
    return errno_status(hipErrorInvalidValue, "fstat of the memory descriptor");
  if (!S_ISREG(st.st_mode))
    return Status(
        hipErrorInvalidValue,
        fmt::format("descriptor {} is not a memory file that can be mapped (memfd, tmpfs or "
                    "regular file)",
                    desc.fd));
  if (static_cast<uint64_t>(st.st_size) < desc.bytes)
    return Status(hipErrorInvalidValue,
                  fmt::format("the descriptor's file has {} bytes, fewer than the size {} given",
                              st.st_size, desc.bytes));
  return Ref<ExternalMemory>(make_ref<CpuExternalMemory>(desc.fd));
}

Result<Ref<ExternalSemaphore>> CpuDevice::import_external_semaphore(int fd,
                                                                    ExternalSemaphoreKind kind) {
  if (kind == ExternalSemaphoreKind::kBinary && fd_target(fd) == "anon_inode:[eventfd]")
    return Ref<ExternalSemaphore>(make_ref<EventfdSemaphore>(fd));
  WEFT_ASSIGN_OR_RETURN(void* page, map_word(fd));
  // The mapping keeps the memory; the descriptor is the driver's to close.
  ::close(fd);
  return Ref<ExternalSemaphore>(make_ref<WordSemaphore>(page, kind));
}

}  // namespace weft::cpu
