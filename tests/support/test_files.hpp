// SPDX-License-Identifier: MIT
// Test inputs read from disk (code objects, bundles, fixtures). Header-only, so
// every test binary can use it without linking anything more.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace hip_test {

// The whole file at `path`; empty when it cannot be read (the test's checks on
// the bytes then fail, or the test skips where the file is optional).
inline std::vector<std::byte> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  if (!chars.empty()) std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

// Where a helper file that the build placed at `build_path` (a code object, a child
// program, a list) is: test binaries may run from another folder than the build tree
// (tests/drivers/cuda/h200.sh stages them), so the file is looked for, by its name,
// in $WEFT_TEST_HELPER_DIR, then next to the running executable, and only then at
// `build_path`.
inline std::string helper_file(const std::string& build_path) {
  const std::string name = build_path.substr(build_path.find_last_of('/') + 1);
  auto exists = [](const std::string& path) { return ::access(path.c_str(), F_OK) == 0; };
  if (const char* dir = std::getenv("WEFT_TEST_HELPER_DIR"); dir && *dir) {
    std::string candidate = std::string(dir) + "/" + name;
    if (exists(candidate)) return candidate;
  }
  char exe[4096];
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    std::string self(exe, static_cast<size_t>(n));
    std::string candidate = self.substr(0, self.find_last_of('/') + 1) + name;
    if (exists(candidate)) return candidate;
  }
  return build_path;
}

}  // namespace hip_test
