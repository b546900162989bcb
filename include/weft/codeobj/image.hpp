// SPDX-License-Identifier: MIT
// What hipModuleLoadData and __hipRegisterFatBinary hand weft: a bare code object
// (ELF), a clang offload bundle, or a compressed bundle. open_image() lists the
// code objects inside with the target ID each was built for; select() picks the
// first one compatible with an agent (the rule clr follows).
// Pure; an OpenedImage views the input bytes (and owns decompressed ones).
#pragma once

#include <weft/codeobj/bytes.hpp>
#include <weft/driver/status.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace weft::codeobj {

// kOpaque: a code object only a driver understands (NVIDIA fatbin, PTX text): it
// is offered to every agent, whose driver accepts or refuses it.
enum class ImageKind { kUnknown, kElf, kBundle, kCompressedBundle, kOpaque };

ImageKind classify_image(Bytes bytes);

// The target ID of a bare ELF code object: "x86_64"/"aarch64" for host shared
// objects (CPU code objects), "gfx90a:xnack-"… from an AMDGPU ELF's e_flags,
// "sm_NN" for CUDA ELF.
Result<std::string> elf_target(Bytes bytes);

// The size of an image given only its start (hipModuleLoadData passes no size),
// read from its headers: ELF section and program headers, bundle entries, the
// CCOB v2/v3 total size, the NVIDIA fatbin header; PTX text up to its NUL).
// Reads only memory the headers say belongs to the image;
// the caller vouches that the image is whole. CCOB v1 records no size and is
// refused. Images are capped at 4 GiB.
Result<size_t> image_extent(const std::byte* data);

struct CodeObjectCandidate {
  std::string target;    // target ID; empty when only the driver can tell (any_target)
  std::string entry_id;  // bundle entry ID, empty for a bare code object
  Bytes data;
  bool any_target = false;  // offered to every agent (CUDA ELF, NVIDIA fatbin, PTX)
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
