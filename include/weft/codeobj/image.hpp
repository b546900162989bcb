// SPDX-License-Identifier: MIT
// What hipModuleLoadData and __hipRegisterFatBinary hand weft: a bare code object
// (ELF), a clang offload bundle, or a compressed bundle. open_image() lists the
// code objects inside with the target ID each was built for; select() picks the
// first one compatible with an agent (the rule clr follows).
// Pure; an OpenedImage views the input bytes (and owns decompressed ones).
#pragma once

#include <weft/codeobj/bytes.hpp>
#include <weft/driver/status.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace weft::codeobj {

// kOpaque: a code object only a driver understands (NVIDIA fatbin, PTX text): it
// is offered to every agent, whose driver accepts or refuses it.
// kNpuObject: weft's NPU code object (npu_object.hpp), whose header names its target.
enum class ImageKind { kUnknown, kElf, kBundle, kCompressedBundle, kOpaque, kNpuObject };

ImageKind classify_image(Bytes bytes);

// The target ID of a bare ELF code object: "x86_64"/"aarch64" for host shared
// objects (CPU code objects), "gfx90a:xnack-"… from an AMDGPU ELF's e_flags,
// "sm_NN" for CUDA ELF.
Result<std::string> elf_target(Bytes bytes);

// The most bytes weft takes as one image (hipModuleLoadData, hipModuleLoad).
inline constexpr uint64_t kMaxImageSize = 1ull << 30;

// Copies `out.size()` bytes at `offset` of an image into `out`; false when any of
// them is not readable. The extent functions read the image only through it.
using ImageReader = std::function<bool(uint64_t offset, std::span<std::byte> out)>;

// The size of an image given only its start (hipModuleLoadData passes no size),
// read from its headers: ELF section and program headers, bundle entries, the
// CCOB v2/v3 total size, the NVIDIA fatbin header, the NPU object's total size;
// PTX text up to its NUL).
// Every claimed offset and size is checked against kMaxImageSize before any sum,
// and header bytes are read through `read`, so a corrupt header fails with
// hipErrorInvalidImage instead of reading unmapped memory. CCOB v1 records no
// size and is refused.
Result<size_t> image_extent(const ImageReader& read);
// The same over memory at `data`, read with safe_copy.
Result<size_t> image_extent(const std::byte* data);
// The image at `data`, measured by image_extent and copied with safe_copy:
// hipErrorInvalidImage when its claimed bytes are not all readable.
Result<std::vector<std::byte>> copy_image(const std::byte* data);

// memcpy that fails instead of faulting when [from, from + size) is not all
// readable: process_vm_readv on our own pid (one syscall, a kernel-side copy),
// or write() through a pipe where seccomp forbids that. Never raises a signal.
bool safe_copy(const void* from, void* to, size_t size);

struct CodeObjectCandidate {
  std::string target;    // target ID; empty when only the driver can tell (any_target)
  std::string entry_id;  // bundle entry ID, empty for a bare code object
  Bytes data;
  bool any_target = false;  // offered to every agent (CUDA ELF, NVIDIA fatbin, PTX)
  // An NVIDIA bundle entry holding PTX, or a fatbin that carries PTX (weftcc's sm_XY
  // images): offered to every NVIDIA agent of at least its sm (ptx_runs_on), since
  // the driver can JIT-compile the PTX.
  bool ptx_upward = false;
};

class OpenedImage {
 public:
  // Fails with hipErrorInvalidImage when the container is malformed. A bundle
  // with no usable entry opens fine (and then selects nothing).
  // A compressed bundle may expand to at most `max_decompressed` bytes.
  static Result<OpenedImage> open(Bytes bytes, uint64_t max_decompressed = 1ull << 30);

  const std::vector<CodeObjectCandidate>& candidates() const { return candidates_; }
  // The first code object compatible with `device_target`, or null.
  const CodeObjectCandidate* select(std::string_view device_target) const;
  // "gfx90a:xnack-, gfx1030" (or "none") for error messages.
  std::string targets_text() const;
  ImageKind kind() const { return kind_; }

 private:
  ImageKind kind_ = ImageKind::kUnknown;
  std::vector<std::byte> storage_;  // a decompressed bundle; candidates view it
  std::vector<CodeObjectCandidate> candidates_;
};

}  // namespace weft::codeobj
