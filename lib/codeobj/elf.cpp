// SPDX-License-Identifier: MIT
// ELF64 reader. Every field is read through read_le/sub_span, so no input can make
// it read outside the span; counts are bounded by the bytes that must back them.
#include <weft/codeobj/elf.hpp>

#include <algorithm>

namespace weft::codeobj {
namespace {

constexpr uint64_t kEhdrSize = 64;
constexpr uint64_t kShdrSize = 64;
constexpr uint64_t kPhdrSize = 56;
constexpr uint64_t kSymSize = 24;

// A NUL-terminated string at `offset` of a string table.
std::optional<std::string_view> string_at(Bytes table, uint64_t offset) {
  if (offset >= table.size()) return std::nullopt;
  std::string_view rest = as_text(table.subspan(static_cast<size_t>(offset)));
  size_t end = rest.find('\0');
  if (end == std::string_view::npos) return std::nullopt;
  return rest.substr(0, end);
}

Status read_header_tables(ElfFile& elf, Bytes b) {
  uint64_t phoff = *read_le<uint64_t>(b, 32);
  uint64_t shoff = *read_le<uint64_t>(b, 40);
  uint16_t phentsize = *read_le<uint16_t>(b, 54);
  uint64_t phnum = *read_le<uint16_t>(b, 56);
  uint16_t shentsize = *read_le<uint16_t>(b, 58);
  uint64_t shnum = *read_le<uint16_t>(b, 60);
  uint64_t shstrndx = *read_le<uint16_t>(b, 62);

  if (phnum > 0) {
    if (phentsize != kPhdrSize)
      return invalid_image(text_of("ELF: program header size ", phentsize));
    if (!sub_span(b, phoff, phnum * kPhdrSize))
      return invalid_image("ELF: program headers out of range");
    for (uint64_t i = 0; i < phnum; ++i) {
      uint64_t at = phoff + i * kPhdrSize;
      ElfSegment s;
      s.type = *read_le<uint32_t>(b, at);
      s.flags = *read_le<uint32_t>(b, at + 4);
      s.offset = *read_le<uint64_t>(b, at + 8);
      s.vaddr = *read_le<uint64_t>(b, at + 16);
      s.filesz = *read_le<uint64_t>(b, at + 32);
      s.memsz = *read_le<uint64_t>(b, at + 40);
      s.align = *read_le<uint64_t>(b, at + 48);
      if (!sub_span(b, s.offset, s.filesz))
        return invalid_image(text_of("ELF: segment ", i, " out of range"));
      elf.segments.push_back(s);
    }
  }
  if (shoff == 0) return Status();
  if (shentsize != kShdrSize) return invalid_image(text_of("ELF: section header size ", shentsize));
  if (shnum == 0 || shstrndx == 0xffff) {  // extended numbering lives in section 0
    auto size0 = read_le<uint64_t>(b, shoff + 32);
    auto link0 = read_le<uint32_t>(b, shoff + 40);
    if (!size0 || !link0) return invalid_image("ELF: section headers out of range");
    if (shnum == 0) shnum = *size0;
    if (shstrndx == 0xffff) shstrndx = *link0;
  }
  if (shnum > b.size() / kShdrSize || !sub_span(b, shoff, shnum * kShdrSize))
    return invalid_image("ELF: section headers out of range");
  for (uint64_t i = 0; i < shnum; ++i) {
    uint64_t at = shoff + i * kShdrSize;
    ElfSection s;
    s.type = *read_le<uint32_t>(b, at + 4);
    s.flags = *read_le<uint64_t>(b, at + 8);
    s.addr = *read_le<uint64_t>(b, at + 16);
    s.offset = *read_le<uint64_t>(b, at + 24);
    s.size = *read_le<uint64_t>(b, at + 32);
    s.link = *read_le<uint32_t>(b, at + 40);
    s.info = *read_le<uint32_t>(b, at + 44);
    s.addralign = *read_le<uint64_t>(b, at + 48);
    s.entsize = *read_le<uint64_t>(b, at + 56);
    if (s.type != kSectionNoBits && i != 0) {
      auto data = sub_span(b, s.offset, s.size);
      if (!data) return invalid_image(text_of("ELF: section ", i, " out of range"));
      s.data = *data;
    }
    elf.sections.push_back(s);
  }
  if (shstrndx >= shnum) return invalid_image("ELF: section name table index out of range");
  Bytes names = elf.sections[shstrndx].data;
  for (uint64_t i = 0; i < shnum; ++i) {
    uint32_t name_offset = *read_le<uint32_t>(b, shoff + i * kShdrSize);
    auto name = string_at(names, name_offset);
    if (!name && i != 0) return invalid_image(text_of("ELF: bad name of section ", i));
    elf.sections[i].name = name.value_or(std::string_view());
  }
  return Status();
}

Status read_symbols(ElfFile& elf, const ElfSection& table, bool dynamic) {
  if (table.entsize != kSymSize) return invalid_image("ELF: symbol entry size is not 24");
  if (table.link >= elf.sections.size())
    return invalid_image("ELF: symbol string table index out of range");
  Bytes strings = elf.sections[table.link].data;
  uint64_t count = table.data.size() / kSymSize;
  for (uint64_t i = 1; i < count; ++i) {  // entry 0 is the null symbol
    uint64_t at = i * kSymSize;
    ElfSymbol sym;
    auto name = string_at(strings, *read_le<uint32_t>(table.data, at));
    if (!name) return invalid_image(text_of("ELF: bad name of symbol ", i));
    uint8_t info = *read_le<uint8_t>(table.data, at + 4);
    sym.name = *name;
    sym.binding = info >> 4;
    sym.type = info & 0xf;
    sym.visibility = *read_le<uint8_t>(table.data, at + 5) & 3;
    sym.section = *read_le<uint16_t>(table.data, at + 6);
    sym.value = *read_le<uint64_t>(table.data, at + 8);
    sym.size = *read_le<uint64_t>(table.data, at + 16);
    sym.dynamic = dynamic;
    elf.symbols.push_back(sym);
  }
  return Status();
}

}  // namespace

Result<ElfFile> parse_elf(Bytes b) {
  if (!is_elf(b)) return invalid_image("not an ELF file (bad magic)");
  if (b.size() < kEhdrSize) return invalid_image("ELF: truncated header");
  if (static_cast<uint8_t>(b[4]) != 2) return invalid_image("ELF: not a 64-bit object");
  if (static_cast<uint8_t>(b[5]) != 1) return invalid_image("ELF: not little-endian");
  ElfFile elf;
  elf.bytes = b;
  elf.os_abi = static_cast<uint8_t>(b[7]);
  elf.abi_version = static_cast<uint8_t>(b[8]);
  elf.type = *read_le<uint16_t>(b, 16);
  elf.machine = *read_le<uint16_t>(b, 18);
  elf.entry = *read_le<uint64_t>(b, 24);
  elf.flags = *read_le<uint32_t>(b, 48);
  WEFT_RETURN_IF_ERROR(read_header_tables(elf, b));
  for (const ElfSection& s : elf.sections)
    if (s.type == kSectionSymtab) WEFT_RETURN_IF_ERROR(read_symbols(elf, s, false));
  for (const ElfSection& s : elf.sections)
    if (s.type == kSectionDynsym) WEFT_RETURN_IF_ERROR(read_symbols(elf, s, true));
  return elf;
}

const ElfSection* ElfFile::section(std::string_view name) const {
  for (const ElfSection& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

const ElfSymbol* ElfFile::symbol(std::string_view name) const {
  for (const ElfSymbol& s : symbols)
    if (s.section != 0 && s.name == name) return &s;
  return nullptr;
}

const ElfSymbol* ElfFile::symbol_at(uint64_t vaddr) const {
  for (const ElfSymbol& s : symbols)
    if (s.section != 0 && s.value == vaddr && (s.type == 1 || s.type == 2) && !s.name.empty())
      return &s;
  return nullptr;
}

std::optional<Bytes> ElfFile::bytes_at(uint64_t vaddr, uint64_t size) const {
  for (const ElfSection& s : sections) {
    if (s.type == kSectionNoBits || (s.flags & 2) == 0) continue;  // SHF_ALLOC
    if (vaddr < s.addr || vaddr - s.addr > s.size || s.size - (vaddr - s.addr) < size) continue;
    return sub_span(s.data, vaddr - s.addr, size);
  }
  return std::nullopt;
}

Result<std::vector<ElfNote>> parse_notes(Bytes data, uint64_t align) {
  if (align != 8) align = 4;
  // Name and descriptor each start at the next `align` boundary of the note.
  auto pad = [align](uint64_t n) { return (n + align - 1) / align * align; };
  std::vector<ElfNote> notes;
  uint64_t at = 0;
  while (at < data.size()) {
    auto namesz = read_le<uint32_t>(data, at);
    auto descsz = read_le<uint32_t>(data, at + 4);
    auto type = read_le<uint32_t>(data, at + 8);
    if (!namesz || !descsz || !type) return invalid_image("ELF: truncated note header");
    uint64_t name_at = at + 12;
    uint64_t desc_at = pad(name_at + *namesz);
    auto name = sub_span(data, name_at, *namesz);
    auto desc = sub_span(data, desc_at, *descsz);
    if (!name || !desc) return invalid_image("ELF: note runs past its section");
    ElfNote note;
    note.name = as_text(*name);
    if (!note.name.empty() && note.name.back() == '\0') note.name.remove_suffix(1);
    note.type = *type;
    note.desc = *desc;
    notes.push_back(note);
    at = pad(desc_at + *descsz);
  }
  return notes;
}

Result<std::vector<ElfNote>> elf_notes(const ElfFile& elf) {
  std::vector<ElfNote> all;
  auto add = [&](Bytes data, uint64_t align) -> Status {
    WEFT_ASSIGN_OR_RETURN(std::vector<ElfNote> notes, parse_notes(data, align));
    all.insert(all.end(), notes.begin(), notes.end());
    return Status();
  };
  bool from_sections = false;
  for (const ElfSection& s : elf.sections) {
    if (s.type != kSectionNote) continue;
    from_sections = true;
    WEFT_RETURN_IF_ERROR(add(s.data, s.addralign));
  }
  if (!from_sections) {
    for (const ElfSegment& p : elf.segments)
      if (p.type == kSegmentNote)
        WEFT_RETURN_IF_ERROR(add(*sub_span(elf.bytes, p.offset, p.filesz), p.align));
  }
  return all;
}

}  // namespace weft::codeobj
