// SPDX-License-Identifier: MIT
// An image copied so that its last byte is the last byte before a PROT_NONE
// page: reading one byte past it faults, with or without a sanitizer.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "test_files.hpp"

namespace safety {

class GuardedImage {
 public:
  explicit GuardedImage(std::span<const std::byte> bytes);
  ~GuardedImage();
  GuardedImage(const GuardedImage&) = delete;
  GuardedImage& operator=(const GuardedImage&) = delete;
  const void* data() const { return data_; }

 private:
  std::byte* map_ = nullptr;
  size_t map_size_ = 0;
  std::byte* data_ = nullptr;
};

using hip_test::read_file;

}  // namespace safety
