// SPDX-License-Identifier: MIT
// Loads NVML with dlopen and fills the symbol table.
#include "nvml.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>

namespace weft::smi::nvml {

bool load(Api& api, std::string& error) {
  const char* override_path = std::getenv("HIP_SMI_NVML_LIB");
  std::string name = override_path && *override_path ? override_path : "libnvidia-ml.so.1";
  // Never closed: NVML may keep threads of its own until the process ends.
  void* library = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = ::dlerror();
    error = name + " not found" + (why ? std::string(" (") + why + ")" : std::string());
    return false;
  }
  api.library = name;
  struct link_map* map = nullptr;
  if (::dlinfo(library, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
    api.library = map->l_name;
#define HIP_SMI_NVML_RESOLVE(symbol, type) \
  api.symbol = reinterpret_cast<type>(::dlsym(library, #symbol));
  HIP_SMI_NVML_SYMBOLS(HIP_SMI_NVML_RESOLVE)
#undef HIP_SMI_NVML_RESOLVE
  if (!api.nvmlInit_v2 || !api.nvmlDeviceGetCount_v2 || !api.nvmlDeviceGetHandleByIndex_v2) {
    error = api.library +
            " lacks nvmlInit_v2, nvmlDeviceGetCount_v2 or nvmlDeviceGetHandleByIndex_v2 (driver "
            "too old)";
    return false;
  }
  return true;
}

std::string error_text(const Api& api, Return rc) {
  if (api.nvmlErrorString)
    if (const char* text = api.nvmlErrorString(rc)) return text;
  return "NVML error " + std::to_string(rc);
}

}  // namespace weft::smi::nvml
