// SPDX-License-Identifier: MIT
#include "os.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace weft::xdna {
namespace {

int sys_open(const char* path, int flags) { return ::open(path, flags); }
int sys_close(int fd) { return ::close(fd); }
int sys_ioctl(int fd, unsigned long request, void* arg) {
  int r;
  do r = ::ioctl(fd, request, arg);  // DRM ioctls restart on signals
  while (r == -1 && (errno == EINTR || errno == EAGAIN));
  return r;
}
void* sys_mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset) {
  return ::mmap(addr, length, prot, flags, fd, offset);
}
int sys_munmap(void* addr, size_t length) { return ::munmap(addr, length); }
int sys_list_dir(const char* path, void (*each)(const char*, void*), void* context) {
  DIR* dir = ::opendir(path);
  if (!dir) return -1;
  while (dirent* e = ::readdir(dir))
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
      each(e->d_name, context);
  ::closedir(dir);
  return 0;
}
ssize_t sys_readlink(const char* path, char* buffer, size_t size) {
  return ::readlink(path, buffer, size);
}
ssize_t sys_read_file(const char* path, char* buffer, size_t size) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = ::read(fd, buffer, size);
  int saved = errno;
  ::close(fd);
  errno = saved;
  return n;
}

const OsTable kSystem{sys_open,   sys_close,    sys_ioctl,    sys_mmap,
                      sys_munmap, sys_list_dir, sys_readlink, sys_read_file};

using TestHook = const OsTable* (*)();

const OsTable* from_program() {
  // Only a program that exports the hook (tests) has it; one lookup per process.
  auto hook = reinterpret_cast<TestHook>(::dlsym(RTLD_DEFAULT, "weft_xdna_os_for_testing"));
  return hook ? hook() : nullptr;
}

std::atomic<const OsTable*> g_installed{nullptr};

}  // namespace

const OsTable& system_os() { return kSystem; }

const OsTable& os() {
  if (const OsTable* t = g_installed.load(std::memory_order_acquire)) return *t;
  static const OsTable* program = from_program();
  return program ? *program : kSystem;
}

void set_os_for_testing(const OsTable* table) {
  g_installed.store(table, std::memory_order_release);
}

}  // namespace weft::xdna
