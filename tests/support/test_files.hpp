// SPDX-License-Identifier: MIT
// Test inputs read from disk (code objects, bundles, fixtures). Header-only, so
// every test binary can use it without linking anything more.
#pragma once

#include <cstddef>
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

}  // namespace hip_test
