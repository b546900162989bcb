// SPDX-License-Identifier: MIT
// Virtual memory management on the CPU agent. A physical allocation is an
// anonymous memory file (memfd), so the same pages can be mapped at several
// addresses and handed to another process as a file descriptor. A reservation is
// a PROT_NONE, MAP_NORESERVE anonymous mapping: it only holds the addresses. A
// map replaces part of it (MAP_FIXED) with a MAP_SHARED view of the memfd, and an
// unmap puts a PROT_NONE anonymous mapping back, so the range stays reserved.
// Protections come from mprotect. The runtime checks every range first
// (src/api/virtual_memory.cpp); these calls only fail when the kernel does.
#include "device.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace weft::cpu {
namespace {

// 2 MiB: the x86-64 and AArch64 (4 KiB pages) huge-page size. Chunks of it let the
// kernel back a mapping with transparent huge pages; the page size is the minimum.
constexpr size_t kRecommendedGranularity = size_t{2} << 20;

size_t page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

Status errno_status(hipError_t code, const char* call) {
  return Status(code, fmt::format("{} failed: {}", call, std::strerror(errno)));
}

class MemoryFile final : public PhysicalMemory {
 public:
  MemoryFile(int fd, size_t bytes, std::atomic<size_t>* accounted)
      : fd_(fd), bytes_(bytes), accounted_(accounted) {
    if (accounted_) accounted_->fetch_add(bytes_, std::memory_order_relaxed);
  }
  ~MemoryFile() override {
    ::close(fd_);
    if (accounted_) accounted_->fetch_sub(bytes_, std::memory_order_relaxed);
  }
  size_t size() const override { return bytes_; }
  int fd() const { return fd_; }

 private:
  const int fd_;
  const size_t bytes_;
  // The agent's allocated-bytes counter (memory_info); null for imported memory,
  // which another process allocated.
  std::atomic<size_t>* const accounted_;
};

int protection(VmAccess access) {
  switch (access) {
    case VmAccess::kRead: return PROT_READ;
    case VmAccess::kReadWrite: return PROT_READ | PROT_WRITE;
    case VmAccess::kNone: break;
  }
  return PROT_NONE;
}

// Anonymous, inaccessible address space that commits no memory.
void* reserve_at(void* address, size_t bytes, bool fixed) {
  int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | (fixed ? MAP_FIXED : 0);
  return ::mmap(address, bytes, PROT_NONE, flags, -1, 0);
}

}  // namespace

Result<size_t> CpuDevice::vm_granularity(bool recommended) const {
  return recommended ? kRecommendedGranularity : page_size();
}

Result<Ref<PhysicalMemory>> CpuDevice::vm_create(size_t bytes, bool) {
  // Every memfd can be exported, so `exportable` needs nothing more.
  if (bytes > facts_.total_memory)
    return Status(hipErrorOutOfMemory, "allocation larger than the host's physical memory");
  int fd = ::memfd_create("weft-vmm", MFD_CLOEXEC);
  if (fd < 0) return errno_status(hipErrorOutOfMemory, "memfd_create");
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    Status status = errno_status(hipErrorOutOfMemory, "ftruncate of the memory file");
    ::close(fd);
    return status;
  }
  return Ref<PhysicalMemory>(make_ref<MemoryFile>(fd, bytes, &allocated_bytes_));
}

Result<void*> CpuDevice::vm_reserve(size_t bytes, size_t alignment, void* hint) {
  size_t align = std::max(alignment, page_size());
  // Over-reserve by the alignment, then give back the unaligned head and tail.
  size_t span = bytes;
  if (align > page_size() && __builtin_add_overflow(bytes, align, &span))
    return Status(hipErrorOutOfMemory, "the reservation's size overflows with its alignment");
  void* hinted = hint && reinterpret_cast<uintptr_t>(hint) % align == 0 ? hint : nullptr;
  void* raw = reserve_at(hinted, span, false);
  if (raw == MAP_FAILED) return errno_status(hipErrorOutOfMemory, "mmap of the reservation");
  auto begin = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (begin + align - 1) / align * align;
  if (aligned != begin) ::munmap(raw, aligned - begin);
  size_t tail = span - (aligned - begin) - bytes;
  if (tail != 0) ::munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  return reinterpret_cast<void*>(aligned);
}

Status CpuDevice::vm_free_range(void* base, size_t bytes) {
  if (::munmap(base, bytes) != 0)
    return errno_status(hipErrorInvalidValue, "munmap of the reservation");
  return Status();
}

Status CpuDevice::vm_map(void* address, size_t bytes, PhysicalMemory& memory, size_t offset) {
  auto* file = dynamic_cast<MemoryFile*>(&memory);
  if (!file) return Status(hipErrorInvalidValue, "the physical memory belongs to another agent");
  void* mapped = ::mmap(address, bytes, PROT_NONE, MAP_SHARED | MAP_FIXED, file->fd(),
                        static_cast<off_t>(offset));
  if (mapped == MAP_FAILED) return errno_status(hipErrorOutOfMemory, "mmap of the memory file");
  return Status();
}

Status CpuDevice::vm_unmap(void* address, size_t bytes) {
  if (reserve_at(address, bytes, true) == MAP_FAILED)
    return errno_status(hipErrorUnknown, "mmap restoring the reservation");
  return Status();
}

Status CpuDevice::vm_set_access(void* address, size_t bytes, VmAccess access) {
  if (::mprotect(address, bytes, protection(access)) != 0)
    return errno_status(hipErrorInvalidValue, "mprotect");
  return Status();
}

Result<int> CpuDevice::vm_export_fd(PhysicalMemory& memory) {
  auto* file = dynamic_cast<MemoryFile*>(&memory);
  if (!file) return Status(hipErrorInvalidValue, "the physical memory belongs to another agent");
  int fd = ::fcntl(file->fd(), F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return errno_status(hipErrorOutOfMemory, "dup of the memory file");
  return fd;
}

Result<Ref<PhysicalMemory>> CpuDevice::vm_import_fd(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return Status(hipErrorInvalidValue,
                  fmt::format("{} is not an open file descriptor: {}", fd, std::strerror(errno)));
  if (!S_ISREG(st.st_mode) || st.st_size <= 0 || static_cast<size_t>(st.st_size) % page_size() != 0)
    return Status(hipErrorInvalidValue,
                  fmt::format("file descriptor {} is not exported memory (not a memory file a "
                              "whole number of pages long)",
                              fd));
  int own = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (own < 0) return errno_status(hipErrorOutOfMemory, "dup of the imported file descriptor");
  return Ref<PhysicalMemory>(make_ref<MemoryFile>(own, static_cast<size_t>(st.st_size), nullptr));
}

}  // namespace weft::cpu
