// SPDX-License-Identifier: MIT
// File access under the root override, and device-node access for the real machine or a fixture.
#include "sysroot.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <grp.h>
#include <link.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "parse.hpp"

namespace weft::smi {
namespace {

std::string group_name(gid_t gid) {
  struct group gr {};
  struct group* found = nullptr;
  char buffer[4096];
  if (getgrgid_r(gid, &gr, buffer, sizeof(buffer), &found) == 0 && found) return gr.gr_name;
  return std::to_string(gid);
}

std::string user_name(uid_t uid) {
  struct passwd pw {};
  struct passwd* found = nullptr;
  char buffer[4096];
  if (getpwuid_r(uid, &pw, buffer, sizeof(buffer), &found) == 0 && found) return pw.pw_name;
  return std::to_string(uid);
}

std::vector<std::string> split_list(std::string_view text, char sep) {
  std::vector<std::string> out;
  for (std::string_view item : split(text, sep)) {
    item = trim(item);
    if (!item.empty()) out.emplace_back(item);
  }
  return out;
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

bool natural_less(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    bool da = a[i] >= '0' && a[i] <= '9', db = b[j] >= '0' && b[j] <= '9';
    if (da && db) {
      size_t ei = i, ej = j;
      while (ei < a.size() && a[ei] >= '0' && a[ei] <= '9') ++ei;
      while (ej < b.size() && b[ej] >= '0' && b[ej] <= '9') ++ej;
      std::string_view na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
      while (na.size() > 1 && na[0] == '0') na.remove_prefix(1);
      while (nb.size() > 1 && nb[0] == '0') nb.remove_prefix(1);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ei;
      j = ej;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

std::string NodeAccess::describe() const {
  if (!exists) return "missing";
  std::string bits = "c";
  const char* rwx = "rwxrwxrwx";
  for (int k = 0; k < 9; ++k) bits += (mode & (0400u >> k)) ? rwx[k] : '-';
  return bits + " " + owner + ":" + group;
}

SysRoot::SysRoot(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  if (root_ == "/") root_.clear();
  if (is_fixture()) load_fixture();
  else load_real_identity();
}

std::string SysRoot::path(std::string_view abs) const { return root_ + std::string(abs); }

std::optional<std::string> SysRoot::read(std::string_view abs, size_t limit) const {
  int fd = ::open(path(abs).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out;
  char buffer[8192];
  while (out.size() < limit) {
    ssize_t n = ::read(fd, buffer, std::min(sizeof(buffer), limit - out.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return std::nullopt;  // e.g. EINVAL/ENODEV from a sysfs attribute the ASIC lacks
    }
    if (n == 0) break;
    out.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

std::string SysRoot::line(std::string_view abs) const {
  auto text = read(abs, 4096);
  if (!text) return {};
  std::string_view view(*text);
  view = view.substr(0, view.find('\n'));
  return std::string(trim(view));
}

std::optional<int64_t> SysRoot::read_int(std::string_view abs) const {
  return parse_int(line(abs));
}

std::optional<uint64_t> SysRoot::read_u64(std::string_view abs) const {
  return parse_u64(line(abs));
}

std::vector<std::string> SysRoot::list(std::string_view abs) const {
  std::vector<std::string> out;
  DIR* dir = ::opendir(path(abs).c_str());
  if (!dir) return out;
  while (dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    out.emplace_back(entry->d_name);
  }
  ::closedir(dir);
  std::sort(out.begin(), out.end(),
            [](const std::string& a, const std::string& b) { return natural_less(a, b); });
  return out;
}

bool SysRoot::exists(std::string_view abs) const {
  struct stat st {};
  return ::stat(path(abs).c_str(), &st) == 0;
}

std::string SysRoot::link_name(std::string_view abs) const {
  char buffer[4096];
  ssize_t n = ::readlink(path(abs).c_str(), buffer, sizeof(buffer) - 1);
  if (n <= 0) return {};
  std::string_view target(buffer, static_cast<size_t>(n));
  auto slash = target.rfind('/');
  return std::string(slash == std::string_view::npos ? target : target.substr(slash + 1));
}

NodeAccess SysRoot::access(std::string_view abs) const {
  NodeAccess a;
  struct stat st {};
  if (::stat(path(abs).c_str(), &st) != 0) return a;
  a.exists = true;
  if (!is_fixture()) {
    a.mode = st.st_mode & 07777;
    a.owner = user_name(st.st_uid);
    a.group = group_name(st.st_gid);
    a.readable = ::access(path(abs).c_str(), R_OK) == 0;
    a.writable = ::access(path(abs).c_str(), W_OK) == 0;
    return a;
  }
  // Fixture: ownership from hip-smi-fixture.conf, decided for the fixture's user.
  FixtureNode node;
  if (auto it = fixture_nodes_.find(abs); it != fixture_nodes_.end()) node = it->second;
  a.mode = node.mode;
  a.owner = node.owner;
  a.group = node.group;
  unsigned bits = node.mode & 07;
  if (identity_.uid == 0) bits = 07;
  else if (node.owner == identity_.user) bits = (node.mode >> 6) & 07;
  else if (contains(identity_.groups, node.group)) bits = (node.mode >> 3) & 07;
  a.readable = bits & 04;
  a.writable = bits & 02;
  return a;
}

bool SysRoot::group_exists(const std::string& group) const {
  if (is_fixture()) return etc_groups_.count(group) > 0;
  struct group gr {};
  struct group* found = nullptr;
  char buffer[8192];
  return getgrnam_r(group.c_str(), &gr, buffer, sizeof(buffer), &found) == 0 && found;
}

void SysRoot::load_real_identity() {
  identity_.uid = ::geteuid();
  identity_.user = user_name(identity_.uid);
  int n = ::getgroups(0, nullptr);
  std::vector<gid_t> gids(static_cast<size_t>(std::max(n, 0)));
  if (n > 0) n = ::getgroups(n, gids.data());
  gids.resize(static_cast<size_t>(std::max(n, 0)));
  gids.push_back(::getegid());
  for (gid_t gid : gids) {
    std::string name = group_name(gid);
    if (!contains(identity_.groups, name)) identity_.groups.push_back(name);
  }
  // The group database may list groups this session has not picked up yet
  // (usermod -aG without logging in again).
  int count = 64;
  std::vector<gid_t> configured(static_cast<size_t>(count));
  if (::getgrouplist(identity_.user.c_str(), ::getegid(), configured.data(), &count) < 0) {
    configured.resize(static_cast<size_t>(count));
    ::getgrouplist(identity_.user.c_str(), ::getegid(), configured.data(), &count);
  }
  configured.resize(static_cast<size_t>(std::max(count, 0)));
  for (gid_t gid : configured) identity_.configured_groups.push_back(group_name(gid));
}

void SysRoot::load_fixture() {
  identity_.uid = 1000;
  identity_.user = "user";
  // root/etc/group in the usual format: name:x:gid:member,member
  if (auto text = read("/etc/group")) {
    for (std::string_view row : split(*text, '\n')) {
      auto fields = split(row, ':');
      if (fields.size() < 4) continue;
      etc_groups_[std::string(trim(fields[0]))] = split_list(fields[3], ',');
    }
  }
  if (auto text = read("/hip-smi-fixture.conf")) {
    for (std::string_view row : split(*text, '\n')) {
      row = trim(row);
      if (row.empty() || row[0] == '#') continue;
      auto words = split_list(row, ' ');
      if (words.empty()) continue;
      if (words[0] == "user") {
        for (size_t k = 1; k < words.size(); ++k) {
          auto [key, value] = split_pair(words[k], '=');
          if (key == "uid") identity_.uid = static_cast<unsigned>(parse_int(value).value_or(1000));
          if (key == "name") identity_.user = std::string(value);
          if (key == "groups") identity_.groups = split_list(value, ',');
        }
      } else if (words[0] == "node" && words.size() >= 2) {
        FixtureNode node;
        for (size_t k = 2; k < words.size(); ++k) {
          auto [key, value] = split_pair(words[k], '=');
          if (key == "mode")
            node.mode = static_cast<unsigned>(std::strtoul(std::string(value).c_str(), nullptr, 8));
          if (key == "owner") node.owner = std::string(value);
          if (key == "group") node.group = std::string(value);
        }
        fixture_nodes_[words[1]] = node;
      }
    }
  }
  for (const auto& [group, members] : etc_groups_)
    if (contains(members, identity_.user) || contains(identity_.groups, group))
      identity_.configured_groups.push_back(group);
}

std::string SysRoot::find_library(const std::string& soname) const {
  if (is_fixture()) {
    for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib",
                            "/lib/x86_64-linux-gnu", "/opt/rocm/lib", "/usr/local/cuda/lib64"}) {
      std::string candidate = std::string(dir) + "/" + soname;
      if (exists(candidate)) return candidate;
    }
    return {};
  }
  // RTLD_LAZY: nothing is bound; the library's constructors do run, which is
  // why only `doctor` (never the fast status path) asks this.
  void* handle = ::dlopen(soname.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (!handle) return {};
  std::string where = soname;
  struct link_map* map = nullptr;
  if (::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) where = map->l_name;
  // Not closed: some vendor libraries start threads that outlive dlclose.
  return where;
}

}  // namespace weft::smi
