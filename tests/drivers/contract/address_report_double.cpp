// SPDX-License-Identifier: MIT
// describe_nearest_allocation (include/weft/driver/address_report.hpp) for
// driver tests that link a driver without the runtime: the runtime's pointer
// table is not there, so the CPU driver's fault reports say so instead of
// naming an allocation.
#include <weft/driver/address_report.hpp>

namespace weft {

std::string describe_nearest_allocation(const void*) {
  return "no HIP allocation table (driver linked without the runtime)";
}

}  // namespace weft
