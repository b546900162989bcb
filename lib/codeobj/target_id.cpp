// SPDX-License-Identifier: MIT
#include <weft/codeobj/target_id.hpp>

#include <weft/codeobj/bytes.hpp>

#include <algorithm>
#include <charconv>

namespace weft::codeobj {
namespace {

struct MachName {
  uint32_t mach;
  std::string_view name;
};

// EF_AMDGPU_MACH values (LLVM's ELF.h).
constexpr MachName kMachNames[] = {
    {0x20, "gfx600"},        {0x21, "gfx601"},          {0x22, "gfx700"},
    {0x23, "gfx701"},        {0x24, "gfx702"},          {0x25, "gfx703"},
    {0x26, "gfx704"},        {0x28, "gfx801"},          {0x29, "gfx802"},
    {0x2a, "gfx803"},        {0x2b, "gfx810"},          {0x2c, "gfx900"},
    {0x2d, "gfx902"},        {0x2e, "gfx904"},          {0x2f, "gfx906"},
    {0x30, "gfx908"},        {0x31, "gfx909"},          {0x32, "gfx90c"},
    {0x33, "gfx1010"},       {0x34, "gfx1011"},         {0x35, "gfx1012"},
    {0x36, "gfx1030"},       {0x37, "gfx1031"},         {0x38, "gfx1032"},
    {0x39, "gfx1033"},       {0x3a, "gfx602"},          {0x3b, "gfx705"},
    {0x3c, "gfx805"},        {0x3d, "gfx1035"},         {0x3e, "gfx1034"},
    {0x3f, "gfx90a"},        {0x40, "gfx940"},          {0x41, "gfx1100"},
    {0x42, "gfx1013"},       {0x43, "gfx1150"},         {0x44, "gfx1103"},
    {0x45, "gfx1036"},       {0x46, "gfx1101"},         {0x47, "gfx1102"},
    {0x48, "gfx1200"},       {0x4a, "gfx1151"},         {0x4b, "gfx941"},
    {0x4c, "gfx942"},        {0x4e, "gfx1201"},         {0x4f, "gfx950"},
    {0x51, "gfx9-generic"},  {0x52, "gfx10-1-generic"}, {0x53, "gfx10-3-generic"},
    {0x54, "gfx11-generic"}, {0x55, "gfx1152"},         {0x58, "gfx1153"},
    {0x59, "gfx12-generic"}, {0x5f, "gfx9-4-generic"},
};

struct SmVersion {
  int major = 0;
  int minor = 0;
  bool arch_specific = false;
};

// "sm_90" → {9, 0}; "sm_90a" → arch-specific; nullopt for anything else.
std::optional<SmVersion> parse_sm(std::string_view p) {
  if (p.size() < 5 || p.substr(0, 3) != "sm_") return std::nullopt;
  std::string_view digits = p.substr(3);
  SmVersion v;
  if (digits.back() == 'a') {
    v.arch_specific = true;
    digits.remove_suffix(1);
  }
  int number = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (ec != std::errc() || end != digits.data() + digits.size() || number < 10) return std::nullopt;
  v.major = number / 10;
  v.minor = number % 10;
  return v;
}

bool same_processor(std::string_view image, std::string_view device) {
  if (image == device) return true;
  auto i = parse_sm(image);
  auto d = parse_sm(device);
  if (!i || !d || i->arch_specific) return false;
  return i->major == d->major && i->minor <= d->minor;
}

}  // namespace

std::string TargetId::str() const {
  std::vector<TargetFeature> sorted = features;
  std::sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.name < b.name; });
  std::string out = processor;
  for (const auto& f : sorted) out += ":" + f.name + f.mode;
  return out;
}

Result<TargetId> parse_target_id(std::string_view text) {
  TargetId id;
  size_t colon = text.find(':');
  id.processor = std::string(text.substr(0, colon));
  if (id.processor.empty())
    return invalid_image(text_of("target ID \"", text, "\" has no processor"));
  while (colon != std::string_view::npos) {
    text.remove_prefix(colon + 1);
    colon = text.find(':');
    std::string_view feature = text.substr(0, colon);
    if (feature.size() < 2 || (feature.back() != '+' && feature.back() != '-'))
      return invalid_image(text_of("target ID feature \"", feature, "\" must end in + or -"));
    TargetFeature f{std::string(feature.substr(0, feature.size() - 1)), feature.back()};
    for (const auto& seen : id.features)
      if (seen.name == f.name) return invalid_image(text_of("target ID repeats feature ", f.name));
    id.features.push_back(std::move(f));
  }
  return id;
}

bool is_compatible(std::string_view image, std::string_view device) {
  auto i = parse_target_id(image);
  auto d = parse_target_id(device);
  if (!i.ok() || !d.ok()) return false;
  if (!same_processor(i.value().processor, d.value().processor)) return false;
  for (const TargetFeature& want : i.value().features) {
    auto& have = d.value().features;
    auto it = std::find_if(have.begin(), have.end(), [&](auto& f) { return f.name == want.name; });
    if (it == have.end() || it->mode != want.mode) return false;
  }
  return true;
}

bool ptx_runs_on(std::string_view image, std::string_view device) {
  auto i = parse_sm(image);
  auto d = parse_sm(device);
  if (!i || !d || i->arch_specific) return false;
  return d->major * 10 + d->minor >= i->major * 10 + i->minor;
}

std::string_view amdgpu_processor(uint32_t mach) {
  for (const auto& m : kMachNames)
    if (m.mach == mach) return m.name;
  return {};
}

Result<std::string> amdgpu_target_from_flags(uint32_t flags, uint8_t abi_version) {
  std::string_view processor = amdgpu_processor(flags & 0xff);
  if (processor.empty())
    return invalid_image(
        text_of("AMDGPU ELF: unknown processor (EF_AMDGPU_MACH ", flags & 0xff, ")"));
  std::string out(processor);
  if (abi_version >= 2) {  // code object v4+: two-bit modes, 0 unsupported, 1 any, 2 off, 3 on
    unsigned sramecc = (flags >> 10) & 3, xnack = (flags >> 8) & 3;
    if (sramecc >= 2) out += sramecc == 3 ? ":sramecc+" : ":sramecc-";
    if (xnack >= 2) out += xnack == 3 ? ":xnack+" : ":xnack-";
  } else {  // v2/v3: a set bit means the feature is on
    if (flags & 0x200) out += ":sramecc+";
    if (flags & 0x100) out += ":xnack+";
  }
  return out;
}

}  // namespace weft::codeobj
