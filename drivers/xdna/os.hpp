// SPDX-License-Identifier: MIT
// Every system call the NPU driver makes goes through this table, so a test
// double (tests/drivers/xdna/fake_xdna.*) replaces the kernel interface (the
// accel node, its ioctls, mmap, sysfs) and nothing of weft's own code.
// Functions follow their POSIX namesakes: -1 (MAP_FAILED for mmap) and errno on
// failure. Thread-safe as the kernel is.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace weft::xdna {

struct OsTable {
  int (*open)(const char* path, int flags);
  int (*close)(int fd);
  int (*ioctl)(int fd, unsigned long request, void* arg);
  void* (*mmap)(void* addr, size_t length, int prot, int flags, int fd, off_t offset);
  int (*munmap)(void* addr, size_t length);
  // Calls `each` for every entry of directory `path` but "." and ".."; -1 and
  // errno when the directory cannot be opened.
  int (*list_dir)(const char* path, void (*each)(const char* name, void* context), void* context);
  // readlink(2); at most `size` bytes, no NUL added.
  ssize_t (*readlink)(const char* path, char* buffer, size_t size);
  // The first `size` bytes of a small file (a sysfs attribute); -1 and errno.
  ssize_t (*read_file)(const char* path, char* buffer, size_t size);
};

// The table in use: the test double's when one was installed, else the real
// system calls. A program (a test) may also provide it by defining and
// exporting `extern "C" const weft::xdna::OsTable* weft_xdna_os_for_testing()`,
// looked up once with dlsym when the driver starts: that is how the HIP-level
// tests reach the copy of the driver inside libamdhip64.
const OsTable& os();
// For tests linking the driver directly; null restores the real table.
void set_os_for_testing(const OsTable* table);
// The real system calls.
const OsTable& system_os();

}  // namespace weft::xdna
