// SPDX-License-Identifier: MIT
// libFuzzer target: hipModuleLoadData end to end (measure, copy, open the
// container, check and dlopen a CPU code object, get functions and a global,
// unload) on the fuzz input, placed against a PROT_NONE page so that reading
// past its end faults. Linked against the built libamdhip64, which is not
// instrumented; so the target first runs instrumented copies of the same
// checks (extent, container, ELF, CPU code object checks) on the same bytes,
// which gives libFuzzer coverage of the paths hipModuleLoadData then takes.
#include "../../../drivers/cpu/object_check.hpp"

#include <hip/hip_runtime.h>
#include <weft/codeobj/elf.hpp>
#include <weft/codeobj/image.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <vector>

namespace {

// Machine code is what a caller chooses to run (docs/code-objects.md): a
// mutated instruction in a constructor crashes in any loader. So an input is
// loaded end to end only when its executable segments (placement and bytes) are
// those of the seed object; everything else about it may be mutated.
std::set<uint64_t> g_trusted_code;

uint64_t code_hash(weft::codeobj::Bytes image) {
  auto elf = weft::codeobj::parse_elf(image);
  if (!elf.ok()) return 0;
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  for (const auto& s : elf.value().segments) {
    if (s.type != weft::codeobj::kSegmentLoad || !(s.flags & 1)) continue;
    mix(s.vaddr), mix(s.memsz), mix(s.offset);
    if (auto bytes = weft::codeobj::sub_span(image, s.offset, s.filesz))
      for (std::byte b : *bytes) mix(static_cast<uint64_t>(b));
  }
  return h;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("AMD_LOG_LEVEL", "0", 1);  // every rejected input would log a line
  std::ifstream in(WEFT_FUZZ_TRUSTED_CODE, std::ios::binary);
  std::vector<char> seed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  g_trusted_code.insert(code_hash({reinterpret_cast<const std::byte*>(seed.data()), seed.size()}));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t body = (size + page - 1) / page * page + page;  // at least one readable page
  auto* map = static_cast<unsigned char*>(
      mmap(nullptr, body + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (map == MAP_FAILED) return 0;
  mprotect(map + body, page, PROT_NONE);
  unsigned char* image = map + body - size;
  if (size) std::memcpy(image, data, size);
  bool trusted = true;
  if (auto copy = weft::codeobj::copy_image(reinterpret_cast<const std::byte*>(image)); copy.ok()) {
    if (auto opened = weft::codeobj::OpenedImage::open(copy.value()); opened.ok()) {
      if (const auto* chosen = opened.value().select("x86_64"))
        if (auto elf = weft::codeobj::parse_elf(chosen->data); elf.ok()) {
          (void)weft::cpu::check_cpu_object(elf.value());
          trusted = g_trusted_code.count(code_hash(chosen->data)) != 0;
        }
    }
  }
  hipModule_t module = nullptr;
  if (trusted && hipModuleLoadData(&module, image) == hipSuccess) {
    for (const char* name :
         {"fill_index", "axpy", "scale<float>", "_Z9block_sumPKiPi", "missing"}) {
      hipFunction_t f = nullptr;
      if (hipModuleGetFunction(&f, module, name) == hipSuccess) (void)hipKernelNameRef(f);
    }
    hipDeviceptr_t global = nullptr;
    size_t bytes = 0;
    (void)hipModuleGetGlobal(&global, &bytes, module, "table");
    (void)hipModuleUnload(module);
  }
  munmap(map, body + page);
  return 0;
}
