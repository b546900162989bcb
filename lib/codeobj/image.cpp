// SPDX-License-Identifier: MIT
#include <weft/codeobj/image.hpp>

#include <weft/codeobj/bundle.hpp>
#include <weft/codeobj/elf.hpp>
#include <weft/codeobj/npu_object.hpp>
#include <weft/codeobj/target_id.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

namespace weft::codeobj {
namespace {

constexpr uint16_t kElfMachineCuda = 190;
constexpr uint32_t kNvidiaFatbinMagic = 0xBA55ED50;

bool is_nvidia_fatbin(Bytes b) { return read_le<uint32_t>(b, 0) == kNvidiaFatbinMagic; }

// Whether an NVIDIA fat binary carries PTX. Layout: u32 magic, u16 version, u16
// header size, u64 payload size; then entries, each u16 kind (1 PTX, 2 ELF), u16
// version, u32 entry-header size, u64 payload size, the payload after the entry
// header. A truncated or looping walk answers false (the driver then judges the
// image by its cubins alone).
bool nvidia_fatbin_has_ptx(Bytes b) {
  auto header = read_le<uint16_t>(b, 6);
  auto payload = read_le<uint64_t>(b, 8);
  if (!header || !payload || *header > b.size() || *payload > b.size() - *header) return false;
  uint64_t at = *header, end = *header + *payload;
  for (int entries = 0; at < end && entries < 4096; ++entries) {
    auto kind = read_le<uint16_t>(b, at);
    auto entry_header = read_le<uint32_t>(b, at + 4);
    auto size = read_le<uint64_t>(b, at + 8);
    if (!kind || !entry_header || !size || *entry_header < 16 || *size > end) return false;
    if (*kind == 1) return true;
    at += *entry_header + *size;
  }
  return false;
}

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
    c.ptx_upward =
        id.arch == "nvptx64" &&
        (is_ptx_text(e.data) || (is_nvidia_fatbin(e.data) && nvidia_fatbin_has_ptx(e.data)));
    out.push_back(std::move(c));
  }
  return Status();
}

// A header field that claims more than the cap is refused before any arithmetic,
// so sums of a few such fields never overflow 64 bits.
constexpr uint64_t kMaxImage = kMaxImageSize;

// Reads `n` bytes at `offset` of the caller's image into `out`, or fails naming `what`.
Status read_into(const ImageReader& read, uint64_t offset, std::span<std::byte> out,
                 const char* what) {
  if (offset > kMaxImage || out.size() > kMaxImage - offset)
    return invalid_image(text_of(what, " lies beyond the ", kMaxImage >> 20, " MiB image limit"));
  if (!read(offset, out))
    return invalid_image(
        text_of(what, " (bytes ", offset, "..", offset + out.size(),
                ") is not readable memory: the image is truncated or its headers are corrupt"));
  return Status();
}

template <typename T>
Result<T> read_field(const ImageReader& read, uint64_t offset, const char* what) {
  std::byte raw[sizeof(T)];
  WEFT_RETURN_IF_ERROR(read_into(read, offset, raw, what));
  T value;
  std::memcpy(&value, raw, sizeof(T));
  return value;
}

// Every (offset, size) pair is checked against the cap before it is added.
Result<uint64_t> end_of(uint64_t offset, uint64_t size, const char* what) {
  if (offset > kMaxImage || size > kMaxImage - offset)
    return invalid_image(text_of(what, " ends beyond the ", kMaxImage >> 20,
                                 " MiB image limit (offset ", offset, ", size ", size, ")"));
  return offset + size;
}

Result<size_t> elf_extent(const ImageReader& read) {
  std::byte raw[64];
  WEFT_RETURN_IF_ERROR(read_into(read, 0, raw, "ELF header"));
  Bytes header(raw, 64);
  uint64_t phoff = *read_le<uint64_t>(header, 32), shoff = *read_le<uint64_t>(header, 40);
  uint64_t phnum = *read_le<uint16_t>(header, 56), shnum = *read_le<uint16_t>(header, 60);
  uint64_t phentsize = *read_le<uint16_t>(header, 54), shentsize = *read_le<uint16_t>(header, 58);
  if ((phnum && phentsize != 56) || (shnum && shentsize != 64))
    return invalid_image("ELF: bad header sizes");
  WEFT_ASSIGN_OR_RETURN(uint64_t ph_end, end_of(phoff, phnum * 56, "ELF program header table"));
  WEFT_ASSIGN_OR_RETURN(uint64_t sh_end, end_of(shoff, shnum * 64, "ELF section header table"));
  uint64_t end = std::max<uint64_t>({64, ph_end, sh_end});
  std::vector<std::byte> phdrs(phnum * 56), shdrs(shnum * 64);
  WEFT_RETURN_IF_ERROR(read_into(read, phoff, phdrs, "ELF program header table"));
  WEFT_RETURN_IF_ERROR(read_into(read, shoff, shdrs, "ELF section header table"));
  for (uint64_t i = 0; i < phnum; ++i) {
    WEFT_ASSIGN_OR_RETURN(uint64_t e,
                          end_of(*read_le<uint64_t>(Bytes(phdrs), i * 56 + 8),
                                 *read_le<uint64_t>(Bytes(phdrs), i * 56 + 32), "ELF segment"));
    end = std::max(end, e);
  }
  for (uint64_t i = 0; i < shnum; ++i) {
    if (*read_le<uint32_t>(Bytes(shdrs), i * 64 + 4) == kSectionNoBits) continue;
    WEFT_ASSIGN_OR_RETURN(uint64_t e,
                          end_of(*read_le<uint64_t>(Bytes(shdrs), i * 64 + 24),
                                 *read_le<uint64_t>(Bytes(shdrs), i * 64 + 32), "ELF section"));
    end = std::max(end, e);
  }
  return static_cast<size_t>(end);
}

Result<size_t> bundle_extent(const ImageReader& read) {
  WEFT_ASSIGN_OR_RETURN(uint64_t count, read_field<uint64_t>(read, 24, "offload bundle header"));
  if (count > (1u << 16))
    return invalid_image(text_of("offload bundle: ", count, " entries (at most 65536)"));
  uint64_t at = 32, end = 32;
  for (uint64_t i = 0; i < count; ++i) {
    std::byte raw[24];
    WEFT_RETURN_IF_ERROR(read_into(read, at, raw, "offload bundle entry header"));
    Bytes entry(raw, 24);
    uint64_t offset = *read_le<uint64_t>(entry, 0), size = *read_le<uint64_t>(entry, 8);
    uint64_t id = *read_le<uint64_t>(entry, 16);
    if (id > 4096)
      return invalid_image(text_of("offload bundle: entry ", i, " has a ", id, "-byte ID"));
    WEFT_ASSIGN_OR_RETURN(uint64_t entry_end, end_of(offset, size, "offload bundle entry"));
    at += 24 + id;  // at most 65536 * 4120 bytes: no overflow
    end = std::max({end, at, entry_end});
  }
  WEFT_RETURN_IF_ERROR(end_of(0, end, "offload bundle").status());
  return static_cast<size_t>(end);
}

// PTX text ends at its NUL; read it a page at a time so no byte past the
// unreadable end is touched.
Result<size_t> text_extent(const ImageReader& read) {
  constexpr uint64_t kMaxText = 64ull << 20, kChunk = 4096;
  std::vector<std::byte> chunk(kChunk);
  for (uint64_t at = 0; at < kMaxText; at += kChunk) {
    // The last readable page may be partial only at a page boundary: shrink to it.
    uint64_t n = kChunk;
    while (n > 1 && !read(at, std::span<std::byte>(chunk.data(), n))) n /= 2;
    if (!read(at, std::span<std::byte>(chunk.data(), n)))
      return invalid_image(text_of("PTX text: no NUL before unreadable memory at byte ", at));
    for (uint64_t i = 0; i < n; ++i)
      if (chunk[i] == std::byte{0}) return static_cast<size_t>(at + i + 1);  // the text and its NUL
    if (n < kChunk) at -= kChunk - n;
  }
  return invalid_image("PTX text longer than 64 MiB");
}

}  // namespace

bool safe_copy(const void* from, void* to, size_t size) {
  auto* src = static_cast<const std::byte*>(from);
  auto* dst = static_cast<std::byte*>(to);
  // process_vm_readv on our own pid: the kernel copies, so an unmapped or
  // PROT_NONE source page is an EFAULT (or a short count), never a signal.
  while (size) {
    iovec local{dst, size}, remote{const_cast<std::byte*>(src), size};
    ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == ENOSYS || errno == EPERM)) break;  // seccomp may forbid it: use a pipe
    if (n <= 0) return false;
    src += n, dst += n, size -= static_cast<size_t>(n);
  }
  if (!size) return true;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return false;
  bool ok = true;
  while (ok && size) {  // write() from unreadable memory fails with EFAULT
    size_t chunk = std::min<size_t>(size, 4096);
    ssize_t w = ::write(fds[1], src, chunk);
    if (w < 0 && errno == EINTR) continue;
    ok = w > 0 && ::read(fds[0], dst, static_cast<size_t>(w)) == w;
    if (ok) src += w, dst += w, size -= static_cast<size_t>(w);
  }
  ::close(fds[0]);
  ::close(fds[1]);
  return ok;
}

Result<size_t> image_extent(const ImageReader& read) {
  std::byte magic_raw[kBundleMagic.size()];
  if (!read(0, std::span<std::byte>(magic_raw, 4)))
    return invalid_image("the image pointer is not readable memory");
  Bytes magic(magic_raw, 4);
  if (is_elf(magic)) return elf_extent(read);
  if (is_compressed_bundle(magic)) {
    WEFT_ASSIGN_OR_RETURN(uint16_t version,
                          read_field<uint16_t>(read, 4, "compressed bundle header"));
    if (version == 2) {
      WEFT_ASSIGN_OR_RETURN(uint32_t total,
                            read_field<uint32_t>(read, 8, "compressed bundle header"));
      if (total > kMaxImage)
        return invalid_image(text_of("compressed bundle: total size ", total, " is over the cap"));
      if (total < 24)
        return invalid_image(
            text_of("compressed bundle: total size ", total, " is below its header"));
      return static_cast<size_t>(total);
    }
    if (version == 3) {
      WEFT_ASSIGN_OR_RETURN(uint64_t total,
                            read_field<uint64_t>(read, 8, "compressed bundle header"));
      if (total > kMaxImage)
        return invalid_image(text_of("compressed bundle: total size ", total, " is over the cap"));
      if (total < 32)
        return invalid_image(
            text_of("compressed bundle: total size ", total, " is below its header"));
      return static_cast<size_t>(total);
    }
    return invalid_image(text_of("compressed bundle version ", version,
                                 " records no size: load it from a file (hipModuleLoad)"));
  }
  if (starts_with(magic, "__CL")) {
    if (!read(0, std::span<std::byte>(magic_raw, sizeof(magic_raw))) ||
        !starts_with(Bytes(magic_raw, sizeof(magic_raw)), kBundleMagic))
      return invalid_image("image is neither an ELF code object nor a clang offload bundle");
    return bundle_extent(read);
  }
  if (starts_with(magic, "WEFT")) {  // weft's NPU code object: u64 total size at 16
    std::byte npu_raw[kNpuHeaderSize];
    WEFT_RETURN_IF_ERROR(read_into(read, 0, npu_raw, "NPU code object header"));
    if (!is_npu_object(Bytes(npu_raw, sizeof(npu_raw))))
      return invalid_image(
          "image is neither an ELF code object nor a clang offload bundle nor an NPU object");
    uint64_t total = *read_le<uint64_t>(Bytes(npu_raw, sizeof(npu_raw)), 16);
    if (total > kMaxImage || total < kNpuHeaderSize)
      return invalid_image(
          text_of("NPU code object: total size ", total, " is below its header or over the cap"));
    return static_cast<size_t>(total);
  }
  if (is_nvidia_fatbin(magic)) {  // u32 magic, u16 version, u16 header size, u64 payload size
    WEFT_ASSIGN_OR_RETURN(uint16_t header,
                          read_field<uint16_t>(read, 6, "NVIDIA fat binary header"));
    WEFT_ASSIGN_OR_RETURN(uint64_t payload,
                          read_field<uint64_t>(read, 8, "NVIDIA fat binary header"));
    WEFT_ASSIGN_OR_RETURN(uint64_t total, end_of(header, payload, "NVIDIA fat binary"));
    return static_cast<size_t>(total);
  }
  if (magic[0] == std::byte{'/'} || magic[0] == std::byte{'.'} || magic[0] == std::byte{' '} ||
      magic[0] == std::byte{'\t'} || magic[0] == std::byte{'\n'}) {
    WEFT_ASSIGN_OR_RETURN(size_t n, text_extent(read));
    std::vector<std::byte> head(std::min<size_t>(n, 256));
    if (read(0, head) && is_ptx_text(head)) return n;
  }
  return invalid_image("image is neither an ELF code object nor a clang offload bundle");
}

Result<size_t> image_extent(const std::byte* data) {
  if (!data) return invalid_image("null image");
  return image_extent([data](uint64_t offset, std::span<std::byte> out) {
    return safe_copy(data + offset, out.data(), out.size());
  });
}

Result<std::vector<std::byte>> copy_image(const std::byte* data) {
  WEFT_ASSIGN_OR_RETURN(size_t size, image_extent(data));
  // A chunk at a time: memory grows only as far as the claimed bytes are
  // readable, so a header claiming a gigabyte past a small buffer costs nothing.
  constexpr size_t kChunk = 1 << 20;
  std::vector<std::byte> bytes;
  for (size_t at = 0; at < size; at += kChunk) {
    size_t n = std::min(kChunk, size - at);
    bytes.resize(at + n);
    if (!safe_copy(data + at, bytes.data() + at, n))
      return invalid_image(text_of("the image's headers claim ", size,
                                   " bytes, but memory from byte ", at,
                                   " on is not readable: truncated or corrupt image"));
  }
  return bytes;
}

ImageKind classify_image(Bytes bytes) {
  if (is_elf(bytes)) return ImageKind::kElf;
  if (is_bundle(bytes)) return ImageKind::kBundle;
  if (is_compressed_bundle(bytes)) return ImageKind::kCompressedBundle;
  if (is_npu_object(bytes)) return ImageKind::kNpuObject;
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
    case ImageKind::kNpuObject: {
      WEFT_ASSIGN_OR_RETURN(std::string target, npu_object_target(bytes));
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
    default: return invalid_image("image is neither an ELF code object nor a clang offload bundle");
  }
}

const CodeObjectCandidate* OpenedImage::select(std::string_view device_target) const {
  for (const auto& c : candidates_)
    if (c.any_target || is_compatible(c.target, device_target) ||
        (c.ptx_upward && ptx_runs_on(c.target, device_target)))
      return &c;
  return nullptr;
}

std::string OpenedImage::targets_text() const {
  std::string out;
  for (const auto& c : candidates_)
    out += (out.empty() ? "" : ", ") +
           (c.any_target ? std::string("a code object for the driver to judge") : c.target);
  return out.empty() ? "none" : out;
}

}  // namespace weft::codeobj
