// SPDX-License-Identifier: MIT
// Clang offload bundles, plain and compressed (layouts in docs/code-objects.md).
#include <weft/codeobj/bundle.hpp>

#include <zlib.h>
#include <zstd.h>

#include <algorithm>

namespace weft::codeobj {
namespace {

constexpr uint64_t kMaxEntries = 1u << 16;

void put_u64(std::vector<std::byte>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}
void put_uint(std::vector<std::byte>& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}

}  // namespace

Result<Bundle> parse_bundle(Bytes b) {
  if (!is_bundle(b)) return invalid_image("not a clang offload bundle (bad magic)");
  auto count = read_le<uint64_t>(b, kBundleMagic.size());
  if (!count) return invalid_image("offload bundle: truncated header");
  if (*count > kMaxEntries) return invalid_image(text_of("offload bundle: ", *count, " entries"));
  Bundle bundle;
  uint64_t at = kBundleMagic.size() + 8;
  for (uint64_t i = 0; i < *count; ++i) {
    auto offset = read_le<uint64_t>(b, at);
    auto size = read_le<uint64_t>(b, at + 8);
    auto id_size = read_le<uint64_t>(b, at + 16);
    if (!offset || !size || !id_size)
      return invalid_image(text_of("offload bundle: entry ", i, " truncated"));
    auto id = sub_span(b, at + 24, *id_size);
    if (!id) return invalid_image(text_of("offload bundle: ID of entry ", i, " out of range"));
    auto data = sub_span(b, *offset, *size);
    if (!data) return invalid_image(text_of("offload bundle: entry ", i, " out of range"));
    BundleEntry entry{as_text(*id), *offset, *size, *data};
    bundle.entries.push_back(entry);
    at += 24 + *id_size;
    bundle.extent = std::max(bundle.extent, *offset + *size);
  }
  bundle.extent = std::max(bundle.extent, at);
  return bundle;
}

BundleEntryId parse_entry_id(std::string_view id) {
  BundleEntryId out;
  size_t dash = id.find('-');
  out.kind = id.substr(0, dash);
  if (dash == std::string_view::npos) return out;
  std::string_view rest = id.substr(dash + 1);
  // The triple is four fields (the environment may be empty); the target ID, which
  // may itself contain '-' ("xnack-"), is everything after the fourth dash.
  size_t split = std::string_view::npos;
  for (size_t i = 0, dashes = 0; i < rest.size(); ++i) {
    if (rest[i] == '-' && ++dashes == 4) {
      split = i;
      break;
    }
  }
  out.triple = rest.substr(0, split);
  if (split != std::string_view::npos) out.target = rest.substr(split + 1);
  out.arch = out.triple.substr(0, out.triple.find('-'));
  return out;
}

bool is_hip_code_object_kind(std::string_view kind) {
  return kind == "hipv4" || kind == "hip" || kind == "hcc";
}

Result<CompressedBundleHeader> parse_compressed_header(Bytes b) {
  if (!is_compressed_bundle(b)) return invalid_image("not a compressed offload bundle (bad magic)");
  CompressedBundleHeader h;
  auto version = read_le<uint16_t>(b, 4);
  auto method = read_le<uint16_t>(b, 6);
  if (!version || !method) return invalid_image("compressed bundle: truncated header");
  h.version = *version;
  std::optional<uint64_t> total, uncompressed, hash;
  switch (h.version) {
    case 1:
      h.header_size = 20;
      if (auto u = read_le<uint32_t>(b, 8)) uncompressed = *u;
      hash = read_le<uint64_t>(b, 12);
      total = 0;
      break;
    case 2:
      h.header_size = 24;
      if (auto t = read_le<uint32_t>(b, 8)) total = *t;
      if (auto u = read_le<uint32_t>(b, 12)) uncompressed = *u;
      hash = read_le<uint64_t>(b, 16);
      break;
    case 3:
      h.header_size = 32;
      total = read_le<uint64_t>(b, 8);
      uncompressed = read_le<uint64_t>(b, 16);
      hash = read_le<uint64_t>(b, 24);
      break;
    default: return invalid_image(text_of("compressed bundle: unknown version ", h.version));
  }
  if (!total || !uncompressed || !hash) return invalid_image("compressed bundle: truncated header");
  if (*method > 1)
    return invalid_image(text_of("compressed bundle: unknown compression method ", *method));
  h.method = static_cast<Compression>(*method);
  h.total_size = *total;
  h.uncompressed_size = *uncompressed;
  h.hash = *hash;
  if (h.total_size != 0 && (h.total_size < h.header_size || h.total_size > b.size()))
    return invalid_image(text_of("compressed bundle: total size ", h.total_size, " does not fit ",
                                 b.size(), " bytes"));
  return h;
}

Result<std::vector<std::byte>> decompress_bundle(Bytes b, uint64_t max_output) {
  WEFT_ASSIGN_OR_RETURN(CompressedBundleHeader h, parse_compressed_header(b));
  if (h.uncompressed_size > max_output)
    return invalid_image(
        text_of("compressed bundle: ", h.uncompressed_size, " bytes uncompressed is too large"));
  uint64_t end = h.total_size ? h.total_size : b.size();
  Bytes payload = b.subspan(h.header_size, end - h.header_size);
  // The claimed size is allocated up front: check it against what the data can
  // expand to first, so a corrupt header cannot make weft allocate (and zero) a
  // gigabyte for a few kilobytes of payload. zlib expands at most ~1032:1; a
  // zstd frame bounds its own output (exact when it records its content size).
  uint64_t bound = payload.size() * 1032 + 64;
  if (h.method == Compression::kZstd) {
    size_t frame = ZSTD_findFrameCompressedSize(payload.data(), payload.size());
    if (ZSTD_isError(frame)) return invalid_image("compressed bundle: zstd frame is corrupt");
    unsigned long long content = ZSTD_getFrameContentSize(payload.data(), frame);
    if (content == ZSTD_CONTENTSIZE_ERROR)
      return invalid_image("compressed bundle: zstd frame is corrupt");
    // Without a recorded size: each block (3-byte header, 1 byte of RLE) yields at most 128 KiB.
    bound = content != ZSTD_CONTENTSIZE_UNKNOWN ? content
                                                : uint64_t(frame) * (128 << 10) / 4 + (128 << 10);
  }
  if (h.uncompressed_size > bound)
    return invalid_image(text_of("compressed bundle: header claims ", h.uncompressed_size,
                                 " bytes uncompressed; its data can hold at most ", bound));
  std::vector<std::byte> out(h.uncompressed_size);
  if (h.method == Compression::kZlib) {
    uLongf out_size = static_cast<uLongf>(out.size());
    uLong in_size = static_cast<uLong>(payload.size());
    int rc = uncompress2(reinterpret_cast<Bytef*>(out.data()), &out_size,
                         reinterpret_cast<const Bytef*>(payload.data()), &in_size);
    if (rc != Z_OK || out_size != out.size())
      return invalid_image(text_of("compressed bundle: zlib data is corrupt (", rc, ")"));
  } else {
    // v1 records no total size: the frame itself says where it ends.
    size_t frame = ZSTD_findFrameCompressedSize(payload.data(), payload.size());
    if (ZSTD_isError(frame)) return invalid_image("compressed bundle: zstd frame is corrupt");
    size_t n = ZSTD_decompress(out.data(), out.size(), payload.data(), frame);
    if (ZSTD_isError(n) || n != out.size())
      return invalid_image(std::string("compressed bundle: zstd data is corrupt (") +
                           (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "size mismatch") + ")");
  }
  if (!is_bundle(out)) return invalid_image("compressed bundle: payload is not an offload bundle");
  return out;
}

std::vector<std::byte> write_bundle(const std::vector<BundleInput>& entries, uint64_t alignment) {
  if (alignment == 0) alignment = 1;
  uint64_t header = kBundleMagic.size() + 8;
  for (const auto& e : entries) header += 24 + e.id.size();
  std::vector<uint64_t> offsets;
  uint64_t at = header;
  for (const auto& e : entries) {
    at = (at + alignment - 1) / alignment * alignment;
    offsets.push_back(at);
    at += e.data.size();
  }
  std::vector<std::byte> out;
  out.reserve(at);
  for (char c : kBundleMagic) out.push_back(static_cast<std::byte>(c));
  put_u64(out, entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    put_u64(out, offsets[i]);
    put_u64(out, entries[i].data.size());
    put_u64(out, entries[i].id.size());
    for (char c : entries[i].id) out.push_back(static_cast<std::byte>(c));
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    out.resize(offsets[i], std::byte{0});
    out.insert(out.end(), entries[i].data.begin(), entries[i].data.end());
  }
  return out;
}

Result<std::vector<std::byte>> compress_bundle(Bytes bundle, Compression method, uint16_t version) {
  if (version < 1 || version > 3)
    return Status(hipErrorInvalidValue, "compressed bundle version must be 1-3");
  std::vector<std::byte> payload;
  if (method == Compression::kZlib) {
    uLongf size = compressBound(static_cast<uLong>(bundle.size()));
    payload.resize(size);
    if (compress2(reinterpret_cast<Bytef*>(payload.data()), &size,
                  reinterpret_cast<const Bytef*>(bundle.data()), bundle.size(), 6) != Z_OK)
      return Status(hipErrorUnknown, "zlib compression failed");
    payload.resize(size);
  } else {
    payload.resize(ZSTD_compressBound(bundle.size()));
    size_t n = ZSTD_compress(payload.data(), payload.size(), bundle.data(), bundle.size(), 3);
    if (ZSTD_isError(n)) return Status(hipErrorUnknown, "zstd compression failed");
    payload.resize(n);
  }
  uint64_t header = version == 1 ? 20 : version == 2 ? 24 : 32;
  uint64_t total = header + payload.size();
  if (version < 3 && (bundle.size() > UINT32_MAX || total > UINT32_MAX))
    return Status(hipErrorInvalidValue, "bundle too large for compressed format v1/v2");
  std::vector<std::byte> out;
  for (char c : kCompressedBundleMagic) out.push_back(static_cast<std::byte>(c));
  put_uint(out, version, 2);
  put_uint(out, static_cast<uint16_t>(method), 2);
  if (version == 1) {
    put_uint(out, bundle.size(), 4);
  } else if (version == 2) {
    put_uint(out, total, 4);
    put_uint(out, bundle.size(), 4);
  } else {
    put_uint(out, total, 8);
    put_uint(out, bundle.size(), 8);
  }
  put_u64(out, 0);  // hash: not checked by weft
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

}  // namespace weft::codeobj
