// SPDX-License-Identifier: MIT
#include <weft/codeobj/npu_object.hpp>

#include <algorithm>
#include <cstring>
#include <set>

namespace weft::codeobj {
namespace {

constexpr uint32_t kMaxKernels = 1024;
constexpr uint32_t kMaxArgs = 256;
constexpr uint32_t kMaxName = 1024;

Result<Bytes> range(Bytes file, uint64_t offset, uint64_t size, const std::string& what) {
  auto r = sub_span(file, offset, size);
  if (!r)
    return invalid_image(text_of("NPU code object: ", what, " (", size, " bytes at ", offset,
                                 ") runs past the ", file.size(), "-byte object"));
  return *r;
}

// Marks [offset, offset + size) of the register map as used; false when it
// leaves the map or overlaps an earlier field.
bool claim(std::vector<bool>& used, uint64_t offset, uint64_t size) {
  if (offset > used.size() || size > used.size() - offset) return false;
  for (uint64_t i = offset; i < offset + size; ++i) {
    if (used[i]) return false;
    used[i] = true;
  }
  return true;
}

Result<NpuKernel> parse_kernel(Bytes file, Bytes record, uint32_t index) {
  NpuKernel k;
  std::string where = text_of("kernel ", index);
  uint64_t name_offset = *read_le<uint64_t>(record, 0);
  uint32_t name_size = *read_le<uint32_t>(record, 8);
  if (name_size == 0 || name_size > kMaxName)
    return invalid_image(text_of("NPU code object: ", where, " has a ", name_size,
                                 "-byte name (1..", kMaxName, ")"));
  WEFT_ASSIGN_OR_RETURN(Bytes name, range(file, name_offset, name_size, where + " name"));
  k.name = std::string(as_text(name));
  if (k.name.find('\0') != std::string::npos)
    return invalid_image(text_of("NPU code object: ", where, " name holds a NUL byte"));
  where = "kernel " + k.name;
  k.dpu_kernel_id = *read_le<uint32_t>(record, 12);
  uint64_t instr_offset = *read_le<uint64_t>(record, 16),
           instr_size = *read_le<uint64_t>(record, 24);
  if (instr_size == 0 || instr_size % 4 != 0)
    return invalid_image(text_of("NPU code object: ", where, " has ", instr_size,
                                 " instruction bytes (a positive multiple of 4 expected)"));
  WEFT_ASSIGN_OR_RETURN(k.instructions,
                        range(file, instr_offset, instr_size, where + " instructions"));
  uint64_t args_offset = *read_le<uint64_t>(record, 32);
  uint32_t arg_count = *read_le<uint32_t>(record, 40);
  k.regmap_size = *read_le<uint32_t>(record, 44);
  k.opcode_slot = *read_le<uint16_t>(record, 48);
  k.instr_slot = *read_le<uint16_t>(record, 50);
  k.ninstr_slot = *read_le<uint16_t>(record, 52);
  k.opcode_value = *read_le<uint32_t>(record, 56);
  k.cu_func = static_cast<uint8_t>(record[60]);
  if (*read_le<uint16_t>(record, 54) != 0 || record[61] != std::byte{0} ||
      record[62] != std::byte{0} || record[63] != std::byte{0})
    return invalid_image(text_of("NPU code object: ", where, " has nonzero reserved bytes"));
  if (k.regmap_size == 0 || k.regmap_size % 4 != 0 || k.regmap_size > kNpuMaxRegmapBytes)
    return invalid_image(text_of("NPU code object: ", where, " register map of ", k.regmap_size,
                                 " bytes (a multiple of 4 up to ", kNpuMaxRegmapBytes,
                                 " expected)"));
  if (arg_count > kMaxArgs)
    return invalid_image(text_of("NPU code object: ", where, " has ", arg_count,
                                 " arguments (at most ", kMaxArgs, ")"));
  WEFT_ASSIGN_OR_RETURN(
      Bytes args,
      range(file, args_offset, uint64_t(arg_count) * kNpuArgRecordSize, where + " argument table"));
  std::vector<bool> used(k.regmap_size, false);
  if (!claim(used, k.opcode_slot, 8) || !claim(used, k.instr_slot, 8) ||
      !claim(used, k.ninstr_slot, 4))
    return invalid_image(text_of("NPU code object: ", where,
                                 " opcode/instruction slots overlap or leave the register map"));
  for (uint32_t i = 0; i < arg_count; ++i) {
    Bytes a = args.subspan(i * kNpuArgRecordSize, kNpuArgRecordSize);
    NpuArg arg;
    uint32_t kind = *read_le<uint32_t>(a, 0);
    arg.size = *read_le<uint32_t>(a, 4);
    arg.regmap_offset = *read_le<uint32_t>(a, 8);
    if (*read_le<uint32_t>(a, 12) != 0)
      return invalid_image(
          text_of("NPU code object: ", where, " argument ", i, " has nonzero reserved bytes"));
    if (kind == uint32_t(NpuArgKind::kBuffer)) {
      if (arg.size != 8)
        return invalid_image(text_of("NPU code object: ", where, " buffer argument ", i, " of ",
                                     arg.size, " bytes (8 expected)"));
    } else if (kind == uint32_t(NpuArgKind::kScalar)) {
      if (arg.size != 1 && arg.size != 2 && arg.size != 4 && arg.size != 8)
        return invalid_image(text_of("NPU code object: ", where, " scalar argument ", i, " of ",
                                     arg.size, " bytes (1, 2, 4 or 8 expected)"));
    } else {
      return invalid_image(text_of("NPU code object: ", where, " argument ", i, " has kind ", kind,
                                   " (1 buffer, 2 scalar)"));
    }
    arg.kind = static_cast<NpuArgKind>(kind);
    if (!claim(used, arg.regmap_offset, arg.size))
      return invalid_image(text_of(
          "NPU code object: ", where, " argument ", i, " at register-map offset ",
          arg.regmap_offset, " overlaps another field or leaves the ", k.regmap_size, "-byte map"));
    k.args.push_back(arg);
  }
  return k;
}

void put(std::vector<std::byte>& out, uint64_t at, const void* value, size_t size) {
  if (out.size() < at + size) out.resize(at + size);
  if (size) std::memcpy(out.data() + at, value, size);
}
template <typename T>
void put_le(std::vector<std::byte>& out, uint64_t at, T value) {
  put(out, at, &value, sizeof(T));
}
uint64_t align8(uint64_t v) { return (v + 7) & ~uint64_t(7); }

}  // namespace

Result<std::string> npu_object_target(Bytes bytes) {
  if (!is_npu_object(bytes) || bytes.size() < kNpuHeaderSize)
    return invalid_image(
        "not a weft NPU code object (magic \"WEFTNPU\" and a 64-byte header expected)");
  std::string_view t = as_text(bytes.subspan(24, 16));
  t = t.substr(0, std::min(t.find('\0'), t.size()));
  if (t.empty()) return invalid_image("NPU code object names no target");
  for (char c : t)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return invalid_image("NPU code object target holds a character outside [a-z0-9_-]");
  return std::string(t);
}

Result<NpuObject> parse_npu_object(Bytes bytes) {
  NpuObject o;
  WEFT_ASSIGN_OR_RETURN(o.target, npu_object_target(bytes));
  uint32_t version = *read_le<uint32_t>(bytes, 8);
  if (version != kNpuObjectVersion)
    return invalid_image(
        text_of("NPU code object version ", version, " (weft reads ", kNpuObjectVersion, ")"));
  uint32_t count = *read_le<uint32_t>(bytes, 12);
  o.total_size = *read_le<uint64_t>(bytes, 16);
  if (o.total_size < kNpuHeaderSize || o.total_size > bytes.size())
    return invalid_image(
        text_of("NPU code object claims ", o.total_size, " bytes; ", bytes.size(), " are present"));
  Bytes file = bytes.first(static_cast<size_t>(o.total_size));
  if (count == 0 || count > kMaxKernels)
    return invalid_image(
        text_of("NPU code object holds ", count, " kernels (1..", kMaxKernels, ")"));
  WEFT_ASSIGN_OR_RETURN(o.xclbin_bytes, range(file, *read_le<uint64_t>(file, 40),
                                              *read_le<uint64_t>(file, 48), "xclbin"));
  WEFT_ASSIGN_OR_RETURN(o.xclbin, parse_xclbin(o.xclbin_bytes));
  WEFT_ASSIGN_OR_RETURN(Bytes table, range(file, *read_le<uint64_t>(file, 56),
                                           uint64_t(count) * kNpuKernelRecordSize, "kernel table"));
  std::set<std::string> names;
  for (uint32_t i = 0; i < count; ++i) {
    WEFT_ASSIGN_OR_RETURN(
        NpuKernel k,
        parse_kernel(file, table.subspan(i * kNpuKernelRecordSize, kNpuKernelRecordSize), i));
    if (!names.insert(k.name).second)
      return invalid_image(text_of("NPU code object: kernel ", k.name, " appears twice"));
    k.pdi = o.xclbin.pdi_for_kernel(k.dpu_kernel_id);
    if (!k.pdi)
      return invalid_image(text_of("NPU code object: no PDI of the xclbin serves kernel ", k.name,
                                   " (DPU kernel ID ", k.dpu_kernel_id, ")"));
    o.kernels.push_back(std::move(k));
  }
  return o;
}

NpuKernelInput mlir_aie_kernel(std::string name, std::vector<uint32_t> instructions,
                               unsigned buffers) {
  NpuKernelInput k;
  k.name = std::move(name);
  k.instructions = std::move(instructions);
  for (unsigned i = 0; i < buffers; ++i) k.args.push_back({NpuArgKind::kBuffer, 8, 0x14 + 8 * i});
  k.regmap_size = 0x14 + 8 * buffers;
  return k;
}

std::vector<std::byte> write_npu_object(std::string_view target,
                                        const std::vector<std::byte>& xclbin,
                                        const std::vector<NpuKernelInput>& kernels) {
  std::vector<std::byte> out(kNpuHeaderSize);
  put(out, 0, kNpuObjectMagic.data(), kNpuObjectMagic.size());
  put_le<uint32_t>(out, 8, kNpuObjectVersion);
  put_le<uint32_t>(out, 12, static_cast<uint32_t>(kernels.size()));
  put(out, 24, target.data(), std::min<size_t>(target.size(), 15));
  const uint64_t table = kNpuHeaderSize;
  put_le<uint64_t>(out, 56, table);
  out.resize(table + kernels.size() * kNpuKernelRecordSize);
  for (size_t i = 0; i < kernels.size(); ++i) {
    const NpuKernelInput& k = kernels[i];
    const uint64_t rec = table + i * kNpuKernelRecordSize;
    uint64_t name = out.size();
    put(out, name, k.name.data(), k.name.size());
    put_le<uint64_t>(out, rec + 0, name);
    put_le<uint32_t>(out, rec + 8, static_cast<uint32_t>(k.name.size()));
    put_le<uint32_t>(out, rec + 12, k.dpu_kernel_id);
    uint64_t instr = align8(out.size());
    put(out, instr, k.instructions.data(), k.instructions.size() * 4);
    put_le<uint64_t>(out, rec + 16, instr);
    put_le<uint64_t>(out, rec + 24, k.instructions.size() * 4);
    uint64_t args = align8(out.size());
    out.resize(args + k.args.size() * kNpuArgRecordSize);
    for (size_t a = 0; a < k.args.size(); ++a) {
      put_le<uint32_t>(out, args + a * 16 + 0, static_cast<uint32_t>(k.args[a].kind));
      put_le<uint32_t>(out, args + a * 16 + 4, k.args[a].size);
      put_le<uint32_t>(out, args + a * 16 + 8, k.args[a].regmap_offset);
    }
    put_le<uint64_t>(out, rec + 32, args);
    put_le<uint32_t>(out, rec + 40, static_cast<uint32_t>(k.args.size()));
    put_le<uint32_t>(out, rec + 44, k.regmap_size);
    put_le<uint16_t>(out, rec + 48, k.opcode_slot);
    put_le<uint16_t>(out, rec + 50, k.instr_slot);
    put_le<uint16_t>(out, rec + 52, k.ninstr_slot);
    put_le<uint32_t>(out, rec + 56, k.opcode_value);
    put_le<uint8_t>(out, rec + 60, k.cu_func);
  }
  uint64_t x = align8(out.size());
  put(out, x, xclbin.data(), xclbin.size());
  put_le<uint64_t>(out, 40, x);
  put_le<uint64_t>(out, 48, xclbin.size());
  put_le<uint64_t>(out, 16, out.size());
  return out;
}

}  // namespace weft::codeobj
