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
  Loaded out;
  void* library = open_vendor_library(kLibraryName, "ROCm's runtime is not installed", out.error);
  if (!library) return out;
  std::string missing;
#define WEFT_HSA_LOAD(name)                                                    \
  out.table.name = reinterpret_cast<decltype(out.table.name)>(dlsym(library, #name)); \
  if (!out.table.name) note_missing(missing, #name);
#define WEFT_HSA_LOAD_OPTIONAL(name) \
  out.table.name = reinterpret_cast<decltype(out.table.name)>(dlsym(library, #name));
  WEFT_HSA_SYMBOLS(WEFT_HSA_LOAD, WEFT_HSA_LOAD_OPTIONAL)
#undef WEFT_HSA_LOAD
#undef WEFT_HSA_LOAD_OPTIONAL
  if (!missing.empty()) {
    out.error = std::string(kLibraryName) + " is too old: it lacks " + missing;
    return out;
  }
  out.ok = true;
  return out;
}

using Table = LibraryTable<Api, &load>;

}  // namespace

const Api* api() { return Table::api(); }
const std::string& load_error() { return Table::load_error("test double: libhsa-runtime64 absent"); }
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

}  // namespace weft::hsa
