// SPDX-License-Identifier: MIT
// hipGetProcAddress and hipGetDriverEntryPoint (and their _spt forms): the
// address of one of this library's own exported functions, by name. The names
// come from the table tools/gen_exports.py writes into stubs.c from
// src/api/exports.txt, so every export — and nothing else — can be found.
//
// Versions: a symbol's HIP version is that of its symbol-version node (hip_5.1
// → 501), which is never later than the release that added it; a hipVersion
// below it gets HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT. Where a symbol has
// an R0600 form (hipGetDeviceProperties, hipChooseDevice…), hipVersion >= 600
// gets that one, as AMD's runtime does. Streams: the per-thread flag, or the
// default flag through the _spt entry point (what HIP_API_PER_THREAD_DEFAULT_STREAM
// builds call), picks a symbol's _spt form where there is one.
#include "api/api.hpp"

#include <climits>
#include <cstring>
#include <optional>
#include <string>

extern "C" {
struct WeftProcEntry {
  const char* name;
  void (*address)(void);
  int version;
};
__attribute__((visibility("hidden"))) extern const WeftProcEntry weft_proc_table[];
__attribute__((visibility("hidden"))) extern const size_t weft_proc_table_size;
}

namespace weft::api {
namespace {

const WeftProcEntry* find_entry(const std::string& name) {
  size_t lo = 0, hi = weft_proc_table_size;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int order = std::strcmp(weft_proc_table[mid].name, name.c_str());
    if (order == 0) return &weft_proc_table[mid];
    if (order < 0) lo = mid + 1;
    else hi = mid;
  }
  return nullptr;
}

enum class Lookup { kFound, kNotFound, kVersionTooLow };

struct Found {
  Lookup result = Lookup::kNotFound;
  const WeftProcEntry* entry = nullptr;
};

Found lookup(const char* symbol, int hip_version, bool per_thread) {
  std::string name = symbol;
  const WeftProcEntry* entry = nullptr;
  if (hip_version >= 600) entry = find_entry(name + "R0600");
  if (!entry) entry = find_entry(name);
  if (!entry) return Found{};
  if (per_thread)
    if (const WeftProcEntry* spt = find_entry(std::string(entry->name) + "_spt")) entry = spt;
  if (entry->version > hip_version) return Found{Lookup::kVersionTooLow, entry};
  return Found{Lookup::kFound, entry};
}

// Flags of both calls share values: 0 default, 1 legacy stream, 2 per-thread stream.
Result<bool> per_thread_of(uint64_t flags, bool spt_entry_point) {
  switch (flags) {
    case HIP_GET_PROC_ADDRESS_DEFAULT: return spt_entry_point;
    case HIP_GET_PROC_ADDRESS_LEGACY_STREAM: return false;
    case HIP_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM: return true;
    default:
      return invalid_value(
          fmt::format("unknown flags {:#x} (default, legacy stream or per-thread "
                      "stream only)",
                      flags));
  }
}

Status proc_address(const char* symbol, void** pfn, int hip_version, uint64_t flags,
                    hipDriverProcAddressQueryResult* status, bool spt_entry_point) {
  if (!pfn) return invalid_value("null output pointer");
  *pfn = nullptr;
  if (!symbol || !*symbol) return invalid_value("null or empty symbol name");
  if (hip_version < 0) return invalid_value(fmt::format("HIP version {} is negative", hip_version));
  WEFT_ASSIGN_OR_RETURN(bool per_thread, per_thread_of(flags, spt_entry_point));
  Found found = lookup(symbol, hip_version, per_thread);
  switch (found.result) {
    case Lookup::kNotFound:
      if (status) *status = HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
      return invalid_value(fmt::format("{} is not a function of this library", symbol));
    case Lookup::kVersionTooLow:
      if (status) *status = HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
      return invalid_value(fmt::format("{} needs HIP version {} or later, {} was asked for",
                                       found.entry->name, found.entry->version, hip_version));
    case Lookup::kFound: break;
  }
  *pfn = reinterpret_cast<void*>(found.entry->address);
  if (status) *status = HIP_GET_PROC_ADDRESS_SUCCESS;
  return Status();
}

Status driver_entry_point(const char* symbol, void** fn, unsigned long long flags,
                          hipDriverEntryPointQueryResult* status, bool spt_entry_point) {
  if (!fn) return invalid_value("null output pointer");
  *fn = nullptr;
  if (!symbol || !*symbol) return invalid_value("null or empty symbol name");
  WEFT_ASSIGN_OR_RETURN(bool per_thread, per_thread_of(flags, spt_entry_point));
  // No version is asked for: the newest form of the symbol.
  Found found = lookup(symbol, INT_MAX, per_thread);
  if (found.result != Lookup::kFound) {
    if (status) *status = hipDriverEntryPointSymbolNotFound;
    return invalid_value(fmt::format("{} is not a function of this library", symbol));
  }
  *fn = reinterpret_cast<void*>(found.entry->address);
  if (status) *status = hipDriverEntryPointSuccess;
  return Status();
}

}  // namespace
}  // namespace weft::api

using namespace weft;
using namespace weft::api;

WEFT_EXPORT hipError_t hipGetProcAddress(const char* symbol, void** pfn, int hipVersion,
                                         uint64_t flags,
                                         hipDriverProcAddressQueryResult* symbolStatus) {
  return call(
      "hipGetProcAddress",
      [&] { return proc_address(symbol, pfn, hipVersion, flags, symbolStatus, false); }, symbol,
      pfn, hipVersion, flags, symbolStatus);
}

WEFT_EXPORT hipError_t hipGetProcAddress_spt(const char* symbol, void** pfn, int hipVersion,
                                             uint64_t flags,
                                             hipDriverProcAddressQueryResult* symbolStatus) {
  return call(
      "hipGetProcAddress_spt",
      [&] { return proc_address(symbol, pfn, hipVersion, flags, symbolStatus, true); }, symbol, pfn,
      hipVersion, flags, symbolStatus);
}

WEFT_EXPORT hipError_t hipGetDriverEntryPoint(const char* symbol, void** funcPtr,
                                              unsigned long long flags,
                                              hipDriverEntryPointQueryResult* driverStatus) {
  return call(
      "hipGetDriverEntryPoint",
      [&] { return driver_entry_point(symbol, funcPtr, flags, driverStatus, false); }, symbol,
      funcPtr, flags, driverStatus);
}

WEFT_EXPORT hipError_t hipGetDriverEntryPoint_spt(const char* symbol, void** funcPtr,
                                                  unsigned long long flags,
                                                  hipDriverEntryPointQueryResult* status) {
  return call(
      "hipGetDriverEntryPoint_spt",
      [&] { return driver_entry_point(symbol, funcPtr, flags, status, true); }, symbol, funcPtr,
      flags, status);
}
