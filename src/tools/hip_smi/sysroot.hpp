// SPDX-License-Identifier: MIT
// Every sysfs, procfs, /dev and library lookup of hip-smi goes through a SysRoot.
// With a root directory (--root DIR or HIP_SMI_ROOT) all absolute paths are read
// under DIR, so the tests run the whole tool against fixture trees in tests/data.
//
// Device nodes cannot live in a source tree and the tests run as root, so a
// fixture describes ownership, modes and the caller's identity in
// DIR/hip-smi-fixture.conf (format in docs/hip-smi.md). On the real machine the
// same questions are answered by stat(), access() and the group database.
//
// Immutable after construction; thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace weft::smi {

// Who is asking: decides which device nodes are usable.
struct Identity {
  unsigned uid = 0;
  std::string user;
  std::vector<std::string> groups;             // groups of this process (session)
  std::vector<std::string> configured_groups;  // groups the group database lists the user in
};

// Ownership and access of one path (device node or file).
struct NodeAccess {
  bool exists = false;
  bool readable = false;
  bool writable = false;
  unsigned mode = 0;  // permission bits, e.g. 0660
  std::string owner;
  std::string group;
  std::string describe() const;  // "crw-rw---- root:render"
};

class SysRoot {
 public:
  // `root` empty or "/" reads the real machine.
  explicit SysRoot(std::string root);

  bool is_fixture() const { return !root_.empty(); }
  const std::string& root() const { return root_; }
  // The host path of absolute path `abs` (root prefixed).
  std::string path(std::string_view abs) const;

  // Whole file, at most `limit` bytes; nullopt when it cannot be read.
  std::optional<std::string> read(std::string_view abs, size_t limit = 256 * 1024) const;
  // First line without the trailing newline and surrounding blanks; "" when missing.
  std::string line(std::string_view abs) const;
  std::optional<int64_t> read_int(std::string_view abs) const;
  std::optional<uint64_t> read_u64(std::string_view abs) const;
  // Entry names, sorted naturally (node2 before node10); empty when missing.
  std::vector<std::string> list(std::string_view abs) const;
  bool exists(std::string_view abs) const;
  // Last component of a symlink's target ("amdgpu" for .../driver); "" if not a link.
  std::string link_name(std::string_view abs) const;

  NodeAccess access(std::string_view abs) const;
  const Identity& identity() const { return identity_; }
  // Members of `group` in the group database (root/etc/group; NSS on the real machine).
  bool group_exists(const std::string& group) const;

  // Where a shared library would be found; "" when nowhere. On the real machine
  // this asks the dynamic loader (dlopen); under a root it searches the usual
  // library folders of the tree, so fixtures decide with a placeholder file.
  std::string find_library(const std::string& soname) const;

 private:
  struct FixtureNode {
    unsigned mode = 0666;
    std::string owner = "root";
    std::string group = "root";
  };
  void load_fixture();
  void load_real_identity();

  std::string root_;
  Identity identity_;
  std::map<std::string, FixtureNode, std::less<>> fixture_nodes_;
  std::map<std::string, std::vector<std::string>, std::less<>> etc_groups_;  // fixture only
};

// "a2" < "a10": digit runs compare as numbers.
bool natural_less(std::string_view a, std::string_view b);

}  // namespace weft::smi
