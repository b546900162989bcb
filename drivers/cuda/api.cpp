// SPDX-License-Identifier: MIT
// Loads libcuda.so.1 once and resolves the symbol table. Nothing is linked at
// build time: one weft build runs with or without an NVIDIA driver.
#include "api.hpp"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

namespace weft::cuda {
namespace {

#define WEFT_CUDA_STR_(x) #x
#define WEFT_CUDA_STR(x) WEFT_CUDA_STR_(x)

struct Loaded {
  Api table;
  bool ok = false;
  std::string error;
};

// Resolves `abi_name` (the versioned name cuda.h maps to), falling back to the
// unversioned `plain_name`: older drivers export only that, with the same signature.
void* resolve(void* library, const char* abi_name, const char* plain_name) {
  if (void* p = dlsym(library, abi_name)) return p;
  return dlsym(library, plain_name);
}

Loaded load() {
  Loaded out;
  // RTLD_LOCAL: libcuda's symbols stay out of the global namespace. Never closed:
  // CUDA keeps threads running until the process ends.
  void* library = dlopen(kLibraryName, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    out.error = std::string(kLibraryName) + " not found (" + (why ? why : "dlopen failed") +
                "): no NVIDIA driver is installed";
    return out;
  }
  std::string missing;
#define WEFT_CUDA_LOAD(name)                                                                    \
  out.table.name =                                                                              \
      reinterpret_cast<decltype(out.table.name)>(resolve(library, WEFT_CUDA_STR(name), #name)); \
  if (!out.table.name) missing += (missing.empty() ? "" : ", ") + std::string(WEFT_CUDA_STR(name));
#define WEFT_CUDA_LOAD_OPTIONAL(name) \
  out.table.name =                    \
      reinterpret_cast<decltype(out.table.name)>(resolve(library, WEFT_CUDA_STR(name), #name));
  WEFT_CUDA_SYMBOLS(WEFT_CUDA_LOAD, WEFT_CUDA_LOAD_OPTIONAL)
#undef WEFT_CUDA_LOAD
#undef WEFT_CUDA_LOAD_OPTIONAL
  if (!missing.empty()) {
    out.error = std::string(kLibraryName) + " is too old: it lacks " + missing;
    return out;
  }
  out.ok = true;
  return out;
}

std::atomic<const Api*> g_fake{nullptr};
std::atomic<bool> g_fake_set{false};

const Loaded& loaded() {
  // Leaked: libcuda outlives static destruction.
  static const Loaded* real = new Loaded(load());
  return *real;
}

}  // namespace

const Api* api() {
  if (g_fake_set.load(std::memory_order_acquire)) return g_fake.load(std::memory_order_acquire);
  const Loaded& l = loaded();
  return l.ok ? &l.table : nullptr;
}

const std::string& load_error() {
  static const std::string kFakeAbsent = "fake table: libcuda absent";
  static const std::string kNone;
  if (g_fake_set.load(std::memory_order_acquire))
    return g_fake.load(std::memory_order_acquire) ? kNone : kFakeAbsent;
  return loaded().error;
}

void set_api_for_testing(const Api* fake) {
  g_fake.store(fake, std::memory_order_release);
  g_fake_set.store(true, std::memory_order_release);
}

void reset_api_for_testing() { g_fake_set.store(false, std::memory_order_release); }

}  // namespace weft::cuda
