// SPDX-License-Identifier: MIT
// A vendor library's function table (libcuda, libhsa-runtime64, ...), opened with
// dlopen on first use and never closed, which tests may replace with a fake.
// Each driver supplies the loader; this class holds the one real table and the
// test override. Thread-safe to read; swap the fake only while no driver object
// is alive.
#pragma once

#include <dlfcn.h>

#include <atomic>
#include <string>

namespace weft {

// dlopen(RTLD_NOW | RTLD_LOCAL: the vendor's symbols stay out of the global
// namespace); null with `error` set when the library is absent. Never closed:
// vendor libraries keep threads running until the process ends.
inline void* open_vendor_library(const char* name, const char* absent_means, std::string& error) {
  void* library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    error =
        std::string(name) + " not found (" + (why ? why : "dlopen failed") + "): " + absent_means;
  }
  return library;
}

// Collects the names of required symbols the library lacks, for one error line.
inline void note_missing(std::string& missing, const char* symbol) {
  missing += (missing.empty() ? "" : ", ") + std::string(symbol);
}

template <typename Api>
struct LoadedLibrary {
  Api table{};
  bool ok = false;
  std::string error;  // why `table` is unusable, when !ok
};

// Stores one resolved symbol (`address`, from dlsym; null when absent) in its
// table slot; a required symbol that is absent is noted in `missing`.
template <typename Fn>
void bind_symbol(Fn& slot, void* address, const char* symbol, bool required, std::string& missing) {
  slot = reinterpret_cast<Fn>(address);
  if (!slot && required) note_missing(missing, symbol);
}

// What every driver's loader does around its symbol list: opens `name`, lets
// `resolve(library, table, missing)` fill the table (bind_symbol for each
// symbol), and refuses a library that lacks a required symbol, naming them all.
template <typename Api, typename Resolve>
LoadedLibrary<Api> load_vendor_library(const char* name, const char* absent_means,
                                       Resolve resolve) {
  LoadedLibrary<Api> out;
  void* library = open_vendor_library(name, absent_means, out.error);
  if (!library) return out;
  std::string missing;
  resolve(library, out.table, missing);
  if (!missing.empty()) {
    out.error = std::string(name) + " is too old: it lacks " + missing;
    return out;
  }
  out.ok = true;
  return out;
}

template <typename Api, LoadedLibrary<Api> (*Load)()>
class LibraryTable {
 public:
  // The real table (loaded on first call) or the installed fake; nullptr when
  // the library or a required symbol is missing (the reason in load_error()).
  static const Api* api() {
    if (fake_set_.load(std::memory_order_acquire)) return fake_.load(std::memory_order_acquire);
    const LoadedLibrary<Api>& l = loaded();
    return l.ok ? &l.table : nullptr;
  }

  static const std::string& load_error(const char* fake_absent_text) {
    if (fake_set_.load(std::memory_order_acquire)) {
      static const std::string kNone;
      static const std::string absent = fake_absent_text;
      return fake_.load(std::memory_order_acquire) ? kNone : absent;
    }
    return loaded().error;
  }

  // A fake table for tests (nullptr: the library is absent).
  static void set_for_testing(const Api* fake) {
    fake_.store(fake, std::memory_order_release);
    fake_set_.store(true, std::memory_order_release);
  }
  static void reset_for_testing() { fake_set_.store(false, std::memory_order_release); }
  static bool testing() { return fake_set_.load(std::memory_order_acquire); }

 private:
  static const LoadedLibrary<Api>& loaded() {
    // Leaked: vendor libraries keep threads running past static destruction.
    static const LoadedLibrary<Api>* real = new LoadedLibrary<Api>(Load());
    return *real;
  }
  static inline std::atomic<const Api*> fake_{nullptr};
  static inline std::atomic<bool> fake_set_{false};
};

}  // namespace weft
