// SPDX-License-Identifier: MIT
// The CPU agent's shareable device memory (docs/ipc.md): device allocations of at
// least kMinBytes are pages of one process-wide memfd ("weft-device-memory"), each a
// MAP_SHARED mapping of fresh pages of the file, given back with munmap + a punched
// hole. Another process maps the same pages from the handle hipIpcGetMemHandle
// writes (the file is reached through /proc/<pid>/fd/<n>). Smaller allocations stay
// on the C heap: a mapping of their own would cost a system call or three and a
// kernel memory map entry each (vm.max_map_count), where glibc packs them into pages;
// this is the size glibc itself starts mapping at (M_MMAP_THRESHOLD's default).
// Thread-safe.
#pragma once

#include <weft/driver/status.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace weft::cpu {

// What a hipIpcMemHandle_t / hipIpcEventHandle_t of the CPU agent holds (64 bytes).
struct SharedFileRef {
  char magic[8];   // "weftipcm" (memory) or "weftipce" (event)
  int32_t pid;     // the exporting process
  int32_t fd;      // its descriptor of the file
  uint64_t inode;  // the file's identity, so a reused descriptor number is refused
  uint64_t device;
  uint64_t offset;  // of the allocation in the file
  uint64_t bytes;   // the allocation's size as the user asked for it
  uint64_t mapped;  // pages mapped (bytes rounded up to the page size)
};
static_assert(sizeof(SharedFileRef) <= 64);

// Opens `ref`'s file from its process (checked against its identity); the caller
// closes the descriptor.
Result<int> open_shared_file(const SharedFileRef& ref);

class SharedHeap {
 public:
  static constexpr size_t kMinBytes = 128 * 1024;

  // Null (not an error) when the memfd cannot be made: allocations then use the heap.
  static SharedHeap* get();

  Result<void*> allocate(size_t bytes);
  // False when `ptr` is not one of the heap's allocations.
  bool release(void* ptr);
  // The handle contents for the allocation at `base`; hipErrorNotSupported if it is not
  // one of the heap's (a small allocation on the C heap).
  Result<SharedFileRef> describe(void* base);

 private:
  struct Region {
    uint64_t offset;
    size_t mapped;
    size_t bytes;
  };
  explicit SharedHeap(int fd) : fd_(fd) {}
  const int fd_;
  std::mutex mutex_;
  static constexpr uint64_t kGrowBytes = uint64_t{1} << 30;
  uint64_t end_ = 0;         // the next allocation's offset; freed ranges are holes
  uint64_t file_bytes_ = 0;  // the (sparse) file's size
  std::map<void*, Region> regions_;
};

}  // namespace weft::cpu
