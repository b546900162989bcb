// SPDX-License-Identifier: MIT
// Unit tests of the code-object parsers (src/codeobj): ELF, offload bundles
// (plain and CCOB v1-v3 with zlib and zstd), msgpack, AMDGPU metadata and
// kernel descriptors, target IDs. Real inputs: this test binary, the CPU code
// object the build makes, and (when hipcc is installed) an AMDGPU bundle.
#include "hip_test.hpp"
#include "test_files.hpp"

#include <weft/codeobj/amdgpu.hpp>
#include <weft/codeobj/bundle.hpp>
#include <weft/codeobj/elf.hpp>
#include <weft/codeobj/image.hpp>
#include <weft/codeobj/msgpack.hpp>
#include <weft/codeobj/target_id.hpp>

#include <random>

using namespace weft::codeobj;

namespace {

using hip_test::read_file;

std::vector<std::byte> bytes_of(std::string_view text) {
  auto* p = reinterpret_cast<const std::byte*>(text.data());
  return {p, p + text.size()};
}

std::vector<std::byte> amdgpu_bundle() {
#ifdef WEFT_TEST_AMDGPU_BUNDLE
  return read_file(WEFT_TEST_AMDGPU_BUNDLE);
#else
  return {};
#endif
}

// Feeds every prefix and many random corruptions of `input` to `parse`; all it
// may do is return (any status).
template <typename Parse>
void survives_corruption(const std::vector<std::byte>& input, Parse parse) {
  for (size_t n = 0; n <= input.size(); n += 1 + n / 64) (void)parse(Bytes(input.data(), n));
  std::mt19937 rng(12345);
  for (int round = 0; round < 300; ++round) {
    std::vector<std::byte> copy = input;
    for (int k = 0; k < 4 && !copy.empty(); ++k)
      copy[rng() % copy.size()] = static_cast<std::byte>(rng());
    (void)parse(Bytes(copy));
  }
}

}  // namespace

TEST_CASE("Unit_codeobj_Elf_Positive_ReadsThisBinary") {
  auto bytes = read_file("/proc/self/exe");
  auto elf = parse_elf(bytes);
  REQUIRE(elf.ok());
  CHECK(elf.value().machine == kElfMachineX86_64);
  CHECK(elf.value().section(".text") != nullptr);
  CHECK(elf.value().symbol("main") != nullptr);
  const ElfSymbol* main_sym = elf.value().symbol("main");
  CHECK(elf.value().symbol_at(main_sym->value) != nullptr);
  CHECK(elf_notes(elf.value()).ok());
}

TEST_CASE("Unit_codeobj_Elf_Positive_ReadsCpuCodeObject") {
  auto bytes = read_file(WEFT_TEST_CPU_OBJECT);
  auto elf = parse_elf(bytes);
  REQUIRE(elf.ok());
  CHECK(elf.value().type == kElfTypeDyn);
  const ElfSymbol* table = elf.value().symbol("weft_cpu_code_object");
  REQUIRE(table != nullptr);
  CHECK(elf.value().bytes_at(table->value, table->size).has_value());
  CHECK(elf_target(bytes).value() == "x86_64");
}

TEST_CASE("Unit_codeobj_Elf_Negative_Malformed") {
  CHECK(parse_elf(bytes_of("not an elf")).status().code() == hipErrorInvalidImage);
  CHECK(parse_elf(bytes_of("\x7f"
                           "ELF"))
            .status()
            .code() == hipErrorInvalidImage);
  auto bytes = read_file(WEFT_TEST_CPU_OBJECT);
  auto truncated = std::vector<std::byte>(bytes.begin(), bytes.begin() + 200);
  CHECK(parse_elf(truncated).status().code() == hipErrorInvalidImage);
  auto bad_shoff = bytes;
  bad_shoff[40] = std::byte{0xff};  // e_shoff far past the end
  bad_shoff[45] = std::byte{0x7f};
  auto r = parse_elf(bad_shoff);
  CHECK(r.status().code() == hipErrorInvalidImage);
  CHECK(r.status().message().find("section headers") != std::string::npos);
  survives_corruption(bytes, [](Bytes b) { return parse_elf(b).ok(); });
}

TEST_CASE("Unit_codeobj_Bundle_Positive_RoundTrip") {
  std::vector<BundleInput> in = {
      {"host-x86_64-unknown-linux", {}},
      {"hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", bytes_of("GPU CODE")},
      {"hipv4-x86_64-unknown-linux-gnu-x86_64", bytes_of("CPU")}};
  auto bundle = write_bundle(in);
  auto parsed = parse_bundle(bundle);
  REQUIRE(parsed.ok());
  REQUIRE(parsed.value().entries.size() == 3);
  CHECK(parsed.value().entries[1].offset % 4096 == 0);
  CHECK(as_text(parsed.value().entries[1].data) == "GPU CODE");
  CHECK(as_text(parsed.value().entries[2].data) == "CPU");
  CHECK(parsed.value().extent == bundle.size());
}

TEST_CASE("Unit_codeobj_Bundle_Positive_EntryIds") {
  auto amd = parse_entry_id("hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-");
  CHECK(amd.kind == "hipv4");
  CHECK(amd.triple == "amdgcn-amd-amdhsa-");
  CHECK(amd.arch == "amdgcn");
  CHECK(amd.target == "gfx90a:sramecc+:xnack-");
  auto nv = parse_entry_id("hipv4-nvptx64-nvidia-cuda--sm_90");
  CHECK(nv.triple == "nvptx64-nvidia-cuda-");
  CHECK(nv.target == "sm_90");
  auto cpu = parse_entry_id("hipv4-x86_64-unknown-linux-gnu-x86_64");
  CHECK(cpu.triple == "x86_64-unknown-linux-gnu");
  CHECK(cpu.target == "x86_64");
  auto host = parse_entry_id("host-x86_64-unknown-linux");
  CHECK(host.kind == "host");
  CHECK(host.triple == "x86_64-unknown-linux");
  CHECK(host.target.empty());
  auto new_host = parse_entry_id("host-x86_64-unknown-linux-gnu-");
  CHECK(new_host.triple == "x86_64-unknown-linux-gnu");
  CHECK(new_host.target.empty());
  CHECK(parse_entry_id("garbage").kind == "garbage");
}

TEST_CASE("Unit_codeobj_Bundle_Negative_Malformed") {
  CHECK(parse_bundle(bytes_of("__CLANG_OFFLOAD_BUNDLE__")).status().code() == hipErrorInvalidImage);
  auto bundle = write_bundle({{"hipv4-amdgcn-amd-amdhsa--gfx90a", bytes_of("X")}});
  auto big_count = bundle;
  big_count[24 + 7] = std::byte{0x10};
  CHECK(parse_bundle(big_count).status().code() == hipErrorInvalidImage);
  auto bad_offset = bundle;
  bad_offset[32 + 6] = std::byte{0x01};  // entry offset beyond the input
  CHECK(parse_bundle(bad_offset).status().code() == hipErrorInvalidImage);
  survives_corruption(bundle, [](Bytes b) { return parse_bundle(b).ok(); });
}

TEST_CASE("Unit_codeobj_CompressedBundle_Positive_AllVersionsAndMethods") {
  auto bundle =
      write_bundle({{"hipv4-x86_64-unknown-linux-gnu-x86_64", read_file(WEFT_TEST_CPU_OBJECT)}});
  for (uint16_t version : {1, 2, 3}) {
    for (Compression method : {Compression::kZlib, Compression::kZstd}) {
      CAPTURE(version, static_cast<int>(method));
      auto ccob = compress_bundle(bundle, method, version);
      REQUIRE(ccob.ok());
      auto header = parse_compressed_header(ccob.value());
      REQUIRE(header.ok());
      CHECK(header.value().version == version);
      CHECK(header.value().uncompressed_size == bundle.size());
      auto out = decompress_bundle(ccob.value());
      REQUIRE(out.ok());
      CHECK(out.value() == bundle);
      auto opened = OpenedImage::open(ccob.value());
      REQUIRE(opened.ok());
      CHECK(opened.value().select("x86_64") != nullptr);
      if (version > 1) CHECK(image_extent(ccob.value().data()).value() == ccob.value().size());
    }
  }
}

TEST_CASE("Unit_codeobj_CompressedBundle_Negative_Malformed") {
  auto bundle =
      write_bundle({{"hipv4-amdgcn-amd-amdhsa--gfx90a", bytes_of("payload payload payload")}});
  auto ccob = compress_bundle(bundle, Compression::kZstd, 3).value();
  auto bad_version = ccob;
  bad_version[4] = std::byte{9};
  CHECK(decompress_bundle(bad_version).status().code() == hipErrorInvalidImage);
  auto bad_method = ccob;
  bad_method[6] = std::byte{7};
  CHECK(decompress_bundle(bad_method).status().code() == hipErrorInvalidImage);
  auto huge = ccob;
  huge[16 + 5] = std::byte{0x7f};  // uncompressed size of terabytes
  CHECK(decompress_bundle(huge).status().code() == hipErrorInvalidImage);
  auto corrupt = ccob;
  corrupt[ccob.size() - 3] ^= std::byte{0xff};
  CHECK(decompress_bundle(corrupt).status().code() == hipErrorInvalidImage);
  CHECK(
      image_extent(compress_bundle(bundle, Compression::kZlib, 1).value().data()).status().code() ==
      hipErrorInvalidImage);
  for (uint16_t v : {1, 2, 3})
    for (Compression m : {Compression::kZlib, Compression::kZstd})
      survives_corruption(compress_bundle(bundle, m, v).value(),
                          [](Bytes b) { return decompress_bundle(b, 1 << 20).ok(); });
}

TEST_CASE("Unit_codeobj_TargetId_Positive_CompatibilityRule") {
  CHECK(is_compatible("gfx90a", "gfx90a:sramecc+:xnack-"));
  CHECK(is_compatible("gfx90a:xnack-", "gfx90a:sramecc+:xnack-"));
  CHECK(is_compatible("gfx90a:sramecc+:xnack-", "gfx90a:sramecc+:xnack-"));
  CHECK_FALSE(is_compatible("gfx90a:xnack+", "gfx90a:sramecc+:xnack-"));
  CHECK_FALSE(is_compatible("gfx908", "gfx90a:sramecc+:xnack-"));
  CHECK_FALSE(is_compatible("gfx90a:xnack-", "gfx90a"));
  CHECK(is_compatible("x86_64", "x86_64"));
  CHECK_FALSE(is_compatible("x86_64", "gfx90a"));
  CHECK(is_compatible("sm_90", "sm_90"));
  CHECK(is_compatible("sm_80", "sm_86"));
  CHECK_FALSE(is_compatible("sm_86", "sm_80"));
  CHECK_FALSE(is_compatible("sm_80", "sm_90"));
  CHECK_FALSE(is_compatible("sm_90a", "sm_91"));
  CHECK_FALSE(is_compatible("", "x86_64"));
  CHECK_FALSE(is_compatible("gfx90a:xnack", "gfx90a:xnack+"));
  auto id = parse_target_id("gfx90a:xnack-:sramecc+");
  REQUIRE(id.ok());
  CHECK(id.value().str() == "gfx90a:sramecc+:xnack-");
  CHECK_FALSE(parse_target_id("gfx90a:xnack+:xnack-").ok());
}

TEST_CASE("Unit_codeobj_TargetId_Positive_FromElfFlags") {
  CHECK(amdgpu_target_from_flags(0x53f, 2).value() == "gfx90a");
  CHECK(amdgpu_target_from_flags(0x73f, 2).value() == "gfx90a:xnack+");
  CHECK(amdgpu_target_from_flags(0xe3f, 2).value() == "gfx90a:sramecc+:xnack-");
  CHECK(amdgpu_target_from_flags(0x41, 2).value() == "gfx1100");
  CHECK(amdgpu_target_from_flags(0x36, 3).value() == "gfx1030");
  CHECK(amdgpu_target_from_flags(0x32f, 1).value() == "gfx906:sramecc+:xnack+");
  CHECK(amdgpu_target_from_flags(0x01, 2).status().code() == hipErrorInvalidImage);
}

TEST_CASE("Unit_codeobj_Msgpack_Positive_Values") {
  // {"a": [1, -1, 300, true, nil, "xy", 1.5]}
  const unsigned char data[] = {0x81, 0xa1, 'a',  0x97, 0x01, 0xff, 0xcd, 0x01,
                                0x2c, 0xc3, 0xc0, 0xa2, 'x',  'y',  0xcb, 0x3f,
                                0xf8, 0,    0,    0,    0,    0,    0};
  auto v = parse_msgpack(Bytes(reinterpret_cast<const std::byte*>(data), sizeof(data)));
  REQUIRE(v.ok());
  const MsgValue* a = v.value().find("a");
  REQUIRE(a != nullptr);
  REQUIRE(a->array.size() == 7);
  CHECK(a->array[0].as_uint() == 1u);
  CHECK(a->array[1].int_value == -1);
  CHECK(a->array[2].as_uint() == 300u);
  CHECK(a->array[3].as_bool() == true);
  CHECK(a->array[4].type == MsgValue::Type::kNil);
  CHECK(a->array[5].as_string() == "xy");
  CHECK(a->array[6].float_value == 1.5);
}

TEST_CASE("Unit_codeobj_Msgpack_Negative_Malformed") {
  const unsigned char truncated[] = {0x92, 0x01};
  CHECK(parse_msgpack(Bytes(reinterpret_cast<const std::byte*>(truncated), 2)).status().code() ==
        hipErrorInvalidImage);
  const unsigned char huge_array[] = {0xdd, 0xff, 0xff, 0xff, 0xff};
  CHECK(!parse_msgpack(Bytes(reinterpret_cast<const std::byte*>(huge_array), 5)).ok());
  const unsigned char reserved[] = {0xc1};
  CHECK(!parse_msgpack(Bytes(reinterpret_cast<const std::byte*>(reserved), 1)).ok());
  const unsigned char trailing[] = {0x01, 0x02};
  CHECK(!parse_msgpack(Bytes(reinterpret_cast<const std::byte*>(trailing), 2)).ok());
  std::vector<std::byte> deep(100, std::byte{0x91});
  deep.push_back(std::byte{0x01});
  CHECK(parse_msgpack(deep).status().message().find("deep") != std::string::npos);
}

TEST_CASE("Unit_codeobj_KernelDescriptor_Positive_Fields") {
  std::vector<std::byte> kd(64);
  kd[0] = std::byte{0x40};  // group segment 64
  kd[8] = std::byte{0x18};  // kernarg 24
  kd[16] = std::byte{0x00};
  kd[17] = std::byte{0x10};  // entry offset 4096
  kd[56] = std::byte{0x08};  // kernarg pointer
  auto d = parse_kernel_descriptor(kd);
  REQUIRE(d.ok());
  CHECK(d.value().group_segment_fixed_size == 64);
  CHECK(d.value().kernarg_size == 24);
  CHECK(d.value().kernel_code_entry_byte_offset == 4096);
  CHECK(d.value().kernel_code_properties == 8);
  CHECK(parse_kernel_descriptor(Bytes(kd.data(), 63)).status().code() == hipErrorInvalidImage);
}

TEST_CASE("Unit_codeobj_Amdgpu_Positive_HipccBundle") {
  auto bundle = amdgpu_bundle();
  if (bundle.empty()) {
    hip_test::skip("hipcc is not installed: no AMDGPU code object to read");
    return;
  }
  auto opened = OpenedImage::open(bundle);
  REQUIRE(opened.ok());
  INFO(opened.value().targets_text());
  const CodeObjectCandidate* gfx90a = opened.value().select("gfx90a:sramecc+:xnack-");
  REQUIRE(gfx90a != nullptr);
  CHECK(opened.value().select("gfx1030") != nullptr);
  CHECK(opened.value().select("x86_64") == nullptr);
  auto co = read_amdgpu_code_object(gfx90a->data);
  REQUIRE(co.ok());
  CHECK(co.value().code_object_version >= 4);
  CHECK(co.value().target.rfind("gfx90a", 0) == 0);
  bool found = false;
  for (const AmdgpuKernel& k : co.value().kernels) {
    if (k.meta.name != "scale") continue;  // extern "C" scale(float*, float, int)
    found = true;
    REQUIRE(k.meta.args.size() >= 3);
    CHECK(k.meta.args[0].offset == 0);
    CHECK(k.meta.args[0].size == 8);
    CHECK(k.meta.args[0].value_kind == "global_buffer");
    CHECK(k.meta.args[1].offset == 8);
    CHECK(k.meta.args[2].offset == 12);
    CHECK(k.descriptor.kernarg_size == k.meta.kernarg_segment_size);
  }
  CHECK(found);
  survives_corruption(std::vector<std::byte>(gfx90a->data.begin(), gfx90a->data.end()),
                      [](Bytes b) { return read_amdgpu_code_object(b).ok(); });
}

TEST_CASE("Unit_codeobj_Image_Positive_ExtentAndSelection") {
  auto so = read_file(WEFT_TEST_CPU_OBJECT);
  CHECK(image_extent(so.data()).value() == so.size());
  auto bundle = write_bundle({{"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+", bytes_of("A")},
                              {"hipv4-x86_64-unknown-linux-gnu-x86_64", so}});
  CHECK(image_extent(bundle.data()).value() == bundle.size());
  auto opened = OpenedImage::open(bundle);
  REQUIRE(opened.ok());
  CHECK(opened.value().targets_text() == "gfx90a:xnack+, x86_64");
  CHECK(opened.value().select("gfx90a:sramecc+:xnack-") == nullptr);
  REQUIRE(opened.value().select("x86_64") != nullptr);
  CHECK(opened.value().select("x86_64")->data.size() == so.size());
  CHECK(OpenedImage::open(bytes_of("garbage!")).status().code() == hipErrorInvalidImage);
}

// weftcc's NVIDIA entries hold PTX (or a fatbin with PTX in it) written for the
// highest processor clang knows: the driver JIT-compiles it for any later GPU, so
// the entry is offered to every NVIDIA agent of at least its sm; a cubin is not.
TEST_CASE("Unit_codeobj_Image_Positive_PtxEntryOfferedToLaterGpus") {
  CHECK(ptx_runs_on("sm_80", "sm_90"));
  CHECK(ptx_runs_on("sm_86", "sm_86"));
  CHECK_FALSE(ptx_runs_on("sm_86", "sm_80"));
  CHECK_FALSE(ptx_runs_on("sm_90a", "sm_100"));
  CHECK_FALSE(ptx_runs_on("sm_80", "gfx90a"));

  auto ptx = bytes_of("//\n.version 7.5\n.target sm_80\n");
  // A fatbin: 16-byte header, then one PTX entry (kind 1, 64-byte entry header).
  auto fatbin_of = [](uint16_t kind) {
    std::vector<std::byte> f(16 + 64 + 8);
    auto put = [&](size_t at, uint64_t v, size_t n) {
      for (size_t i = 0; i < n; ++i) f[at + i] = std::byte(static_cast<uint8_t>(v >> (8 * i)));
    };
    put(0, 0xBA55ED50, 4), put(4, 1, 2), put(6, 16, 2), put(8, 64 + 8, 8);
    put(16, kind, 2), put(18, 0x0101, 2), put(20, 64, 4), put(24, 8, 8);
    return f;
  };
  auto cubin = bytes_of(
      "\x7f"
      "ELF cubin");
  auto bundle = write_bundle({{"hipv4-nvptx64-nvidia-cuda--sm_80", cubin},
                              {"hipv4-nvptx64-nvidia-cuda--sm_86", fatbin_of(2)},
                              {"hipv4-nvptx64-nvidia-cuda--sm_70", fatbin_of(1)},
                              {"hipv4-nvptx64-nvidia-cuda--sm_75", ptx}});
  auto opened = OpenedImage::open(bundle);
  REQUIRE(opened.ok());
  // sm_80 cubin: same major; sm_86 fatbin of cubins only: not for sm_90.
  REQUIRE(opened.value().select("sm_80") != nullptr);
  CHECK(opened.value().select("sm_80")->entry_id == "hipv4-nvptx64-nvidia-cuda--sm_80");
  REQUIRE(opened.value().select("sm_90") != nullptr);
  CHECK(opened.value().select("sm_90")->entry_id == "hipv4-nvptx64-nvidia-cuda--sm_70");
  auto ptx_only = OpenedImage::open(write_bundle({{"hipv4-nvptx64-nvidia-cuda--sm_86", ptx}}));
  REQUIRE(ptx_only.ok());
  CHECK(ptx_only.value().select("sm_90") != nullptr);
  CHECK(ptx_only.value().select("sm_80") == nullptr);
  CHECK(ptx_only.value().select("x86_64") == nullptr);
}
