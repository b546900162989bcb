// SPDX-License-Identifier: MIT
#include "shared_heap.hpp"

#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace weft::cpu {
namespace {

size_t page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

Result<int> open_shared_file(const SharedFileRef& ref) {
  const std::string path = fmt::format("/proc/{}/fd/{}", ref.pid, ref.fd);
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return Status(hipErrorInvalidValue,
                  fmt::format("the handle's file ({}) cannot be opened: {} (the exporting "
                              "process has exited, or freed what it exported)",
                              path, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_ino) != ref.inode ||
      static_cast<uint64_t>(st.st_dev) != ref.device) {
    ::close(fd);
    return Status(hipErrorInvalidValue,
                  fmt::format("{} is no longer the file the handle names", path));
  }
  return fd;
}

SharedHeap* SharedHeap::get() {
  // Never destroyed: allocations may be freed from static destructors.
  static SharedHeap* heap = [] {
    int fd = ::memfd_create("weft-device-memory", MFD_CLOEXEC);
    return fd < 0 ? nullptr : new SharedHeap(fd);
  }();
  return heap;
}

Result<void*> SharedHeap::allocate(size_t bytes) {
  const size_t mapped = (bytes + page_size() - 1) / page_size() * page_size();
  uint64_t offset;
  {
    std::lock_guard lock(mutex_);
    offset = end_;
    if (end_ + mapped > file_bytes_) {
      // The file is sparse: growing it in large steps costs nothing and saves a
      // system call on most allocations.
      const uint64_t grown = (end_ + mapped + kGrowBytes - 1) / kGrowBytes * kGrowBytes;
      if (::ftruncate(fd_, static_cast<off_t>(grown)) != 0)
        return Status(hipErrorOutOfMemory,
                      fmt::format("growing the device-memory file: {}", std::strerror(errno)));
      file_bytes_ = grown;
    }
    end_ += mapped;
  }
  void* p =
      ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, static_cast<off_t>(offset));
  if (p == MAP_FAILED) {
    ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                static_cast<off_t>(mapped));
    return Status(hipErrorOutOfMemory,
                  fmt::format("mmap of {} bytes: {}", mapped, std::strerror(errno)));
  }
  std::lock_guard lock(mutex_);
  regions_.emplace(p, Region{offset, mapped, bytes});
  return p;
}

bool SharedHeap::release(void* ptr) {
  Region region{};
  {
    std::lock_guard lock(mutex_);
    auto it = regions_.find(ptr);
    if (it == regions_.end()) return false;
    region = it->second;
    regions_.erase(it);
  }
  ::munmap(ptr, region.mapped);
  // The pages go back to the system; a process that still maps them (an IPC
  // importer, which HIP says must close first) sees zeros.
  ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(region.offset),
              static_cast<off_t>(region.mapped));
  return true;
}

Result<SharedFileRef> SharedHeap::describe(void* base) {
  Region region{};
  {
    std::lock_guard lock(mutex_);
    auto it = regions_.find(base);
    if (it == regions_.end())
      return Status(
          hipErrorNotSupported,
          fmt::format("{} is not shareable: on the CPU agent only allocations of at least {} bytes "
                      "are memory files another process can map (docs/ipc.md)",
                      base, kMinBytes));
    region = it->second;
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0)
    return Status(hipErrorUnknown,
                  fmt::format("fstat of the device-memory file: {}", std::strerror(errno)));
  SharedFileRef ref{};
  std::memcpy(ref.magic, "weftipcm", 8);
  ref.pid = static_cast<int32_t>(::getpid());
  ref.fd = fd_;
  ref.inode = static_cast<uint64_t>(st.st_ino);
  ref.device = static_cast<uint64_t>(st.st_dev);
  ref.offset = region.offset;
  ref.bytes = region.bytes;
  ref.mapped = region.mapped;
  return ref;
}

}  // namespace weft::cpu
