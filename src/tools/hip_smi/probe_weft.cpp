// SPDX-License-Identifier: MIT
#include "probe_weft.hpp"

#include <cstdlib>
#include <set>

#include "parse.hpp"

namespace weft::smi {
namespace {

// Field 22 of /proc/PID/stat (clock ticks after boot): with the pid, it names
// one process for the life of the machine. The name (field 2) may hold spaces
// and parentheses, so fields are counted after its last ')'.
std::string start_time_of(const SysRoot& root, const std::string& pid) {
  auto stat = root.read("/proc/" + pid + "/stat", 4096);
  if (!stat) return {};
  size_t paren = stat->rfind(')');
  if (paren == std::string::npos) return {};
  std::vector<std::string_view> rest;
  for (std::string_view f : split(trim(std::string_view(*stat).substr(paren + 1)), ' '))
    if (!f.empty()) rest.push_back(f);
  constexpr size_t kStartField = 22 - 3;  // rest[0] is field 3 (state)
  return rest.size() > kStartField ? std::string(rest[kStartField]) : std::string();
}

}  // namespace

std::vector<std::string> weft_registry_dirs(const SysRoot& root) {
  const unsigned uid = root.identity().uid;
  std::vector<std::string> dirs;
  if (!root.is_fixture())
    if (const char* xdg = std::getenv("XDG_RUNTIME_DIR"); xdg && xdg[0] == '/')
      dirs.push_back(std::string(xdg) + "/weft");
  for (std::string d :
       {"/run/user/" + std::to_string(uid) + "/weft", "/tmp/weft-" + std::to_string(uid)})
    if (dirs.empty() || dirs[0] != d) dirs.push_back(d);
  return dirs;
}

std::vector<Process> weft_processes(const SysRoot& root, const std::string& cpu_key) {
  std::vector<Process> out;
  std::set<int64_t> seen;
  for (const std::string& dir : weft_registry_dirs(root)) {
    for (const std::string& entry : root.list(dir)) {
      auto pid = parse_int(entry);
      if (!pid || *pid <= 0 || seen.count(*pid)) continue;
      auto text = root.read(dir + "/" + entry, 4096);
      if (!text) continue;
      std::string start, name;
      for (std::string_view row : split(*text, '\n')) {
        auto [key, value] = split_pair(row, '=');
        if (key == "start") start = std::string(trim(value));
        if (key == "name") name = std::string(trim(value));
      }
      // Stale: the process exited without removing its file (killed), or the
      // pid was reused by a process that started at another time.
      std::string live_start = start_time_of(root, entry);
      if (live_start.empty() || live_start != start) continue;
      seen.insert(*pid);
      Process p;
      p.agent_key = cpu_key;
      p.pid = *pid;
      std::string comm = root.line("/proc/" + entry + "/comm");
      p.name = comm.empty() ? name : comm;
      p.type = "compute";
      if (auto status = root.read("/proc/" + entry + "/status", 16384)) {
        auto info = parse_meminfo(*status);  // "VmRSS:  1234 kB", the same shape
        if (info.count("VmRSS")) p.memory_used_bytes = info["VmRSS"];
      }
      out.push_back(std::move(p));
    }
  }
  return out;
}

}  // namespace weft::smi
