// SPDX-License-Identifier: MIT
// The xclbin and NPU code object parsers (lib/codeobj/xclbin.cpp,
// npu_object.cpp): what the writers make parses back field for field, and
// every kind of malformed input is hipErrorInvalidImage with a message.
#include <weft/codeobj/bundle.hpp>
#include <weft/codeobj/image.hpp>
#include <weft/codeobj/npu_object.hpp>
#include <weft/codeobj/xclbin.hpp>

#include <cstring>

#include "hip_test.hpp"

using namespace weft::codeobj;

namespace {

XclbinInput two_pdis() {
  XclbinInput in;
  in.operations_per_cycle = 4096;
  in.column_width = 2;
  in.start_columns = {0, 2};
  XclbinPdiInput a, b;
  a.uuid.fill(0x5a);
  a.image.assign(123, std::byte{0x42});
  a.kernel_ids = {0x901, 0x902};
  b.image.assign(7, std::byte{0x17});
  b.kernel_ids = {0x903};
  in.pdis = {a, b};
  return in;
}

template <typename T>
void poke(std::vector<std::byte>& bytes, size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof(T));
}

void require_invalid(const weft::Status& s) {
  INFO(s.message());
  REQUIRE(s.code() == hipErrorInvalidImage);
  REQUIRE_FALSE(s.message().empty());
}

}  // namespace

TEST_CASE("Xdna_Codeobj_XclbinRoundTrip") {
  auto bytes = write_xclbin(two_pdis());
  REQUIRE(is_xclbin(bytes));
  auto x = parse_xclbin(bytes);
  INFO(x.status().message());
  REQUIRE(x.ok());
  CHECK(x.value().length == bytes.size());
  REQUIRE(x.value().sections.size() == 1);
  CHECK(x.value().sections[0].kind == kXclbinSectionAiePartition);
  CHECK(x.value().sections[0].name == "AIE_PARTITION");
  const auto& p = x.value().partition;
  CHECK(p.operations_per_cycle == 4096);
  CHECK(p.column_width == 2);
  CHECK(p.start_columns == std::vector<uint16_t>{0, 2});
  REQUIRE(p.pdis.size() == 2);
  CHECK(p.pdis[0].uuid[3] == 0x5a);
  CHECK(p.pdis[0].image.size() == 123);
  CHECK(p.pdis[1].image[6] == std::byte{0x17});
  CHECK(x.value().pdi_for_kernel(0x902) == &p.pdis[0]);
  CHECK(x.value().pdi_for_kernel(0x903) == &p.pdis[1]);
  CHECK(x.value().pdi_for_kernel(0x904) == nullptr);
}

TEST_CASE("Xdna_Codeobj_MalformedXclbinIsInvalidImage") {
  auto good = write_xclbin(two_pdis());
  require_invalid(parse_xclbin(std::vector<std::byte>(good.begin(), good.begin() + 400)).status());
  auto b = good;
  b[0] = std::byte{'y'};
  require_invalid(parse_xclbin(b).status());
  b = good;
  poke<uint64_t>(b, kXclbinHeaderOffset, good.size() + 1);  // m_length past the file
  require_invalid(parse_xclbin(b).status());
  b = good;
  poke<uint32_t>(b, kXclbinHeaderOffset + 144, 1000000);  // sections
  require_invalid(parse_xclbin(b).status());
  b = good;
  poke<uint64_t>(b, kXclbinSectionTableOffset + 32, uint64_t(-1));  // section size
  require_invalid(parse_xclbin(b).status());
  b = good;
  poke<uint32_t>(b, kXclbinSectionTableOffset, 8);  // no AIE_PARTITION any more
  require_invalid(parse_xclbin(b).status());
  const size_t section = kXclbinSectionTableOffset + kXclbinSectionHeaderSize;
  b = good;
  poke<uint32_t>(b, section + 120, 0x7fffffff);  // PDI count
  require_invalid(parse_xclbin(b).status());
  b = good;
  poke<uint32_t>(b, section + 124, 0xfffffff0);  // PDI offset
  require_invalid(parse_xclbin(b).status());
  b = good;
  poke<uint16_t>(b, section + 32, 0);  // column width
  require_invalid(parse_xclbin(b).status());
}

TEST_CASE("Xdna_Codeobj_NpuObjectRoundTripAndSelection") {
  auto xclbin = write_xclbin(two_pdis());
  NpuKernelInput a = mlir_aie_kernel("vadd", {1, 2, 3, 4}, 3);
  NpuKernelInput b = mlir_aie_kernel("scale", {5, 6}, 1);
  b.dpu_kernel_id = 0x903;
  b.args.push_back({NpuArgKind::kScalar, 4, b.regmap_size});
  b.regmap_size += 4;
  auto bytes = write_npu_object("aie2p", xclbin, {a, b});
  auto o = parse_npu_object(bytes);
  INFO(o.status().message());
  REQUIRE(o.ok());
  CHECK(o.value().target == "aie2p");
  CHECK(o.value().total_size == bytes.size());
  REQUIRE(o.value().kernels.size() == 2);
  const auto& k = o.value().kernels[0];
  CHECK(k.name == "vadd");
  CHECK(k.instructions.size() == 16);
  CHECK(k.regmap_size == 0x14 + 24);
  CHECK(k.opcode_value == 3);
  CHECK(k.instr_slot == 0x08);
  CHECK(k.ninstr_slot == 0x10);
  REQUIRE(k.args.size() == 3);
  CHECK(k.args[2].regmap_offset == 0x24);
  CHECK(k.pdi == &o.value().xclbin.partition.pdis[0]);
  CHECK(o.value().kernels[1].pdi == &o.value().xclbin.partition.pdis[1]);
  CHECK(o.value().kernels[1].args[1].kind == NpuArgKind::kScalar);
  // Image plumbing: classified, measured from its header, selected for its target.
  CHECK(classify_image(bytes) == ImageKind::kNpuObject);
  auto extent = image_extent([&](uint64_t offset, std::span<std::byte> out) {
    if (offset > bytes.size() || out.size() > bytes.size() - offset) return false;
    std::memcpy(out.data(), bytes.data() + offset, out.size());
    return true;
  });
  REQUIRE(extent.ok());
  CHECK(extent.value() == bytes.size());
  auto image = OpenedImage::open(bytes);
  REQUIRE(image.ok());
  CHECK(image.value().select("aie2p") != nullptr);
  CHECK(image.value().select("aie2") == nullptr);
  CHECK(image.value().select("gfx90a") == nullptr);
  // As a bundle entry.
  auto bundle =
      write_bundle({{"host-x86_64-unknown-linux-gnu", {}}, {"hipv4-aie2p-amd-xdna--aie2p", bytes}});
  auto in_bundle = OpenedImage::open(bundle);
  REQUIRE(in_bundle.ok());
  const auto* chosen = in_bundle.value().select("aie2p");
  REQUIRE(chosen);
  CHECK(chosen->data.size() == bytes.size());
}

TEST_CASE("Xdna_Codeobj_MalformedNpuObjectIsInvalidImage") {
  auto xclbin = write_xclbin(two_pdis());
  auto good = write_npu_object("aie2", xclbin, {mlir_aie_kernel("k", {1, 2}, 2)});
  REQUIRE(parse_npu_object(good).ok());
  require_invalid(
      parse_npu_object(std::vector<std::byte>(good.begin(), good.begin() + 40)).status());
  const size_t rec = kNpuHeaderSize;
  struct Mutation {
    const char* what;
    size_t at;
    uint64_t value;
    int width;
  };
  const Mutation mutations[] = {
      {"version", 8, 2, 4},
      {"no kernels", 12, 0, 4},
      {"too many kernels", 12, 5000, 4},
      {"total size past the bytes", 16, 1ull << 20, 8},
      {"total size below the header", 16, 10, 8},
      {"empty target", 24, 0, 8},
      {"bad target character", 24, 'A', 1},
      {"xclbin past the end", 48, 1ull << 30, 8},
      {"kernel table past the end", 56, 1ull << 40, 8},
      {"empty name", rec + 8, 0, 4},
      {"name past the end", rec + 0, 1ull << 33, 8},
      {"no PDI for the kernel ID", rec + 12, 0x999, 4},
      {"instructions not whole words", rec + 24, 7, 8},
      {"no instructions", rec + 24, 0, 8},
      {"instructions past the end", rec + 16, 1ull << 35, 8},
      {"argument table past the end", rec + 32, 1ull << 36, 8},
      {"too many arguments", rec + 40, 100000, 4},
      {"register map not whole words", rec + 44, 0x23, 4},
      {"register map too large", rec + 44, 9000, 4},
      {"register map smaller than its arguments", rec + 44, 0x18, 4},
      {"opcode slot overlaps the instruction slot", rec + 48, 0x04, 2},
      {"instruction slot outside the map", rec + 50, 0x100, 2},
      {"reserved slot word", rec + 54, 1, 2},
      {"reserved bytes", rec + 61, 1, 1},
  };
  for (const auto& m : mutations) {
    INFO(m.what);
    auto b = good;
    std::memcpy(b.data() + m.at, &m.value, size_t(m.width));
    require_invalid(parse_npu_object(b).status());
  }
  // Argument records: kind, size, overlap.
  uint64_t args = 0;
  std::memcpy(&args, good.data() + rec + 32, 8);
  for (auto [field, value] :
       {std::pair<size_t, uint32_t>{0, 3}, {4, 4}, {8, 0x10}, {8, 0x1000}, {12, 1}}) {
    INFO("argument field " << field << " = " << value);
    auto b = good;
    std::memcpy(b.data() + args + field, &value, 4);
    require_invalid(parse_npu_object(b).status());
  }
  // A duplicate kernel name.
  auto twice = write_npu_object("aie2", xclbin,
                                {mlir_aie_kernel("k", {1}, 1), mlir_aie_kernel("k", {2}, 1)});
  require_invalid(parse_npu_object(twice).status());
}
