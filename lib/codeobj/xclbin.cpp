// SPDX-License-Identifier: MIT
#include <weft/codeobj/xclbin.hpp>

#include <algorithm>
#include <cstring>

namespace weft::codeobj {
namespace {

constexpr uint64_t kMaxSections = 4096;
constexpr uint64_t kPartitionSize = 184;  // sizeof(aie_partition)
constexpr uint64_t kPdiSize = 96;         // sizeof(aie_pdi)
constexpr uint64_t kCdoGroupSize = 96;    // sizeof(cdo_group)

// An {u32 count, u32 offset} array of `element` bytes per item inside `section`.
Result<Bytes> array_at(Bytes section, uint64_t field, uint64_t element, const char* what,
                       uint32_t& count) {
  auto n = read_le<uint32_t>(section, field);
  auto offset = read_le<uint32_t>(section, field + 4);
  if (!n || !offset)
    return invalid_image(
        text_of("xclbin AIE_PARTITION: ", what, " header lies outside the section"));
  count = *n;
  auto items = sub_span(section, *offset, uint64_t(*n) * element);
  if (!items)
    return invalid_image(text_of("xclbin AIE_PARTITION: ", what, " (", *n, " items at offset ",
                                 *offset, ") runs past the section's ", section.size(), " bytes"));
  return *items;
}

Result<XclbinPartition> parse_partition(Bytes s) {
  if (s.size() < kPartitionSize)
    return invalid_image(text_of("xclbin AIE_PARTITION section is ", s.size(), " bytes (",
                                 kPartitionSize, " needed)"));
  XclbinPartition p;
  p.operations_per_cycle = *read_le<uint32_t>(s, 8);
  p.column_width = *read_le<uint16_t>(s, 32);
  uint32_t count = 0;
  WEFT_ASSIGN_OR_RETURN(Bytes columns, array_at(s, 40, 2, "start_columns", count));
  for (uint32_t i = 0; i < count; ++i)
    p.start_columns.push_back(*read_le<uint16_t>(columns, i * 2ull));
  WEFT_ASSIGN_OR_RETURN(Bytes pdis, array_at(s, 120, kPdiSize, "aie_pdis", count));
  for (uint32_t i = 0; i < count; ++i) {
    Bytes pdi = pdis.subspan(i * kPdiSize, kPdiSize);
    XclbinPdi out;
    std::memcpy(out.uuid.data(), pdi.data(), 16);
    uint32_t image_bytes = 0, groups = 0;
    // Arrays of a PDI are relative to the section too.
    uint64_t at = uint64_t(pdi.data() - s.data());
    WEFT_ASSIGN_OR_RETURN(out.image, array_at(s, at + 16, 1, "pdi_image", image_bytes));
    if (out.image.empty())
      return invalid_image(text_of("xclbin AIE_PARTITION: PDI ", i, " has an empty image"));
    WEFT_ASSIGN_OR_RETURN(Bytes cdo, array_at(s, at + 24, kCdoGroupSize, "cdo_groups", groups));
    for (uint32_t g = 0; g < groups; ++g) {
      uint64_t group_at = uint64_t(cdo.data() - s.data()) + g * kCdoGroupSize;
      uint32_t ids = 0;
      WEFT_ASSIGN_OR_RETURN(Bytes id_bytes, array_at(s, group_at + 16, 8, "dpu_kernel_ids", ids));
      for (uint32_t k = 0; k < ids; ++k)
        out.kernel_ids.push_back(*read_le<uint64_t>(id_bytes, k * 8ull));
    }
    p.pdis.push_back(std::move(out));
  }
  if (p.pdis.empty()) return invalid_image("xclbin AIE_PARTITION holds no PDI");
  if (p.column_width == 0) return invalid_image("xclbin AIE_PARTITION: column width 0");
  return p;
}

void put(std::vector<std::byte>& out, uint64_t at, const void* value, size_t size) {
  if (out.size() < at + size) out.resize(at + size);
  std::memcpy(out.data() + at, value, size);
}
template <typename T>
void put_le(std::vector<std::byte>& out, uint64_t at, T value) {
  put(out, at, &value, sizeof(T));
}
uint64_t align8(uint64_t v) { return (v + 7) & ~uint64_t(7); }

}  // namespace

const XclbinPdi* Xclbin::pdi_for_kernel(uint64_t kernel_id) const {
  for (const auto& pdi : partition.pdis)
    if (std::find(pdi.kernel_ids.begin(), pdi.kernel_ids.end(), kernel_id) != pdi.kernel_ids.end())
      return &pdi;
  return nullptr;
}

Result<Xclbin> parse_xclbin(Bytes bytes) {
  if (!is_xclbin(bytes)) return invalid_image("not an xclbin (magic \"xclbin2\" missing)");
  if (bytes.size() < kXclbinSectionTableOffset)
    return invalid_image(text_of("xclbin of ", bytes.size(), " bytes is shorter than its ",
                                 kXclbinSectionTableOffset, "-byte header"));
  Xclbin x;
  x.length = *read_le<uint64_t>(bytes, kXclbinHeaderOffset);
  if (x.length < kXclbinSectionTableOffset || x.length > bytes.size())
    return invalid_image(
        text_of("xclbin header claims ", x.length, " bytes; ", bytes.size(), " are present"));
  Bytes file = bytes.first(static_cast<size_t>(x.length));
  uint64_t sections = *read_le<uint32_t>(file, kXclbinHeaderOffset + 144);
  if (sections > kMaxSections)
    return invalid_image(text_of("xclbin claims ", sections, " sections"));
  if (!sub_span(file, kXclbinSectionTableOffset, sections * kXclbinSectionHeaderSize))
    return invalid_image(
        text_of("xclbin section table (", sections, " entries) runs past the file"));
  const XclbinSection* partition = nullptr;
  for (uint64_t i = 0; i < sections; ++i) {
    uint64_t at = kXclbinSectionTableOffset + i * kXclbinSectionHeaderSize;
    XclbinSection s;
    s.kind = *read_le<uint32_t>(file, at);
    std::string_view name = as_text(*sub_span(file, at + 4, 16));
    s.name = std::string(name.substr(0, std::min(name.find('\0'), name.size())));
    uint64_t offset = *read_le<uint64_t>(file, at + 24), size = *read_le<uint64_t>(file, at + 32);
    auto data = sub_span(file, offset, size);
    if (!data)
      return invalid_image(text_of("xclbin section ", i, " (kind ", s.kind, ") at ", offset, " of ",
                                   size, " bytes runs past the ", file.size(), "-byte file"));
    s.data = *data;
    x.sections.push_back(std::move(s));
  }
  for (const auto& s : x.sections)
    if (s.kind == kXclbinSectionAiePartition) {
      partition = &s;
      break;
    }
  if (!partition)
    return invalid_image("xclbin has no AIE_PARTITION section (kind 32): not an NPU xclbin");
  WEFT_ASSIGN_OR_RETURN(x.partition, parse_partition(partition->data));
  return x;
}

std::vector<std::byte> write_xclbin(const XclbinInput& in) {
  std::vector<std::byte> out(kXclbinSectionTableOffset + kXclbinSectionHeaderSize);
  put(out, 0, kXclbinMagic.data(), kXclbinMagic.size());
  put_le<int32_t>(out, 8, -1);                        // no signature
  put_le<uint8_t>(out, kXclbinHeaderOffset + 26, 2);  // m_versionMajor 2
  put_le<uint32_t>(out, kXclbinHeaderOffset + 144, 1);
  const uint64_t section = out.size();
  // The partition, then its arrays, each 8-byte aligned, offsets from the section.
  std::vector<std::byte> s(kPartitionSize);
  put_le<uint32_t>(s, 8, in.operations_per_cycle);
  put_le<uint16_t>(s, 32, in.column_width);
  uint64_t at = kPartitionSize;
  put_le<uint32_t>(s, 40, static_cast<uint32_t>(in.start_columns.size()));
  put_le<uint32_t>(s, 44, static_cast<uint32_t>(at));
  for (uint16_t c : in.start_columns) put_le<uint16_t>(s, at, c), at += 2;
  at = align8(at);
  const uint64_t pdis = at;
  put_le<uint32_t>(s, 120, static_cast<uint32_t>(in.pdis.size()));
  put_le<uint32_t>(s, 124, static_cast<uint32_t>(pdis));
  at += in.pdis.size() * kPdiSize;
  s.resize(at);
  for (size_t i = 0; i < in.pdis.size(); ++i) {
    const XclbinPdiInput& p = in.pdis[i];
    uint64_t pdi = pdis + i * kPdiSize;
    put(s, pdi, p.uuid.data(), 16);
    const uint64_t group = align8(s.size());
    put_le<uint32_t>(s, pdi + 24, 1);
    put_le<uint32_t>(s, pdi + 28, static_cast<uint32_t>(group));
    s.resize(group + kCdoGroupSize);
    put_le<uint8_t>(s, group + 4, 1);  // CT_PRIMARY
    const uint64_t ids = align8(s.size());
    put_le<uint32_t>(s, group + 16, static_cast<uint32_t>(p.kernel_ids.size()));
    put_le<uint32_t>(s, group + 20, static_cast<uint32_t>(ids));
    for (size_t k = 0; k < p.kernel_ids.size(); ++k)
      put_le<uint64_t>(s, ids + k * 8, p.kernel_ids[k]);
    s.resize(std::max<uint64_t>(s.size(), ids + p.kernel_ids.size() * 8));
    const uint64_t image = align8(s.size());
    put_le<uint32_t>(s, pdi + 16, static_cast<uint32_t>(p.image.size()));
    put_le<uint32_t>(s, pdi + 20, static_cast<uint32_t>(image));
    if (!p.image.empty()) put(s, image, p.image.data(), p.image.size());
  }
  put_le<uint32_t>(out, kXclbinSectionTableOffset, kXclbinSectionAiePartition);
  put(out, kXclbinSectionTableOffset + 4, "AIE_PARTITION", 13);
  put_le<uint64_t>(out, kXclbinSectionTableOffset + 24, section);
  put_le<uint64_t>(out, kXclbinSectionTableOffset + 32, s.size());
  out.insert(out.end(), s.begin(), s.end());
  put_le<uint64_t>(out, kXclbinHeaderOffset, out.size());
  return out;
}

}  // namespace weft::codeobj
