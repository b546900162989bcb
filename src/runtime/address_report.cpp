// SPDX-License-Identifier: MIT
// describe_nearest_allocation (include/weft/driver/address_report.hpp): the
// driver-side fault reports name the allocation a bad address most likely
// belonged to, as a GPU's fault report names the buffer.
#include <weft/driver/address_report.hpp>

#include "runtime/runtime.hpp"

#include <fmt/format.h>

namespace weft {

std::string describe_nearest_allocation(const void* address) {
  auto at = reinterpret_cast<uintptr_t>(address);
  // Nothing is ever mapped this low (vm.mmap_min_addr): a null pointer, maybe plus a field offset.
  if (at < 65536) return "a null pointer (no HIP allocation is this low)";
  PointerTable::Neighbours near = Runtime::get().pointers().neighbours(address);
  auto base_of = [](const AllocationRecord& r) { return reinterpret_cast<uintptr_t>(r.base); };
  if (near.below && at - base_of(*near.below) < near.below->size)
    return fmt::format("inside the {}-byte HIP allocation at {} (offset {})", near.below->size,
                       static_cast<const void*>(near.below->base), at - base_of(*near.below));
  // Distances past the end of the allocation below and before the one above.
  uintptr_t past = near.below ? at - (base_of(*near.below) + near.below->size) : UINTPTR_MAX;
  uintptr_t before = near.above ? base_of(*near.above) - at : UINTPTR_MAX;
  if (past == UINTPTR_MAX && before == UINTPTR_MAX) return "no HIP allocation exists";
  if (past <= before)
    return fmt::format(
        "nearest HIP allocation: {} bytes past the end of the {}-byte allocation at {}", past,
        near.below->size, static_cast<const void*>(near.below->base));
  return fmt::format("nearest HIP allocation: {} bytes before the {}-byte allocation at {}", before,
                     near.above->size, static_cast<const void*>(near.above->base));
}

}  // namespace weft
