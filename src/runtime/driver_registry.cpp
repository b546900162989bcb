// SPDX-License-Identifier: MIT
// The drivers compiled into this build. Each returns zero devices when its
// hardware or vendor library is missing, so all are always safe to list.
// Optional drivers are found through weak references: a driver folder that is
// not built simply leaves its factory null.
#include <weft/driver/registry.hpp>

namespace weft {
namespace cpu {
std::unique_ptr<Driver> make_driver();
}
namespace cuda {
std::unique_ptr<Driver> make_driver() __attribute__((weak));
}
namespace hsa {
std::unique_ptr<Driver> make_driver() __attribute__((weak));
}
namespace xdna {
std::unique_ptr<Driver> make_driver() __attribute__((weak));
}
// drivers/null: no agents unless WEFT_NULL_DRIVER asks (tests only).
namespace null {
std::unique_ptr<Driver> make_driver() __attribute__((weak));
}

std::vector<std::unique_ptr<Driver>> make_builtin_drivers() {
  std::vector<std::unique_ptr<Driver>> drivers;
  // GPU and NPU drivers first: their agents get the low ordinals. Null agents
  // come after the real ones, so enabling them never renumbers a GPU.
  for (auto factory :
       {&hsa::make_driver, &cuda::make_driver, &xdna::make_driver, &null::make_driver})
    if (factory) drivers.push_back(factory());
  drivers.push_back(cpu::make_driver());
  return drivers;
}

}  // namespace weft
