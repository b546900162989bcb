// SPDX-License-Identifier: MIT
// The drivers compiled into this build. Each returns zero devices when its
// hardware or vendor library is missing, so all are always safe to list.
#include <weft/driver/registry.hpp>

namespace weft {
namespace cpu {
std::unique_ptr<Driver> make_driver();
}

std::vector<std::unique_ptr<Driver>> make_builtin_drivers() {
  std::vector<std::unique_ptr<Driver>> drivers;
  drivers.push_back(cpu::make_driver());
  return drivers;
}

}  // namespace weft
