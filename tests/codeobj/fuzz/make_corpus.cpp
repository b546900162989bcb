// SPDX-License-Identifier: MIT
// Writes the seed corpus of the code-object fuzz targets from real files:
//   make_corpus <out-dir> <file>...
// Files may be ELF code objects (CPU or AMDGPU) or offload bundles (hipcc
// --cuda-device-only output). Each seed goes to <out-dir>/<target>/<name>.
#include <weft/codeobj/amdgpu.hpp>
#include <weft/codeobj/bundle.hpp>
#include <weft/codeobj/elf.hpp>
#include <weft/codeobj/image.hpp>
#include <weft/codeobj/npu_object.hpp>
#include <weft/codeobj/xclbin.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace weft::codeobj;

namespace {

fs::path g_out;
int g_count = 0;

void seed(const std::string& target, const std::string& name, Bytes bytes) {
  fs::create_directories(g_out / target);
  std::ofstream(g_out / target / name, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  ++g_count;
}

void seed_text(const std::string& target, const std::string& name, std::string_view text) {
  seed(target, name, Bytes(reinterpret_cast<const std::byte*>(text.data()), text.size()));
}

void amdgpu_seeds(const std::string& name, Bytes elf) {
  seed("amdgpu", name, elf);
  auto co = read_amdgpu_code_object(elf);
  if (!co.ok()) return;
  auto notes = elf_notes(co.value().elf);
  if (notes.ok())
    for (const auto& n : notes.value())
      if (n.type == kNoteAmdgpuMetadata) seed("msgpack", name + ".metadata", n.desc);
  seed_text("target_id", name + ".target",
            co.value().target + "\n" + co.value().target + ":sramecc+:xnack-");
}

void bundle_seeds(const std::string& name, const std::vector<std::byte>& bundle) {
  seed("bundle", name, bundle);
  for (uint16_t v : {1, 2, 3})
    for (Compression m : {Compression::kZlib, Compression::kZstd}) {
      auto ccob = compress_bundle(bundle, m, v);
      if (ccob.ok())
        seed("bundle", name + ".ccob" + std::to_string(v) + (m == Compression::kZlib ? "z" : "s"),
             ccob.value());
    }
  auto parsed = parse_bundle(bundle);
  if (!parsed.ok()) return;
  for (const auto& e : parsed.value().entries) {
    seed_text("target_id", name + "." + std::to_string(&e - parsed.value().entries.data()) + ".id",
              e.id);
    if (!is_elf(e.data)) continue;
    std::string entry_name = name + "." + std::string(parse_entry_id(e.id).target);
    seed("elf", entry_name, e.data);
    if (parse_elf(e.data).ok() && parse_elf(e.data).value().machine == kElfMachineAmdgpu)
      amdgpu_seeds(entry_name, e.data);
  }
}

bool target_is_host(Bytes bytes) {
  auto target = elf_target(bytes);
  return target.ok() && (target.value() == "x86_64" || target.value() == "aarch64");
}

// fuzz_module (hipModuleLoadData end to end): the CPU code object, a fat bundle
// holding it, and that bundle compressed (CCOB v2 and v3 record their size).
void module_seeds(const std::string& name, Bytes so) {
  seed("module", name, so);
  auto bundle = write_bundle(
      {{"host-x86_64-unknown-linux-gnu", {}},
       {"hipv4-x86_64-unknown-linux-gnu-x86_64", std::vector<std::byte>(so.begin(), so.end())}});
  seed("module", name + ".bundle", bundle);
  for (uint16_t v : {2, 3}) {
    auto ccob = compress_bundle(bundle, Compression::kZstd, v);
    if (ccob.ok()) seed("module", name + ".ccob" + std::to_string(v), ccob.value());
  }
}

// NPU seeds, made with the writers: xclbins (one and two PDIs) and NPU code
// objects in the mlir-aie layout, with scalars, several kernels, and a bundle
// entry holding one.
void npu_seeds() {
  auto pdi = [](uint8_t fill, std::vector<uint64_t> ids) {
    XclbinPdiInput p;
    p.uuid.fill(fill);
    p.image.assign(96, std::byte(fill));
    p.kernel_ids = std::move(ids);
    return p;
  };
  XclbinInput one;
  one.operations_per_cycle = 2048;
  one.column_width = 1;
  one.start_columns = {0, 1, 2, 3};
  one.pdis = {pdi(0x11, {0x901})};
  XclbinInput two = one;
  two.column_width = 4;
  two.start_columns = {0};
  two.pdis = {pdi(0x22, {0x901, 0x902}), pdi(0x33, {0x903})};
  auto x1 = write_xclbin(one), x2 = write_xclbin(two);
  seed("xclbin", "npu_one_pdi.xclbin", x1);
  seed("xclbin", "npu_two_pdis.xclbin", x2);
  std::vector<NpuKernelInput> single{
      mlir_aie_kernel("passthrough", {0x06030100u, 0x00000105u, 3, 0x10}, 2)};
  NpuKernelInput scalars = mlir_aie_kernel("scale", {1, 2, 3, 4, 5, 6}, 2);
  scalars.args.push_back({NpuArgKind::kScalar, 4, scalars.regmap_size});
  scalars.args.push_back({NpuArgKind::kScalar, 8, scalars.regmap_size + 4});
  scalars.regmap_size += 12;
  NpuKernelInput old_layout = mlir_aie_kernel("old_layout", {7, 8}, 0);  // instr first, u64 ninstr
  old_layout.instr_slot = 0x00, old_layout.ninstr_slot = 0x08, old_layout.opcode_slot = 0x30;
  old_layout.args = {{NpuArgKind::kBuffer, 8, 0x10}, {NpuArgKind::kBuffer, 8, 0x18}};
  old_layout.regmap_size = 0x38;
  NpuKernelInput second = mlir_aie_kernel("second", {9}, 5);
  second.dpu_kernel_id = 0x903;
  auto o1 = write_npu_object("aie2", x1, single);
  seed("npu_object", "passthrough.npu", o1);
  seed("npu_object", "three_kernels.npu",
       write_npu_object("aie2p", x2, {scalars, old_layout, second}));
  seed("bundle", "npu.bundle",
       write_bundle({{"host-x86_64-unknown-linux-gnu", {}}, {"hipv4-aie2-amd-xdna--aie2", o1}}));
  seed_text("target_id", "npu.target", "hipv4-aie2-amd-xdna--aie2\naie2");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: make_corpus <out-dir> <file>...\n");
    return 2;
  }
  g_out = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto* p = reinterpret_cast<const std::byte*>(chars.data());
    std::vector<std::byte> bytes(p, p + chars.size());
    std::string name = fs::path(argv[i]).filename().string();
    if (is_bundle(bytes)) {
      bundle_seeds(name, bytes);
    } else if (is_elf(bytes)) {
      seed("elf", name, bytes);
      if (target_is_host(bytes)) module_seeds(name, bytes);
      auto target = elf_target(bytes);
      if (target.ok() && target.value() != "x86_64" && target.value() != "aarch64")
        amdgpu_seeds(name, bytes);
      bundle_seeds(name + ".bundle",
                   write_bundle({{"host-x86_64-unknown-linux", {}},
                                 {"hipv4-x86_64-unknown-linux-gnu-x86_64", bytes}}));
    }
  }
  npu_seeds();
  for (const char* t :
       {"gfx90a\ngfx90a:sramecc+:xnack-", "gfx90a:xnack+\ngfx90a:sramecc-:xnack+", "sm_80\nsm_86",
        "x86_64\nx86_64", "hipv4-amdgcn-amd-amdhsa--gfx1030\ngfx1030"})
    seed_text("target_id", "text" + std::to_string(g_count), t);
  // Images only a driver understands: PTX text and an NVIDIA fat binary header.
  seed_text("bundle", "ptx", "//\n// Generated\n.version 7.8\n.target sm_90\n.address_size 64\n");
  const unsigned char fatbin[16] = {0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  seed("bundle", "nvidia_fatbin",
       Bytes(reinterpret_cast<const std::byte*>(fatbin), sizeof(fatbin)));
  std::printf("%d seeds in %s\n", g_count, argv[1]);
  return 0;
}
