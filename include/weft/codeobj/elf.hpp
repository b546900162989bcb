// SPDX-License-Identifier: MIT
// ELF64 little-endian reader: header, program headers, sections, symbols, notes.
//
// parse_elf() checks every offset and size against the input, so a malformed file
// returns hipErrorInvalidImage with a message and never reads out of range. The
// result holds views into the input bytes: keep them alive while it is used.
// Pure; immutable results.
#pragma once

#include <weft/codeobj/bytes.hpp>
#include <weft/driver/status.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace weft::codeobj {

inline constexpr uint16_t kElfTypeExec = 2;
inline constexpr uint16_t kElfTypeDyn = 3;
inline constexpr uint16_t kElfMachineX86_64 = 62;
inline constexpr uint16_t kElfMachineAarch64 = 183;
inline constexpr uint16_t kElfMachineAmdgpu = 224;
inline constexpr uint8_t kElfOsAbiAmdgpuHsa = 64;
inline constexpr uint32_t kSectionNoBits = 8;
inline constexpr uint32_t kSectionSymtab = 2;
inline constexpr uint32_t kSectionDynsym = 11;
inline constexpr uint32_t kSectionNote = 7;
inline constexpr uint32_t kSegmentLoad = 1;
inline constexpr uint32_t kSegmentDynamic = 2;
inline constexpr uint32_t kSegmentNote = 4;

struct ElfSection {
  std::string_view name;
  uint32_t type = 0;
  uint64_t flags = 0;
  uint64_t addr = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;
  uint32_t info = 0;
  uint64_t addralign = 0;
  uint64_t entsize = 0;
  Bytes data;  // file bytes (empty for SHT_NOBITS)
};

struct ElfSegment {
  uint32_t type = 0;
  uint32_t flags = 0;
  uint64_t offset = 0;
  uint64_t vaddr = 0;
  uint64_t filesz = 0;
  uint64_t memsz = 0;
  uint64_t align = 0;
};

struct ElfSymbol {
  std::string_view name;
  uint8_t binding = 0;  // 0 local, 1 global, 2 weak
  uint8_t type = 0;     // 0 notype, 1 object, 2 func, 10 gnu_ifunc
  uint8_t visibility = 0;
  uint16_t section = 0;  // 0 = undefined
  uint64_t value = 0;
  uint64_t size = 0;
  bool dynamic = false;  // from .dynsym rather than .symtab
};

struct ElfNote {
  std::string_view name;  // without the terminating NUL
  uint32_t type = 0;
  Bytes desc;
};

struct ElfFile {
  Bytes bytes;
  uint8_t os_abi = 0;
  uint8_t abi_version = 0;
  uint16_t type = 0;
  uint16_t machine = 0;
  uint32_t flags = 0;
  uint64_t entry = 0;
  std::vector<ElfSegment> segments;
  std::vector<ElfSection> sections;
  std::vector<ElfSymbol> symbols;  // .symtab then .dynsym, defined and undefined

  const ElfSection* section(std::string_view name) const;
  // The first defined symbol with this name (prefers .symtab), or null.
  const ElfSymbol* symbol(std::string_view name) const;
  // The defined function or object symbol at this virtual address, or null.
  const ElfSymbol* symbol_at(uint64_t vaddr) const;
  // The file bytes that back [vaddr, vaddr + size), through the section containing them.
  std::optional<Bytes> bytes_at(uint64_t vaddr, uint64_t size) const;
};

inline bool is_elf(Bytes bytes) {
  return starts_with(bytes,
                     "\x7f"
                     "ELF");
}

Result<ElfFile> parse_elf(Bytes bytes);

// Notes of a SHT_NOTE section or PT_NOTE segment; `align` is 4 or 8.
Result<std::vector<ElfNote>> parse_notes(Bytes data, uint64_t align);

// All notes of the file: from note sections, or from PT_NOTE segments when the
// file has no section headers.
Result<std::vector<ElfNote>> elf_notes(const ElfFile& elf);

}  // namespace weft::codeobj
