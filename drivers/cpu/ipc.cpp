// SPDX-License-Identifier: MIT
// Inter-process memory and event handles on the CPU agent (docs/ipc.md): memory
// handles name pages of the shared device-memory file (shared_heap.hpp); event
// handles name the memfd page that holds an interprocess event's record counters.
#include "device.hpp"
#include "event.hpp"
#include "shared_heap.hpp"

#include <fcntl.h>
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

template <typename Handle>
Result<SharedFileRef> ref_of(const Handle& handle, const char* magic) {
  SharedFileRef ref{};
  std::memcpy(&ref, handle.reserved, sizeof ref);
  if (std::memcmp(ref.magic, magic, 8) != 0)
    return Status(hipErrorInvalidValue, "not a handle the CPU agent made");
  return ref;
}

template <typename Handle>
Handle handle_of(const SharedFileRef& ref) {
  Handle handle{};
  std::memcpy(handle.reserved, &ref, sizeof ref);
  return handle;
}

}  // namespace

Result<hipIpcMemHandle_t> CpuDevice::ipc_export_memory(void* base) {
  SharedHeap* heap = SharedHeap::get();
  if (!heap)
    return Status(hipErrorNotSupported,
                  "memfd_create failed: this process has no shareable device memory");
  WEFT_ASSIGN_OR_RETURN(SharedFileRef ref, heap->describe(base));
  return handle_of<hipIpcMemHandle_t>(ref);
}

Result<IpcMapping> CpuDevice::ipc_open_memory(const hipIpcMemHandle_t& handle, unsigned) {
  WEFT_ASSIGN_OR_RETURN(SharedFileRef ref, ref_of(handle, "weftipcm"));
  if (ref.mapped == 0 || ref.mapped % page_size() != 0 || ref.bytes > ref.mapped)
    return Status(hipErrorInvalidValue, "the memory handle's sizes are damaged");
  WEFT_ASSIGN_OR_RETURN(int fd, open_shared_file(ref));
  void* p = ::mmap(nullptr, ref.mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                   static_cast<off_t>(ref.offset));
  const int mmap_errno = errno;
  ::close(fd);
  if (p == MAP_FAILED)
    return Status(hipErrorInvalidValue,
                  fmt::format("mapping the handle's memory: {}", std::strerror(mmap_errno)));
  {
    std::lock_guard lock(ipc_mutex_);
    ipc_mappings_[p] = ref.mapped;
  }
  return IpcMapping{p, static_cast<size_t>(ref.bytes)};
}

Status CpuDevice::ipc_close_memory(void* ptr) {
  size_t mapped = 0;
  {
    std::lock_guard lock(ipc_mutex_);
    auto it = ipc_mappings_.find(ptr);
    if (it == ipc_mappings_.end())
      return Status(hipErrorInvalidValue, "not an address opened from an IPC handle");
    mapped = it->second;
    ipc_mappings_.erase(it);
  }
  ::munmap(ptr, mapped);
  return Status();
}

Result<hipIpcEventHandle_t> CpuDevice::ipc_export_event(Event& event) {
  auto* own = dynamic_cast<CpuEvent*>(&event);
  if (!own || !own->shared())
    return Status(hipErrorInvalidValue, "not an interprocess event of the CPU agent");
  return own->shared()->handle();
}

Result<Ref<Event>> CpuDevice::ipc_open_event(const hipIpcEventHandle_t& handle) {
  WEFT_ASSIGN_OR_RETURN(std::shared_ptr<SharedEventPage> page, SharedEventPage::open(handle));
  EventOptions options;
  options.timing = false;
  options.interprocess = true;
  return Ref<Event>(make_ref<CpuEvent>(options, std::move(page)));
}

Result<std::shared_ptr<SharedEventPage>> SharedEventPage::create() {
  int fd = ::memfd_create("weft-ipc-event", MFD_CLOEXEC);
  if (fd < 0)
    return Status(hipErrorOutOfMemory, fmt::format("memfd_create: {}", std::strerror(errno)));
  void* p = MAP_FAILED;
  if (::ftruncate(fd, static_cast<off_t>(page_size())) == 0)
    p = ::mmap(nullptr, page_size(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    Status status(hipErrorOutOfMemory,
                  fmt::format("mapping an event page: {}", std::strerror(errno)));
    ::close(fd);
    return status;
  }
  // A new file's pages are zero: no records, none completed.
  return std::shared_ptr<SharedEventPage>(
      new SharedEventPage(fd, static_cast<SharedEventWords*>(p)));
}

Result<std::shared_ptr<SharedEventPage>> SharedEventPage::open(const hipIpcEventHandle_t& handle) {
  WEFT_ASSIGN_OR_RETURN(SharedFileRef ref, ref_of(handle, "weftipce"));
  WEFT_ASSIGN_OR_RETURN(int fd, open_shared_file(ref));
  void* p = ::mmap(nullptr, page_size(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int mmap_errno = errno;
  ::close(fd);
  if (p == MAP_FAILED)
    return Status(hipErrorInvalidValue,
                  fmt::format("mapping the event's page: {}", std::strerror(mmap_errno)));
  return std::shared_ptr<SharedEventPage>(
      new SharedEventPage(-1, static_cast<SharedEventWords*>(p)));
}

SharedEventPage::~SharedEventPage() {
  ::munmap(words_, page_size());
  if (fd_ >= 0) ::close(fd_);
}

Result<hipIpcEventHandle_t> SharedEventPage::handle() const {
  if (fd_ < 0)
    return Status(hipErrorInvalidValue, "an event opened from a handle cannot be exported again");
  struct stat st {};
  if (::fstat(fd_, &st) != 0)
    return Status(hipErrorUnknown,
                  fmt::format("fstat of the event's page: {}", std::strerror(errno)));
  SharedFileRef ref{};
  std::memcpy(ref.magic, "weftipce", 8);
  ref.pid = static_cast<int32_t>(::getpid());
  ref.fd = fd_;
  ref.inode = static_cast<uint64_t>(st.st_ino);
  ref.device = static_cast<uint64_t>(st.st_dev);
  ref.mapped = page_size();
  return handle_of<hipIpcEventHandle_t>(ref);
}

}  // namespace weft::cpu
