// SPDX-License-Identifier: MIT
#include "api/image_ranges.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <algorithm>
#include <cstdint>

namespace weft::api {
namespace {

struct Search {
  uintptr_t begin = 0;
  uintptr_t end = 0;  // one past the last byte
  Access access = Access::kRead;
  std::optional<std::span<std::byte>> found;
};

int visit_object(dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<Search*>(data);
  uintptr_t relro_begin = 0, relro_end = 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_GNU_RELRO) {
      relro_begin = info->dlpi_addr + ph.p_vaddr;
      relro_end = relro_begin + ph.p_memsz;
    }
  }
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_R)) continue;
    bool writable = ph.p_flags & PF_W;
    if (search->access == Access::kWrite ? !writable : (!writable && (ph.p_flags & PF_X))) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
    uintptr_t hi = lo + ph.p_memsz;  // .bss included
    // The loader makes the RELRO part read-only after relocation; it starts the
    // segment, so the writable part begins where it ends.
    if (search->access == Access::kWrite && relro_end > lo && relro_begin < hi)
      lo = std::max(lo, relro_end);
    if (search->begin >= lo && search->end <= hi) {
      search->found = std::span<std::byte>(reinterpret_cast<std::byte*>(lo), hi - lo);
      return 1;
    }
  }
  return 0;
}

}  // namespace

std::optional<std::span<std::byte>> image_data_range(const void* ptr, size_t bytes, Access access) {
  Search search;
  search.access = access;
  search.begin = reinterpret_cast<uintptr_t>(ptr);
  if (search.begin == 0 || bytes > UINTPTR_MAX - search.begin) return std::nullopt;
  search.end = search.begin + (bytes == 0 ? 1 : bytes);
  dl_iterate_phdr(visit_object, &search);
  return search.found;
}

std::optional<std::span<std::byte>> image_symbol(const void* ptr) {
  Dl_info info{};
  void* entry = nullptr;  // a const ElfW(Sym)*
  if (!dladdr1(ptr, &info, &entry, RTLD_DL_SYMENT)) return std::nullopt;
  const auto* symbol = static_cast<const ElfW(Sym)*>(entry);
  if (!symbol || !info.dli_saddr || symbol->st_size == 0) return std::nullopt;
  auto* base = static_cast<std::byte*>(info.dli_saddr);
  auto* p = static_cast<const std::byte*>(ptr);
  if (p < base || p >= base + symbol->st_size) return std::nullopt;
  return std::span<std::byte>(base, symbol->st_size);
}

}  // namespace weft::api
