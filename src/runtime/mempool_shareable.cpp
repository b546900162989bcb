// SPDX-License-Identifier: MIT
#include "runtime/mempool_shareable.hpp"

#include <weft/common/log.hpp>
#include "runtime/runtime.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace weft {
namespace {

// memfd_create's name; importers check it to refuse descriptors of other files.
constexpr char kMemfdName[] = "weft-mempool";
constexpr uint32_t kExportMagic = 0x77667470;  // "wftp"
constexpr uint32_t kExportVersion = 1;

// What hipMemPoolPtrExportData holds (its 64 bytes are opaque to programs).
struct ExportedPointer {
  uint32_t magic;
  uint32_t version;
  uint64_t file_dev;
  uint64_t file_ino;
  uint64_t offset;
  uint64_t mapped;
  uint64_t requested;
};
static_assert(sizeof(ExportedPointer) <= sizeof(hipMemPoolPtrExportData));

size_t page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

Status errno_status(hipError_t code, std::string_view what) {
  return Status(code, fmt::format("{}: {}", what, std::strerror(errno)));
}

// Pages of one memfd, handed out at increasing offsets (a released block's
// pages are punched out of the file; offsets are not reused, the file is sparse).
class MemfdSource final : public BlockSource {
 public:
  explicit MemfdSource(int fd) : fd_(fd) {}
  ~MemfdSource() override { ::close(fd_); }

  Result<void*> obtain(size_t bytes) override {
    size_t size = (bytes + page_size() - 1) / page_size() * page_size();
    uint64_t offset;
    {
      std::lock_guard lock(mutex_);
      offset = end_;
      if (::ftruncate(fd_, static_cast<off_t>(end_ + size)) != 0)
        return errno_status(hipErrorOutOfMemory, "growing the pool's memfd failed");
      end_ += size;
    }
    void* ptr =
        ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, static_cast<off_t>(offset));
    if (ptr == MAP_FAILED) return errno_status(hipErrorOutOfMemory, "mapping pool memory failed");
    std::lock_guard lock(mutex_);
    blocks_[ptr] = {offset, size};
    return ptr;
  }

  void give_back(void* ptr, size_t) override {
    std::pair<uint64_t, uint64_t> where;
    {
      std::lock_guard lock(mutex_);
      auto it = blocks_.find(ptr);
      if (it == blocks_.end()) return;
      where = it->second;
      blocks_.erase(it);
    }
    ::munmap(ptr, where.second);
    // Frees the pages. Importers must have freed their mappings first (CUDA's
    // rule); one that has not would read zeros from here on.
    if (::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                    static_cast<off_t>(where.first), static_cast<off_t>(where.second)) != 0)
      log::warning("pool memory at {} stays allocated in its memfd: {}", ptr, std::strerror(errno));
  }

  int shareable_fd() const override { return fd_; }
  bool locate(const void* ptr, uint64_t& offset, uint64_t& bytes) const override {
    std::lock_guard lock(mutex_);
    auto it = blocks_.find(const_cast<void*>(ptr));
    if (it == blocks_.end()) return false;
    offset = it->second.first;
    bytes = it->second.second;
    return true;
  }

 private:
  const int fd_;
  mutable std::mutex mutex_;
  uint64_t end_ = 0;
  std::map<void*, std::pair<uint64_t, uint64_t>> blocks_;  // block → (offset, size)
};

// An imported pool's memory: mappings of another pool's memfd.
class ImportedSource final : public BlockSource {
 public:
  explicit ImportedSource(int fd) : fd_(fd) {}
  ~ImportedSource() override { ::close(fd_); }
  Result<void*> obtain(size_t) override {
    return Status(hipErrorInvalidValue, "an imported pool only holds imported pointers");
  }
  void give_back(void* ptr, size_t bytes) override { ::munmap(ptr, bytes); }
  int shareable_fd() const override { return fd_; }

 private:
  const int fd_;
};

bool is_weft_memfd(int fd) {
  char link[128] = {};
  std::string path = fmt::format("/proc/self/fd/{}", fd);
  ssize_t n = ::readlink(path.c_str(), link, sizeof link - 1);
  if (n <= 0) return false;
  return std::string_view(link, static_cast<size_t>(n))
      .starts_with(std::string("/memfd:") + kMemfdName);
}

// The agent imported pools live on: the first CPU agent (the only kind that
// makes shareable pools).
DeviceState* cpu_agent() {
  Runtime& rt = Runtime::get();
  for (int i = 0; i < rt.device_count(); ++i)
    if (rt.device(i)->driver_device().kind() == AgentKind::kCpu) return rt.device(i);
  return nullptr;
}

}  // namespace

Result<std::unique_ptr<BlockSource>> make_memfd_source() {
  int fd = ::memfd_create(kMemfdName, MFD_CLOEXEC);
  if (fd < 0) return errno_status(hipErrorOutOfMemory, "memfd_create failed");
  return std::unique_ptr<BlockSource>(std::make_unique<MemfdSource>(fd));
}

namespace mempool {

Status check_shareable(DeviceState& device) {
  const Device& d = device.driver_device();
  if (d.kind() == AgentKind::kCpu && d.caps().host_can_access_device_memory) return Status();
  return Status(hipErrorNotSupported,
                fmt::format("device {} ({}) cannot share pool memory through file descriptors: "
                            "weft shares pools only on the CPU agent",
                            device.ordinal(), d.target_id()));
}

Result<int> export_fd(MemPool& pool) {
  int fd = pool.source().shareable_fd();
  if (fd < 0 || pool.origin() == MemPool::Origin::kImported)
    return Status(hipErrorInvalidValue, "the pool was not created with a shareable handle type");
  int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0)
    return errno_status(hipErrorOutOfMemory, "duplicating the pool's descriptor failed");
  return copy;
}

Result<Ref<MemPool>> import_fd(int fd) {
  if (fd < 0 || !is_weft_memfd(fd))
    return Status(hipErrorInvalidValue,
                  fmt::format("descriptor {} is not an exported weft pool", fd));
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return errno_status(hipErrorInvalidValue, "fstat of the pool descriptor failed");
  DeviceState* device = cpu_agent();
  if (!device) return Status(hipErrorNotSupported, "no CPU agent to map an imported pool on");
  int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return errno_status(hipErrorOutOfMemory, "duplicating the pool descriptor failed");
  hipMemPoolProps props{};
  props.allocType = hipMemAllocationTypePinned;
  props.handleTypes = hipMemHandleTypePosixFileDescriptor;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = device->ordinal();
  auto pool = make_ref<MemPool>(*device, props, MemPool::Origin::kImported,
                                std::make_unique<ImportedSource>(copy));
  pool->file_dev = static_cast<uint64_t>(st.st_dev);
  pool->file_ino = static_cast<uint64_t>(st.st_ino);
  return pool;
}

Status export_pointer(MemPool& pool, void* ptr, hipMemPoolPtrExportData& out) {
  ExportedPointer data{};
  if (pool.origin() == MemPool::Origin::kImported)
    return Status(hipErrorInvalidValue, "an imported pointer cannot be exported again");
  if (!pool.source().locate(ptr, data.offset, data.mapped))
    return Status(hipErrorInvalidValue,
                  fmt::format("{} is not from a pool created with a shareable handle type", ptr));
  struct stat st {};
  if (::fstat(pool.source().shareable_fd(), &st) != 0)
    return errno_status(hipErrorInvalidValue, "fstat of the pool's memfd failed");
  auto record = Runtime::get().pointers().find(ptr);
  data.magic = kExportMagic;
  data.version = kExportVersion;
  data.file_dev = static_cast<uint64_t>(st.st_dev);
  data.file_ino = static_cast<uint64_t>(st.st_ino);
  data.requested = record ? record->size : data.mapped;
  out = hipMemPoolPtrExportData{};
  std::memcpy(out.reserved, &data, sizeof data);
  return Status();
}

Result<void*> import_pointer(MemPool& pool, const hipMemPoolPtrExportData& in) {
  if (pool.origin() != MemPool::Origin::kImported)
    return Status(hipErrorInvalidValue, "pointers can only be imported into an imported pool");
  ExportedPointer data;
  std::memcpy(&data, in.reserved, sizeof data);
  if (data.magic != kExportMagic || data.version != kExportVersion || data.mapped == 0 ||
      data.requested > data.mapped || data.offset % page_size() != 0)
    return Status(hipErrorInvalidValue, "the export data was not made by hipMemPoolExportPointer");
  if (data.file_dev != pool.file_dev || data.file_ino != pool.file_ino)
    return Status(hipErrorInvalidValue, "the pointer was exported from a different pool");
  void* ptr = ::mmap(nullptr, data.mapped, PROT_READ | PROT_WRITE, MAP_SHARED,
                     pool.source().shareable_fd(), static_cast<off_t>(data.offset));
  if (ptr == MAP_FAILED)
    return errno_status(hipErrorOutOfMemory, "mapping the imported pointer failed");
  Status status = pool.adopt(ptr, data.mapped, data.requested);
  if (!status.ok()) {
    ::munmap(ptr, data.mapped);
    return status;
  }
  return ptr;
}

}  // namespace mempool
}  // namespace weft
