// SPDX-License-Identifier: MIT
#include "runtime/process_registry.hpp"

#include <weft/common/env.hpp>
#include <weft/common/log.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

namespace weft::process_registry {
namespace {

std::string registered_path;  // written once under the call_once below
pid_t registered_pid = 0;

// A folder this user alone owns and can write: a directory (not a link), owned
// by the effective uid, with no access for group or others.
bool private_folder(const std::string& path) {
  if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) return false;
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return false;
  return S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() && (st.st_mode & 077) == 0;
}

std::string read_first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// Field 22 of /proc/self/stat, counted after the name's closing parenthesis.
std::string start_time() {
  std::ifstream in("/proc/self/stat");
  std::stringstream text;
  text << in.rdbuf();
  std::string stat = text.str();
  size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return {};
  std::istringstream fields(stat.substr(paren + 1));
  std::string field;
  for (int k = 3; k <= 22 && fields >> field; ++k)
    if (k == 22) return field;
  return {};
}

// Files of processes that no longer exist (killed before they could clean up).
void remove_stale(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (dirent* e = ::readdir(d)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH) ::unlinkat(::dirfd(d), e->d_name, 0);
  }
  ::closedir(d);
}

void unregister() {
  // A fork()ed child inherits this handler but not the registration.
  if (!registered_path.empty() && ::getpid() == registered_pid) ::unlink(registered_path.c_str());
}

void register_now() {
  std::string dir = folder();
  if (dir.empty()) {
    log::debug(log::kInit, "hip-smi registration skipped: no private folder for this user");
    return;
  }
  remove_stale(dir);
  pid_t pid = ::getpid();
  std::string path = dir + "/" + std::to_string(pid);
  std::string content = "pid=" + std::to_string(pid) + "\nstart=" + start_time() +
                        "\nname=" + read_first_line("/proc/self/comm") + "\nagents=cpu\n";
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    log::debug(log::kInit, "hip-smi registration: cannot create {}: {}", path,
               std::strerror(errno));
    return;
  }
  bool written = ::write(fd, content.data(), content.size()) == ssize_t(content.size());
  ::close(fd);
  if (!written) {
    ::unlink(path.c_str());
    return;
  }
  registered_path = path;
  registered_pid = pid;
  std::atexit(unregister);
  log::debug(log::kInit, "registered with hip-smi as {}", path);
}

}  // namespace

std::string folder() {
  const auto& settings = env::settings();
  if (settings.runtime_dir && (*settings.runtime_dir)[0] == '/') {
    std::string dir = *settings.runtime_dir + "/weft";
    if (private_folder(dir)) return dir;
  }
  std::string dir = "/tmp/weft-" + std::to_string(::geteuid());
  return private_folder(dir) ? dir : std::string();
}

void register_this_process() {
  static std::once_flag once;
  std::call_once(once, register_now);
}

}  // namespace weft::process_registry
