// SPDX-License-Identifier: MIT
#include "guarded_image.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

namespace safety {

GuardedImage::GuardedImage(std::span<const std::byte> bytes) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t body = (bytes.size() + page - 1) / page * page;
  map_size_ = body + page;
  void* p = mmap(nullptr, map_size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("mmap failed");
  map_ = static_cast<std::byte*>(p);
  if (mprotect(map_ + body, page, PROT_NONE) != 0) throw std::runtime_error("mprotect failed");
  data_ = map_ + body - bytes.size();
  if (!bytes.empty()) std::memcpy(data_, bytes.data(), bytes.size());
}

GuardedImage::~GuardedImage() { munmap(map_, map_size_); }

}  // namespace safety
