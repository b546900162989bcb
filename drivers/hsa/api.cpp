// SPDX-License-Identifier: MIT
// Loads libhsa-runtime64.so.1 once and resolves the symbol table.
#include "api.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstdio>

namespace weft::hsa {
namespace {

struct Loaded {
  Api table;
  bool ok = false;
  std::string error;
};

Loaded load() {
  Loaded out;
  // RTLD_LOCAL keeps ROCr's symbols (and its LLVM copy) out of the global
  // namespace. Never closed: ROCr keeps helper threads until the process ends.
  void* library = dlopen(kLibraryName, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    out.error = std::string(kLibraryName) + " not found (" + (why ? why : "dlopen failed") +
                "): ROCm's runtime is not installed";
    return out;
  }
  std::string missing;
#define WEFT_HSA_LOAD(name)                                                    \
  out.table.name = reinterpret_cast<decltype(out.table.name)>(dlsym(library, #name)); \
  if (!out.table.name) missing += (missing.empty() ? "" : ", ") + std::string(#name);
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

std::atomic<const Api*> g_fake{nullptr};
std::atomic<bool> g_fake_set{false};

const Loaded& loaded() {
  // Leaked: ROCr outlives static destruction.
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
  static const std::string kFakeAbsent = "test double: libhsa-runtime64 absent";
  static const std::string kNone;
  if (g_fake_set.load(std::memory_order_acquire))
    return g_fake.load(std::memory_order_acquire) ? kNone : kFakeAbsent;
  return loaded().error;
}

void set_api_for_testing(const Api* fake) {
  g_fake.store(fake, std::memory_order_release);
  g_fake_set.store(true, std::memory_order_release);
}

bool testing_api_installed() { return g_fake_set.load(std::memory_order_acquire); }

void reset_api_for_testing() { g_fake_set.store(false, std::memory_order_release); }

std::string status_text(const Api& api, hsa_status_t status) {
  const char* text = nullptr;
  if (api.hsa_status_string && api.hsa_status_string(status, &text) == HSA_STATUS_SUCCESS && text)
    return text;
  char buf[32];
  snprintf(buf, sizeof(buf), "HSA status 0x%x", unsigned(status));
  return buf;
}

}  // namespace weft::hsa
