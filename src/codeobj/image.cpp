// SPDX-License-Identifier: MIT
#include <weft/codeobj/image.hpp>

#include <weft/codeobj/bundle.hpp>
#include <weft/codeobj/elf.hpp>
#include <weft/codeobj/target_id.hpp>

#include <algorithm>
#include <cstring>

namespace weft::codeobj {
namespace {

constexpr uint16_t kElfMachineCuda = 190;
constexpr uint32_t kNvidiaFatbinMagic = 0xBA55ED50;

bool is_nvidia_fatbin(Bytes b) { return read_le<uint32_t>(b, 0) == kNvidiaFatbinMagic; }

// PTX is text: comments or directives first.
bool is_ptx_text(Bytes b) {
  std::string_view t = as_text(b.first(std::min<size_t>(b.size(), 256)));
  size_t start = t.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return false;
  t.remove_prefix(start);
  return t.substr(0, 2) == "//" || t.substr(0, 8) == ".version" || t.substr(0, 7) == ".target";
}

Status add_bundle_entries(Bytes bytes, std::vector<CodeObjectCandidate>& out) {
  WEFT_ASSIGN_OR_RETURN(Bundle bundle, parse_bundle(bytes));
  for (const BundleEntry& e : bundle.entries) {
    BundleEntryId id = parse_entry_id(e.id);
    if (!is_hip_code_object_kind(id.kind) || e.size == 0) continue;
    CodeObjectCandidate c{std::string(id.target), std::string(e.id), e.data};
    if (c.target.empty()) {
      // Pre-v4 entries ("hip-…", "hcc-…") name no target: the ELF says it.
      auto target = elf_target(e.data);
      if (!target.ok()) continue;
      c.target = target.value();
    }
    out.push_back(std::move(c));
  }
  return Status();
}

constexpr uint64_t kMaxImage = 1ull << 32;

Result<size_t> elf_extent(const std::byte* data) {
  Bytes header(data, 64);
  uint64_t phoff = *read_le<uint64_t>(header, 32), shoff = *read_le<uint64_t>(header, 40);
  uint64_t phnum = *read_le<uint16_t>(header, 56), shnum = *read_le<uint16_t>(header, 60);
  uint64_t phentsize = *read_le<uint16_t>(header, 54), shentsize = *read_le<uint16_t>(header, 58);
  if ((phnum && phentsize != 56) || (shnum && shentsize != 64)) return invalid_image("ELF: bad header sizes");
  if (phoff > kMaxImage || shoff > kMaxImage) return invalid_image("ELF: header tables beyond 4 GiB");
  uint64_t end = std::max<uint64_t>({64, phoff + phnum * 56, shoff + shnum * 64});
  Bytes phdrs(data + phoff, phnum * 56), shdrs(data + shoff, shnum * 64);
  for (uint64_t i = 0; i < phnum; ++i)
    end = std::max(end, *read_le<uint64_t>(phdrs, i * 56 + 8) + *read_le<uint64_t>(phdrs, i * 56 + 32));
  for (uint64_t i = 0; i < shnum; ++i)
    if (*read_le<uint32_t>(shdrs, i * 64 + 4) != kSectionNoBits)
      end = std::max(end, *read_le<uint64_t>(shdrs, i * 64 + 24) + *read_le<uint64_t>(shdrs, i * 64 + 32));
  if (end > kMaxImage) return invalid_image("ELF: image larger than 4 GiB");
  return static_cast<size_t>(end);
}

Result<size_t> bundle_extent(const std::byte* data) {
  uint64_t count = *read_le<uint64_t>(Bytes(data, 32), 24);
  if (count > (1u << 16)) return invalid_image("offload bundle: too many entries");
  uint64_t at = 32, end = 32;
  for (uint64_t i = 0; i < count; ++i) {
    Bytes entry(data + at, 24);
    uint64_t offset = *read_le<uint64_t>(entry, 0), size = *read_le<uint64_t>(entry, 8);
    uint64_t id = *read_le<uint64_t>(entry, 16);
    if (offset > kMaxImage || size > kMaxImage || id > 4096) return invalid_image("offload bundle: bad entry");
    at += 24 + id;
    end = std::max({end, at, offset + size});
  }
  return static_cast<size_t>(end);
}

}  // namespace

Result<size_t> image_extent(const std::byte* data) {
  if (!data) return invalid_image("null image");
  Bytes magic(data, 4);
  if (is_elf(magic)) return elf_extent(data);
  if (is_compressed_bundle(magic)) {
    uint16_t version = *read_le<uint16_t>(Bytes(data, 8), 4);
    if (version == 2) return static_cast<size_t>(*read_le<uint32_t>(Bytes(data, 12), 8));
    if (version == 3) {
      uint64_t total = *read_le<uint64_t>(Bytes(data, 16), 8);
      if (total > kMaxImage) return invalid_image("compressed bundle larger than 4 GiB");
      return static_cast<size_t>(total);
    }
    return invalid_image(text_of("compressed bundle version ", version,
                                 " records no size: load it from a file (hipModuleLoad)"));
  }
  if (starts_with(Bytes(data, 4), "__CL") && starts_with(Bytes(data, kBundleMagic.size()), kBundleMagic))
    return bundle_extent(data);
  if (is_nvidia_fatbin(magic)) {  // u32 magic, u16 version, u16 header size, u64 payload size
    Bytes header(data, 16);
    uint64_t total = uint64_t(*read_le<uint16_t>(header, 6)) + *read_le<uint64_t>(header, 8);
    if (total > kMaxImage) return invalid_image("NVIDIA fat binary larger than 4 GiB");
    return static_cast<size_t>(total);
  }
  if (magic[0] == std::byte{'/'} || magic[0] == std::byte{'.'} || magic[0] == std::byte{' '} ||
      magic[0] == std::byte{'\t'} || magic[0] == std::byte{'\n'}) {
    size_t n = strnlen(reinterpret_cast<const char*>(data), kMaxImage);
    if (is_ptx_text(Bytes(data, n))) return n + 1;  // PTX text and its NUL
  }
  return invalid_image("image is neither an ELF code object nor a clang offload bundle");
}

ImageKind classify_image(Bytes bytes) {
  if (is_elf(bytes)) return ImageKind::kElf;
  if (is_bundle(bytes)) return ImageKind::kBundle;
  if (is_compressed_bundle(bytes)) return ImageKind::kCompressedBundle;
  if (is_nvidia_fatbin(bytes) || is_ptx_text(bytes)) return ImageKind::kOpaque;
  return ImageKind::kUnknown;
}

Result<std::string> elf_target(Bytes bytes) {
  if (!is_elf(bytes) || bytes.size() < 64) return invalid_image("not an ELF code object");
  if (static_cast<uint8_t>(bytes[4]) != 2 || static_cast<uint8_t>(bytes[5]) != 1)
    return invalid_image("ELF code object is not 64-bit little-endian");
  uint16_t machine = *read_le<uint16_t>(bytes, 18);
  uint32_t flags = *read_le<uint32_t>(bytes, 48);
  switch (machine) {
    case kElfMachineX86_64: return std::string("x86_64");
    case kElfMachineAarch64: return std::string("aarch64");
    case kElfMachineAmdgpu: return amdgpu_target_from_flags(flags, static_cast<uint8_t>(bytes[8]));
    default: return invalid_image(text_of("ELF code object for unsupported machine ", machine));
  }
}

Result<OpenedImage> OpenedImage::open(Bytes bytes, uint64_t max_decompressed) {
  OpenedImage image;
  image.kind_ = classify_image(bytes);
  switch (image.kind_) {
    case ImageKind::kElf: {
      if (bytes.size() >= 20 && *read_le<uint16_t>(bytes, 18) == kElfMachineCuda) {
        // A cubin: its e_flags encoding of the SM varies with the CUDA version,
        // so the NVIDIA driver decides.
        image.candidates_.push_back({std::string(), std::string(), bytes, true});
        return image;
      }
      WEFT_ASSIGN_OR_RETURN(std::string target, elf_target(bytes));
      image.candidates_.push_back({std::move(target), std::string(), bytes, false});
      return image;
    }
    case ImageKind::kOpaque:
      image.candidates_.push_back({std::string(), std::string(), bytes, true});
      return image;
    case ImageKind::kBundle:
      WEFT_RETURN_IF_ERROR(add_bundle_entries(bytes, image.candidates_));
      return image;
    case ImageKind::kCompressedBundle: {
      WEFT_ASSIGN_OR_RETURN(image.storage_, decompress_bundle(bytes, max_decompressed));
      WEFT_RETURN_IF_ERROR(add_bundle_entries(image.storage_, image.candidates_));
      return image;
    }
    default:
      return invalid_image("image is neither an ELF code object nor a clang offload bundle");
  }
}

const CodeObjectCandidate* OpenedImage::select(std::string_view device_target) const {
  for (const auto& c : candidates_)
    if (c.any_target || is_compatible(c.target, device_target)) return &c;
  return nullptr;
}

std::string OpenedImage::targets_text() const {
  std::string out;
  for (const auto& c : candidates_)
    out += (out.empty() ? "" : ", ") + (c.any_target ? std::string("a code object for the driver to judge") : c.target);
  return out.empty() ? "none" : out;
}

}  // namespace weft::codeobj
