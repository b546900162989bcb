// SPDX-License-Identifier: MIT
#include "api/os_handles.hpp"

#include <sys/stat.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace weft::api {

Status check_shareable_fd(int fd, const char* what) {
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0)
    return Status(hipErrorInvalidValue,
                  fmt::format("{} {} is not an open file descriptor{}{}", what, fd,
                              fd < 0 ? "" : ": ", fd < 0 ? "" : std::strerror(errno)));
  const char* kind = nullptr;
  if (S_ISFIFO(st.st_mode)) kind = "a pipe";
  else if (S_ISSOCK(st.st_mode)) kind = "a socket";
  else if (S_ISDIR(st.st_mode)) kind = "a directory";
  else if (S_ISLNK(st.st_mode)) kind = "a symbolic link";
  else if (S_ISBLK(st.st_mode)) kind = "a block device";
  if (kind)
    return Status(hipErrorInvalidValue,
                  fmt::format("{} {} is {}, which cannot carry exported memory or a semaphore",
                              what, fd, kind));
  return Status();
}

}  // namespace weft::api
