// SPDX-License-Identifier: MIT
// Loads libhsa-runtime64.so.1 once and resolves the symbol table.
#include "api.hpp"

#include <weft/driver/library_table.hpp>

#include <dlfcn.h>

#include <atomic>
#include <cstdio>

namespace weft::hsa {
namespace {

using Loaded = LoadedLibrary<Api>;

Loaded load() {
  return load_vendor_library<Api>(kLibraryName, "ROCm's runtime is not installed",
                                  [](void* library, Api& table, std::string& missing) {
#define WEFT_HSA_LOAD(name) bind_symbol(table.name, dlsym(library, #name), #name, true, missing);
#define WEFT_HSA_LOAD_OPTIONAL(name) \
  bind_symbol(table.name, dlsym(library, #name), #name, false, missing);
    WEFT_HSA_SYMBOLS(WEFT_HSA_LOAD, WEFT_HSA_LOAD_OPTIONAL)
#undef WEFT_HSA_LOAD
#undef WEFT_HSA_LOAD_OPTIONAL
  });
}

using Table = LibraryTable<Api, &load>;

}  // namespace

const Api* api() { return Table::api(); }
const std::string& load_error() {
  return Table::load_error("test double: libhsa-runtime64 absent");
}
void set_api_for_testing(const Api* fake) { Table::set_for_testing(fake); }
bool testing_api_installed() { return Table::testing(); }
void reset_api_for_testing() { Table::reset_for_testing(); }

std::string status_text(const Api& api, hsa_status_t status) {
  const char* text = nullptr;
  if (api.hsa_status_string && api.hsa_status_string(status, &text) == HSA_STATUS_SUCCESS && text)
    return text;
  char buf[32];
  snprintf(buf, sizeof(buf), "HSA status 0x%x", unsigned(status));
  return buf;
}

Status status_from_hsa(const Api& api, hsa_status_t status, hipError_t error, const char* call,
                       const std::string& context) {
  std::string message = std::string(call) + " failed: " + status_text(api, status);
  if (!context.empty()) message += " " + context;
  return Status(error, std::move(message));
}

}  // namespace weft::hsa
