// SPDX-License-Identifier: MIT
// Target IDs and the rule that says whether a code object runs on an agent.
//
//   <processor>(:<feature>(+|-))*      gfx90a:sramecc+:xnack-, gfx1030, sm_90, x86_64
//
// Compatible (image → device): same processor; each feature the image fixes
// (+ or -) must be in that mode on the device; a feature the image leaves out
// ("any") matches either mode. NVIDIA sm_XY images also run on sm_XZ devices with
// Z >= Y (same major), except arch-specific "a" targets, which need an exact match.
// Pure functions.
#pragma once

#include <weft/driver/status.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace weft::codeobj {

struct TargetFeature {
  std::string name;
  char mode = '+';  // '+' or '-'
};

struct TargetId {
  std::string processor;
  std::vector<TargetFeature> features;  // in the order written

  // Canonical text: features sorted by name.
  std::string str() const;
};

Result<TargetId> parse_target_id(std::string_view text);

// Whether an image built for `image` runs on an agent whose target ID is `device`.
// Unparsable IDs are never compatible.
bool is_compatible(std::string_view image, std::string_view device);

// Whether NVIDIA PTX written for `image` (sm_XY) can be JIT-compiled for `device`:
// any NVIDIA device of compute capability >= X.Y (not for "a" targets, whose PTX
// uses features later GPUs lack). A bundle entry holding PTX (or a fatbin, which may
// carry PTX: the driver decides) is offered by this rule instead of is_compatible's.
bool ptx_runs_on(std::string_view image, std::string_view device);

// The processor name for an EF_AMDGPU_MACH value ("" when unknown).
std::string_view amdgpu_processor(uint32_t mach);
// The target ID that an AMDGPU ELF's e_flags describe, e.g. "gfx90a:sramecc+:xnack-".
// `abi_version` is EI_ABIVERSION (0 = code object v2 ... 4 = v6).
Result<std::string> amdgpu_target_from_flags(uint32_t e_flags, uint8_t abi_version);

}  // namespace weft::codeobj
