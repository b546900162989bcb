// SPDX-License-Identifier: MIT
// Loads libcuda.so.1 once and resolves the symbol table. Nothing is linked at
// build time: one weft build runs with or without an NVIDIA driver.
#include "api.hpp"

#include <weft/driver/library_table.hpp>

#include <dlfcn.h>

#include <atomic>
#include <mutex>

namespace weft::cuda {
namespace {

#define WEFT_CUDA_STR_(x) #x
#define WEFT_CUDA_STR(x) WEFT_CUDA_STR_(x)

using Loaded = LoadedLibrary<Api>;

// Resolves `abi_name` (the versioned name cuda.h maps to), falling back to the
// unversioned `plain_name`: older drivers export only that, with the same signature.
void* resolve(void* library, const char* abi_name, const char* plain_name) {
  if (void* p = dlsym(library, abi_name)) return p;
  return dlsym(library, plain_name);
}

Loaded load() {
  return load_vendor_library<Api>(kLibraryName, "no NVIDIA driver is installed",
                                  [](void* library, Api& table, std::string& missing) {
#define WEFT_CUDA_BIND(name, required)                                                       \
  bind_symbol(table.name, resolve(library, WEFT_CUDA_STR(name), #name), WEFT_CUDA_STR(name), \
              required, missing);
#define WEFT_CUDA_LOAD(name) WEFT_CUDA_BIND(name, true)
#define WEFT_CUDA_LOAD_OPTIONAL(name) WEFT_CUDA_BIND(name, false)
    WEFT_CUDA_SYMBOLS(WEFT_CUDA_LOAD, WEFT_CUDA_LOAD_OPTIONAL)
#undef WEFT_CUDA_LOAD
#undef WEFT_CUDA_LOAD_OPTIONAL
#undef WEFT_CUDA_BIND
  });
}

using Table = LibraryTable<Api, &load>;

}  // namespace

const Api* api() { return Table::api(); }
const std::string& load_error() { return Table::load_error("fake table: libcuda absent"); }
void set_api_for_testing(const Api* fake) { Table::set_for_testing(fake); }
void reset_api_for_testing() { Table::reset_for_testing(); }

}  // namespace weft::cuda
