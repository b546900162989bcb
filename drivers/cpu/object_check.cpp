// SPDX-License-Identifier: MIT
// Validation of CPU code objects before dlopen (object_check.hpp). ld.so trusts
// the file: a relocation outside the object writes anywhere, a bad hash table
// divides by zero or walks off its end, a bad version index reads past an
// array, a bad constructor address is jumped to. So every table ld.so follows is
// bounds-checked here against the loadable segments, and the kernel table is
// read from the file image with its pointers resolved through the relocations.
#include "object_check.hpp"

#include <weft/codeobj/image.hpp>

#define WEFT_CPU_CODE_OBJECT_ABI_ONLY
#include <hip/weft/cpu_code_object.h>

#include <fmt/format.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace weft::cpu {
namespace {

using codeobj::Bytes;
using codeobj::ElfFile;
using codeobj::ElfSegment;
using codeobj::read_le;

constexpr uint32_t kMaxKernels = 1u << 20;
constexpr uint32_t kMaxArgs = 4096;
constexpr uint64_t kMaxSpan = 1ull << 32;  // address span of all segments
constexpr uint64_t kMaxName = 4096;
constexpr uint64_t kMaxTls = 16ull << 20;
constexpr uint32_t kMaxChain = 4096;  // version entries walked
constexpr uint32_t kPfX = 1, kPfW = 2, kPfR = 4;
constexpr uint32_t kPtDynamic = 2, kPtNote = 4, kPtTls = 7;
constexpr uint32_t kPtGnuEhFrame = 0x6474e550, kPtGnuRelro = 0x6474e552,
                   kPtGnuProperty = 0x6474e553;

// Dynamic tags ld.so acts on.
enum : uint64_t {
  kDtNull = 0,
  kDtNeeded = 1,
  kDtPltRelSz = 2,
  kDtHash = 4,
  kDtStrTab = 5,
  kDtSymTab = 6,
  kDtRela = 7,
  kDtRelaSz = 8,
  kDtRelaEnt = 9,
  kDtStrSz = 10,
  kDtSymEnt = 11,
  kDtInit = 12,
  kDtFini = 13,
  kDtSoname = 14,
  kDtRpath = 15,
  kDtRel = 17,
  kDtPltRel = 20,
  kDtTextRel = 22,
  kDtJmpRel = 23,
  kDtInitArray = 25,
  kDtFiniArray = 26,
  kDtInitArraySz = 27,
  kDtFiniArraySz = 28,
  kDtRunpath = 29,
  kDtFlags = 30,
  kDtPreinitArray = 32,
  kDtRelrSz = 35,
  kDtRelr = 36,
  kDtRelrEnt = 37,
  kDtGnuHash = 0x6ffffef5,
  kDtAudit = 0x6ffffefc,
  kDtDepAudit = 0x6ffffefb,
  kDtVersym = 0x6ffffff0,
  kDtVerdef = 0x6ffffffc,
  kDtVerdefNum = 0x6ffffffd,
  kDtVerneed = 0x6ffffffe,
  kDtVerneedNum = 0x6fffffff,
  kDtAuxiliary = 0x7ffffffd,
  kDtFilter = 0x7fffffff,
};
constexpr uint64_t kDfTextRel = 4;

// Relocation types, by host. `pointer`: writes link-time address + base;
// `absolute`: symbol + addend; `ifunc`: calls the resolver at the addend.
struct RelocTypes {
  uint32_t none, absolute, glob_dat, jump_slot, relative, ifunc;
  uint32_t tls[4];  // DTPMOD, DTPOFF, TPOFF, TLSDESC (0: none)
};
#if defined(__aarch64__)
constexpr RelocTypes kReloc{0, 257, 1025, 1026, 1027, 1032, {1028, 1029, 1030, 1031}};
#else
constexpr RelocTypes kReloc{0, 1, 6, 7, 8, 37, {16, 17, 18, 0}};
#endif

Status invalid(std::string message) {
  return Status(hipErrorInvalidImage, "CPU code object: " + message);
}

// What a pointer-sized field of the image holds once ld.so has relocated it.
struct Pointer {
  enum Kind { kNull, kInObject, kElsewhere } kind = kNull;
  uint64_t vaddr = 0;  // link-time address, for kInObject
  bool by_symbol = false;
};

class Checker {
 public:
  explicit Checker(const ElfFile& elf) : elf_(elf) {}

  Result<CheckedObject> run() {
    WEFT_RETURN_IF_ERROR(check_segments());
    WEFT_RETURN_IF_ERROR(check_dynamic());
    WEFT_RETURN_IF_ERROR(check_kernel_table());
    WEFT_RETURN_IF_ERROR(check_globals());
    return std::move(out_);
  }

 private:
  const ElfFile& elf_;
  std::vector<const ElfSegment*> loads_;
  CheckedObject out_;
  Bytes strtab_;
  uint64_t nsyms_ = 0, symtab_ = 0;
  struct Reloc {
    uint32_t type;
    uint32_t sym;
    int64_t addend;
  };
  std::unordered_map<uint64_t, Reloc> relocs_;  // by target address
  std::vector<uint64_t> relr_;                  // addresses RELR relocates

  // The loadable segment holding [vaddr, vaddr + size) in memory, or null.
  const ElfSegment* segment_of(uint64_t vaddr, uint64_t size, uint32_t need_flags = 0) const {
    for (const ElfSegment* s : loads_)
      if (vaddr >= s->vaddr && vaddr - s->vaddr <= s->memsz &&
          s->memsz - (vaddr - s->vaddr) >= size && (s->flags & need_flags) == need_flags)
        return s;
    return nullptr;
  }

  // File bytes backing [vaddr, vaddr + size), inside one segment's file part.
  std::optional<Bytes> bytes_at(uint64_t vaddr, uint64_t size) const {
    for (const ElfSegment* s : loads_)
      if (vaddr >= s->vaddr && vaddr - s->vaddr <= s->filesz &&
          s->filesz - (vaddr - s->vaddr) >= size)
        return codeobj::sub_span(elf_.bytes, s->offset + (vaddr - s->vaddr), size);
    return std::nullopt;
  }

  Result<Bytes> table(uint64_t vaddr, uint64_t size, const char* what) const {
    auto b = bytes_at(vaddr, size);
    if (!b)
      return invalid(fmt::format("{} at {:#x} ({} bytes) lies outside the file's loadable segments",
                                 what, vaddr, size));
    return *b;
  }

  Status check_segments() {
    for (const ElfSegment& s : elf_.segments) {
      if (s.type != codeobj::kSegmentLoad) continue;
      if (s.filesz > s.memsz)
        return invalid(fmt::format("segment at {:#x}: file size above memory size", s.vaddr));
      if (s.vaddr > kMaxSpan || s.memsz > kMaxSpan - s.vaddr)
        return invalid(
            fmt::format("segment at {:#x} ({} bytes) spans more than 4 GiB", s.vaddr, s.memsz));
      if (s.align > 1 && ((s.align & (s.align - 1)) || s.offset % s.align != s.vaddr % s.align))
        return invalid(fmt::format("segment at {:#x}: bad alignment {}", s.vaddr, s.align));
      if (!loads_.empty() && s.vaddr < loads_.back()->vaddr + loads_.back()->memsz)
        return invalid(
            fmt::format("segment at {:#x} overlaps or precedes the one before", s.vaddr));
      loads_.push_back(&s);
    }
    if (loads_.empty()) return invalid("no loadable segment");
    out_.span = loads_.back()->vaddr + loads_.back()->memsz;
    bool dynamic = false;
    for (const ElfSegment& s : elf_.segments) {
      switch (s.type) {
        case kPtDynamic:
          // ld.so adjusts the dynamic entries in place: they must be writable.
          if (!segment_of(s.vaddr, s.filesz, kPfW) || !bytes_at(s.vaddr, s.filesz) || s.filesz % 16)
            return invalid("the dynamic section is not inside a writable loadable segment");
          dynamic = true;
          break;
        case kPtTls:
          if (s.filesz > s.memsz || s.memsz > kMaxTls || (s.align & (s.align - 1)) ||
              !bytes_at(s.vaddr, s.filesz))
            return invalid("bad TLS segment");
          break;
        case kPtGnuRelro:
          if (!segment_of(s.vaddr, s.memsz))
            return invalid("RELRO range outside the loadable segments");
          break;
        case kPtNote:
        case kPtGnuProperty:
        case kPtGnuEhFrame:
          if (!bytes_at(s.vaddr, s.filesz))
            return invalid(fmt::format("segment type {:#x} outside the file", s.type));
          break;
        default: break;
      }
    }
    if (!dynamic) return invalid("no dynamic section");
    return Status();
  }

  // A NUL-terminated name in the dynamic string table.
  Status check_string(uint64_t offset, const char* what) const {
    if (offset >= strtab_.size())
      return invalid(fmt::format("{}: string offset {} beyond the string table", what, offset));
    auto rest = codeobj::as_text(strtab_.subspan(offset));
    if (rest.find('\0') == std::string_view::npos)
      return invalid(fmt::format("{}: unterminated string", what));
    return Status();
  }

  Status check_dynamic() {
    const ElfSegment* dyn = nullptr;
    for (const ElfSegment& s : elf_.segments)
      if (s.type == kPtDynamic) dyn = &s;
    Bytes d = *bytes_at(dyn->vaddr, dyn->filesz);
    std::unordered_map<uint64_t, uint64_t> tags;
    std::vector<std::pair<uint64_t, uint64_t>> strings;  // (tag, offset) of names ld.so reads
    bool terminated = false;
    for (uint64_t at = 0; at + 16 <= d.size(); at += 16) {
      uint64_t tag = *read_le<uint64_t>(d, at), value = *read_le<uint64_t>(d, at + 8);
      if (tag == kDtNull) {
        terminated = true;
        break;
      }
      if (tag == kDtNeeded || tag == kDtSoname || tag == kDtRpath || tag == kDtRunpath ||
          tag == kDtAudit || tag == kDtDepAudit || tag == kDtAuxiliary || tag == kDtFilter)
        strings.emplace_back(tag, value);
      else tags[tag] = value;
    }
    if (!terminated) return invalid("the dynamic section has no DT_NULL");
    auto has = [&](uint64_t t) { return tags.count(t) != 0; };
    if (has(kDtTextRel) || (tags[kDtFlags] & kDfTextRel))
      return invalid("text relocations are not allowed");
    if (has(kDtPreinitArray)) return invalid("DT_PREINIT_ARRAY in a shared object");
    if (has(kDtRel)) return invalid("REL relocations on a RELA host");
    // ld.so reads the size entry of each table it finds without checking it exists,
    // and asserts on these values when present.
    for (auto [table_tag, size_tag, what] :
         {std::tuple{kDtInitArray, kDtInitArraySz, "DT_INIT_ARRAY"},
          {kDtFiniArray, kDtFiniArraySz, "DT_FINI_ARRAY"},
          {kDtRela, kDtRelaSz, "DT_RELA"},
          {kDtJmpRel, kDtPltRelSz, "DT_JMPREL"},
          {kDtRelr, kDtRelrSz, "DT_RELR"},
          {kDtStrTab, kDtStrSz, "DT_STRTAB"},
          {kDtVerneed, kDtVerneedNum, "DT_VERNEED"},
          {kDtVerdef, kDtVerdefNum, "DT_VERDEF"}})
      if (has(table_tag) != has(size_tag))
        return invalid(fmt::format("{} without its size entry (or the reverse)", what));
    if (has(kDtPltRel) && tags[kDtPltRel] != kDtRela) return invalid("DT_PLTREL is not DT_RELA");
    if (has(kDtRelaEnt) && tags[kDtRelaEnt] != 24) return invalid("RELA entry size is not 24");
    if (has(kDtRelrEnt) && tags[kDtRelrEnt] != 8) return invalid("RELR entry size is not 8");
    if (!has(kDtStrTab) || !has(kDtSymTab)) return invalid("no dynamic string or symbol table");
    WEFT_ASSIGN_OR_RETURN(strtab_, table(tags[kDtStrTab], tags[kDtStrSz], "dynamic string table"));
    for (auto [tag, offset] : strings) WEFT_RETURN_IF_ERROR(check_string(offset, "dynamic entry"));
    if (has(kDtSymEnt) && tags[kDtSymEnt] != 24) return invalid("dynamic symbol size is not 24");
    WEFT_RETURN_IF_ERROR(check_symbols(tags[kDtSymTab]));
    if (has(kDtGnuHash)) WEFT_RETURN_IF_ERROR(check_gnu_hash(tags[kDtGnuHash]));
    if (has(kDtHash)) WEFT_RETURN_IF_ERROR(check_sysv_hash(tags[kDtHash]));
    if (!has(kDtGnuHash) && !has(kDtHash)) return invalid("no symbol hash table");
    WEFT_RETURN_IF_ERROR(check_versions(tags));
    if (has(kDtRela)) {
      if (has(kDtRelaEnt) && tags[kDtRelaEnt] != 24) return invalid("RELA entry size is not 24");
      WEFT_RETURN_IF_ERROR(read_rela(tags[kDtRela], tags[kDtRelaSz], "DT_RELA"));
    }
    if (has(kDtJmpRel)) {
      if (tags[kDtPltRel] != kDtRela) return invalid("PLT relocations are not RELA");
      WEFT_RETURN_IF_ERROR(read_rela(tags[kDtJmpRel], tags[kDtPltRelSz], "DT_JMPREL"));
    }
    if (has(kDtRelr)) {
      if (has(kDtRelrEnt) && tags[kDtRelrEnt] != 8) return invalid("RELR entry size is not 8");
      WEFT_RETURN_IF_ERROR(read_relr(tags[kDtRelr], tags[kDtRelrSz]));
    }
    for (uint64_t t : {kDtInit, kDtFini})
      if (has(t) && !segment_of(tags[t], 1, kPfX))
        return invalid(
            fmt::format("DT_INIT/DT_FINI {:#x} is not in an executable segment", tags[t]));
    WEFT_RETURN_IF_ERROR(check_function_array(tags, kDtInitArray, kDtInitArraySz, "DT_INIT_ARRAY"));
    WEFT_RETURN_IF_ERROR(check_function_array(tags, kDtFiniArray, kDtFiniArraySz, "DT_FINI_ARRAY"));
    return Status();
  }

  Status check_symbols(uint64_t vaddr) {
    // The count comes from the section table (ld.so infers it from the hash
    // tables, which are checked against it next).
    const codeobj::ElfSection* dynsym = nullptr;
    for (const auto& s : elf_.sections)
      if (s.type == codeobj::kSectionDynsym) dynsym = &s;
    if (!dynsym || dynsym->addr != vaddr)
      return invalid("the .dynsym section does not match DT_SYMTAB");
    nsyms_ = dynsym->size / 24;
    symtab_ = vaddr;
    WEFT_ASSIGN_OR_RETURN(Bytes syms, table(vaddr, nsyms_ * 24, "dynamic symbol table"));
    for (uint64_t i = 0; i < nsyms_; ++i) {
      WEFT_RETURN_IF_ERROR(check_string(*read_le<uint32_t>(syms, i * 24), "dynamic symbol name"));
      uint8_t type = *read_le<uint8_t>(syms, i * 24 + 4) & 0xf;
      uint16_t shndx = *read_le<uint16_t>(syms, i * 24 + 6);
      uint64_t value = *read_le<uint64_t>(syms, i * 24 + 8);
      if (type == 10 && shndx != 0 && !segment_of(value, 1, kPfX))  // STT_GNU_IFUNC: ld.so calls it
        return invalid(fmt::format("ifunc symbol {} does not point into code", i));
    }
    return Status();
  }

  Status check_gnu_hash(uint64_t vaddr) {
    WEFT_ASSIGN_OR_RETURN(Bytes h, table(vaddr, 16, "GNU hash table"));
    uint32_t nbuckets = *read_le<uint32_t>(h, 0), symoffset = *read_le<uint32_t>(h, 4);
    uint32_t bloom = *read_le<uint32_t>(h, 8);
    if (nbuckets == 0 || bloom == 0 || (bloom & (bloom - 1)) || symoffset > nsyms_)
      return invalid("bad GNU hash table header");
    uint64_t size = 16 + 8ull * bloom + 4ull * nbuckets + 4 * (nsyms_ - symoffset);
    WEFT_ASSIGN_OR_RETURN(h, table(vaddr, size, "GNU hash table"));
    uint64_t buckets = 16 + 8ull * bloom, chains = buckets + 4ull * nbuckets;
    for (uint32_t b = 0; b < nbuckets; ++b) {
      uint32_t i = *read_le<uint32_t>(h, buckets + 4ull * b);
      if (i == 0) continue;
      if (i < symoffset) return invalid("GNU hash bucket below the hashed symbols");
      for (;; ++i) {  // a chain ends at an entry with its low bit set, inside the table
        if (i >= nsyms_) return invalid("GNU hash chain runs past the symbol table");
        if (*read_le<uint32_t>(h, chains + 4ull * (i - symoffset)) & 1) break;
      }
    }
    return Status();
  }

  Status check_sysv_hash(uint64_t vaddr) {
    WEFT_ASSIGN_OR_RETURN(Bytes h, table(vaddr, 8, "hash table"));
    uint32_t nbucket = *read_le<uint32_t>(h, 0), nchain = *read_le<uint32_t>(h, 4);
    if (nbucket == 0 || nchain > nsyms_) return invalid("bad hash table header");
    WEFT_ASSIGN_OR_RETURN(h, table(vaddr, 8 + 4ull * (uint64_t(nbucket) + nchain), "hash table"));
    std::vector<bool> seen(
        nchain);  // chains are disjoint: a revisit is a cycle ld.so would spin in
    for (uint32_t b = 0; b < nbucket; ++b)
      for (uint32_t i = *read_le<uint32_t>(h, 8 + 4ull * b); i != 0;
           i = *read_le<uint32_t>(h, 8 + 4ull * (nbucket + i))) {
        if (i >= nchain || seen[i]) return invalid("hash chain leaves the table or loops");
        seen[i] = true;
      }
    return Status();
  }

  Status check_versions(std::unordered_map<uint64_t, uint64_t>& tags) {
    uint32_t highest = 1;  // version indices 0 and 1 are local and global
    if (tags.count(kDtVerneed)) {
      uint64_t at = tags[kDtVerneed];
      for (uint32_t n = 0;; ++n) {
        if (n >= kMaxChain) return invalid("too many version needs");
        WEFT_ASSIGN_OR_RETURN(Bytes vn, table(at, 16, "version need"));
        WEFT_RETURN_IF_ERROR(check_string(*read_le<uint32_t>(vn, 4), "version need file"));
        uint64_t aux = at + *read_le<uint32_t>(vn, 8);
        for (uint32_t k = 0;; ++k) {
          if (k >= kMaxChain) return invalid("too many version need entries");
          WEFT_ASSIGN_OR_RETURN(Bytes va, table(aux, 16, "version need entry"));
          WEFT_RETURN_IF_ERROR(check_string(*read_le<uint32_t>(va, 8), "version need name"));
          highest = std::max<uint32_t>(highest, *read_le<uint16_t>(va, 6) & 0x7fff);
          uint32_t next = *read_le<uint32_t>(va, 12);
          if (next == 0) break;
          aux += next;
        }
        uint32_t next = *read_le<uint32_t>(vn, 12);
        if (next == 0) break;
        at += next;
      }
    }
    if (tags.count(kDtVerdef)) {
      uint64_t at = tags[kDtVerdef];
      for (uint32_t n = 0;; ++n) {
        if (n >= kMaxChain) return invalid("too many version definitions");
        WEFT_ASSIGN_OR_RETURN(Bytes vd, table(at, 20, "version definition"));
        highest = std::max<uint32_t>(highest, *read_le<uint16_t>(vd, 4) & 0x7fff);
        uint16_t count = *read_le<uint16_t>(vd, 6);
        uint64_t aux = at + *read_le<uint32_t>(vd, 12);
        for (uint16_t k = 0; k < count; ++k) {
          WEFT_ASSIGN_OR_RETURN(Bytes va, table(aux, 8, "version definition entry"));
          WEFT_RETURN_IF_ERROR(check_string(*read_le<uint32_t>(va, 0), "version definition name"));
          aux += *read_le<uint32_t>(va, 4);
        }
        uint32_t next = *read_le<uint32_t>(vd, 16);
        if (next == 0) break;
        at += next;
      }
    }
    if (tags.count(kDtVersym)) {
      // ld.so indexes its version array with these without a bound.
      if (!tags.count(kDtVerneed) && !tags.count(kDtVerdef))
        return invalid("symbol versions without definitions");
      WEFT_ASSIGN_OR_RETURN(Bytes vs, table(tags[kDtVersym], 2 * nsyms_, "symbol version table"));
      for (uint64_t i = 0; i < nsyms_; ++i)
        if ((*read_le<uint16_t>(vs, 2 * i) & 0x7fff) > highest)
          return invalid(fmt::format("symbol {} has version index {} (highest defined: {})", i,
                                     *read_le<uint16_t>(vs, 2 * i) & 0x7fff, highest));
    }
    return Status();
  }

  Status read_rela(uint64_t vaddr, uint64_t size, const char* what) {
    if (size % 24) return invalid(fmt::format("{} size {} is not a multiple of 24", what, size));
    WEFT_ASSIGN_OR_RETURN(Bytes r, table(vaddr, size, what));
    for (uint64_t at = 0; at < size; at += 24) {
      uint64_t offset = *read_le<uint64_t>(r, at), info = *read_le<uint64_t>(r, at + 8);
      Reloc rel{uint32_t(info), uint32_t(info >> 32), *read_le<int64_t>(r, at + 16)};
      if (rel.type == kReloc.none) continue;
      bool known = rel.type == kReloc.absolute || rel.type == kReloc.glob_dat ||
                   rel.type == kReloc.jump_slot || rel.type == kReloc.relative ||
                   rel.type == kReloc.ifunc;
      for (uint32_t t : kReloc.tls) known = known || (t && rel.type == t);
      if (!known)
        return invalid(fmt::format("{}: relocation type {} is not allowed", what, rel.type));
      if (!segment_of(offset, 16 * (rel.type == kReloc.tls[3]) + 8 * (rel.type != kReloc.tls[3]),
                      kPfW))
        return invalid(
            fmt::format("{}: relocation at {:#x} is outside the writable segments", what, offset));
      if (rel.sym >= nsyms_)
        return invalid(fmt::format("{}: relocation symbol {} out of range", what, rel.sym));
      if (rel.type == kReloc.ifunc && !segment_of(uint64_t(rel.addend), 1, kPfX))
        return invalid(fmt::format("{}: ifunc resolver {:#x} is not in code", what, rel.addend));
      relocs_[offset] = rel;
    }
    return Status();
  }

  Status read_relr(uint64_t vaddr, uint64_t size) {
    if (size % 8) return invalid("DT_RELR size is not a multiple of 8");
    WEFT_ASSIGN_OR_RETURN(Bytes r, table(vaddr, size, "DT_RELR"));
    uint64_t next = 0;
    bool have = false;
    for (uint64_t at = 0; at < size; at += 8) {
      uint64_t word = *read_le<uint64_t>(r, at);
      if ((word & 1) == 0) {
        relr_.push_back(word);
        next = word + 8;
        have = true;
        continue;
      }
      if (!have) return invalid("DT_RELR bitmap before any address");
      for (uint64_t bit = 1; bit < 64; ++bit)
        if (word >> bit & 1) relr_.push_back(next + 8 * (bit - 1));
      next += 63 * 8;
    }
    for (uint64_t a : relr_)
      if (!segment_of(a, 8, kPfW))
        return invalid(
            fmt::format("DT_RELR relocation at {:#x} is outside the writable segments", a));
    std::sort(relr_.begin(), relr_.end());
    return Status();
  }

  // The value of the pointer-sized field at `vaddr` after relocation.
  Result<Pointer> pointer_at(uint64_t vaddr, const char* what) const {
    WEFT_ASSIGN_OR_RETURN(Bytes raw, table(vaddr, 8, what));
    uint64_t stored = *read_le<uint64_t>(raw, 0);
    if (auto it = relocs_.find(vaddr); it != relocs_.end()) {
      const Reloc& r = it->second;
      if (r.type == kReloc.relative) return Pointer{Pointer::kInObject, uint64_t(r.addend), false};
      if (r.type == kReloc.absolute || r.type == kReloc.glob_dat) {
        if (r.sym == 0) return Pointer{Pointer::kElsewhere, 0, true};
        WEFT_ASSIGN_OR_RETURN(Bytes sym, table(symtab_ + 24ull * r.sym, 24, "dynamic symbol"));
        if (*read_le<uint16_t>(sym, 6) == 0)
          return Pointer{Pointer::kElsewhere, 0, true};  // undefined here
        return Pointer{Pointer::kInObject, *read_le<uint64_t>(sym, 8) + uint64_t(r.addend), true};
      }
      return invalid(fmt::format("{} at {:#x} has relocation type {}", what, vaddr, r.type));
    }
    if (std::binary_search(relr_.begin(), relr_.end(), vaddr))
      return Pointer{Pointer::kInObject, stored, false};
    if (stored == 0) return Pointer{};
    return invalid(fmt::format("{} at {:#x} holds an address but has no relocation", what, vaddr));
  }

  Status check_function_array(std::unordered_map<uint64_t, uint64_t>& tags, uint64_t tag,
                              uint64_t size_tag, const char* what) {
    if (!tags.count(tag)) return Status();
    uint64_t size = tags[size_tag];
    if (size % 8 || !segment_of(tags[tag], size, kPfW))
      return invalid(fmt::format("{} is out of range", what));
    for (uint64_t at = 0; at < size; at += 8) {
      WEFT_ASSIGN_OR_RETURN(Pointer p, pointer_at(tags[tag] + at, what));
      if (p.kind == Pointer::kInObject && !segment_of(p.vaddr, 1, kPfX))
        return invalid(fmt::format("{} entry {} ({:#x}) is not in an executable segment", what,
                                   at / 8, p.vaddr));
    }
    return Status();
  }

  Status check_kernel_table() {
    const codeobj::ElfSymbol* sym = nullptr;
    for (const auto& s : elf_.symbols)
      if (s.dynamic && s.section != 0 && s.name == WEFT_CPU_CODE_OBJECT_SYMBOL) sym = &s;
    if (!sym)
      return invalid("no exported weft_cpu_code_object table (built with cpu_code_object.h?)");
    if (sym->size < sizeof(weftCpuCodeObject)) return invalid("weft_cpu_code_object is too small");
    WEFT_ASSIGN_OR_RETURN(Bytes t,
                          table(sym->value, sizeof(weftCpuCodeObject), "weft_cpu_code_object"));
    if (*read_le<uint32_t>(t, offsetof(weftCpuCodeObject, magic)) != WEFT_CPU_CODE_OBJECT_MAGIC)
      return invalid("bad magic in weft_cpu_code_object");
    uint32_t version = *read_le<uint32_t>(t, offsetof(weftCpuCodeObject, version));
    if (version != WEFT_CPU_CODE_OBJECT_VERSION)
      return invalid(fmt::format("format version {} is not supported (this weft reads {})", version,
                                 WEFT_CPU_CODE_OBJECT_VERSION));
    uint32_t abi = *read_le<uint32_t>(t, offsetof(weftCpuCodeObject, kernel_abi_version));
    if (abi != WEFT_KERNEL_ABI_VERSION)
      return invalid(fmt::format(
          "built for kernel ABI {}; this weft runs {}: rebuild it against this weft's headers", abi,
          WEFT_KERNEL_ABI_VERSION));
    if (*read_le<uint32_t>(t, offsetof(weftCpuCodeObject, record_size)) !=
        sizeof(weftCpuKernelRecord))
      return invalid("bad kernel record size");
    WEFT_ASSIGN_OR_RETURN(
        Pointer begin, pointer_at(sym->value + offsetof(weftCpuCodeObject, begin), "table begin"));
    WEFT_ASSIGN_OR_RETURN(Pointer end,
                          pointer_at(sym->value + offsetof(weftCpuCodeObject, end), "table end"));
    if (begin.kind == Pointer::kNull && end.kind == Pointer::kNull) return Status();  // no kernels
    if (begin.kind != Pointer::kInObject || end.kind != Pointer::kInObject || begin.by_symbol ||
        end.by_symbol || end.vaddr < begin.vaddr ||
        (end.vaddr - begin.vaddr) % sizeof(weftCpuKernelRecord) ||
        (end.vaddr - begin.vaddr) / sizeof(weftCpuKernelRecord) > kMaxKernels)
      return invalid("bad kernel table bounds");
    out_.record_count = (end.vaddr - begin.vaddr) / sizeof(weftCpuKernelRecord);
    out_.records = begin.vaddr;
    // The records are written by the object's constructors (or relocated): the
    // loaded copy is read, so it must lie in a writable, readable segment.
    if (!segment_of(begin.vaddr, end.vaddr - begin.vaddr, kPfW | kPfR))
      return invalid("the kernel table is outside the writable segments");
    for (const ElfSegment* s : loads_) out_.segments.push_back({s->vaddr, s->memsz, s->flags});
    return Status();
  }

  Status check_globals() {
    for (const codeobj::ElfSymbol& s : elf_.symbols) {
      if (s.section == 0 || s.section >= 0xff00 || s.type != 1 || s.name.empty())
        continue;  // defined data
      if (!segment_of(s.value, s.size))
        return invalid(fmt::format("global {} ({} bytes at {:#x}) lies outside the segments",
                                   s.name, s.size, s.value));
      out_.globals.push_back({std::string(s.name), s.value, s.size});
    }
    return Status();
  }
};

}  // namespace

Result<CheckedObject> check_cpu_object(const ElfFile& elf) { return Checker(elf).run(); }

namespace {

// [base + vaddr, + size) inside one of the object's mapped segments with `flags`.
bool in_segments(const CheckedObject& o, uintptr_t base, uintptr_t address, uint64_t size,
                 uint32_t flags) {
  if (address < base) return false;
  uint64_t vaddr = address - base;
  for (const auto& s : o.segments)
    if (vaddr >= s.vaddr && vaddr - s.vaddr <= s.memsz && s.memsz - (vaddr - s.vaddr) >= size &&
        (s.flags & flags) == flags)
      return true;
  return false;
}

// Inside this object's segments, or inside another loaded object: a vague-linkage
// symbol (the argument layouts are inline variables, STB_GNU_UNIQUE) binds to the
// first copy loaded, so a second load of the same object points into the first.
bool located(const CheckedObject& o, uintptr_t base, uintptr_t address, uint64_t size) {
  Dl_info where{};
  return address && (in_segments(o, base, address, size, kPfR) ||
                     dladdr(reinterpret_cast<void*>(address), &where));
}

Result<std::string> loaded_name(const CheckedObject& o, uintptr_t base, const char* name,
                                size_t index) {
  auto at = reinterpret_cast<uintptr_t>(name);
  if (!located(o, base, at, 1))
    return invalid(
        fmt::format("kernel record {}: name pointer {:#x} is outside the object", index, at));
  // Copied without faulting, a byte at a time up to the cap, never past unreadable memory.
  std::string out;
  for (uint64_t n = 0; n < kMaxName; ++n) {
    char c;
    if (!codeobj::safe_copy(name + n, &c, 1))
      return invalid(fmt::format("kernel record {}: name runs into unreadable memory", index));
    if (c == '\0') {
      if (n == 0) return invalid(fmt::format("kernel record {}: empty name", index));
      return out;
    }
    out += c;
  }
  return invalid(fmt::format("kernel record {}: name longer than {} bytes", index, kMaxName));
}

}  // namespace

Result<std::vector<CheckedKernel>> check_loaded_records(const CheckedObject& o, uintptr_t base) {
  std::vector<CheckedKernel> out;
  const auto* records = reinterpret_cast<const weftCpuKernelRecord*>(base + o.records);
  for (uint64_t i = 0; i < o.record_count; ++i) {
    const weftCpuKernelRecord& r = records[i];  // inside a writable segment (checked before dlopen)
    CheckedKernel k;
    WEFT_ASSIGN_OR_RETURN(k.written_name, loaded_name(o, base, r.name, i));
    std::string who = fmt::format("kernel record {} ({})", i, k.written_name);
    auto entry = reinterpret_cast<uintptr_t>(r.entry);
    Dl_info where{};
    // An entry elsewhere is accepted only where it starts a symbol of some
    // loaded object (a kernel interposed by the program).
    if (!in_segments(o, base, entry, 1, kPfX) &&
        !(entry && dladdr(reinterpret_cast<void*>(entry), &where) &&
          uintptr_t(where.dli_saddr) == entry))
      return invalid(who + ": the entry is not in the object's code");
    k.entry = r.entry;
    KernelInfo& info = k.info;
    info.kernarg_size = r.kernarg_size;
    info.kernarg_align = r.kernarg_align;
    info.static_shared_bytes = r.static_shared_bytes;
    info.max_threads_per_block = r.max_threads_per_block;
    if (r.kernarg_align == 0 || (r.kernarg_align & (r.kernarg_align - 1)))
      return invalid(who + ": bad kernarg alignment");
    auto args = reinterpret_cast<uintptr_t>(r.args);
    std::vector<weftCpuKernelArg> arg_table(r.arg_count <= kMaxArgs ? r.arg_count : 0);
    if (r.arg_count > kMaxArgs ||
        (r.arg_count && (!located(o, base, args, 1) ||
                         !codeobj::safe_copy(r.args, arg_table.data(),
                                             arg_table.size() * sizeof(weftCpuKernelArg)))))
      return invalid(who + ": bad argument table");
    for (uint32_t n = 0; n < r.arg_count; ++n) {
      if (uint64_t(arg_table[n].offset) + arg_table[n].size > r.kernarg_size)
        return invalid(fmt::format("{}: argument {} lies outside its kernarg", who, n));
      info.args.push_back({arg_table[n].offset, arg_table[n].size});
    }
    k.function_vaddr =
        reinterpret_cast<uintptr_t>(r.function) - base;  // only looked up, never followed
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace weft::cpu
