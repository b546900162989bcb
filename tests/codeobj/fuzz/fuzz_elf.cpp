// SPDX-License-Identifier: MIT
// libFuzzer target: the ELF reader and what the loaders ask of it.
#include <weft/codeobj/elf.hpp>
#include <weft/codeobj/image.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  weft::codeobj::Bytes bytes(reinterpret_cast<const std::byte*>(data), size);
  (void)weft::codeobj::elf_target(bytes);
  auto elf = weft::codeobj::parse_elf(bytes);
  if (!elf.ok()) return 0;
  const auto& file = elf.value();
  (void)weft::codeobj::elf_notes(file);
  if (const auto* s = file.symbol("weft_cpu_code_object")) (void)file.bytes_at(s->value, s->size);
  for (const auto& s : file.symbols) {
    (void)file.symbol_at(s.value);
    (void)file.bytes_at(s.value, 64);
  }
  return 0;
}
